"""The layers of ``framework/`` hold: imports run downward only, never sideways, and no module
is part of an import cycle, counting the imports inside functions (a lazy load is fine, an
import hidden in a function to dodge a cycle is not) and the typing-only ones
(``if TYPE_CHECKING:``), which must run downward and make no cycle either: a helper that
annotates with a class importing it describes what it uses in a Protocol instead
(``framework.game.table_protocol``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Bottom to top. A module may import its own package's modules and anything of a lower layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("framework.core",),
    ("framework.i18n",),
    ("framework.storage",),
    ("framework.game", "framework.scaffold"),
    ("framework.platform",),
    ("framework.live",),
    ("framework.engine",),
    ("framework.releases",),
    ("framework.site",),
    ("framework.web", "framework.simulate", "framework.testing"),
    ("framework.cli",),
)


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported framework module
    line: int
    in_function: bool
    typing_only: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def framework_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / "framework").rglob("*.py"))
            if "template" not in p.relative_to(ROOT / "framework").parts}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, known: dict[str, Path]) -> Iterator[Import]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            candidates = [f"{base}.{alias.name}" for alias in node.names] + [base]
        found = []
        for candidate in candidates:
            # ``from framework.x import name``: the module framework.x (or framework.x.name)
            while candidate and candidate not in known:
                candidate = candidate.rpartition(".")[0]
            if candidate.startswith("framework") and candidate != "framework" and candidate != name:
                found.append(candidate)
        return sorted(set(found))

    def walk(node: ast.AST, in_function: bool, typing_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in resolve(child):
                    yield Import(name, target, child.lineno, in_function, typing_only)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(child, True, typing_only)
            elif isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.body:
                    yield from walk(ast.Module(body=[sub], type_ignores=[]), in_function, True)
                for sub in child.orelse:
                    yield from walk(ast.Module(body=[sub], type_ignores=[]), in_function, typing_only)
            else:
                yield from walk(child, in_function, typing_only)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False, False)


def layer_of(module: str) -> tuple[int, str]:
    """(layer index, the package prefix of the contract that holds ``module``)."""
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return index, prefix
    raise AssertionError(f"{module} is in no layer of the contract: add it to LAYERS")


def all_imports() -> list[Import]:
    known = framework_modules()
    return [imp for name, path in known.items() for imp in imports_of(name, path, known)]


def direction_problems(imports: list[Import]) -> list[str]:
    out = []
    for imp in imports:
        (src_layer, src_pkg), (dst_layer, dst_pkg) = layer_of(imp.source), layer_of(imp.target)
        if dst_layer > src_layer or (dst_layer == src_layer and dst_pkg != src_pkg):
            how = "up" if dst_layer > src_layer else "sideways"
            out.append(f"{imp.source}:{imp.line} imports {imp.target} ({how})")
    return out


def cycles(imports: list[Import]) -> list[list[str]]:
    graph: dict[str, set[str]] = {}
    for imp in imports:
        graph.setdefault(imp.source, set()).add(imp.target)
    # Tarjan's strongly connected components: any component of two or more is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_framework_module_is_in_a_layer() -> None:
    for name in framework_modules():
        if name != "framework":
            layer_of(name)


def test_imports_run_downward_only() -> None:
    problems = direction_problems(all_imports())
    assert problems == [], "imports against the layers:\n" + "\n".join(problems)


def test_no_import_cycle_among_framework_modules() -> None:
    found = cycles(all_imports())
    assert found == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_framework_never_imports_games_or_bench() -> None:
    out = []
    for name, path in framework_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            out += [f"{name}:{node.lineno} imports {t}" for t in targets
                    if t.split(".")[0] in ("games", "bench", "tests")]
    assert out == []


@pytest.mark.parametrize(("source", "target", "expected"), [
    ("framework.game.table", "framework.storage.base", []),
    ("framework.storage.base", "framework.game.table", ["up"]),
    ("framework.game.table", "framework.scaffold", ["sideways"]),
    ("framework.engine.runtime", "framework.engine.settle", []),
])
def test_the_direction_check_can_fail(source: str, target: str, expected: list[str]) -> None:
    problems = direction_problems([Import(source, target, 1, False, False)])
    assert [p.rsplit("(", 1)[1].rstrip(")") for p in problems] == expected


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function_or_typing_only() -> None:
    imports = [Import("framework.game.a", "framework.game.b", 1, False, False),
               Import("framework.game.b", "framework.game.a", 9, True, False)]
    assert cycles(imports) == [["framework.game.a", "framework.game.b"]]
    typing_only = [imports[0], Import("framework.game.b", "framework.game.a", 9, False, True)]
    assert cycles(typing_only) == [["framework.game.a", "framework.game.b"]]
    assert cycles(imports[:1]) == []


#: Past this many lines a module must be named, with the reason, in docs/architecture.md.
MODULE_LINES_MAX = 600


def test_every_module_over_600_lines_is_explained_in_the_architecture_doc() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    big = []
    for folder in ("framework", "games", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").count("\n")
            rel = path.relative_to(ROOT).as_posix()
            if lines > MODULE_LINES_MAX and f"`{rel}`" not in doc:
                big.append(f"{rel}: {lines} lines")
    assert big == [], "modules over 600 lines that docs/architecture.md does not explain:\n" + "\n".join(big)
