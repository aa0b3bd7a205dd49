"""The Table API as a game sees it, exercised through the lab game and the harness."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from framework.core.errors import GameSystemError, UserError
from framework.testing import GameHarness, TestTable

pytestmark = pytest.mark.all_backends  # SQLite always; PostgreSQL and MariaDB when configured


def test_hidden_information_never_leaks(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    lab_table.act(a, "pick", number=4)
    assert lab_table.data(a)["my_pick"] == 4
    assert lab_table.data(b)["my_pick"] is None
    assert lab_table.data(None)["my_pick"] is None
    # a's private notification reaches a only
    for viewer in (b, c, None):
        events = lab_table.notifications(viewer)
        assert all(e["type"] != "myPick" for e in events)
        assert "picked 4" not in str(events)
    mine = [e for e in lab_table.notifications(a) if e["type"] == "myPick"]
    assert [e["log"] for e in mine] == ["You picked 4"]
    # private state args: each player sees only their own hint
    assert lab_table.data(a)["gamestate"]["args"]["_private"] == {"hint": a % 5 + 1}
    assert "_private" not in lab_table.data(None)["gamestate"]["args"]
    private_rows = [e for e in lab_table.notifications(b) if e["type"] == "gameStateChangePrivateArg"]
    assert private_rows and all(e["args"]["args"] == {"hint": b % 5 + 1} for e in private_rows)


def test_gamedatas_has_the_framework_keys(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    data = lab_table.data(a)
    assert set(data["players"]) == {str(p) for p in lab_table.players}
    assert data["playerorder"] == lab_table.players
    assert data["gamestate"]["name"] == "pick"
    assert data["gamestate"]["descriptionmyturn"] == "You must pick a number"
    assert data["gamestates"]["2"]["possibleactions"] == ["pick", "crash", "shout"]
    last = data["notifications"]["last_packet_id"]
    assert last >= lab_table.notifications(a)[-1]["id"]
    assert lab_table.notifications(a, after=last) == []
    assert data["current_player_id"] == a
    assert data["players"][str(a)]["score"] == 0


def test_notifications_are_ordered_and_resumable(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    lab_table.act(a, "pick", number=1)
    first = lab_table.notifications(c)
    lab_table.act(b, "pick", number=2)
    later = lab_table.notifications(c, after=first[-1]["id"])
    ids = [e["id"] for e in first + later]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert any(e["log"] == "player2 has picked" for e in later)
    assert all(e["id"] > first[-1]["id"] for e in later)


def test_sql_helpers_follow_bga_semantics(lab_table: TestTable) -> None:
    players = lab_table.players
    with lab_table.with_table() as t:
        assert t.get_unique_value_from_db("SELECT pick_value FROM pick WHERE pick_player = 0") is None
        assert t.get_object_from_db("SELECT * FROM pick") is None
        for pid in players:
            t.db_query("INSERT INTO pick (pick_player, pick_value) VALUES (%s, %s)", (pid, 2))
        with pytest.raises(GameSystemError, match="3 rows"):
            t.get_object_from_db("SELECT * FROM pick")
        with pytest.raises(GameSystemError, match="3 rows"):
            t.get_unique_value_from_db("SELECT pick_value FROM pick")
        # BGA silently overwrites duplicate keys; Arena refuses
        with pytest.raises(GameSystemError, match="key 2 appears twice"):
            t.get_collection_from_db("SELECT pick_value, pick_player FROM pick")
        coll = t.get_collection_from_db("SELECT pick_player, pick_value FROM pick", single=True)
        assert coll == {pid: 2 for pid in players}
        assert t.get_object_list_from_db("SELECT pick_player FROM pick ORDER BY pick_player",
                                         single_column=True) == sorted(players)
        res = t.db_query("UPDATE pick SET pick_value = 3")
        assert t.db_affected_row(res) == 3
        t.db_query("DELETE FROM pick")


def test_game_sql_keeps_the_request_caches_true(lab_table: TestTable) -> None:
    """The request caches the player and global rows; a game's own statement that changes
    what they hold is seen at once, one that does not (scores, the log) keeps them."""
    a, b = lab_table.players[:2]
    with lab_table.with_table() as t:
        assert not t.is_zombie(a)
        t.db_query("UPDATE player SET player_score = player_score + 5 WHERE player_id = %s", (a,))
        t.db_query("INSERT INTO pick (pick_player, pick_value) VALUES (%s, %s)", (a, 1))
        assert t._players is not None  # neither statement touched a cached column
        t.db_query("UPDATE player SET player_zombie = 1 WHERE player_id = %s", (a,))
        assert t.is_zombie(a)
        t.db_query("UPDATE `player` SET `player_name` = 'Zed' WHERE `player_id` = %s", (b,))
        assert t.get_player_name_by_id(b) == "Zed"
        t.db_query("UPDATE player SET player_zombie = 0 WHERE player_id = %s", (a,))
        assert not t.is_zombie(a)
        assert t.get_game_state_value("round") == 1
        t.db_query("UPDATE global SET global_value = 4 WHERE global_id = 10")
        assert t.get_game_state_value("round") == 4
        t.db_query("DELETE FROM global WHERE global_id = 10")
        assert t.get_game_state_value("round", -1) == -1
        t.db_query("INSERT INTO global (global_id, global_value) VALUES (10, 1)")
        assert t.get_game_state_value("round") == 1
        t.db_query("DELETE FROM pick")


def test_game_sql_drops_the_caches_the_regex_analyser_kept(lab_table: TestTable) -> None:
    """A SET with a subquery, and DDL spelt over two lines (one ADD per statement on SQLite)."""
    a = lab_table.players[0]
    with lab_table.with_table() as t:
        assert not t.is_zombie(a)
        t.db_query("UPDATE player SET player_score = (SELECT COUNT(*) FROM pick WHERE pick_player = %s), "
                   "player_zombie = 1 WHERE player_id = %s", (a, a))
        assert t.is_zombie(a)
        t.db_query("ALTER\nTABLE pick ADD pick_a INT, ADD pick_b INT")
        t.db_query("INSERT INTO pick (pick_player, pick_value, pick_a, pick_b) VALUES (%s, 1, 2, 3)", (a,))
        assert t.get_object_from_db("SELECT pick_a, pick_b FROM pick") == {"pick_a": 2, "pick_b": 3}
        t.db_query("DELETE FROM pick")

def test_globals(lab_table: TestTable) -> None:
    with lab_table.with_table() as t:
        assert t.get_game_state_value("round") == 1
        assert t.inc_game_state_value("round", 2) == 3
        assert t.get_game_state_value(50, 7) == 7
        t.set_game_state_value("winner", 12)
        assert t.get_game_state_value("winner") == 12
        assert t.get_option("rounds") == 3 and t.get_option(101) == 1
        with pytest.raises(GameSystemError, match="unknown global 'nope'"):
            t.get_game_state_value("nope")
        with pytest.raises(GameSystemError, match="ids are 10..89"):
            t.init_game_state_labels({"bad": 5})
        with pytest.raises(GameSystemError, match="globals hold integers"):
            t.set_game_state_value("winner", "x")  # type: ignore[arg-type]
        t.set_game_state_value("round", 1)


def test_statistics(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    with lab_table.with_table() as t:
        t.inc_stat(2, "wins", a)
        assert t.get_stat("wins", a) == 2
        t.set_stat(True, "ever_bumped", a)
        assert t.get_stat("ever_bumped", a) is True
        with pytest.raises(GameSystemError, match="is a bool"):
            t.inc_stat(1, "ever_bumped", a)
        with pytest.raises(KeyError, match="no player statistic 'nope'"):
            t.inc_stat(1, "nope", a)
        with pytest.raises(TypeError):
            t.set_stat("x", "rounds")  # type: ignore[arg-type]
        t.set_stat(0, "wins", a)


def test_next_player_tables(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    with lab_table.with_table() as t:
        assert t.get_next_player_table() == {a: b, b: c, c: a, 0: a}
        assert t.get_prev_player_table() == {c: b, b: a, a: c, 0: c}
        assert t.get_player_after(c) == a and t.get_player_before(a) == c
        assert t.create_next_player_table([c, a], loop=False) == {c: a, 0: c}
        t.db_query("UPDATE player SET player_eliminated = 1 WHERE player_id = %s", (b,))
        assert t.get_player_after(a) == c
        t.db_query("UPDATE player SET player_eliminated = 0")


def test_current_player_is_unknown_outside_a_request(lab_table: TestTable) -> None:
    with lab_table.with_table() as t, pytest.raises(GameSystemError, match="no current player"):
        t.get_current_player_id()


def test_notification_mistakes_are_clear(lab_table: TestTable) -> None:
    with lab_table.with_table() as t:
        with pytest.raises(GameSystemError, match=r"uses \$\{card\} but no arg 'card' was given"):
            t.notify_all_players("play", "${player_name} plays ${card}", player_name="x")
        with pytest.raises(GameSystemError, match="i18n names args that are missing"):
            t.notify_all_players("play", "hello", i18n=["suit"])
        with pytest.raises(GameSystemError, match="not JSON"):
            t.notify_all_players("play", "hello", thing=object())


def test_randomness_is_seeded_and_replayable(lab: GameHarness) -> None:
    t1 = lab.create_table(players=2, seed="same")
    t2 = lab.create_table(players=2, seed="same")
    draws = [t.data(None)["seed_draw"] for t in (t1, t2)]
    others = {lab.create_table(players=2, seed=f"other{i}").data(None)["seed_draw"] for i in range(5)}
    assert len(others) > 1  # different seeds give different draws
    assert draws[0] == draws[1]
    assert [t1.data(None)["seed_draw"] for _ in range(3)] == [draws[0]] * 3


def test_undo_savepoint_and_restore(lab: GameHarness) -> None:
    table = lab.create_table(players=2, options={"rounds": 1})
    a, b = table.players
    table.act(a, "pick", number=5)
    table.act(b, "pick", number=1)
    assert table.state.name == "bonus" and table.active_player == a
    table.act(a, "bump")
    table.act(a, "bump")
    assert table.data(a)["gamestate"]["args"]["bonus"] == 2
    table.act(a, "undo")
    assert table.data(a)["gamestate"]["args"]["bonus"] == 0
    assert table.stat("ever_bumped", a) is False
    assert table.notifications(b)[-1]["type"] == "undoRestore"
    table.act(a, "done")
    assert table.is_over


def test_multiactive_and_zombies(lab: GameHarness) -> None:
    table = lab.create_table(players=3, options={"rounds": 1, "bonus": 0})
    a, b, c = table.players
    table.act(a, "pick", number=3)
    assert table.active_players == [b, c]
    table.zombie(c)  # c leaves: zombie_turn picks 1 for them
    assert table.active_players == [b]
    table.act(b, "pick", number=2)
    assert table.is_over
    assert table.scores()[a][0] == 3
    logs = [e["log"] for e in table.notifications(None)]
    assert "player3 left the game" in logs


def test_eliminated_players_rank_last(lab: GameHarness) -> None:
    table = lab.create_table(players=3, options={"rounds": 1, "bonus": 0})
    a, b, c = table.players
    with table.with_table() as t:
        t.eliminate_player(a)
        t.set_player_score(a, 50)
    table.act(b, "pick", number=2)
    table.act(c, "pick", number=1)
    ranking = table.ranking()
    assert ranking[-1]["player_id"] == a
    assert table.notifications(None)[-1]["type"] == "gameStateChange"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now


def test_clocks_extra_time_and_expelling(lab: GameHarness) -> None:
    clock = Clock()
    lab.site.runtime.now = clock
    table = lab.create_table(players=2, options={"rounds": 1, "bonus": 0})
    a, b = table.players
    clock.now += timedelta(seconds=30)
    table.act(a, "pick", number=4)  # a used 30 s of 100; b keeps running
    with table.read() as t:
        assert t.get_remaining_time(a) == pytest.approx(70)
        assert t.get_remaining_time(b) == pytest.approx(70)
    err = None
    try:
        lab.site.runtime.expel(table.id, a, b)
    except UserError as exc:
        err = exc
    assert err is not None and "still has 70 seconds" in str(err)
    lab.site.runtime.give_extra_time(table.id, b)  # +50 s
    clock.now += timedelta(seconds=125)
    with table.read() as t:
        assert t.get_remaining_time(b) == pytest.approx(-5)
    with pytest.raises(UserError, match="Only a player of this table"):
        lab.site.runtime.expel(table.id, 999, b)
    lab.site.runtime.expel(table.id, a, b)
    assert table.is_over  # b's zombie picked and the one-round game ended
    assert any("ran out of time" in e["log"] for e in table.notifications(a))


def test_studio_slots(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    lab_table.save(1)
    lab_table.act(a, "pick", number=5)
    lab_table.save(2)
    lab_table.act(b, "pick", number=4)
    lab_table.load(1)
    assert lab_table.active_players == [a, b, c]
    assert lab_table.query("SELECT * FROM pick") == []
    lab_table.load(2)
    assert lab_table.active_players == [b, c]
    with pytest.raises(UserError, match="Slot 3 is empty"):
        lab_table.load(3)
    with pytest.raises(UserError, match="Save slots are 1, 2 and 3, not 4"):
        lab_table.save(4)


def test_every_table_has_its_copies(lab_table: TestTable) -> None:
    with lab_table.read() as t:
        names = set(t._db.table_names())
    for live in ("player", "global", "stats", "gamelog", "pick"):
        for prefix in ("zz_replay1_", "zz_replay2_", "zz_replay3_", "zz_savepoint_"):
            assert prefix + live in names
    cols = lab_table.query("SELECT * FROM zz_replay1_player")
    assert cols == []
