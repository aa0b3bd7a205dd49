"""Release checks cover state-class games as they cover classic ones: a state class's id is
a released state's id, and changing it is caught before a deploy."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.releases.builds import build
from framework.releases.check import check
from framework.releases.deploy import deploy
from framework.scaffold import ScaffoldStyle, new_game
from framework.site import Site
from tests.backends import PlatformTemplate
from tests.releases.conftest import Workspace, git

GAME = "relstates"
T0 = datetime(2026, 11, 30, 10, 0)


@pytest.fixture(scope="session")
def states_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("scaffolded_states") / "repo"
    (repo / "games").mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.invalid")
    git(repo, "config", "user.name", "Dev")
    new_game(GAME, repo / "games", ScaffoldStyle.STATES)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a new game in state classes")
    return repo


@pytest.fixture
def workspace(tmp_path: Path, database_url: str | None, platform_template: PlatformTemplate,
              states_repo: Path) -> Iterator[Workspace]:
    repo = tmp_path / "repo"
    shutil.copytree(states_repo, repo, symlinks=True)
    folder = repo / "games" / GAME
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(folder, f"arena_wss_{tmp_path.name}"))
    platform_template.seed(tmp_path / "instance", database_url)
    site = Site.open(tmp_path / "instance", database_url=database_url, registry=registry, migrate=False)
    yield Workspace(repo, folder, site)
    site.close()


def test_a_state_class_id_change_is_breaking(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    site.runtime.create_table(GAME, 2, seed=1, mode="production")
    workspace.edit("states/player_turn.py", "game, id=2, type=StateType.ACTIVE_PLAYER",
                   "game, id=5, type=StateType.ACTIVE_PLAYER")
    workspace.edit("stats.py", 'Stat(12, "best_bank"', 'Stat(15, "best_bank"')
    workspace.commit("renumber a state class and a statistic")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    report = check(site, GAME, b)
    text = "\n".join(f.message for f in report.errors)
    assert "state 2 (playerTurn) was removed (renumbered to 5)" in text
    assert "tables in progress sit in states the candidate lacks" in text
    assert "player statistic 12 (best_bank) was renumbered to 15" in text


def test_an_unchanged_state_class_game_checks_clean(workspace: Workspace) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    site.runtime.create_table(GAME, 2, seed=1, mode="production")
    workspace.edit("states/next_player.py", '"""Between two turns', '"""Between turns')
    workspace.commit("a docstring")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=12))["version"])
    assert not [f for f in report.findings if f.kind == "state"]
