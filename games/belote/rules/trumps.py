"""What a contract is played in (a suit, all trumps, no trumps), the point and order tables,
and what follows from them: card points, which card beats which, trick winner and points.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum

from .cards import (
    CARDS,
    Card,
    Rank,
    Suit,
    parse_cards,  # noqa: F401 (used by the doctests)
)
from .errors import CardError


class TrumpMode(Enum):
    """Contracts without a single trump suit."""

    ALL_TRUMPS = "all"
    NO_TRUMPS = "none"


Trump = Suit | TrumpMode
"""What a contract is played in: a trump suit, all trumps or no trumps."""

ALL_TRUMPS = TrumpMode.ALL_TRUMPS
NO_TRUMPS = TrumpMode.NO_TRUMPS

_ALL_CODE = 4
_NONE_CODE = 5

PLAIN_POINTS: dict[Rank, int] = {
    Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
    Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}
TRUMP_POINTS: dict[Rank, int] = {
    Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3,
    Rank.EIGHT: 0, Rank.SEVEN: 0,
}
NO_TRUMP_POINTS: dict[Rank, int] = {
    Rank.ACE: 19, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
    Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0,
}
ALL_TRUMP_POINTS: dict[Rank, int] = {
    Rank.JACK: 13, Rank.NINE: 9, Rank.ACE: 6, Rank.TEN: 5, Rank.KING: 3, Rank.QUEEN: 2,
    Rank.EIGHT: 0, Rank.SEVEN: 0,
}
PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE,
)
"""Plain-suit (and no-trumps) order, lowest first."""
TRUMP_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN, Rank.EIGHT, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE, Rank.NINE, Rank.JACK,
)
"""Trump order (also every suit in all trumps), lowest first."""
SEQUENCE_ORDER: tuple[Rank, ...] = (
    Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)
"""Order of announced sequences (tierce, quarte, quinte), lowest first."""

LAST_TRICK_BONUS = 10
"""Dix de der: the last trick is worth 10."""
CARD_POINTS_TOTAL = 152
HAND_POINTS_TOTAL = CARD_POINTS_TOTAL + LAST_TRICK_BONUS
CAPOT_POINTS = 252
BELOTE_POINTS = 20
CONTREE_FAILED_POINTS = 160
CONTREE_VALUES: tuple[int, ...] = (80, 90, 100, 110, 120, 130, 140, 150, 160)
CAPOT_VALUE = 250
GENERALE_VALUE = 500
"""Contrée: the générale, one player alone takes all eight tricks (`Rules.generale`)."""


def trump_code(trump: Trump) -> int:
    """Small integer for a trump: 0..3 for a suit, 4 all trumps, 5 no trumps.

    >>> trump_code(Suit.CLUBS), trump_code(ALL_TRUMPS), trump_code(NO_TRUMPS)
    (3, 4, 5)
    """
    if isinstance(trump, Suit):
        return int(trump)
    return _ALL_CODE if trump is TrumpMode.ALL_TRUMPS else _NONE_CODE


def trump_from_code(code: int) -> Trump:
    """Inverse of `trump_code`."""
    if code < 4:
        return Suit(code)
    return ALL_TRUMPS if code == _ALL_CODE else NO_TRUMPS


def trump_from_str(text: str) -> Trump:
    """Parse ``S H D C all none``.

    >>> trump_from_str("H"), trump_from_str("all")
    (<Suit.HEARTS: 1>, <TrumpMode.ALL_TRUMPS: 'all'>)

    Raises:
        CardError: unknown trump code.
    """
    if text == "all":
        return ALL_TRUMPS
    if text == "none":
        return NO_TRUMPS
    if isinstance(text, str) and len(text) == 1 and text in "SHDC":
        return Suit.from_char(text)
    raise CardError(f"unknown trump {text!r} (expected S, H, D, C, all or none)")


def trump_to_str(trump: Trump) -> str:
    """Code of a trump, inverse of `trump_from_str`.

    >>> trump_to_str(Suit.SPADES), trump_to_str(NO_TRUMPS)
    ('S', 'none')
    """
    return trump.char if isinstance(trump, Suit) else trump.value


def _is_trump_like(suit: int, code: int) -> bool:
    return code == _ALL_CODE or suit == code


def _build_tables() -> tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
]:
    points_rows, order_rows, above_rows, key_rows = [], [], [], []
    trump_rank = {rank: i for i, rank in enumerate(TRUMP_ORDER)}
    plain_rank = {rank: i for i, rank in enumerate(PLAIN_ORDER)}
    for code in range(6):
        points, order = [], []
        for card in CARDS:
            trump_like = _is_trump_like(card.suit, code)
            if code == _ALL_CODE:
                points.append(ALL_TRUMP_POINTS[card.rank])
            elif code == _NONE_CODE:
                points.append(NO_TRUMP_POINTS[card.rank])
            elif trump_like:
                points.append(TRUMP_POINTS[card.rank])
            else:
                points.append(PLAIN_POINTS[card.rank])
            order.append(trump_rank[card.rank] if trump_like else plain_rank[card.rank])
        above = []
        for card in CARDS:
            mask = 0
            for other in CARDS:
                if other.suit == card.suit and order[other.index] > order[card.index]:
                    mask |= 1 << other.index
            above.append(mask)
        keys = []
        for led in range(4):
            for card in CARDS:
                if code < 4 and card.suit == code:
                    keys.append(16 + order[card.index])
                elif card.suit == led:
                    keys.append(order[card.index])
                else:
                    keys.append(-1)
        points_rows.append(tuple(points))
        order_rows.append(tuple(order))
        above_rows.append(tuple(above))
        key_rows.append(tuple(keys))
    return tuple(points_rows), tuple(order_rows), tuple(above_rows), tuple(key_rows)


_POINTS, _ORDER, _ABOVE, _WIN_KEY = _build_tables()
POINTS_BY_TRUMP = _POINTS
"""``POINTS_BY_TRUMP[trump_code(t)][card.index]``: card points in contract ``t``."""
ORDER_BY_TRUMP = _ORDER
"""``ORDER_BY_TRUMP[trump_code(t)][card.index]``: strength of a card within its suit."""
BEATEN_BY = _ABOVE
"""``BEATEN_BY[trump_code(t)][card.index]``: mask of the same-suit cards that beat it."""
# _POINTS[code][card], _ORDER[code][card]: strength within its suit,
# _ABOVE[code][card]: mask of same-suit cards that beat it,
# _WIN_KEY[code][led * 32 + card]: trick strength, -1 when the card cannot win.


def card_points(card: Card, trump: Trump) -> int:
    """Points of a card in a contract.

    >>> card_points(Card.from_str("JS"), trump=Suit.SPADES)
    20
    >>> card_points(Card.from_str("JS"), trump=Suit.HEARTS)
    2
    >>> card_points(Card.from_str("AD"), trump=NO_TRUMPS)
    19
    >>> card_points(Card.from_str("9D"), trump=ALL_TRUMPS)
    9
    """
    return _POINTS[trump_code(trump)][card.index]


def beats(challenger: Card, best: Card, led: Suit, trump: Trump) -> bool:
    """Whether ``challenger`` beats ``best`` in a trick led in ``led``.

    >>> beats(Card.from_str("7S"), Card.from_str("AH"), Suit.HEARTS, Suit.SPADES)
    True
    >>> beats(Card.from_str("TH"), Card.from_str("9H"), Suit.HEARTS, Suit.HEARTS)
    False
    """
    table = _WIN_KEY[trump_code(trump)]
    return table[led * 32 + challenger.index] > table[led * 32 + best.index]


def trick_winner(cards: Sequence[Card], leader: int, trump: Trump) -> int:
    """Seat that wins a trick whose cards were played in order from ``leader``.

    >>> trick_winner(parse_cards(["TH", "AH", "7S", "KH"]), leader=1, trump=Suit.SPADES)
    3
    >>> trick_winner(parse_cards(["TH", "AH", "7S", "KH"]), leader=1, trump=NO_TRUMPS)
    2

    Raises:
        CardError: the trick is empty.
    """
    if not cards:
        raise CardError("an empty trick has no winner")
    table = _WIN_KEY[trump_code(trump)]
    base = cards[0].suit * 32
    best, best_key = 0, table[base + cards[0].index]
    for position in range(1, len(cards)):
        key = table[base + cards[position].index]
        if key > best_key:
            best, best_key = position, key
    return (leader + best) % 4


def trick_points(cards: Iterable[Card], trump: Trump) -> int:
    """Card points in a trick (without the dix de der).

    >>> trick_points(parse_cards(["JS", "9S", "AH", "7D"]), Suit.SPADES)
    45
    """
    table = _POINTS[trump_code(trump)]
    return sum(table[card.index] for card in cards)
