"""One action = one transaction: checks in a fixed order, each refusal specific and harmless."""

from __future__ import annotations

import pytest

from framework.core.errors import GameCodeError, GameOverError, NotFoundError, NotYourTurnError, UserError
from framework.testing import GameHarness, TestTable

pytestmark = pytest.mark.all_backends  # SQLite always; PostgreSQL and MariaDB when configured


def pick_all(table: TestTable, values: dict[int, int]) -> None:
    for pid, value in values.items():
        table.act(pid, "pick", number=value)


def test_a_round_runs_through_game_states(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    assert lab_table.state.name == "pick"
    assert lab_table.active_players == [a, b, c]
    pick_all(lab_table, {a: 5, b: 4, c: 4})
    # st_reveal ran (a game state) and the winner now holds the bonus turn
    assert lab_table.state.name == "bonus"
    assert lab_table.active_player == a
    assert lab_table.scores()[a][0] == 5
    assert lab_table.stat("wins", a) == 1
    assert lab_table.stat("rounds") == 1
    assert lab_table.stat("average_pick") == pytest.approx(13 / 3)


def test_unknown_table(lab: GameHarness) -> None:
    with pytest.raises(NotFoundError, match="There is no table 999"):
        lab.site.runtime.act(999, 1, "pick", {"number": 1})
    with pytest.raises(NotFoundError, match="There is no table abc"):
        lab.site.runtime.act("abc", 1, "pick", {})  # type: ignore[arg-type]


def test_each_refusal_is_specific_and_changes_nothing(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    cases: list[tuple[int, str, dict[str, object], type[UserError], str]] = [
        (a, "fly", {}, NotFoundError, "Unknown action fly"),
        (a, "__init__", {}, NotFoundError, "Unknown action __init__"),
        (a, "bump", {}, UserError, "You cannot bump now: the game is waiting for pick"),
        (999, "pick", {"number": 2}, NotYourTurnError, "You are not playing at this table"),
        (a, "pick", {}, UserError, "Action pick needs the argument number"),
        (a, "pick", {"number": 2, "color": "red"}, UserError, "Action pick has no argument color"),
        (a, "pick", {"number": "two"}, UserError, "Argument number of pick must be a whole number"),
        (a, "pick", {"number": True}, UserError, "Argument number of pick must be a whole number"),
        (a, "pick", {"number": 2.5}, UserError, "must be a whole number"),
        (a, "pick", {"number": 9}, UserError, "Pick a number from 1 to 5, not 9"),
        (a, "shout", {"words": 5}, UserError, "Argument words of shout must be a list of a text"),
        (a, "shout", {"words": ["hi"], "volume": "loud"}, UserError, "must be a number"),
    ]
    for player, action, args, kind, message in cases:
        err = lab_table.act_expecting_error(player, action, **args)
        assert isinstance(err, kind), (action, err)
        assert message in str(err), (action, str(err))
    table_a = lab_table
    table_a.act(a, "pick", number=3)
    err = table_a.act_expecting_error(a, "pick", number=3)
    assert isinstance(err, NotYourTurnError) and "It is not your turn" in str(err)


def test_typed_arguments_are_converted(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    lab_table.act(a, "shout", words="hello,world", loud="true", volume="2")
    last = lab_table.notifications(None)[-1]
    assert last["type"] == "shout"
    assert last["log"] == "player1 shouts HELLO WORLD"
    assert last["args"]["volume"] == 2.0


def test_an_exception_in_game_code_rolls_back_and_is_logged(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    err = lab_table.act_expecting_error(a, "crash")
    assert isinstance(err, GameCodeError)
    assert "cancelled" in str(err)
    errors = lab_table.runtime.errors(lab_table.id)
    assert len(errors) == 1
    assert "ZeroDivisionError: the lab game crashes on purpose" in errors[0]["traceback"]
    assert errors[0]["action"] == "crash" and errors[0]["player_id"] == a
    assert lab_table.query("SELECT * FROM pick") == []


def test_actions_on_a_finished_game_are_refused(lab: GameHarness) -> None:
    table = lab.create_table(players=2, options={"rounds": 1, "bonus": 0})
    a, b = table.players
    pick_all(table, {a: 2, b: 1})
    assert table.is_over
    err = table.act_expecting_error(a, "pick", number=1)
    assert isinstance(err, GameOverError) and "This game is over" in str(err)
    ranking = table.ranking()
    assert [r["player_id"] for r in ranking] == [a, b]
    assert [r["rank"] for r in ranking] == [1, 2]


def test_a_finished_table_records_ranks_and_statistics(lab: GameHarness) -> None:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from framework.platform.models import GameTableRecord, StatRecord, TableSeat

    table = lab.create_table(players=2, options={"rounds": 1, "bonus": 0})
    a, b = table.players
    pick_all(table, {a: 1, b: 3})
    with Session(lab.site.platform) as s:
        rec = s.get(GameTableRecord, table.id)
        assert rec is not None and rec.status == "finished" and rec.finished_at is not None
        seats = {seat.player_id: seat for seat in s.scalars(select(TableSeat).where(TableSeat.table_id == table.id))}
        assert seats[b].rank == 1 and seats[a].rank == 2 and seats[b].score == 3
        stats = s.scalars(select(StatRecord).where(StatRecord.table_id == table.id)).all()
        by_key = {(st.scope, st.stat_id, st.player_id): st.value for st in stats}
        assert by_key[("player", 10, b)] == 1.0  # wins, keyed by the stat's stable id
        assert by_key[("table", 10, None)] == 1.0  # rounds


def test_ties_share_a_rank(lab: GameHarness) -> None:
    table = lab.create_table(players=2, options={"rounds": 1, "bonus": 0})
    a, b = table.players
    pick_all(table, {a: 2, b: 2})  # no unique pick: nobody scores
    assert [r["rank"] for r in table.ranking()] == [1, 1]


def test_creation_errors(lab: GameHarness) -> None:
    rt = lab.site.runtime
    with pytest.raises(NotFoundError, match="No game named chess; installed games: labgame"):
        rt.create_table("chess", 2)
    with pytest.raises(UserError, match="Lab Game is played by 2 to 4 players, not 5"):
        rt.create_table("labgame", 5)
    with pytest.raises(UserError, match="Option Rounds has no value 2"):
        rt.create_table("labgame", 2, {"rounds": 2})
    with pytest.raises(UserError, match="A player cannot take two seats"):
        rt.create_table("labgame", ["ann", "ann"])
    with pytest.raises(UserError, match="not bogus"):
        rt.create_table("labgame", 2, mode="bogus")
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from framework.platform.models import GameTableRecord

    with Session(lab.site.platform) as s:
        assert s.scalar(select(func.count()).select_from(GameTableRecord)) == 0
    assert list((lab.site.instance_path / "tables").glob("*.sqlite")) == []
