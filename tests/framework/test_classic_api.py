"""The classic API's method groups on a real table: players and colours, database helpers,
game state machine extras, log lines, game information and the methods that cannot mean
anything on Arena (they raise and say why)."""

from __future__ import annotations

import logging

import pytest

from framework.core.errors import GameSystemError
from framework.game.deck import Deck
from framework.game.table_database import TableDatabase
from framework.game.table_players import COLOR_PREFERENCE_META, attribute_colors
from framework.releases.migrate import TableMigrator, sync_copies
from framework.testing import TestTable

pytestmark = pytest.mark.all_backends


def test_player_helpers(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    with lab_table.with_table() as t:
        assert t.get_player_count() == t.get_players_number() == 3
        assert [t.get_player_no_by_id(p) for p in (a, b, c)] == [1, 2, 3]
        assert t.get_player_color_by_id(b) == t.load_players_basic_infos()[b]["player_color"]
        with pytest.raises(GameSystemError, match=r"get_player_no_by_id\(9999\): no such player"):
            t.get_player_no_by_id(9999)
        t.context.current_player_id = b
        assert not t.is_spectator() and not t.is_current_player_zombie()
        assert t.get_current_player_color() == t.get_player_color_by_id(b)
        t.db_query("UPDATE player SET player_zombie = 1 WHERE player_id = %s", (b,))
        assert t.is_current_player_zombie()
        t.context.current_player_id = 9999  # a signed-in spectator
        assert t.is_spectator() and t.get_current_player_id() == 9999
        with pytest.raises(GameSystemError, match="is a spectator, not a player"):
            t.is_current_player_zombie()
        t.context.current_player_id = None
        assert t.get_current_player_id(True) is None
        t.db_query("UPDATE player SET player_color = 'abcdef' WHERE player_id = %s", (a,))
        assert t.reload_players_basic_infos()[a]["player_color"] == "abcdef"


def test_reattribute_colors_based_on_preferences(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    colors = ["ff0000", "008000", "0000ff", "ffa500"]
    with lab_table.with_table() as t:
        before = {p: t.get_player_color_by_id(p) for p in (a, b, c)}
        t.set_meta(f"{COLOR_PREFERENCE_META}{c}", before[a])  # c loves a's colour
        result = t.reattribute_colors_based_on_preferences(t.load_players_basic_infos(), colors)
        assert result[c] == before[a] and result[a] != before[a]
        assert len(set(result.values())) == 3
        assert {p: t.get_player_color_by_id(p) for p in (a, b, c)} == result
        with pytest.raises(GameSystemError, match="colours are 'rrggbb'"):
            t.reattribute_colors_based_on_preferences({}, ["red"])
        with pytest.raises(GameSystemError, match="2 colours for 3 players"):
            t.reattribute_colors_based_on_preferences({}, colors[:2])


def test_attribute_colors_honours_pairings() -> None:
    got = attribute_colors({1: "ff0000", 2: "008000"}, {1: "990000"}, ["ff0000", "008000"],
                           {"ff0000": ["990000"]})
    assert got == {1: "ff0000", 2: "008000"}
    assert attribute_colors({1: "ff0000", 2: "008000"}, {2: "ff0000", 1: "ff0000"},
                            ["ff0000", "008000"]) == {1: "ff0000", 2: "008000"}


def test_database_helpers(lab_table: TestTable) -> None:
    assert TableDatabase.escape_string_for_db("it's \\ \"x\"") == "it\\'s \\\\ \\\"x\\\""
    with lab_table.with_table() as t:
        name = "O'Brien \\ \"quoted\""
        t.db_query(f"UPDATE player SET player_name = '{t.escape_string_for_db(name)}' "
                   "WHERE player_no = 1")
        assert t.get_unique_value_from_db("SELECT player_name FROM player WHERE player_no = 1") == name
        with pytest.raises(GameSystemError, match="only inside upgrade_table_db"):
            t.apply_db_upgrade_to_all_db("ALTER TABLE DBPREFIX_pick ADD `pick_extra` INT NOT NULL DEFAULT 0")
        migrator = TableMigrator(t.context.db)
        t.migrate = migrator
        try:
            t.apply_db_upgrade_to_all_db("ALTER TABLE DBPREFIX_pick ADD `pick_extra` INT NOT NULL DEFAULT 0")
        finally:
            migrator.close()
            t.migrate = None
        assert migrator.changed and "pick_extra" in migrator.changed[0]
        db = t.context.db
        sync_copies(db)
        for name in ("pick", "zz_replay1_pick", "zz_savepoint_pick"):
            assert "pick_extra" in db.column_names(name)


def test_state_machine_extras(lab_table: TestTable) -> None:
    a, b, c = lab_table.players
    with lab_table.with_table() as t:
        t.db_query("UPDATE global SET global_value = 5 WHERE global_id = 1")  # behind the cache
        assert t.gamestate.reload_state().id == 5
        t.db_query("UPDATE global SET global_value = 2 WHERE global_id = 1")
        assert t.gamestate.reload_state().name == "pick"
        t.db_query("UPDATE player SET player_is_multiactive = 0 WHERE player_id <> %s", (a,))
        assert t.gamestate.update_multiactive_or_next_state("done") is False
        assert t.gamestate.get_active_player_list() == [a]
        assert t.is_player_active(a) and t.gamestate.is_player_active(a)
        assert t.context.packets[-1].type == "gameStateMultipleActiveUpdate"
        t.db_query("UPDATE player SET player_is_multiactive = 0")
        assert t.gamestate.update_multiactive_or_next_state("done") is True
        assert t.gamestate.state().name == "reveal"


def test_log_lines_go_to_the_games_logger(lab_table: TestTable, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="arena.game.labgame")
    with lab_table.read() as t:
        t.debug("a debug line")
        t.trace("a trace line")
        t.warn("a warning")
        t.error("an error line")
        t.dump("hand", {"cards": [1, 2]})
    got = [(r.name, r.levelname, r.getMessage()) for r in caplog.records if r.name == "arena.game.labgame"]
    assert got == [
        ("arena.game.labgame", "DEBUG", "a debug line"), ("arena.game.labgame", "INFO", "a trace line"),
        ("arena.game.labgame", "WARNING", "a warning"), ("arena.game.labgame", "ERROR", "an error line"),
        ("arena.game.labgame", "DEBUG", 'hand: {"cards": [1, 2]}'),
    ]


def test_game_information_and_the_table_helpers(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    with lab_table.with_table() as t:
        infos = t.get_gameinfos()
        assert infos["game_name"] == "Lab Game" and infos["players"] == [2, 3, 4]
        assert infos["medium_additional_time"] == 50
        with pytest.raises(GameSystemError, match="not language dependent"):
            t.get_game_language()
        t.set_meta("language", "fr")
        assert t.get_game_language() == "fr"
        assert t.get_bga_environment() == "studio"
        assert t._("Hello") == "Hello"
        assert isinstance(t.get_new("module.common.deck", "card"), Deck)
        with pytest.raises(GameSystemError, match="only 'module.common.deck'"):
            t.get_new("module.common.bag")
        t.st_make_everyone_active()
        assert len(t.gamestate.get_active_player_list()) == 3
        t.log_text_for_moderation(a, "hello")


@pytest.mark.parametrize(("call", "reason"), [
    (lambda t: t.init_table(), "Arena builds a Table for every request"),
    (lambda t: t.is_realtime(), "no realtime or turn-based setting"),
    (lambda t: t.is_async(), "no realtime or turn-based setting"),
    (lambda t: t.get_generic_game_infos("x"), "external game APIs do not exist"),
    (lambda t: t.get_game_user_preference(t.gamestate.get_active_player_list()[0], 100),
     "declares no preference 100"),
])
def test_what_cannot_mean_anything_on_arena_says_why(lab_table: TestTable, call: object, reason: str) -> None:
    with lab_table.read() as t, pytest.raises(GameSystemError, match=reason):
        call(t)  # type: ignore[operator]
