"""Hand evaluation on card masks: a rough trick-taking strength of a hand for a contract,
used by the beginner's bids and by the samplers to keep deals consistent with the bids."""

from __future__ import annotations

# mask_of and parse_cards: the doctests deal hands with them
from ..rules import Rank, mask_of, parse_cards  # noqa: F401
from .tables import ALL_CODE, NONE_CODE, SUITS

_J, _9, _A, _T = int(Rank.JACK), int(Rank.NINE), int(Rank.ACE), int(Rank.TEN)


def hand_strength(mask: int, code: int) -> float:
    """Strength of the hand ``mask`` if the contract were trump ``code`` (0..5): about one
    unit per trick-winning card (trump jack 3.5, nine 2.5, ace 1.5, ten 1.2, other trumps
    0.8; side aces 1.2, a ten with its ace 0.6).

    >>> hand_strength(mask_of(parse_cards("JH 9H 7H AS 8D".split())), 1)
    8.0
    """
    score = 0.0
    if code == ALL_CODE:
        for suit in range(4):
            base = suit * 8
            score += 3.0 * (mask >> (base + _J) & 1) + 2.0 * (mask >> (base + _9) & 1) \
                + 0.6 * (mask >> (base + _A) & 1)
        return score
    if code == NONE_CODE:
        for suit in range(4):
            base = suit * 8
            ace = mask >> (base + _A) & 1
            ten = mask >> (base + _T) & 1
            score += 2.5 * ace + (1.5 if ace else 0.3) * ten
        return score
    for suit in range(4):
        base = suit * 8
        if suit == code:
            trumps = (mask & SUITS[suit]).bit_count()
            jack, nine = mask >> (base + _J) & 1, mask >> (base + _9) & 1
            ace, ten = mask >> (base + _A) & 1, mask >> (base + _T) & 1
            score += 3.5 * jack + 2.5 * nine + 1.5 * ace + 1.2 * ten \
                + 0.8 * (trumps - jack - nine - ace - ten)
        else:
            ace = mask >> (base + _A) & 1
            score += 1.2 * ace + 0.6 * (ace & (mask >> (base + _T) & 1))
    return score


def support_strength(mask: int, code: int) -> float:
    """What a hand adds to its partner's bid in suit ``code``: side aces (with their tens),
    the trump jack and nine, and trump length beyond two.

    >>> support_strength(mask_of(parse_cards("9H 7H 8H AS TS 8D".split())), 1)
    2.3
    """
    if code >= 4:
        return hand_strength(mask, code) * 0.5
    score = 0.0
    for suit in range(4):
        base = suit * 8
        if suit == code:
            count = (mask & SUITS[suit]).bit_count()
            score += 1.0 * (mask >> (base + _J) & 1) + 0.7 * (mask >> (base + _9) & 1) \
                + 0.3 * max(0, count - 2)
        else:
            ace = mask >> (base + _A) & 1
            score += 1.0 * ace + 0.3 * (ace & (mask >> (base + _T) & 1))
    return round(score, 3)
