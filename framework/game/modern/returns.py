"""The next states a method of a state class names in its ``return`` statements, read from
its source when the game loads, so that a state that does not exist fails then."""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

#: A return whose value is only known when the code runs (a variable, a call...).
UNKNOWN = object()


@dataclass(frozen=True)
class Returned:
    """One ``return`` of a method: its value when it can be known (else ``UNKNOWN``), the
    source text and whether the name it uses resolves to nothing."""

    value: Any
    text: str
    unresolved: bool = False


def returned_values(method: Callable[..., Any]) -> list[Returned]:
    """What ``method`` returns, statement by statement (``return`` and ``return None``
    left out). Empty when the source cannot be read."""
    func = inspect.unwrap(method)
    try:
        source = textwrap.dedent(inspect.getsource(func))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return []
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    local = _local_names(node)
    scope = _scope(func)
    out: list[Returned] = []
    for expr in _returns(node):
        out.extend(_evaluate(expr, local, scope))
    return out


def _returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    """The values of the function's own ``return`` statements (not of nested functions)."""
    todo: list[ast.AST] = list(node.body)
    while todo:
        item = todo.pop()
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(item, ast.Return):
            if item.value is not None and not (
                isinstance(item.value, ast.Constant) and item.value.value is None
            ):
                yield item.value
            continue
        todo.extend(ast.iter_child_nodes(item))


def _local_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    for extra in (node.args.vararg, node.args.kwarg):
        if extra is not None:
            names.add(extra.arg)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
    return names


def _scope(func: Callable[..., Any]) -> dict[str, Any]:
    scope: dict[str, Any] = dict(vars(builtins))
    scope.update(getattr(func, "__globals__", {}))
    try:
        scope.update(inspect.getclosurevars(func).nonlocals)
    except (TypeError, ValueError):
        pass
    return scope


def _evaluate(expr: ast.expr, local: set[str], scope: dict[str, Any]) -> list[Returned]:
    text = ast.unparse(expr)
    if isinstance(expr, ast.IfExp):
        return _evaluate(expr.body, local, scope) + _evaluate(expr.orelse, local, scope)
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int | str) and not isinstance(
        expr.value, bool
    ):
        return [Returned(expr.value, text)]
    if isinstance(expr, ast.Name):
        if expr.id in local:
            return [Returned(UNKNOWN, text)]
        if expr.id not in scope:
            return [Returned(UNKNOWN, text, unresolved=True)]
        return [Returned(scope[expr.id], text)]
    if isinstance(expr, ast.Attribute):
        chain: list[str] = []
        node: ast.expr = expr
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id in local or node.id not in scope:
            return [Returned(UNKNOWN, text)]
        value = scope[node.id]
        for attr in reversed(chain):
            if not hasattr(value, attr) or attr.startswith("_"):
                return [Returned(UNKNOWN, text)]
            value = getattr(value, attr)
        return [Returned(value, text)]
    return [Returned(UNKNOWN, text)]
