"""What a worker keeps of a table between actions is used only while no one else wrote the
table: two sites on one instance play as two workers (or machines) would, on every backend.
A stale copy would make the worker expect another seat (the game refuses it) or miss a
player who left."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from framework.game.globals import GLOBAL_MOVE
from framework.site import Site
from framework.testing import GameHarness, TestTable
from games.belote.game import Belote
from tests.backends import PlatformTemplate

pytestmark = pytest.mark.all_backends


@pytest.fixture
def two_sites(tmp_path: Path, database_url: str | None,
              platform_template: PlatformTemplate) -> Iterator[tuple[GameHarness, Site]]:
    platform_template.seed(tmp_path / "instance", database_url)
    with GameHarness("belote", tmp_path, database_url=database_url) as first:
        second = Site.open(tmp_path / "instance", database_url=database_url, migrate=False)
        try:
            yield first, second
        finally:
            second.close()


def legal_move(site: Site, table_id: int, rng: random.Random) -> tuple[int, str, dict[str, Any]]:
    with site.runtime.read(table_id) as table:
        assert isinstance(table, Belote)
        pid = table.get_active_player_id()
        if table.gamestate.state().name == "playerTurn":
            legal = table.arg_player_turn()["_private"]["active"]["legal_cards"]
            return pid, "play_card", {"card": rng.choice(legal)}
        bids = table.arg_player_bid()["legal_bids"]
        return pid, "bid", {"bid": "pass" if "pass" in bids and rng.random() < 0.5 else rng.choice(bids)}


def play(site: Site, t: TestTable, rng: random.Random) -> None:
    pid, action, args = legal_move(site, t.id, rng)
    site.runtime.act(t.id, pid, action, args)


def rebuilt_play(site: Site, table_id: int) -> tuple[Any, ...]:
    """The hand as its rows say (a fresh read builds it from the database)."""
    with site.runtime.read(table_id) as table:
        assert isinstance(table, Belote)
        if table.gamestate.state().name != "playerTurn":
            return (table.gamestate.state().name, len(table.bidding().history))
        state = table.play_state()
        return ("play", state.played, state.to_play, tuple(map(str, state.trick)))


def kept_play(site: Site, table_id: int) -> tuple[Any, ...] | None:
    kept = site.runtime.gatekeeper.kept.take(table_id)
    if kept is None:
        return None
    site.runtime.gatekeeper.kept.put(table_id, kept)
    play_state = kept.game.get("play")
    if play_state is None:
        return None
    return ("play", play_state.played, play_state.to_play, tuple(map(str, play_state.trick)))


def test_workers_take_turns_on_one_table_and_stay_right(two_sites: tuple[GameHarness, Site]) -> None:
    first, second = two_sites
    t = first.create_table(players=4, seed=11)
    rng = random.Random(5)
    sites = [first.site, second]
    for step in range(120):
        if t.is_over:
            break
        # mostly the same worker (its kept state is used), now and then the other one
        site = sites[1] if step % 5 == 4 else sites[0]
        play(site, t, rng)
        kept = kept_play(site, t.id)
        if kept is not None:
            assert kept == rebuilt_play(site, t.id)
    assert t.runtime.gatekeeper.kept.take(t.id) is not None or t.is_over, \
        "the first site kept the table between its actions"


def test_a_player_who_left_through_another_worker_is_played_by_a_zombie(
        two_sites: tuple[GameHarness, Site]) -> None:
    first, second = two_sites
    t = first.create_table(players=4, seed=12)
    rng = random.Random(6)
    for _ in range(3):
        play(first.site, t, rng)
    assert first.site.runtime.gatekeeper.kept.take(t.id) is not None
    play(first.site, t, rng)  # kept again
    with first.site.runtime.read(t.id) as table:
        order = list(table.load_players_basic_infos())
        active = table.get_active_player_id()
    leaver = next(pid for pid in order if pid != active)
    second.runtime.leave(t.id, leaver)
    for _ in range(8):  # the leaver's turn comes: a zombie plays it in the first worker's actions
        play(first.site, t, rng)
        with first.site.runtime.read(t.id) as table:
            assert table.load_players_basic_infos()[leaver]["player_zombie"] == 1
            if table.gamestate.is_game_over():
                break
            assert table.get_active_player_id() != leaver, "the zombie seat waits for a person"



def move_of(site: Site, table_id: int) -> int:
    with site.runtime.read(table_id) as table:
        return int(table.get_game_state_value(GLOBAL_MOVE) or 0)


@pytest.mark.parametrize("other_write", ["studio_change", "card"])
def test_a_stale_copy_the_hint_missed_is_caught_and_the_action_played_from_the_rows(
        two_sites: tuple[GameHarness, Site], monkeypatch: pytest.MonkeyPatch, other_write: str) -> None:
    """The connection's hint (``written_elsewhere``) can miss another worker's commit (on
    SQLite, one in the same clock tick). Told "no one wrote", the first worker starts from
    its stale copy: after a write that changed nothing the game sees (a studio change), the
    write of the globals finds the token changed; after another worker's card, the stale
    copy expects the wrong seat and the move is refused. Either way the action is rolled
    back and played again from the rows, once, and nothing goes in the error log."""
    first, second = two_sites
    t = first.create_table(players=4, seed=13)
    rng = random.Random(7)
    while rebuilt_play(first.site, t.id)[0] != "play":  # to the card play
        play(first.site, t, rng)
    play(first.site, t, rng)  # the first worker keeps the table
    kept = kept_play(first.site, t.id)
    assert kept is not None
    if other_write == "card":
        play(second, t, rng)  # the first worker's copy expects another seat now
        assert kept_play(first.site, t.id) == kept != rebuilt_play(first.site, t.id)
    else:
        second.runtime.apply_change(t.id, lambda table: None, "touch")  # a new write token only
        assert kept_play(first.site, t.id) == kept == rebuilt_play(first.site, t.id)

    store = first.site.runtime.store
    with store.connect(t.id, write=False) as db:
        monkeypatch.setattr(type(db), "written_elsewhere", lambda self: False)
    gatekeeper = first.site.runtime.gatekeeper
    attempts: list[bool] = []
    once = gatekeeper._act_once

    def counted(info: Any, kept_state: Any, *args: Any) -> Any:
        attempts.append(kept_state is not None)
        return once(info, kept_state, *args)

    monkeypatch.setattr(gatekeeper, "_act_once", counted)
    pid, _, args = legal_move(first.site, t.id, rng)  # a card the rows allow
    before = move_of(first.site, t.id)
    first.site.runtime.act(t.id, pid, "play_card", args)
    assert attempts == [True, False], "tried from the stale copy, then from the rows"
    assert move_of(first.site, t.id) == before + 1
    assert kept_play(first.site, t.id) == rebuilt_play(first.site, t.id)
    assert len(t.query("SELECT play_id FROM card_play WHERE play_card = %s", (args["card"],))) == 1
    assert gatekeeper.errors.errors(t.id) == []
