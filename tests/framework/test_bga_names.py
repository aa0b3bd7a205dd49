"""BGA's current names and where Arena has them: every ``bga_names/*.tsv`` line is ``BGA
name<TAB>Arena dotted path<TAB>source``; each path must import and be callable or an
attribute, and at least 95 % of BGA's names must be there, per file and overall. A name Arena
deliberately lacks is listed with the path ``-`` and counts as missing."""

from __future__ import annotations

import importlib
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

LISTS = Path(__file__).resolve().parent / "bga_names"
MINIMUM = 0.95


@dataclass(frozen=True)
class Name:
    file: str
    line: int
    bga: str
    arena: str
    source: str


def read_lists() -> list[Name]:
    names: list[Name] = []
    for path in sorted(LISTS.glob("*.tsv")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.strip() or text.startswith("#"):
                continue
            parts = text.split("\t")
            assert len(parts) == 3 and all(p.strip() for p in parts), (
                f"{path.name}:{number}: expected 'BGA name<TAB>Arena path<TAB>source', got {text!r}")
            names.append(Name(path.name, number, *(p.strip() for p in parts)))
    return names


def _annotated(owner: Any, attr: str) -> bool:
    """``attr`` is declared on the class (an instance attribute set in ``__init__``)."""
    if not isinstance(owner, type):
        return False
    try:
        hints = typing.get_type_hints(owner)
    except Exception:  # a hint that does not resolve still names the attribute
        hints = {k: v for cls in owner.__mro__ for k, v in getattr(cls, "__annotations__", {}).items()}
    return attr in hints


def resolve(path: str) -> tuple[bool, str]:
    """Whether ``path`` (``package.module.Class.member``) exists, and why not."""
    parts = path.split(".")
    module = None
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        rest = parts[cut:]
        break
    if module is None:
        return False, "no module of it imports"
    target: Any = module
    for i, attr in enumerate(rest):
        if hasattr(target, attr):
            target = getattr(target, attr)
        elif i == len(rest) - 1 and _annotated(target, attr):
            return True, "an attribute"
        else:
            return False, f"{'.'.join(parts[:cut + i])} has no {attr!r}"
    if isinstance(target, property) or callable(target) or not isinstance(target, type(module)):
        return True, "callable" if callable(target) else "an attribute"
    return False, "a module, not a member"


def coverage(names: list[Name]) -> tuple[float, list[str]]:
    missing = [f"{n.file}:{n.line} {n.bga} ({n.arena})" for n in names
               if n.arena == "-" or not resolve(n.arena)[0]]
    return (1 - len(missing) / len(names)) if names else 0.0, missing


NAMES = read_lists()


def test_the_lists_are_there() -> None:
    files = {n.file for n in NAMES}
    assert {"classic_table.tsv", "classic_gamestate.tsv", "classic_deck.tsv"} <= files
    for file in files:
        bga = [n.bga for n in NAMES if n.file == file]
        assert len(bga) == len(set(bga)), f"{file} lists a BGA name twice"


@pytest.mark.parametrize("name", [n for n in NAMES if n.arena != "-"],
                         ids=lambda n: f"{n.file}:{n.bga}")
def test_each_listed_arena_name_exists(name: Name) -> None:
    ok, why = resolve(name.arena)
    assert ok, f"{name.file}:{name.line}: BGA's {name.bga} -> {name.arena}: {why}"


@pytest.mark.parametrize("file", sorted({n.file for n in NAMES}))
def test_coverage_per_list(file: str) -> None:
    ratio, missing = coverage([n for n in NAMES if n.file == file])
    assert ratio >= MINIMUM, f"{file}: {ratio:.1%} of BGA's names; missing: {missing}"


def test_coverage_overall() -> None:
    ratio, missing = coverage(NAMES)
    assert ratio >= MINIMUM, f"{ratio:.1%} of BGA's names; missing: {missing}"


def test_a_missing_name_counts_against_coverage() -> None:
    fake = [Name("x.tsv", 1, "a", "framework.game.table.Table.get_player_count", "s"),
            Name("x.tsv", 2, "b", "-", "s"),
            Name("x.tsv", 3, "c", "framework.game.table.Table.no_such_method", "s")]
    ratio, missing = coverage(fake)
    assert ratio == pytest.approx(1 / 3) and len(missing) == 2
    assert resolve("framework.game.deck.Deck.autoreshuffle_custom") == (True, "an attribute")
    assert not resolve("framework.no_such_module.X")[0]
