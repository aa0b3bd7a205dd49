"""What a release's code declares without running it: the counters it makes with
``counter_factory.create_player_counter("name", ...)`` / ``create_table_counter`` (or
``PlayerCounter(self, "name", ...)``) and the keys of ``globals`` it names as string literals.
Only literal names are known; a counter or key named by an expression is not tracked."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from framework.releases.globals_use import method_calls

FACTORY = {"create_player_counter": "player", "create_table_counter": "table"}
CLASSES = {"PlayerCounter": "player", "TableCounter": "table"}
#: Methods of a ``globals`` object whose first argument is a key.
GLOBAL_METHODS = frozenset({"get", "set", "inc", "has", "delete", "get_all"})
PARAMS = ("min", "max", "default_value")
DEFAULTS: dict[str, int | None] = {"min": 0, "max": None, "default_value": 0}
UNKNOWN = "?"  # a bound given by an expression


def _sources(package: Path) -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        if "tests" in rel.parts:
            continue
        try:
            out.append((rel.as_posix(), ast.parse(path.read_text(encoding="utf-8"))))
        except (SyntaxError, UnicodeDecodeError):
            continue
    return out


def _literal(node: ast.expr) -> Any:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return UNKNOWN
    return value if value is None or (isinstance(value, int) and not isinstance(value, bool)) else UNKNOWN


def _counter(call: ast.Call) -> tuple[str, list[ast.expr]] | None:
    """(kind, arguments after the table) of a counter-making call."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in FACTORY:
        return FACTORY[func.attr], list(call.args)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in CLASSES:
        return CLASSES[name], list(call.args[1:])
    return None


def declared_counters(package: Path) -> list[dict[str, Any]]:
    """Each counter with a literal name: name, kind (player/table), min, max, initial (its
    ``default_value``), attr (the attribute it is kept in, if any) and where it is made."""
    found: dict[str, dict[str, Any]] = {}
    for rel, tree in _sources(package):
        targets: dict[int, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        targets[id(node.value)] = target.attr
        for _, call in method_calls(tree):
            made = _counter(call)
            if made is None:
                continue
            kind, args = made
            name_node = args[0] if args else next((k.value for k in call.keywords if k.arg == "name"), None)
            if not (isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)):
                continue
            values: dict[str, Any] = dict(DEFAULTS)
            for param, arg in zip(PARAMS, args[1:], strict=False):
                values[param] = _literal(arg)
            for kw in call.keywords:
                if kw.arg in PARAMS:
                    values[kw.arg] = _literal(kw.value)
            found[name_node.value] = {
                "name": name_node.value, "kind": kind, "min": values["min"], "max": values["max"],
                "initial": values["default_value"], "attr": targets.get(id(call)),
                "where": f"{rel}:{call.lineno}"}
    return [found[n] for n in sorted(found)]


def global_keys(package: Path) -> list[str]:
    """The keys of ``globals`` (``self.globals.get("x")``, ``self.game.globals.set("x", ...)``)
    named by string literals anywhere in the package."""
    keys: set[str] = set()
    for _, tree in _sources(package):
        for _, call in method_calls(tree):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr in GLOBAL_METHODS
                    and isinstance(func.value, ast.Attribute) and func.value.attr == "globals"):
                continue
            keys.update(a.value for a in call.args
                        if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return sorted(keys)


def upgrade_inits(package: Path, counter: dict[str, Any]) -> bool:
    """Whether ``upgrade_table_db`` names the counter (its name as a literal, or
    ``self.<attr>.init_db(...)``)."""
    for _, tree in _sources(package):
        for func in ast.walk(tree):
            if not (isinstance(func, ast.FunctionDef) and func.name == "upgrade_table_db"):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Constant) and node.value == counter["name"]:
                    return True
                if (counter.get("attr") and isinstance(node, ast.Attribute) and node.attr == "init_db"
                        and isinstance(node.value, ast.Attribute) and node.value.attr == counter["attr"]):
                    return True
    return False
