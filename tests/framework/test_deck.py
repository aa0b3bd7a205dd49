"""The Deck component over the BGA card table, on a real table database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from framework.core.errors import GameSystemError
from framework.game.deck import Deck
from framework.storage.sql.translate import translate_dbmodel
from framework.testing import GameHarness, TestTable

pytestmark = pytest.mark.all_backends  # SQLite always; PostgreSQL and MariaDB when configured

CARD_TABLE = """
CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;
"""


@pytest.fixture
def deck_table(lab: GameHarness) -> Iterator[Any]:
    table: TestTable = lab.create_table(players=2)
    players = table.players
    with table.with_table() as t:
        for sql in translate_dbmodel(CARD_TABLE, t._db.dialect):
            t._db.execute(sql)
        deck = Deck(t)
        deck.create_cards([{"type": suit, "type_arg": v, "nbr": 1}
                           for suit in ("S", "H") for v in range(1, 6)], "deck")
        yield t, deck, players


def test_create_count_and_read(deck_table: Any) -> None:
    t, deck, _ = deck_table
    assert deck.count_card_in_location("deck") == 10
    cards = deck.get_cards_in_location("deck")
    assert [c["location_arg"] for c in cards.values()] == list(range(10))
    first = next(iter(cards.values()))
    assert set(first) == {"id", "type", "type_arg", "location", "location_arg"}
    assert deck.get_card(first["id"]) == first
    assert deck.get_card(9999) is None
    assert len(deck.get_cards_of_type("S")) == 5
    assert len(deck.get_cards_of_type("H", 3)) == 1
    with pytest.raises(GameSystemError, match="not cards of card"):
        deck.get_cards([first["id"], 9999])


def test_shuffle_is_seeded_and_complete(deck_table: Any) -> None:
    t, deck, _ = deck_table
    before = [c["id"] for c in deck.get_cards_in_location("deck").values()]
    deck.shuffle("deck")
    after = [c["id"] for c in deck.get_cards_in_location("deck").values()]
    assert sorted(after) == sorted(before) and after != before
    assert sorted(c["location_arg"] for c in deck.get_cards_in_location("deck").values()) == list(range(10))


def test_pick_and_move(deck_table: Any) -> None:
    t, deck, (a, b) = deck_table
    top = deck.get_card_on_top("deck")
    picked = deck.pick_cards(3, "deck", a)
    assert picked[0]["id"] == top["id"]
    assert len(deck.get_player_hand(a)) == 3
    assert deck.count_card_in_location("hand", a) == 3
    card = deck.pick_card("deck", b)
    assert card is not None and card["location"] == "hand" and card["location_arg"] == b
    deck.play_card(card["id"])
    assert deck.get_card_on_top("discard")["id"] == card["id"]
    deck.move_cards([c["id"] for c in picked[:2]], "table", 7)
    assert deck.count_cards_by_location_args("table") == {7: 2}
    assert deck.count_cards_in_locations() == {"deck": 6, "hand": 1, "table": 2, "discard": 1}
    deck.move_all_cards_in_location("table", "discard")
    assert deck.count_card_in_location("discard") == 3
    with pytest.raises(GameSystemError, match="no card 9999"):
        deck.move_card(9999, "hand", a)


def test_insert_and_extreme_positions(deck_table: Any) -> None:
    t, deck, _ = deck_table
    ids = [c["id"] for c in deck.get_cards_in_location("deck").values()]
    deck.move_card(ids[0], "pile", 0)
    deck.move_card(ids[1], "pile", 1)
    deck.insert_card(ids[2], "pile", 1)
    order = [c["id"] for c in deck.get_cards_in_location("pile").values()]
    assert order == [ids[0], ids[2], ids[1]]
    deck.insert_card_on_extreme_position(ids[3], "pile", on_top=False)
    assert deck.get_extreme_position(False, "pile") == 0
    assert deck.get_cards_in_location("pile", 0)[ids[3]]["id"] == ids[3]
    assert deck.get_extreme_position(True, "pile") == 3
    assert [c["id"] for c in deck.get_cards_on_top(2, "pile")] == [ids[1], ids[2]]
    by_type = deck.get_cards_in_location("pile", order_by="card_type_arg DESC")
    assert list(by_type) and len(by_type) == 4
    with pytest.raises(GameSystemError, match="order_by"):
        deck.get_cards_in_location("pile", order_by="1; DROP TABLE card")


def test_on_top_of_a_pile(deck_table: Any) -> None:
    t, deck, _ = deck_table
    ids = [c["id"] for c in deck.get_cards_in_location("deck").values()]
    deck.insert_card_on_extreme_position(ids[0], "pile", on_top=True)
    assert deck.get_card(ids[0])["location_arg"] == 0  # an empty pile starts at 0
    deck.move_card(ids[1], "pile", 7)
    deck.insert_card_on_extreme_position(ids[2], "pile", on_top=True)
    assert deck.get_card(ids[2]) == {**deck.get_card(ids[2]), "location": "pile", "location_arg": 8}
    deck.insert_card_on_extreme_position(ids[2], "pile", on_top=True)  # already the top card
    assert deck.get_card(ids[2])["location_arg"] == 9
    assert deck.count_card_in_location("deck") == 7
    with pytest.raises(GameSystemError, match="no card 9999"):
        deck.insert_card_on_extreme_position(9999, "pile", on_top=True)


def test_autoreshuffle_refills_from_the_discard(deck_table: Any) -> None:
    t, deck, (a, _) = deck_table
    deck.autoreshuffle_custom = {"deck": "discard"}
    deck.move_all_cards_in_location("deck", "discard")
    deck.move_card(next(iter(deck.get_cards_in_location("discard"))), "deck", 0)
    picked = deck.pick_cards(4, "deck", a)
    assert len(picked) == 4
    assert deck.count_card_in_location("discard") == 0
    assert deck.count_card_in_location("deck") == 6
    none_left = deck.pick_cards_for_location(20, "deck", "hand", a, no_reform=True)
    assert len(none_left) == 6 and deck.count_card_in_location("deck") == 0


def test_keep_order_move(deck_table: Any) -> None:
    t, deck, _ = deck_table
    before = [(c["id"], c["location_arg"]) for c in deck.get_cards_in_location("deck").values()]
    deck.move_all_cards_in_location_keep_order("deck", "box")
    assert [(c["id"], c["location_arg"]) for c in deck.get_cards_in_location("box").values()] == before
