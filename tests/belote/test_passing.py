"""Classic bidding: passing is valued by what it leads to (`bots.passing`): another seat's
contract, the seat's own suit in round two, or a cancelled deal."""

from __future__ import annotations

import random

from games.belote.bots import SearchBot, bid_view
from games.belote.bots.passing import deal_for_taker, first_hands, next_taker
from games.belote.bots.strength import hand_strength
from games.belote.rules import ClassicBidding, Rules, mask_of, parse_cards


def test_the_first_seat_strong_enough_takes_in_bidding_order() -> None:
    turned = parse_cards(["7H"])[0]
    hearts = mask_of(parse_cards("JH 9H AS 8D 7C".split()))
    spades = mask_of(parse_cards("JS 9S AS TS 8D".split()))
    first = [0, spades, hearts, 0]
    # dealer 3: seat 0 speaks first, then 1 (weak in hearts), then 2 takes the turned card
    assert next_taker(3, 0, 8, first, turned, Rules()) == (2, 1)
    # from round two on, seat 1 names spades before seat 2 could speak again
    assert next_taker(3, 4, 8, first, turned, Rules()) == (1, 0)
    assert next_taker(3, 0, 2, first, turned, Rules()) is None


def test_a_taker_gets_the_turned_card_and_the_passer_a_card_in_its_place() -> None:
    rng = random.Random(3)
    deck = list(range(32))
    rng.shuffle(deck)
    deal = [sum(1 << index for index in deck[seat * 8:seat * 8 + 8]) for seat in range(4)]
    turned = next(card for card in parse_cards("7H 8H 9H TH JH QH KH AH".split())
                  if deal[0] >> card.index & 1)
    first = first_hands(rng, deal, 0)
    after = deal_for_taker(deal, 0, 2, turned, first)
    assert [hand.bit_count() for hand in after] == [8, 8, 8, 8]
    assert sum(after) == sum(deal) and after[1] == deal[1] and after[3] == deal[3]
    assert after[2] >> turned.index & 1 and not after[0] >> turned.index & 1
    assert after[2] & first[2] == first[2]  # the taker keeps its first five cards


def test_the_expert_waits_for_round_two_with_a_much_better_suit() -> None:
    turned = parse_cards(["7H"])[0]
    hand = tuple(parse_cards("9H AH JS 9S AS".split()))
    mine = mask_of(hand) | 1 << turned.index
    assert hand_strength(mine, 1) >= 6.0  # the turned suit alone would be a fair take
    bidding = ClassicBidding(0, turned, Rules())
    bids = {SearchBot(random.Random(seed)).choose_bid(bid_view(bidding, hand, None)).code
            for seed in range(3)}
    assert bids == {"pass"}
    for seat in (1, 2, 3, 0):  # round one passes all round: now spades
        bidding.apply(bidding.legal_bids()[0], seat)
    bid = SearchBot(random.Random(1)).choose_bid(bid_view(bidding, hand, None))
    assert bid.code == "take:S"
