"""Classic and contrée bidding: legal bids, contracts, redeals and bid codes."""

from __future__ import annotations

import pytest

from games.belote.rules import (
    ALL_TRUMPS,
    NO_TRUMPS,
    Bid,
    Card,
    ClassicBidding,
    Contract,
    ContreeBidding,
    IllegalBidError,
    Rules,
    RulesError,
    Suit,
    new_bidding,
)

TURNED = Card.from_str("9H")
CONTREE = Rules(variant="contree")


def run(bidding: ClassicBidding | ContreeBidding, bids: str) -> None:
    for code in bids.split():
        bidding.apply(code)


def legal(bidding: ClassicBidding | ContreeBidding) -> list[str]:
    return [bid.code for bid in bidding.legal_bids()]


@pytest.mark.parametrize("code", [
    "pass", "take", "take:H", "all", "none", "80:S", "160:C", "capot:H", "120:all", "90:none",
    "coinche", "surcoinche",
])
def test_bid_codes_round_trip(code: str) -> None:
    assert Bid.from_code(code).code == code
    assert str(Bid.from_code(code)) == code


@pytest.mark.parametrize("code", ["", "take:all", "75:S", "170:H", "80", "80:X", "double", 80])
def test_bad_bid_codes(code: object) -> None:
    with pytest.raises(IllegalBidError):
        Bid.from_code(code)  # type: ignore[arg-type]


# -- classic


def test_first_speaker_is_left_of_dealer_and_takes_the_turned_suit() -> None:
    bidding = ClassicBidding(dealer=3, turned=TURNED)
    assert bidding.to_play == 0
    assert legal(bidding) == ["pass", "take"]
    run(bidding, "pass take")
    assert bidding.is_over
    assert bidding.contract == Contract(Suit.HEARTS, taker=1)
    assert bidding.history == [(0, Bid.from_code("pass")), (1, Bid.from_code("take"))]


def test_second_round_names_another_suit() -> None:
    bidding = ClassicBidding(dealer=0, turned=TURNED)
    run(bidding, "pass pass pass pass")
    assert bidding.round == 2 and bidding.to_play == 1
    assert legal(bidding) == ["pass", "take:S", "take:D", "take:C"]
    with pytest.raises(IllegalBidError):
        bidding.apply("take:H")
    with pytest.raises(IllegalBidError):
        bidding.apply("take")
    run(bidding, "pass take:C")
    assert bidding.contract == Contract(Suit.CLUBS, taker=2)


def test_second_round_any_suit_allows_the_turned_suit() -> None:
    bidding = ClassicBidding(0, TURNED, Rules(second_round_any_suit=True))
    run(bidding, "pass pass pass pass")
    assert legal(bidding) == ["pass", "take:S", "take:H", "take:D", "take:C"]
    run(bidding, "take:H")
    assert bidding.contract == Contract(Suit.HEARTS, taker=1)


def test_all_pass_twice_is_a_redeal() -> None:
    bidding = ClassicBidding(0, TURNED)
    run(bidding, "pass " * 8)
    assert bidding.is_over and bidding.contract is None
    assert legal(bidding) == []
    with pytest.raises(IllegalBidError, match="over"):
        bidding.apply("pass")


def test_all_no_trumps_adds_a_third_round() -> None:
    bidding = ClassicBidding(1, TURNED, Rules(all_no_trumps=True))
    run(bidding, "pass " * 8)
    assert not bidding.is_over and bidding.round == 3
    assert legal(bidding) == ["pass", "all", "none"]
    run(bidding, "pass none")
    assert bidding.contract == Contract(NO_TRUMPS, taker=3)
    other = ClassicBidding(1, TURNED, Rules(all_no_trumps=True))
    run(other, "pass " * 8 + "all")
    assert other.contract == Contract(ALL_TRUMPS, taker=2)
    redeal = ClassicBidding(1, TURNED, Rules(all_no_trumps=True))
    run(redeal, "pass " * 12)
    assert redeal.is_over and redeal.contract is None


def test_out_of_turn_bid_is_rejected() -> None:
    bidding = ClassicBidding(0, TURNED)
    with pytest.raises(IllegalBidError, match="turn"):
        bidding.apply("take", seat=2)
    bidding.apply("take", seat=1)
    assert bidding.contract is not None and bidding.contract.taker == 1


def test_new_bidding_needs_a_turned_card_in_classic() -> None:
    with pytest.raises(RulesError):
        new_bidding(Rules(), dealer=0)
    assert isinstance(new_bidding(CONTREE, dealer=0), ContreeBidding)


# -- contrée


def test_bids_must_rise_and_three_passes_close() -> None:
    bidding = ContreeBidding(dealer=0, rules=CONTREE)
    assert bidding.to_play == 1
    assert legal(bidding)[:6] == ["pass", "80:S", "80:H", "80:D", "80:C", "90:S"]
    assert "coinche" not in legal(bidding)
    run(bidding, "80:S 90:H")
    with pytest.raises(IllegalBidError):
        bidding.apply("90:S")
    run(bidding, "110:H pass pass")
    assert not bidding.is_over
    run(bidding, "pass")
    assert bidding.contract == Contract(Suit.HEARTS, taker=3, value=110)


def test_a_pass_then_a_bid_resets_the_pass_count() -> None:
    bidding = ContreeBidding(0, CONTREE)
    run(bidding, "pass pass 80:D pass pass 100:C pass pass")
    assert not bidding.is_over
    run(bidding, "pass")
    assert bidding.contract == Contract(Suit.CLUBS, taker=2, value=100)


def test_four_passes_is_a_redeal() -> None:
    bidding = ContreeBidding(2, CONTREE)
    run(bidding, "pass pass pass pass")
    assert bidding.is_over and bidding.contract is None


def test_all_and_no_trumps_bids_need_the_option() -> None:
    assert "80:all" not in legal(ContreeBidding(0, CONTREE))
    bidding = ContreeBidding(0, Rules(variant="contree", all_no_trumps=True))
    assert "80:all" in legal(bidding) and "80:none" in legal(bidding)
    run(bidding, "130:none pass pass pass")
    assert bidding.contract == Contract(NO_TRUMPS, taker=1, value=130)


def test_capot_is_the_highest_bid() -> None:
    bidding = ContreeBidding(0, CONTREE)
    run(bidding, "capot:S")
    assert legal(bidding) == ["pass", "coinche"]
    run(bidding, "pass pass pass")
    assert bidding.contract == Contract(Suit.SPADES, taker=1, value=250)


def test_only_opponents_coinche_and_only_the_bidding_team_surcoinches() -> None:
    bidding = ContreeBidding(0, CONTREE)
    run(bidding, "100:S")                      # seat 1 bids
    assert "coinche" in legal(bidding)         # seat 2 is an opponent
    run(bidding, "pass")
    assert "coinche" not in legal(bidding)     # seat 3 is the bidder's partner
    run(bidding, "pass coinche")               # seat 0 coinches
    assert bidding.to_play == 1
    assert legal(bidding) == ["pass", "surcoinche"]
    run(bidding, "pass")
    assert bidding.to_play == 3
    run(bidding, "surcoinche")
    assert bidding.contract == Contract(Suit.SPADES, taker=1, value=100, coinche=2)


def test_a_coinche_ends_the_bidding_when_the_bidders_pass() -> None:
    bidding = ContreeBidding(3, CONTREE)
    run(bidding, "90:D coinche pass pass")
    assert bidding.contract == Contract(Suit.DIAMONDS, taker=0, value=90, coinche=1)


def test_raise_sequence_lets_the_declarer_raise_then_opponents_double() -> None:
    rules = Rules(variant="contree", contree_raise_sequence=True)
    bidding = ContreeBidding(0, rules)
    run(bidding, "80:H pass pass pass")
    assert not bidding.is_over and bidding.phase == "raise" and bidding.to_play == 1
    assert "90:H" in legal(bidding) and "90:S" not in legal(bidding)
    run(bidding, "110:H")
    assert bidding.phase == "double" and bidding.to_play == 2
    assert legal(bidding) == ["pass", "coinche"]
    run(bidding, "pass coinche")
    assert bidding.phase == "redouble" and bidding.to_play == 1
    run(bidding, "pass surcoinche")
    assert bidding.contract == Contract(Suit.HEARTS, taker=1, value=110, coinche=2)


def test_raise_sequence_can_be_all_passes() -> None:
    bidding = ContreeBidding(0, Rules(variant="contree", contree_raise_sequence=True))
    run(bidding, "80:H pass pass pass pass pass pass")
    assert bidding.contract == Contract(Suit.HEARTS, taker=1, value=80)
    without = ContreeBidding(0, CONTREE)
    run(without, "80:H pass pass pass")
    assert without.is_over


def test_coinche_is_not_allowed_before_any_bid_or_twice() -> None:
    bidding = ContreeBidding(0, CONTREE)
    with pytest.raises(IllegalBidError):
        bidding.apply("coinche")
    run(bidding, "80:C coinche")
    with pytest.raises(IllegalBidError):
        bidding.apply("coinche")
