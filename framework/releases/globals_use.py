"""Where a release's code reads a global and whether its ``upgrade_table_db`` sets it: a
new global that tables in progress only get the default of is a trap for the code that
reads it (it sees the default for the part of the game already played)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

#: Table methods that read a global's value by label.
READERS = frozenset({"get_game_state_value", "inc_game_state_value"})
#: Methods of a ``globals`` object (``self.globals.get("x")``) that read it.
OBJECT_READERS = frozenset({"get", "inc"})
NOT_READING = frozenset({"upgrade_table_db", "setup_new_game"})


@dataclass(frozen=True)
class GlobalUse:
    label: str
    readers: list[str]  # "game.py:57 (st_next_player)"
    set_by_upgrade: bool  # upgrade_table_db names it


def global_use(package: Path, label: str) -> GlobalUse:
    """How the game package at ``package`` uses the global ``label`` (its tests excluded)."""
    readers: list[str] = []
    in_upgrade = False
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        if "tests" in rel.parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for func, node in method_calls(tree):
            if not _reads(node, label):
                continue
            if func not in NOT_READING:
                readers.append(f"{rel.as_posix()}:{node.lineno} ({func or 'module'})")
        for func_node in ast.walk(tree):
            if isinstance(func_node, ast.FunctionDef) and func_node.name == "upgrade_table_db":
                in_upgrade = in_upgrade or any(
                    isinstance(n, ast.Constant) and n.value == label for n in ast.walk(func_node))
    return GlobalUse(label, readers, in_upgrade)


def method_calls(tree: ast.AST) -> list[tuple[str | None, ast.Call]]:
    """Every call with the name of the function it is in (None: module level)."""
    out: list[tuple[str | None, ast.Call]] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call):
                out.append((func, child))
            visit(child, func)

    visit(tree, None)
    return out


def _reads(call: ast.Call, label: str) -> bool:
    if not (call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value == label):
        return False
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in READERS:
        return True
    owner = func.value
    return func.attr in OBJECT_READERS and isinstance(owner, ast.Attribute) and owner.attr == "globals"
