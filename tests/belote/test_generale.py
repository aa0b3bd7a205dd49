"""The générale in contrée (`Rules.generale`): a bid above capot that one player alone
takes all eight tricks, worth 500; its bidding, its scoring (the hand records are in
records/ffb-scoring.jsonl), the table option and the bots that bid it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from framework.testing import GameHarness
from games.belote.bots import HeuristicBot, SearchBot, bid_view
from games.belote.bots.search import hand_scores
from games.belote.options import GENERALE, LEGACY_VALUES, OFF, ON, rules_from_options
from games.belote.rules import (
    GENERALE_VALUE,
    BeloteError,
    Bid,
    Contract,
    ContreeBidding,
    IllegalBidError,
    Rules,
    Suit,
    parse_cards,
    score_hand,
)
from tests.belote.test_game_variants import seat_players

FFB = Rules(variant="contree", contree_scoring="ffb", generale=True)


def test_the_generale_is_bid_above_capot_only_where_the_table_plays_it() -> None:
    assert Bid.from_code("generale:H").value == GENERALE_VALUE
    assert Bid.from_code("generale:H").code == "generale:H"
    plain = ContreeBidding(3, Rules(variant="contree"))
    assert "generale:S" not in [bid.code for bid in plain.legal_bids()]
    with pytest.raises(IllegalBidError):
        plain.apply("generale:S", 0)
    bidding = ContreeBidding(3, FFB)
    codes = [bid.code for bid in bidding.legal_bids()]
    assert codes.index("capot:C") < codes.index("generale:S")  # the highest bid
    bidding.apply("capot:H", 0)
    assert [bid.code for bid in bidding.legal_bids()] == [
        "pass", "generale:S", "generale:H", "generale:D", "generale:C", "coinche"]
    bidding.apply("generale:D", 1)
    assert [bid.code for bid in bidding.legal_bids()] == ["pass", "coinche"]  # nothing above
    for seat in (2, 3, 0):
        bidding.apply("pass", seat)
    assert bidding.contract == Contract(Suit.DIAMONDS, 1, GENERALE_VALUE)
    assert bidding.contract.is_generale_bid and not bidding.contract.is_capot_bid


def test_a_generale_is_made_by_the_takers_own_eight_tricks() -> None:
    contract = Contract(Suit.SPADES, 0, GENERALE_VALUE)
    made = score_hand(contract, FFB, (162, 0), (8, 0), belote=(20, 0), taker_tricks=8)
    assert (made.outcome, made.hand_score) == ("made", (250 + 500 + 20, 0))
    partner = score_hand(contract, FFB, (162, 0), (8, 0), belote=(20, 0), taker_tricks=7)
    assert (partner.outcome, partner.hand_score) == ("failed", (20, 160 + 500))
    coinched = score_hand(Contract(Suit.SPADES, 0, GENERALE_VALUE, 1), FFB, (150, 12), (7, 1),
                          taker_tricks=7)
    assert (coinched.outcome, coinched.hand_score) == ("failed", (0, (160 + 500) * 2))
    surcoinched = score_hand(Contract(Suit.SPADES, 0, GENERALE_VALUE, 2), FFB, (162, 0), (8, 0),
                             taker_tricks=8)
    assert surcoinched.hand_score == ((160 + 500) * 4, 0)
    bga = score_hand(contract, Rules(variant="contree", generale=True), (162, 0), (8, 0),
                     taker_tricks=8)
    assert bga.hand_score == (252 + 500, 0)  # BGA's reading: a capot is 252


def test_a_generale_cannot_be_scored_without_the_takers_tricks() -> None:
    contract = Contract(Suit.SPADES, 0, GENERALE_VALUE)
    with pytest.raises(BeloteError, match="générale"):
        score_hand(contract, FFB, (162, 0), (8, 0))
    with pytest.raises(BeloteError, match="générale"):
        score_hand(contract, FFB, (100, 62), (5, 3), taker_tricks=6)  # more than the team's


def test_the_option_is_off_by_default_and_on_older_tables() -> None:
    assert LEGACY_VALUES[GENERALE] == OFF
    values = {"variant": 2, "target": 4, "undertrump": 1, "all_no_trumps": 1,
              "second_round_any_suit": 2, "announcements": 1, "announce_tie": 1,
              "raise_sequence": 1, "belote_to_defence": 1, "multiplier": 1,
              "contree_scoring": 2, "round_points": 1, "litige_at_end": 2, "generale": OFF}
    assert rules_from_options(values.__getitem__).generale is False
    assert rules_from_options({**values, "generale": ON}.__getitem__).generale is True


def _first_bid_view(hand: str, rules: Rules = FFB) -> object:
    bidding = ContreeBidding(3, rules)  # seat 0 speaks and leads first
    return bid_view(bidding, parse_cards(hand.split()))


def test_the_expert_bids_the_generale_with_eight_sure_tricks_and_not_without() -> None:
    sure = _first_bid_view("7S 8S 9S TS JS QS KS AS")
    assert SearchBot(random.Random(1)).choose_bid(sure).code == "generale:S"  # type: ignore[arg-type]
    # without the option, the same hand bids capot at most
    plain = _first_bid_view("7S 8S 9S TS JS QS KS AS", Rules(variant="contree",
                                                               contree_scoring="ffb"))
    assert SearchBot(random.Random(1)).choose_bid(plain).value != GENERALE_VALUE  # type: ignore[arg-type]
    # a strong hand that needs its partner for a trick or two stays below the générale
    for seed in range(5):
        strong = _first_bid_view("JS 9S AS TS KS AH TH 7D")
        bid = SearchBot(random.Random(seed)).choose_bid(strong)  # type: ignore[arg-type]
        assert bid.value != GENERALE_VALUE
        assert HeuristicBot(random.Random(seed)).choose_bid(strong).value != GENERALE_VALUE  # type: ignore[arg-type]


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


def test_a_table_offers_the_generale_with_the_option(harness: GameHarness) -> None:
    plain = harness.create_table(players=4, seed=31, options={"variant": 2})
    first = seat_players(plain)[0]
    assert not any(code.startswith("generale:") for code in plain.data(first)["legal_bids"])
    error = plain.act_expecting_error(first, "bid", bid="generale:H")
    assert (error.code, str(error)) == ("no_generale", "The générale is not played at this table")
    t = harness.create_table(players=4, seed=31, options={"variant": 2, "generale": ON})
    assert t.data(None)["rules"]["generale"] is True
    first, second, third, fourth = seat_players(t)
    assert "generale:H" in t.data(first)["legal_bids"]
    t.act(first, "bid", bid="generale:H")
    name = t.data(None)["players"][str(first)]["name"]
    assert f"{name} bids the générale at hearts: to take all eight tricks alone" in \
        [e["log"] for e in t.notifications(None)]
    for player in (second, third, fourth):
        t.act(player, "bid", bid="pass")
    contract = t.data(None)["contract"]
    assert (contract["value"], contract["taker"]) == (GENERALE_VALUE, first)


def score_difference(*args: Any) -> float:
    """Team 0's hand score minus team 1's (``hand_scores``'s arguments)."""
    score = hand_scores(*args)
    return float(score[0] - score[1])


def test_the_experts_expected_score_of_a_generale_counts_the_takers_own_tricks() -> None:
    contract = Contract(Suit.SPADES, 0, GENERALE_VALUE)
    dealt = [0, 0, 0, 0]  # no belote
    # the taker took 5 of the team's 6 tricks: failed, the defence writes 160 + 500
    assert score_difference(FFB, contract, dealt, (120, 42), 1, (6, 2), 5) == -660.0
    assert score_difference(FFB, contract, dealt, (162, 0), 1, (8, 0), 7) == -660.0
    assert score_difference(FFB, contract, dealt, (162, 0), 1, (8, 0), 8) == 750.0
