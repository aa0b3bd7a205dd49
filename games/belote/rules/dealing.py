"""Dealing a shuffled deck: contrée 3-2-3, classic 3-2 and a turned card, then the rest.

The caller supplies the shuffled deck: no randomness here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import FULL_DECK_MASK, Card, mask_of
from .errors import CardError


def deal_contree(deck: Sequence[Card], dealer: int) -> list[list[Card]]:
    """Deal a shuffled 32-card deck 8 cards each, starting at ``dealer + 1`` (3-2-3).

    Raises:
        CardError: the deck is not the 32 cards.
    """
    _check_deck(deck)
    hands: list[list[Card]] = [[], [], [], []]
    position = 0
    for count in (3, 2, 3):
        for step in range(1, 5):
            seat = (dealer + step) % 4
            hands[seat].extend(deck[position:position + count])
            position += count
    return hands


def deal_classic_first(deck: Sequence[Card], dealer: int) -> tuple[list[list[Card]], Card]:
    """First classic deal: 5 cards each from ``dealer + 1`` (3-2) and the turned-up card.

    Raises:
        CardError: the deck is not the 32 cards.
    """
    _check_deck(deck)
    hands: list[list[Card]] = [[], [], [], []]
    position = 0
    for count in (3, 2):
        for step in range(1, 5):
            hands[(dealer + step) % 4].extend(deck[position:position + count])
            position += count
    return hands, deck[20]


def deal_classic_rest(deck: Sequence[Card], dealer: int, hands: Sequence[Sequence[Card]],
                      taker: int) -> list[list[Card]]:
    """Complete a classic deal after bidding: the taker gets the turned card and 2 more,
    the others 3 each, dealt from ``dealer + 1`` with the 11 cards after the turned one.
    """
    full = [list(hand) for hand in hands]
    full[taker].append(deck[20])
    position = 21
    for step in range(1, 5):
        seat = (dealer + step) % 4
        count = 2 if seat == taker else 3
        full[seat].extend(deck[position:position + count])
        position += count
    return full


def _check_deck(deck: Sequence[Card]) -> None:
    if len(deck) != 32 or mask_of(deck) != FULL_DECK_MASK:
        raise CardError("a deck must be the 32 cards once each")
