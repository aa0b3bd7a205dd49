"""Release checks cover state-class games as they cover classic ones: a state class's id is
a released state's id, and changing it is caught before a deploy; so are statistics, options,
counters and JSON globals (``self.globals`` keys) changed between releases."""

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


def _released(workspace: Workspace) -> str:
    """Release A in production with a table in progress."""
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    site.runtime.create_table(GAME, 2, seed=1, mode="production")
    return a


def test_a_state_class_game_records_its_counters_in_the_manifest(workspace: Workspace) -> None:
    workspace.edit("game.py", 'create_player_counter("turn_total")',
                   'create_player_counter("turn_total", -5, max=40)')
    workspace.commit("bounds")
    manifest = build(workspace.site, GAME, now=T0)
    assert manifest["counters"] == [
        {"name": "turn_number", "kind": "table", "min": 0, "max": None, "initial": 1, "attr": "turn_number"},
        {"name": "turn_total", "kind": "player", "min": -5, "max": 40, "initial": 0, "attr": "turn_totals"},
    ]


def test_state_class_counter_changes_are_caught(workspace: Workspace) -> None:
    site = workspace.site
    _released(workspace)
    workspace.edit("game.py", 'create_player_counter("turn_total")', 'create_player_counter("running_total")')
    workspace.edit("game.py", 'create_table_counter("turn_number", default_value=1)',
                   'create_table_counter("turn_number", default_value=1, max=500)')
    workspace.edit("game.py", "        self.notify.add_decorator(",
                   '        self.passes = self.counter_factory.create_player_counter("passes", max=3)\n'
                   "        self.notify.add_decorator(")
    workspace.commit("rename a counter, bound one, add one")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=11))["version"])
    breaking = [f.message for f in report.breaking if f.kind == "counter"]
    assert len(breaking) == 1 and "player counter turn_total was renamed to running_total" in breaking[0]
    warnings = [f.message for f in report.findings if f.kind == "counter" and f.severity == "warning"]
    assert any("table counter turn_number: max changed from None to 500" in w for w in warnings)
    new = [w for w in warnings if "new player counter passes" in w]
    assert new and "get(player_id) and get_all() raise 'used before init_db'" in new[0]
    assert not any("running_total" in w for w in warnings)  # reported as the rename
    # With a step in upgrade_table_db, the new counter is not a warning any more.
    workspace.append("game.py", "\n    def upgrade_table_db(self, from_version: int) -> None:\n"
                     "        self.passes.init_db(self.load_players_basic_infos())\n")
    workspace.commit("init the new counter in tables in progress")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=12))["version"])
    assert not [f for f in report.findings if "passes" in f.message]
    assert [f for f in report.breaking if "turn_total" in f.message]


def test_state_class_json_global_changes_are_caught(workspace: Workspace) -> None:
    site = workspace.site
    workspace.edit("game.py", "        value = card[\"type_arg\"]\n",
                   "        value = card[\"type_arg\"]\n        self.globals.set(\"last_value\", value)\n")
    workspace.commit("keep the last value")
    a = _released(workspace)
    workspace.edit("game.py", 'self.globals.set("last_value", value)', 'self.globals.set("last_drawn", value)')
    workspace.edit("game.py", '            "target": self.target(),\n',
                   '            "target": self.target(),\n            "streak": self.globals.get("streak", 0),\n')
    workspace.commit("rename a JSON global, read a new one")
    b = build(site, GAME, now=T0.replace(hour=11))
    assert b["json_globals"] == ["last_drawn", "streak"]
    report = check(site, GAME, b["version"])
    warnings = [f.message for f in report.findings if f.kind == "global" and f.severity == "warning"]
    assert any("JSON global last_value is no longer used" in w for w in warnings)
    streak = [w for w in warnings if "new JSON global streak" in w]
    assert streak and "(get_all_datas)" in streak[0] and "game.py:" in streak[0]
    assert not any("new JSON global last_drawn" in w for w in warnings)  # written, never read
    workspace.append("game.py", "\n    def upgrade_table_db(self, from_version: int) -> None:\n"
                     '        self.globals.set("streak", 0)\n')
    workspace.commit("a step for the new global")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=12))["version"])
    assert not [f for f in report.findings if "streak" in f.message]
    assert a != b["version"]


def test_state_class_statistic_changes_are_caught(workspace: Workspace) -> None:
    site = workspace.site
    _released(workspace)
    workspace.edit("stats.py", '"turns_number", clienttranslate("Number of turns"), "int"',
                   '"turns_number", clienttranslate("Number of turns"), "float"')
    workspace.edit("stats.py", "]\n", '    Stat(13, "passes", clienttranslate("Passes"), "int", "player"),\n]\n')
    workspace.commit("a statistic changes type, one is new")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=11))["version"])
    errors = [f.message for f in report.errors if f.kind == "statistic"]
    assert errors == ["table statistic 10 (turns_number) changed type from int to float"]
    assert any(f.message.startswith("new player statistic 13 (passes)") for f in report.findings)


def test_state_class_option_changes_are_caught(workspace: Workspace) -> None:
    site = workspace.site
    _released(workspace)
    workspace.edit("options.py", '            3: OptionValue(clienttranslate("100 points"), '
                   'clienttranslate("A long game")),\n', "")
    workspace.commit("the long game goes")
    report = check(site, GAME, build(site, GAME, now=T0.replace(hour=11))["version"])
    assert [f.message for f in report.errors if f.kind == "option"] == [
        "option 100 lost values [3]: tables created with them could not go on"]
