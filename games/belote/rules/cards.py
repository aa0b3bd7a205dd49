"""Suits, ranks and the 32 cards, card codes, and card sets as 32-bit masks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from .errors import CardError


class Suit(IntEnum):
    """The four suits, in the order used to sort card lists (S, H, D, C)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def char(self) -> str:
        """One-letter code: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def label(self) -> str:
        """Lower-case English plural, as used in messages (``"diamonds"``)."""
        return self.name.lower()

    @classmethod
    def from_char(cls, char: str) -> Suit:
        """Suit from its letter.

        >>> Suit.from_char("H")
        <Suit.HEARTS: 1>

        Raises:
            CardError: the letter is not one of ``S H D C``.
        """
        index = "SHDC".find(char)
        if len(char) != 1 or index < 0:
            raise CardError(f"unknown suit {char!r} (expected one of S H D C)")
        return cls(index)


class Rank(IntEnum):
    """The eight ranks, numbered in the card-list sort order 7 8 9 J Q K T A."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    JACK = 3
    QUEEN = 4
    KING = 5
    TEN = 6
    ACE = 7

    @property
    def char(self) -> str:
        """One-character code: ``7 8 9 J Q K T A``."""
        return "789JQKTA"[self]

    @classmethod
    def from_char(cls, char: str) -> Rank:
        """Rank from its character.

        >>> Rank.from_char("T")
        <Rank.TEN: 6>

        Raises:
            CardError: the character is not one of ``7 8 9 T J Q K A``.
        """
        index = "789JQKTA".find(char)
        if len(char) != 1 or index < 0:
            raise CardError(f"unknown rank {char!r} (expected one of 7 8 9 T J Q K A)")
        return cls(index)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One of the 32 cards. Ordering is the card-list sort order (suit, then 7 8 9 J Q K T A)."""

    suit: Suit
    rank: Rank
    index: int = field(init=False, compare=False, repr=False)
    """Position 0..31 of the card; bit ``index`` represents it in a card mask."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 8 + self.rank)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at position ``index`` (0..31).

        >>> Card.from_index(0), Card.from_index(31)
        (Card('7S'), Card('AC'))
        """
        return CARDS[index]

    @classmethod
    def from_str(cls, code: str) -> Card:
        """Parse a code such as ``"JS"`` or ``"TH"``.

        >>> Card.from_str("JS")
        Card('JS')
        >>> str(Card.from_str("7c"))
        '7C'

        Raises:
            CardError: the code is not a rank character followed by a suit letter.
        """
        if not isinstance(code, str) or len(code) != 2:
            raise CardError(f"bad card code {code!r} (expected rank+suit such as 'JS')")
        return CARDS[Suit.from_char(code[1].upper()) * 8 + Rank.from_char(code[0].upper())]

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


SUITS: tuple[Suit, ...] = tuple(Suit)
"""The four suits in their order (iterating the enum itself costs several times more)."""

CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in SUITS for rank in Rank)
"""All 32 cards by index."""

FULL_DECK_MASK = (1 << 32) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * suit) for suit in Suit)


def mask_of(cards: Iterable[Card]) -> int:
    """Bit mask of a set of cards.

    >>> bin(mask_of([Card.from_str("7S"), Card.from_str("9S")]))
    '0b101'
    """
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    """Cards of a mask, in the card-list sort order.

    >>> [str(card) for card in cards_of(0b101)]
    ['7S', '9S']
    """
    result = []
    while mask:
        low = mask & -mask
        result.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return result


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """Cards from a list of codes.

    Raises:
        CardError: a code is malformed.
    """
    return [Card.from_str(code) for code in codes]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in the card-list sort order (S, H, D, C; 7 8 9 J Q K T A).

    >>> [str(card) for card in sort_cards(parse_cards(["AC", "TS", "JS"]))]
    ['JS', 'TS', 'AC']
    """
    return sorted(cards)
