"""The traps a port from BGA falls into fail loudly: a card type compared with a number, a
spectator's None as a player location's arg, BGA's positional flags where the SQL
parameters go; setup, spectators and errors behave as BGA's do."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.core.errors import ConfigError, GameCodeError, GameSystemError
from framework.game.deck import CardType, CardTypeComparisonError
from framework.game.registry import load_game_from_directory
from framework.testing import GameHarness, TestTable
from tests.backends import PlatformTemplate
from tests.framework.classic_games import harness_for, trap_definition

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def trap(tmp_path: Path, platform_template: PlatformTemplate,
         database_url: str | None) -> Iterator[GameHarness]:
    with harness_for(trap_definition(int_type=False), tmp_path, platform_template, database_url) as h:
        yield h


@pytest.fixture
def int_trap(tmp_path: Path, platform_template: PlatformTemplate,
             database_url: str | None) -> Iterator[GameHarness]:
    with harness_for(trap_definition(int_type=True), tmp_path, platform_template, database_url) as h:
        yield h


def hand_of_type(t: TestTable, pid: int, card_type: str) -> int:
    rows = t.query("SELECT card_id FROM card WHERE card_location = 'hand' AND card_location_arg = %s "
                   "AND card_type = %s ORDER BY card_id", (pid, card_type))
    return int(rows[0]["card_id"])


# ---------------------------------------------------------------- the card type trap
@pytest.mark.all_backends
def test_comparing_a_card_type_with_a_number_fails_loudly(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    first = t.players[0]
    card = hand_of_type(t, first, "2")
    before = t.snapshot()
    with pytest.raises(GameCodeError):
        t.act(first, "play", card_id=card)
    assert t.snapshot() == before  # the move was cancelled, not silently scored as 0
    error = t.runtime.errors(t.id)[-1]
    assert error["action"] == "play"
    assert "compared with the number 2" in error["message"]
    assert "int_type=True" in error["message"]


@pytest.mark.all_backends
def test_the_int_type_option_makes_the_port_work(int_trap: GameHarness) -> None:
    t = int_trap.create_table(players=2)
    first = t.players[0]
    t.act(first, "play", card_id=hand_of_type(t, first, "2"))
    assert t.scores()[first][0] == 1
    assert t.is_over
    with t.read() as table:
        assert {c["type"] for c in table.cards.get_cards_in_location("discard").values()} == {2}


def test_card_type_is_text_and_refuses_numbers() -> None:
    card_type = CardType("2")
    assert card_type == "2" and not card_type != "2" and card_type != "3"
    assert {"2": "found"}[card_type] == "found" and hash(card_type) == hash("2")
    assert json.dumps({"type": card_type}) == '{"type": "2"}'
    assert (card_type == None) is False  # noqa: E711 (None is no number)
    for compare in (lambda: card_type == 2, lambda: 2 == card_type, lambda: card_type != 2,
                    lambda: card_type in (1, 2), lambda: card_type == 2.0):
        with pytest.raises(CardTypeComparisonError, match="compared with the number"):
            compare()


def test_an_int_deck_refuses_text_types(int_trap: GameHarness) -> None:
    t = int_trap.create_table(players=2)
    with t.with_table() as table, pytest.raises(GameSystemError, match="has int types"):
        table.cards.create_cards([{"type": "S", "type_arg": 1, "nbr": 1}])


# ---------------------------------------------------------------- None for a player location
@pytest.mark.all_backends
def test_a_spectators_none_never_reads_every_hand(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    a, b = t.players
    with t.read() as table:
        deck = table.cards
        for read in (lambda: deck.get_cards_in_location("hand", None),
                     lambda: deck.get_player_hand(None),  # type: ignore[arg-type]
                     lambda: deck.get_cards_of_type_in_location("1", None, "hand", None),
                     lambda: deck.get_cards_from_location([1], "hand", None)):
            with pytest.raises(GameSystemError, match="None is no player"):
                read()
        every = deck.get_cards_in_location("hand")  # leaving it out reads every hand on purpose
        assert {c["location_arg"] for c in every.values()} == {a, b}
        assert len(deck.get_cards_in_location(["hand", "deck"])) == 6
        assert deck.get_cards_in_location("deck", None) == {}  # not a player location
        assert deck.count_cards_in_location("hand", a) == deck.count_card_in_location("hand", a) == 3
    assert t.data(None)["hand"] == {}


def test_get_cards_from_location_checks_where_the_cards_are(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    a, b = t.players
    with t.read() as table:
        mine = list(table.cards.get_player_hand(a))
        theirs = list(table.cards.get_player_hand(b))
        assert set(table.cards.get_cards_from_location(mine, "hand", a)) == set(mine)
        with pytest.raises(GameSystemError, match="are not in hand/"):
            table.cards.get_cards_from_location(mine + theirs[:1], "hand", a)


# ---------------------------------------------------------------- SQL flags
def test_bgas_positional_flags_are_not_taken_for_sql_parameters(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    players = set(t.players)
    with t.read() as table:
        sql = "SELECT player_id, player_name FROM player"
        with pytest.raises(GameSystemError, match=r"get_collection_from_db\(sql, True\).*single=True"):
            table.get_collection_from_db(sql, True)  # type: ignore[arg-type]
        with pytest.raises(GameSystemError, match="single_column=True"):
            table.get_object_list_from_db("SELECT player_id FROM player", True)  # type: ignore[arg-type]
        with pytest.raises(GameSystemError, match="must be a tuple or a list"):
            table.db_query("SELECT 1 WHERE 1 = %s", "1")  # type: ignore[arg-type]
        names = table.get_collection_from_db(sql, single=True)
        assert set(names) == players
        assert table.get_non_empty_collection_from_db(sql, single=True) == names
        with pytest.raises(GameSystemError, match="no row"):
            table.get_non_empty_collection_from_db("SELECT player_id FROM player WHERE player_id = 0")


# ---------------------------------------------------------------- setup, spectators, errors
def test_active_next_player_in_setup_starts_with_the_first_player(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    assert t.active_player == t.players[0]


def test_get_current_player_id_of_a_spectator_in_get_all_datas(trap: GameHarness) -> None:
    t = trap.create_table(players=2)
    watcher = trap.site.runtime.ensure_player("watcher")
    seen = t.data(watcher)
    assert seen["viewer"] == watcher and seen["spectator"] is True and seen["hand"] == {}
    visitor = t.data(None)
    assert visitor["viewer"] is None and visitor["spectator"] is True
    player = t.data(t.players[0])
    assert player["viewer"] == t.players[0] and player["spectator"] is False
    assert len(player["hand"]) == 3


def test_errors_of_bot_turns_and_get_all_datas_reach_the_error_log(int_trap: GameHarness) -> None:
    t = int_trap.create_table(players=2, bots=[1])
    first = t.players[0]
    with t.with_table() as table:
        type(table).FAIL_BOT = True
        type(table).FAIL_DATAS = True
    with pytest.raises(GameCodeError):
        t.act(first, "play", card_id=hand_of_type(t, first, "3"))
    assert t.runtime.errors(t.id)[-1]["action"] == "play"
    assert "bot_turn fails on purpose" in t.runtime.errors(t.id)[-1]["traceback"]
    with pytest.raises(GameCodeError):
        t.data(first)
    assert t.runtime.errors(t.id)[-1]["action"] == "get_all_datas"
    assert "get_all_datas fails on purpose" in t.runtime.errors(t.id)[-1]["traceback"]


@pytest.mark.parametrize(("drop", "message"), [
    ("end_state(),", "game 'labgame', states, field 'id': state 99 (end of game) is missing"),
    ("setup_state(2),", "game 'labgame', states, field 'id': state 1 (setup) is missing"),
])
def test_states_1_and_99_are_checked_when_the_game_loads(tmp_path: Path, drop: str, message: str) -> None:
    folder = tmp_path / "labgame"
    shutil.copytree(FIXTURES / "labgame", folder)
    states = folder / "states.py"
    states.write_text(states.read_text(encoding="utf-8").replace(drop, ""), encoding="utf-8")
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_game_from_directory(folder, f"arena_test_broken_{abs(hash(drop))}")


def test_deck_autoreshuffle_and_its_trigger(int_trap: GameHarness) -> None:
    t = int_trap.create_table(players=2)
    a = t.players[0]
    with t.with_table() as table:
        deck = table.cards
        table.cards.move_all_cards_in_location("hand", "discard")
        assert deck.count_cards_in_location("deck") == 0
        assert deck.pick_card("deck", a) is None  # autoreshuffle is off by default
        refilled: list[str] = []
        deck.autoreshuffle = True
        deck.autoreshuffle_trigger = refilled.append
        card = deck.pick_card("deck", a)
        assert card is not None and card["location"] == "hand" and refilled == ["deck"]
        assert deck.count_cards_in_location("deck") == 5 and deck.count_cards_in_location("discard") == 0
        deck.init("card")  # BGA's init names the table
        with pytest.raises(GameSystemError, match="not a plain identifier"):
            deck.init("card; DROP TABLE card")
