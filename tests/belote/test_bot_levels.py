"""Bot levels at a table: expert (the default), beginner and random per seat, older kind
names still played, decisions replayed from the seed, contract counts for ``arena simulate``,
and the duplicate command."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from framework.game.registry import GameRegistry
from framework.testing import GameHarness
from framework.web import create_app
from games.belote.bots import level_of
from games.belote.cli import cli, format_duplicate
from games.belote.game import Belote
from tests.backends import PlatformTemplate

SHORT = {"target": 10}


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


def test_levels_are_offered_strongest_first_with_labels() -> None:
    assert Belote.BOT_KINDS[0] == "expert"
    assert set(Belote.BOT_KINDS) == {"expert", "beginner", "random"}
    assert set(Belote.BOT_LABELS) == set(Belote.BOT_KINDS)


def test_older_kind_names_still_play() -> None:
    assert level_of("heuristic") == "beginner"
    assert level_of("search") == "expert"
    assert level_of("default") == level_of(None) == "expert"


def test_a_table_of_mixed_levels_and_old_names_plays_to_the_end(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=5, options=SHORT,
                             bots={0: "expert", 1: "heuristic", 2: "beginner", 3: "random"})  # type: ignore[arg-type]
    assert t.is_over
    with t.read() as table:
        summary = table.simulation_summary()
    assert summary["contracts"] == summary["hands"] >= 1
    assert 0 <= summary["contracts_160_failed"] <= summary["contracts_160"] <= summary["contracts"]


def test_bot_tables_replay_identically(harness: GameHarness) -> None:
    bots = {seat: "expert" for seat in range(4)}
    first = harness.create_table(players=4, seed="same", options=SHORT, bots=bots)  # type: ignore[arg-type]
    second = harness.create_table(players=4, seed="same", options=SHORT, bots=bots)  # type: ignore[arg-type]
    with first.read() as one, second.read() as two:
        assert one.hand_records() == two.hand_records()


def test_simulation_ratios() -> None:
    totals = {"contracts": 40, "contracts_failed": 10, "contracts_160": 4, "contracts_160_failed": 1}
    assert Belote.simulation_ratios(totals) == {
        "share_160": 0.1, "failure_rate_160": 0.25, "failure_rate": 0.25}
    assert Belote.simulation_ratios({}) == {"share_160": 0.0, "failure_rate_160": 0.0,
                                            "failure_rate": 0.0}


def test_duplicate_command_reports_a_mean_and_an_interval() -> None:
    result = CliRunner().invoke(cli, ["duplicate", "--a", "search", "--b", "heuristic", "--deals", "2",
                                      "--variant", "contree", "--seed", "3", "--samples", "4",
                                      "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["a"] == "expert" and report["b"] == "beginner" and report["deals"] == 2
    low, high = report["ci95"]
    assert low <= report["mean_difference"] <= high
    text = format_duplicate({**report, "games": 1, "a_wins": 1, "a_win_rate": 1.0})
    assert "95 % interval" in text[1] and "won 1 of 1" in text[-1]


def test_duplicate_is_symmetric_between_equal_bots() -> None:
    result = CliRunner().invoke(cli, ["duplicate", "--a", "beginner", "--b", "beginner",
                                      "--deals", "5", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["mean_difference"] == 0


def test_duplicate_refuses_an_unknown_level() -> None:
    result = CliRunner().invoke(cli, ["duplicate", "--a", "grandmaster"])
    assert result.exit_code == 2 and "grandmaster" in result.output


@pytest.fixture
def lobby(tmp_path: Path, platform_template: PlatformTemplate) -> Iterator[FlaskClient]:
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"),
                      "ARENA_REGISTRY": GameRegistry(packages={"belote": "games.belote"}),
                      "SECRET_KEY": "test"})
    yield app.test_client()
    app.extensions["arena"].close()


LABELS = {"en": ["Expert", "Beginner", "Random moves"],
          "fr": ["Expert", "Débutant", "Coups au hasard"],
          "it": ["Esperto", "Principiante", "Mosse a caso"],
          "hu": ["Haladó", "Kezdő", "Véletlen lépések"]}


def test_the_lobby_offers_the_levels_by_their_translated_names(lobby: FlaskClient) -> None:
    for language, labels in LABELS.items():
        page = lobby.get("/", headers={"Accept-Language": language}).data.decode()
        for kind, label in zip(("expert", "beginner", "random"), labels, strict=True):
            assert re.search(rf'<option value="{kind}">[^<]*: {label}</option>', page), (language, kind)
