"""Shared fixtures: a private Arena site in a temporary folder; no test touches ./instance."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.registry import GameDefinition, GameRegistry, load_game_from_directory
from framework.site import Site
from framework.testing import GameHarness, TestTable

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def lab_definition() -> GameDefinition:
    return load_game_from_directory(FIXTURES / "labgame", "arena_test_labgame")


@pytest.fixture
def registry() -> GameRegistry:
    reg = GameRegistry(packages={})
    reg.add_definition(lab_definition())
    return reg


@pytest.fixture
def site(tmp_path: Path, registry: GameRegistry) -> Iterator[Site]:
    s = Site.open(tmp_path / "instance", registry=registry)
    yield s
    s.close()


@pytest.fixture
def lab(tmp_path: Path, registry: GameRegistry) -> Iterator[GameHarness]:
    with GameHarness("labgame", tmp_path, registry=registry) as h:
        yield h


@pytest.fixture
def lab_table(lab: GameHarness) -> TestTable:
    return lab.create_table(players=3, seed=42)
