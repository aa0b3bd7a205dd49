"""``arena simulate`` plays apart: on a scratch site by default, marked simulated with
``--keep``; either way the lobby and player pages stay as they were. Its bots are checked,
its JSON is alone on stdout, and a game's ``simulation_ratios`` is reported."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from framework.cli import main
from framework.core.errors import UserError
from framework.game.registry import GameRegistry
from framework.game.states import State
from framework.platform.models import GameTableRecord, Player
from framework.simulate import simulate
from framework.site import Site
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.conftest import lab_variant
from tests.fixtures.labgame.game import LabGame

Arena = Callable[..., Result]


@pytest.fixture
def arena(tmp_path: Path) -> Arena:
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(main, ["--instance", str(tmp_path / "instance"), *args])

    return run


def visible(html: bytes) -> str:
    """A page's text as a reader sees it (no tags, no tokens)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode())).strip()


def pages(instance: Path) -> tuple[str, str]:
    """The lobby and player1's page, as a visitor of the site sees them."""
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(instance), "SECRET_KEY": "test"})
    site: Site = app.extensions["arena"]
    try:
        with Session(site.platform) as s:
            player1 = s.scalar(select(Player.id).where(Player.name == "player1"))
        client = app.test_client()
        return visible(client.get("/").data), visible(client.get(f"/player/{player1}").data)
    finally:
        site.close()


def simulated_tables(instance: Path) -> int:
    site = Site.open(instance, migrate=False)
    try:
        with Session(site.platform) as s:
            return int(s.scalar(select(func.count()).select_from(GameTableRecord)
                                .where(GameTableRecord.simulated.is_(True))) or 0)
    finally:
        site.close()


def test_simulate_leaves_the_lobby_and_player_pages_unchanged(arena: Arena, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    instance = tmp_path / "instance"
    # One real game, played by bots to the end at creation: the lobby and player1's page show it.
    made = arena("table", "create", "belote", "--seed", "5", *[f"--bot={seat}" for seat in range(4)])
    assert made.exit_code == 0, made.output
    lobby, player = pages(instance)
    assert "belote 1 games, " in player and "No finished game yet" not in player
    assert "See the end" in lobby

    apart = arena("simulate", "belote", "--games", "2", "--json")
    assert apart.exit_code == 0, apart.output
    assert json.loads(apart.stdout)["games"] == 2  # the JSON alone on stdout
    assert list(scratch.iterdir()) == []  # the scratch site is gone
    assert pages(instance) == (lobby, player)
    assert simulated_tables(instance) == 0

    kept = arena("simulate", "belote", "--games", "2", "--keep", "--json")
    assert kept.exit_code == 0, kept.output
    assert json.loads(kept.stdout)["games"] == 2
    assert simulated_tables(instance) == 2  # stored, and marked
    assert pages(instance) == (lobby, player)


def test_the_text_summary_goes_to_stdout_and_nothing_else(arena: Arena) -> None:
    result = arena("simulate", "belote", "--games", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "game: belote" and "games: 1" in lines
    assert all(": " in line for line in lines)


def test_unknown_bots_are_refused_with_the_games_bots(arena: Arena) -> None:
    kinds = [str(k) for k in GameRegistry().get("belote").table_class.BOT_KINDS]  # type: ignore[attr-defined]
    result = arena("simulate", "belote", "--bots", f"{kinds[0]},nosuchbot", "--games", "1")
    assert result.exit_code == 1
    assert "nosuchbot" in result.output and ", ".join(kinds) in result.output
    assert "Traceback" not in result.output and "win_rate" not in result.output


class BotLab(LabGame):
    """The lab game with bots that always pick the same number, and a simulation summary."""

    BOT_KINDS = ("high", "low")

    def bot_turn(self, state: State, active_player: int) -> None:
        if state.name == "pick":
            number = 5 if self.get_bot_kind(active_player) == "high" else 1
            self.db_query("INSERT INTO pick (pick_player, pick_value) VALUES (%s, %s)",
                          (active_player, number))
            self.gamestate.set_player_non_multiactive(active_player, "done")
        else:
            self.act_done()

    def simulation_summary(self) -> dict[str, int]:
        top = self.get_unique_value_from_db("SELECT MAX(player_score) FROM player")
        return {"rounds": int(self.get_game_state_value("round") or 0), "top_points": int(top or 0)}

    @classmethod
    def simulation_ratios(cls, totals: dict[str, int]) -> dict[str, float]:
        return {"points_per_round": totals["top_points"] / totals["rounds"]}


@pytest.fixture
def bot_site(tmp_path: Path, platform_template: PlatformTemplate) -> Any:
    registry = GameRegistry(packages={})
    registry.add_definition(lab_variant("botlab", BotLab))
    platform_template.seed(tmp_path / "instance", None)
    site = Site.open(tmp_path / "instance", registry=registry, migrate=False)
    yield site
    site.close()


def test_simulation_ratios_follow_the_summed_summary(bot_site: Site) -> None:
    result = simulate(bot_site, "botlab", 3, ["high", "low"], options={"rounds": 3, "bonus": 0})
    assert result["rounds"] == 9 and result["top_points"] == 45  # high's 5 wins each round
    assert result["points_per_round"] == pytest.approx(5.0)
    assert result["win_rate"] == [1.0, 0.0]
    with pytest.raises(UserError, match="botlab has no bot medium; its bots: high, low"):
        simulate(bot_site, "botlab", 1, ["medium"])
    assert simulate(bot_site, "botlab", 1, [])["bots"] == ["high"]  # none given: the first kind
