"""Classic bidding: what passing leads to on a sampled deal. Passing is not a score of 0:
another seat may take (the turned card in round one, a suit of its own in round two), the
seat itself may name a better suit in round two, or everybody passes and the deal is
cancelled. The other seats are taken to bid by the strength of their first five cards and
the turned card, as the common rule of thumb (and the beginner) does."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Card, Rules
from .strength import hand_strength
from .tables import indices

ROUND_ONE_STRENGTH = 6.0
"""`hand_strength` (five cards and the turned one) a seat takes the turned card with."""
ROUND_TWO_STRENGTH = 6.5
"""`hand_strength` (five cards and the turned one) a seat names its suit with in round two."""
FIRST_CARDS = 5
"""Cards each seat holds while bidding (the turned card and the rest are dealt after)."""


def first_hands(rng: random.Random, deal: Sequence[int], me: int) -> list[int]:
    """Each other seat's five cards of the first deal, drawn from its eight in ``deal``
    (which five came first is not known: any are as likely); ``me``'s entry is 0.

    >>> hands = first_hands(random.Random(1), [0, 0xFF, 0xFF00, 0xFF0000], 0)
    >>> [bin(hand).count("1") for hand in hands]
    [0, 5, 5, 5]
    >>> all(hand & ~whole == 0 for hand, whole in zip(hands, [0, 0xFF, 0xFF00, 0xFF0000]))
    True
    """
    hands = [0, 0, 0, 0]
    for seat in range(4):
        if seat != me:
            for index in rng.sample(indices(deal[seat]), FIRST_CARDS):
                hands[seat] |= 1 << index
    return hands


def round_two_codes(turned: Card, rules: Rules) -> list[int]:
    """The suits round two may name (`ClassicBidding.legal_bids`)."""
    return [code for code in range(4) if code != int(turned.suit) or rules.second_round_any_suit]


def next_taker(dealer: int, start: int, stop: int, first: Sequence[int], turned: Card,
               rules: Rules) -> tuple[int, int] | None:
    """The first ``(seat, trump code)`` to take among the bidding positions ``start`` to
    ``stop - 1`` (0..3 round one, 4..7 round two, from the dealer's left), each seat bidding
    by `hand_strength` of its ``first`` cards with the turned one; None if all pass.

    >>> from ..rules import parse_cards, mask_of
    >>> turned = parse_cards(["7H"])[0]
    >>> strong = mask_of(parse_cards("JH 9H AS 8D 7C".split()))
    >>> spades = mask_of(parse_cards("JS 9S AS TS 8D".split()))
    >>> next_taker(0, 1, 8, [0, 0, strong, 0], turned, Rules())
    (2, 1)
    >>> next_taker(0, 1, 8, [0, 0, 0, spades], turned, Rules())  # round two, position 6
    (3, 0)
    >>> next_taker(0, 1, 6, [0, 0, 0, spades], turned, Rules()) is None
    True
    """
    turned_code = int(turned.suit)
    with_turned = 1 << turned.index
    codes = round_two_codes(turned, rules)
    for position in range(start, min(stop, 8)):
        seat = (dealer + 1 + position) % 4
        hand = first[seat] | with_turned
        if position < 4:
            if hand_strength(hand, turned_code) >= ROUND_ONE_STRENGTH:
                return seat, turned_code
            continue
        best = max(codes, key=lambda code: hand_strength(hand, code))
        if hand_strength(hand, best) >= ROUND_TWO_STRENGTH:
            return seat, best
    return None


def deal_for_taker(deal: Sequence[int], me: int, taker: int, turned: Card,
                   first: Sequence[int]) -> list[int]:
    """``deal`` (sampled with the turned card in ``me``'s hand) as it is when ``taker``
    takes instead: the turned card goes to the taker and one of the taker's later cards
    (not among its ``first``) to ``me``.

    >>> deal_for_taker([0b1, 0b1110, 0, 0], 0, 1, Card.from_index(0), [0, 0b0110, 0, 0])
    [8, 7, 0, 0]
    """
    hands = list(deal)
    later = deal[taker] & ~first[taker]
    given = later & -later
    hands[me] = (hands[me] & ~(1 << turned.index)) | given
    hands[taker] = (hands[taker] & ~given) | 1 << turned.index
    return hands
