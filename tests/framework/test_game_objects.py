"""The objects today's BGA framework hangs on the game: globals, notify, counters, stats,
options, preferences, legacy data, logs and decks, on a real table database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.core.errors import GameSystemError, UserError
from framework.game.deck import Deck
from framework.game.modern.logs import REMOVED_TYPE
from framework.game.options import Option, Preference
from framework.game.registry import GameInfo, GameRegistry, build_definition
from framework.game.table import Table
from framework.testing import GameHarness, TestTable
from tests.framework.test_state_classes import STATS, NextPlayer, PlayerTurn, Tally

PREFERENCES = [Preference(100, "layout", "Layout", {1: "Compact", 2: "Wide"}, default=1)]
OPTIONS = [Option(100, "length", "Length", {1: "Short", 2: "Long"}, default=2)]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TestTable]:
    class Objects(Tally):
        pass

    info = GameInfo(name="objects", display_name="Objects", min_players=2, max_players=3)
    dbmodel = ("CREATE TABLE IF NOT EXISTS `token` (`card_id` int(10) unsigned NOT NULL "
               "AUTO_INCREMENT, `card_type` varchar(16) NOT NULL, `card_type_arg` int(11) NOT NULL, "
               "`card_location` varchar(16) NOT NULL, `card_location_arg` int(11) NOT NULL, "
               "PRIMARY KEY (`card_id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8;")
    gdef = build_definition(info, Objects, [PlayerTurn, NextPlayer], STATS, OPTIONS, PREFERENCES,
                            dbmodel)
    registry = GameRegistry(packages={})
    registry.add_definition(gdef)
    with GameHarness("objects", tmp_path, registry) as h:
        yield h.create_table(players=2, options={"length": 1}, seed=3)


def test_globals_hold_any_json_value_by_name(table: TestTable) -> None:
    with table.with_table() as t:
        g = t.globals
        assert g.get("board") is None and g.get("board", {}) == {} and not g.has("board")
        g.set("board", {"a1": [1, 2], "b2": None})
        assert g.has("board") and g.get("board") == {"a1": [1, 2], "b2": None}
        assert g.inc("turn") == 1 and g.inc("turn", 4) == 5
        g.set("turn_like", "x")  # LIKE's "_" must not match "turnXlike"
        assert g.get_all("turn", "missing") == {"turn": 5}
        assert set(g.get_all()) == {"board", "history", "turn", "turn_like"}
        g.delete("board", "turn")
        assert not g.has("board") and g.get_all("turn") == {}
        with pytest.raises(GameSystemError, match="not a JSON value"):
            g.set("bad", {1, 2})
        with pytest.raises(GameSystemError, match="inc needs numbers"):
            g.inc("turn_like")
        with pytest.raises(GameSystemError, match="too long"):
            g.set("x" * 80, 1)
    with table.read() as t:  # kept in the table's database, seen by the next request
        assert t.globals.get("turn_like") == "x" and not t.globals.has("turn")


def test_counters_keep_bounds_and_tell_clients(table: TestTable) -> None:
    a, b = table.players
    with table.with_table() as t:
        credits = t.credits  # type: ignore[attr-defined]
        assert (credits.get_min(), credits.get_max()) == (0, 12)
        assert credits.get_all() == {a: 0, b: 0}
        assert credits.set(a, 7, "") == 7 and credits.inc(a, 5, None) == 12
        with pytest.raises(GameSystemError, match="out of range 0..12"):
            credits.inc(a, 1)
        with pytest.raises(GameSystemError, match="out of range"):
            credits.set(b, -1)
        with pytest.raises(GameSystemError, match="player 999 has no value"):
            credits.get(999)
        credits.set_all(3, None)
        assert credits.get_all() == {a: 3, b: 3}
        result: dict[str, object] = {}
        credits.fill_result(result, "money")
        assert result == {"players": {a: {"money": 3}, b: {"money": 3}}}
        rnd = t.round  # type: ignore[attr-defined]
        assert rnd.inc(2, "") == 3 and rnd.get() == 3
        t.player_score.inc(a, 10, None)
        t.player_score_aux.set(b, -2, None)
        extra = t.counter_factory.create_table_counter("extra")
        with pytest.raises(GameSystemError, match="'extra', field 'init_db': used before init_db"):
            extra.get()
    assert table.scores()[a] == (10, 0) and table.scores()[b] == (0, -2)
    told = [n["args"] for n in table.notifications(None) if n["type"] == "setPlayerCounter"]
    assert {"name": "credits", "player_id": a, "value": 7, "old_value": 0, "inc": 7,
            "abs_inc": 7, "player_name": "player1"}.items() <= told[-1].items()
    assert [n["args"]["value"] for n in table.notifications(None)
            if n["type"] == "setTableCounter"] == [3]


def test_stats_objects(table: TestTable) -> None:
    a, b = table.players
    with table.with_table() as t:
        t.table_stats.set("moves", 4)
        assert t.table_stats.inc("moves", 2) == 6 and t.table_stats.get_all() == {"moves": 6}
        t.player_stats.set("taken", a, 2)
        assert t.player_stats.inc("taken", a) == 3
        t.player_stats.inc_all("taken", 10)
        assert t.player_stats.get_all("taken") == {a: 13, b: 10}
        t.player_stats.set_all("taken", 1)
        assert t.player_stats.get("taken", b) == 1
        with pytest.raises(KeyError, match="declares no player statistic 'nothing'"):
            t.player_stats.get("nothing", a)


def test_options_preferences_legacy_logs_and_decks(table: TestTable) -> None:
    a, b = table.players
    with table.with_table() as t:
        assert t.table_options.get("length") == 1 and t.table_options.get(100) == 1
        assert t.table_options.is_real_time() and not t.table_options.is_turn_based()
        t.set_meta("pace", "turnbased")
        assert t.table_options.is_turn_based()
        assert t.user_preferences.get(a, 100) == 1  # never chosen: the default
        t.user_preferences.store(a, 100, 2)
        assert t.user_preferences.get(a, 100) == 2 and t.user_preferences.get(b, 100) == 1
        with pytest.raises(UserError, match="has no value 5"):
            t.user_preferences.store(a, 100, 5)
        with pytest.raises(GameSystemError, match="declares no preference 101"):
            t.user_preferences.get(a, 101)
        t.legacy.set("campaign", a, {"wins": 2})
        t.legacy.set("old", a, 1, ttl=0)  # expires at once
        t.legacy.set_team({"chapter": 3})
        assert t.legacy.get("campaign", a) == {"wins": 2} and t.legacy.get("campaign", b, 0) == 0
        assert t.legacy.get("old", a, "gone") == "gone"
        assert t.legacy.get_team() == {"chapter": 3}
        # the classic forms are the same data
        assert t.retrieve_legacy_data(a, "campaign") == {"wins": 2}
        t.store_legacy_team_data([1, 2])
        assert t.legacy.get_team() == [1, 2]
        t.legacy.delete("campaign", a)
        t.remove_legacy_team_data()
        assert t.legacy.get("campaign", a) is None and t.legacy.get_team("none") == "none"
        with pytest.raises(GameSystemError, match="not a JSON value"):
            t.legacy.set("bad", a, object())
        deck = t.deck_factory.create_deck("token")
        assert isinstance(deck, Deck)
        deck.create_cards([{"type": "gem", "type_arg": 1, "nbr": 3}], "bag")
        assert deck.count_card_in_location("bag") == 3
    move = table.act(a, "take", amount=1).move
    with table.read() as t:
        assert t.logs.get_current_move_id() == move


def test_logs_remove_takes_back_this_moves_notifications(table: TestTable) -> None:
    a, _ = table.players
    before = len(table.notifications(None))
    with table.with_table() as t:
        t.notify.all("secret", "a hint", hint=42)
        t.notify.all("kept", "")
        assert t.logs.remove("secret") == 1 and t.logs.remove("secret") == 0
    after = table.notifications(None)[before:]
    assert [n["type"] for n in after] == [REMOVED_TYPE, "kept"]
    assert after[0]["args"] == {} and "a hint" not in str(after[0])
    assert table.query("SELECT gamelog_args FROM gamelog WHERE gamelog_type = %s",
                       ("secret",)) == []
    del a


def test_notify_decorators_run_in_order(table: TestTable) -> None:
    a, _ = table.players
    with table.with_table() as t:
        t.notify.add_decorator(lambda message, args: {**args, "seen": args.get("player_name")})
        t.notify.player(a, "hello", "${player_name} hello", player_id=a)
        with pytest.raises(GameSystemError, match="returned NoneType"):
            t.notify.add_decorator(lambda message, args: None)  # type: ignore[arg-type,return-value]
            t.notify.all("x", "")
    private = [n for n in table.notifications(a) if n["type"] == "hello"]
    assert private and private[0]["args"]["seen"] == "player1"
    assert not [n for n in table.notifications(None) if n["type"] == "hello"]


def test_the_objects_exist_on_every_table_classic_ones_too() -> None:
    names = ("globals", "notify", "table_stats", "player_stats", "counter_factory", "player_score",
             "player_score_aux", "table_options", "user_preferences", "legacy", "logs",
             "deck_factory")
    assert all(hasattr(Table, n) for n in names)
