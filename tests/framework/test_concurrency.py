"""Requests racing on one table: a double click applies once, players acting at the same
moment in a multiactive state all land, and the gamelog stays gap-free and ordered."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from framework.core.errors import StaleMoveError, UserError
from framework.engine.runtime import ActionResult
from framework.game.globals import GLOBAL_ACTED_BASE, NOT_ACTED, acted_global
from framework.testing import TestTable

pytestmark = pytest.mark.all_backends


def at_once(calls: list[Callable[[], ActionResult]]) -> list[ActionResult | BaseException]:
    """Run the calls in threads released together; each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    out: list[ActionResult | BaseException] = [RuntimeError("did not run")] * len(calls)

    def worker(i: int) -> None:
        barrier.wait(10)
        try:
            out[i] = calls[i]()
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            out[i] = exc

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def to_bonus(table: TestTable) -> int:
    a, b, c = table.players
    for pid, value in ((a, 5), (b, 4), (c, 4)):
        table.act(pid, "pick", number=value)
    assert table.state.name == "bonus" and table.active_player == a
    return a


def bonus_value(table: TestTable) -> int:
    with table.read() as t:
        return int(t.get_game_state_value("bonus_value"))


def test_a_double_click_applies_once(lab_table: TestTable) -> None:
    a = to_bonus(lab_table)
    runtime = lab_table.runtime
    move = lab_table.data(a)["move"]
    results = at_once([lambda: runtime.act(lab_table.id, a, "bump", {}, seen_move=move)] * 2)
    applied = [r for r in results if isinstance(r, ActionResult)]
    refused = [r for r in results if isinstance(r, StaleMoveError)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].http_status == 409 and refused[0].code == "stale_move"
    assert bonus_value(lab_table) == 1
    # the next click, from the view the answer gave, is a new move
    runtime.act(lab_table.id, a, "bump", {}, seen_move=applied[0].move)
    assert bonus_value(lab_table) == 2
    # a retry of a request that was applied (its answer lost) applies nothing
    before = lab_table.snapshot()
    with pytest.raises(StaleMoveError):
        runtime.act(lab_table.id, a, "bump", {}, seen_move=applied[0].move)
    assert lab_table.snapshot() == before
    with pytest.raises(UserError, match="Move 999 does not exist"):
        runtime.act(lab_table.id, a, "bump", {}, seen_move=999)
    # without a move number every request is a new action, as on BGA
    runtime.act(lab_table.id, a, "bump", {})
    assert bonus_value(lab_table) == 3


def test_the_seats_marks_go_with_the_actions_globals(lab_table: TestTable) -> None:
    """The move each seat last acted from is a ``global`` row, written with the action's
    others; a new table has one per seat, none acted from yet."""
    a = to_bonus(lab_table)
    move = lab_table.data(a)["move"]
    with lab_table.read() as t:
        seat = t.get_player_no_by_id(a)
        assert {t.get_game_state_value(acted_global(no)) for no in (1, 2, 3)} == {NOT_ACTED}
    lab_table.runtime.act(lab_table.id, a, "bump", {}, seen_move=move)
    with lab_table.read() as t:
        assert t.get_game_state_value(acted_global(seat)) == move
        assert t.meta(f"acted:{a}") is None


def test_a_table_that_kept_its_marks_in_meta_still_refuses_a_second_click(lab_table: TestTable) -> None:
    """A table played before the marks moved to ``global`` has them in ``arena_meta``
    (``acted:<player id>``): they still count until the seat's next action."""
    a = to_bonus(lab_table)
    runtime = lab_table.runtime
    move = lab_table.data(a)["move"]
    runtime.act(lab_table.id, a, "bump", {}, seen_move=move)
    with lab_table.with_table() as t:  # as an older release left it
        t.db_query("DELETE FROM global WHERE global_id >= %s", (GLOBAL_ACTED_BASE,))
        t.set_meta(f"acted:{a}", str(move))
    before = lab_table.snapshot()
    with pytest.raises(StaleMoveError):
        runtime.act(lab_table.id, a, "bump", {}, seen_move=move)
    assert lab_table.snapshot() == before and bonus_value(lab_table) == 1
    runtime.act(lab_table.id, a, "bump", {}, seen_move=move + 1)
    assert bonus_value(lab_table) == 2


def test_players_racing_in_a_multiactive_state_all_land(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    runtime = lab_table.runtime
    move = lab_table.data(None)["move"]

    def pick(pid: int, value: int) -> Callable[[], ActionResult]:
        return lambda: runtime.act(lab_table.id, pid, "pick", {"number": value}, seen_move=move)

    results = at_once([pick(a, 5), pick(b, 4), pick(c, 3)])
    assert all(isinstance(r, ActionResult) for r in results), results
    assert lab_table.state.name == "bonus" and lab_table.scores()[a][0] == 5
    reveal = [e for e in lab_table.notifications(None) if e["type"] == "reveal"]
    assert len(reveal) == 1 and sorted(reveal[0]["args"]["picks"].values()) == [3, 4, 5]


def test_gamelog_ids_are_gap_free_even_after_rollbacks(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    with pytest.raises(RuntimeError):
        with lab_table.with_table() as t:
            t.notify_all_players("lost", "never seen")
            raise RuntimeError("rolled back")
    lab_table.act(a, "shout", words=["hi"])
    with pytest.raises(UserError):
        lab_table.act(b, "crash")  # game code fails after writing: rolled back
    lab_table.act(b, "pick", number=2)
    public = [e["id"] for e in lab_table.notifications(None)]
    assert public == sorted(public)
    # every id from 1 up is someone's row: private rows fill the gaps between public ones
    everyone: list[Any] = sorted({e["id"] for p in (a, b, c) for e in lab_table.notifications(p)})
    assert everyone == list(range(1, everyone[-1] + 1)) and set(public) <= set(everyone)
    assert "lost" not in {e["type"] for e in lab_table.notifications(None)}


def test_an_undo_keeps_the_move_counter_going(lab: Any) -> None:
    """The undo is a move too: move numbers never go back, so a view from before the undo
    cannot act again after it, and the view after it can."""
    table = lab.create_table(players=2, options={"rounds": 1})
    a, b = table.players
    runtime = table.runtime
    table.act(a, "pick", number=5)
    table.act(b, "pick", number=1)
    before_bump = table.data(a)["move"]
    bumped = runtime.act(table.id, a, "bump", {}, seen_move=before_bump)
    undone = runtime.act(table.id, a, "undo", {}, seen_move=bumped.move)
    assert undone.move == bumped.move + 1 and table.data(a)["move"] == undone.move
    assert table.data(a)["gamestate"]["args"]["bonus"] == 0
    with pytest.raises(StaleMoveError):  # the double click of the first bump, arriving late
        runtime.act(table.id, a, "bump", {}, seen_move=before_bump)
    runtime.act(table.id, a, "bump", {}, seen_move=undone.move)
    assert table.data(a)["gamestate"]["args"]["bonus"] == 1
    moves = [e["move_id"] for e in table.notifications(None)]
    assert moves == sorted(moves)
