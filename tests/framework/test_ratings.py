"""Ratings per game: production tables played to the end move them as docs/ratings.md says
(pairs by rank, ties, partners, a player who left), once per table; studio and simulated
tables move nothing; the player page and the lobby show them."""

from __future__ import annotations

import doctest
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import framework.platform.ratings as ratings_module
from framework.core.kinds import TableMode
from framework.engine.runtime import Runtime, RuntimeHooks
from framework.game.registry import GameRegistry
from framework.platform.models import Rating, RatingChange
from framework.site import Site
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.conftest import lab_definition, lab_variant
from tests.fixtures.labgame.game import LabGame
from tests.web.conftest import fake_production

ONE_ROUND = {"rounds": 1, "bonus": 0}


class TeamLab(LabGame):
    """The lab game played in two teams: seats 1 and 3 against seats 2 and 4."""

    def rating_teams(self) -> list[list[int]]:
        order = list(self.load_players_basic_infos())
        return [order[0::2], order[1::2]]


@pytest.fixture
def app(tmp_path: Path, platform_template: PlatformTemplate) -> Iterator[Flask]:
    registry = GameRegistry(packages={})
    registry.add_definition(lab_definition())
    registry.add_definition(lab_variant("teamlab", TeamLab))
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"),
                      "ARENA_REGISTRY": registry, "SECRET_KEY": "test"})
    fake_production(app)  # production tables run the lab game's code as a release
    yield app
    app.extensions["arena"].close()


@pytest.fixture
def rt(app: Flask) -> Runtime:
    runtime: Runtime = app.extensions["arena"].runtime
    return runtime


def play(rt: Runtime, names: list[str], picks: dict[str, int], game: str = "labgame",
         mode: str = TableMode.PRODUCTION, leaves: tuple[str, ...] = (), simulated: bool = False) -> int:
    """One round of the lab game to its end: each name picks its number (highest unique
    pick scores it); ``leaves`` quit first (their zombie picks 1)."""
    tid = rt.create_table(game, names, options=ONE_ROUND, seed=1, mode=mode, simulated=simulated)
    ids = {p["name"]: int(p["id"]) for p in rt.get_data(tid, None)["players"].values()}
    for name in leaves:
        rt.leave(tid, ids[name])
    for name, number in picks.items():
        rt.act(tid, ids[name], "pick", {"number": number})
    assert rt.is_over(tid)
    return tid


def ratings(rt: Runtime, game: str = "labgame") -> dict[str, tuple[float, int]]:
    """name -> (rating, rated games)."""
    from framework.platform.models import Player

    with Session(rt.platform) as s:
        return {name: (rating, games) for name, rating, games in s.execute(
            select(Player.name, Rating.rating, Rating.games).join(Player, Player.id == Rating.player_id)
            .where(Rating.game == game))}


def rated(rt: Runtime, names: dict[str, float], game: str = "labgame") -> None:
    found = ratings(rt, game)
    assert {n: round(r, 2) for n, (r, _) in found.items()} == pytest.approx(names, abs=0.01)


def test_the_formula_module_doctests() -> None:
    result = doctest.testmod(ratings_module)
    assert result.attempted >= 8 and result.failed == 0


def test_two_players_move_as_the_formula_says_and_once_per_table(rt: Runtime) -> None:
    first = play(rt, ["ann", "bob"], {"ann": 5, "bob": 2})
    # New players: K 60, expected 0.5 each: the winner takes 30 from the loser.
    rated(rt, {"ann": 1530.0, "bob": 1470.0})
    play(rt, ["ann", "bob"], {"ann": 1, "bob": 4})
    # bob wins against a 60 point stronger ann: E = 1 / (1 + 10^(60/400)) = 0.41451.
    rated(rt, {"ann": 1494.87, "bob": 1505.13})
    assert {games for _, games in ratings(rt).values()} == {2}
    rt.records.record_finish(first)  # the end recorded again: nothing moves
    rated(rt, {"ann": 1494.87, "bob": 1505.13})
    with Session(rt.platform) as s:
        assert s.scalar(select(func.count()).select_from(RatingChange)) == 4
        history = s.scalars(select(RatingChange).where(RatingChange.table_id == first)
                            .order_by(RatingChange.player_id)).all()
    assert [(c.before, c.after) for c in history] == [(1500.0, 1530.0), (1500.0, 1470.0)]


def test_three_players_compared_pair_by_pair_with_a_tie(rt: Runtime) -> None:
    play(rt, ["ann", "bob", "cat"], {"ann": 5, "bob": 3, "cat": 3})
    # ranks 1, 2, 2; three sides: each pair weighs 3 / (3 + 1) of K = 45.
    # ann beats both: 45 * (0.5 + 0.5); bob and cat lose to ann, tie each other: 45 * -0.5.
    rated(rt, {"ann": 1545.0, "bob": 1477.5, "cat": 1477.5})


def test_a_player_who_left_is_last_and_pays_the_penalty(rt: Runtime) -> None:
    play(rt, ["ann", "bob", "cat"], {"ann": 5, "cat": 3}, leaves=("bob",))
    # Scores: ann 5, bob 0, cat 0; bob left, so he is behind cat, not tied with her.
    # ann +45; cat -22.5 against ann, +22.5 against bob; bob -45 - 10.
    rated(rt, {"ann": 1545.0, "bob": 1445.0, "cat": 1500.0})


def test_partners_share_their_teams_result(rt: Runtime) -> None:
    play(rt, ["ann", "bob", "cat", "dan"], {"ann": 5, "bob": 4, "cat": 4, "dan": 1}, game="teamlab")
    # Only ann scores; her partner cat shares the win; bob and dan lose as a team: two sides,
    # both at 1500 on average, K 60.
    rated(rt, {"ann": 1530.0, "cat": 1530.0, "bob": 1470.0, "dan": 1470.0}, game="teamlab")
    assert ratings(rt, "labgame") == {}  # a rating is per game


def test_studio_and_simulated_tables_change_nothing(rt: Runtime) -> None:
    play(rt, ["player1", "player2"], {"player1": 5, "player2": 2}, mode=TableMode.STUDIO)
    play(rt, ["ann", "bob"], {"ann": 5, "bob": 2}, simulated=True)
    assert ratings(rt) == {}
    with Session(rt.platform) as s:
        assert s.scalar(select(func.count()).select_from(RatingChange)) == 0


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_player_page_and_lobby_show_ratings(app: Flask, rt: Runtime) -> None:
    first = play(rt, ["ann", "bob"], {"ann": 5, "bob": 2})
    play(rt, ["ann", "bob"], {"ann": 1, "bob": 4})
    play(rt, ["ann", "bob"], {"ann": 5, "bob": 2}, simulated=True)
    ids: dict[str, Any] = {p["name"]: p["id"] for p in rt.get_data(first, None)["players"].values()}
    client = app.test_client()
    page = client.get(f"/player/{ids['bob']}")
    assert page.status_code == 200
    text = _text(page.data)
    assert "labgame 2 games, 1 won" in text  # the simulated table is not counted
    assert "Rating 1505 (2 rated games)" in text
    assert "1470 1505 +35.1" in text and "1500 1470 -30.0" in text
    assert page.data.count(b'class="chart"') >= 1
    lobby = _text(client.get("/").data)
    assert "Best rated: bob 1505 , ann 1495" in lobby


@pytest.mark.all_backends
def test_ratings_on_every_backend(site: Site) -> None:
    registry = site.registry
    hooks = RuntimeHooks(game_loader=lambda info: registry.get(info.game),
                         production_release=lambda game: ("261129-1200", registry.get(game)))
    runtime = Runtime(site.platform, site.store, registry, hooks=hooks, streams=site.streams)
    first = play(runtime, ["ann", "bob", "cat"], {"ann": 5, "bob": 3, "cat": 3})
    play(runtime, ["ann", "bob"], {"ann": 2, "bob": 4})
    runtime.records.record_finish(first)
    # ann +45 then, against bob at 1477.5: E = 1 / (1 + 10^(-67.5/400)) = 0.59594, K 60: -35.76
    rated(runtime, {"ann": 1509.24, "bob": 1513.26, "cat": 1477.5})
