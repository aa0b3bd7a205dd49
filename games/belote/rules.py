"""Pure Belote rules: cards, contracts, bidding, legal play, tricks, announcements and scoring.

No I/O, no clock, no global random: everything here is a function of its arguments.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum, IntEnum
from typing import Any, Literal, NamedTuple

# ---------------------------------------------------------------------------
# Errors


class BeloteError(ValueError):
    """Base class of every error raised by the Belote engine."""


class IllegalMoveError(BeloteError):
    """A card that the seat to play may not play now (or does not hold)."""


class IllegalBidError(BeloteError):
    """A bid that is not allowed at this point of the bidding."""


class RulesError(BeloteError):
    """A `Rules` value or rules dictionary that makes no sense."""


class CardError(BeloteError):
    """A card code, card set or deal that is malformed."""


# ---------------------------------------------------------------------------
# Cards


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


CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
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


# ---------------------------------------------------------------------------
# Trumps and point tables


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


# ---------------------------------------------------------------------------
# Rules

Variant = Literal["classic", "contree"]
UndertrumpRule = Literal["required", "optional"]
MultiplierRule = Literal["contract", "whole"]
AnnounceTieRule = Literal["nearest", "nobody"]


@dataclass(frozen=True)
class Rules:
    """Table options. Defaults are Board Game Arena's classic Belote.

    Attributes:
        variant: ``"classic"`` (take/pass on a turned card) or ``"contree"`` (bids 80..160).
        undertrump: a player void in the led suit whose opponent is winning must trump, and
            must overtrump a trump already played when possible. When that is impossible,
            ``"required"``: play a lower trump; ``"optional"``: play any card (lower trump or
            discard). With ``"optional"`` a trick not yet trumped must still be trumped, and a
            trump lead must still be overtaken when possible (as in the golden hands of
            ``contree-undertrump-optional.jsonl``).
        second_round_any_suit: classic, second round may also name the turned card's suit.
        all_no_trumps: allow all-trumps and no-trumps contracts (classic: a third round).
        contree_raise_sequence: contrée, after three passes the declarer may raise once,
            then the opponents may double and the declarer's team redouble.
        belote_to_defence_on_failed: contrée, a failed contract gives the takers' belote to
            the defence.
        multiplier: contrée, coinche multiplies the ``"contract"`` value or the ``"whole"``
            hand score.
        announcements: score tierce/quarte/quinte/carré announcements.
        announce_tie: equal best announcements: ``"nearest"`` (player nearest the first
            speaker wins) or ``"nobody"`` scores.
        target: game end score (used by the game code).
    """

    variant: Variant = "classic"
    undertrump: UndertrumpRule = "required"
    second_round_any_suit: bool = False
    all_no_trumps: bool = False
    contree_raise_sequence: bool = False
    belote_to_defence_on_failed: bool = False
    multiplier: MultiplierRule = "contract"
    announcements: bool = False
    announce_tie: AnnounceTieRule = "nearest"
    target: int = 1000

    def __post_init__(self) -> None:
        choices: dict[str, tuple[object, ...]] = {
            "variant": ("classic", "contree"),
            "undertrump": ("required", "optional"),
            "multiplier": ("contract", "whole"),
            "announce_tie": ("nearest", "nobody"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                value = getattr(self, name)
                raise RulesError(f"rules.{name} must be one of {allowed}, not {value!r}")
        for item in fields(self):
            if item.type == "bool" and not isinstance(getattr(self, item.name), bool):
                raise RulesError(f"rules.{item.name} must be true or false")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target <= 0:
            raise RulesError(f"rules.target must be a positive integer, not {self.target!r}")

    @property
    def is_contree(self) -> bool:
        return self.variant == "contree"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a JSON object whose keys are field names; absent keys take defaults.

        >>> Rules.from_dict({"variant": "contree"}).undertrump
        'required'

        Raises:
            RulesError: unknown key or bad value.
        """
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules key(s): {', '.join(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """All fields as a JSON-ready dictionary."""
        return {item.name: getattr(self, item.name) for item in fields(self)}


# ---------------------------------------------------------------------------
# Contracts and bids


@dataclass(frozen=True)
class Contract:
    """The outcome of bidding.

    Attributes:
        trump: trump suit, all trumps or no trumps.
        taker: seat that took (classic) or made the last bid (contrée).
        value: contrée bid (80..160, or 250 for capot); None in classic.
        coinche: 0 none, 1 coinched (doubled), 2 surcoinched (redoubled).
    """

    trump: Trump
    taker: int
    value: int | None = None
    coinche: int = 0

    def __post_init__(self) -> None:
        if self.taker not in range(4):
            raise RulesError(f"contract taker must be a seat 0..3, not {self.taker!r}")
        if self.coinche not in (0, 1, 2):
            raise RulesError(f"contract coinche must be 0, 1 or 2, not {self.coinche!r}")
        if self.value is not None and self.value not in CONTREE_VALUES + (CAPOT_VALUE,):
            raise RulesError(f"contract value must be 80..160 by 10 or 250, not {self.value!r}")

    @property
    def taker_team(self) -> int:
        return self.taker % 2

    @property
    def is_capot_bid(self) -> bool:
        return self.value == CAPOT_VALUE

    def to_dict(self) -> dict[str, Any]:
        """JSON shape used by hand records."""
        data: dict[str, Any] = {
            "trump": trump_to_str(self.trump), "taker": self.taker, "coinche": self.coinche,
        }
        if self.value is not None:
            data["value"] = self.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Contract:
        """Inverse of `to_dict`.

        Raises:
            RulesError: missing or bad fields.
            CardError: bad trump code.
        """
        if not isinstance(data, dict) or "trump" not in data or "taker" not in data:
            raise RulesError("contract must be an object with 'trump' and 'taker'")
        return cls(
            trump=trump_from_str(data["trump"]),
            taker=data["taker"],
            value=data.get("value"),
            coinche=data.get("coinche", 0),
        )


class BidKind(Enum):
    PASS = "pass"
    TAKE = "take"          # classic: take (turned suit, or named suit in round 2; all/none)
    VALUE = "value"        # contrée: a value with a trump
    COINCHE = "coinche"
    SURCOINCHE = "surcoinche"


@dataclass(frozen=True)
class Bid:
    """A bidding action; ``code`` is its JSON form.

    Codes: ``pass``; classic ``take`` (turned suit, round 1), ``take:H`` (round 2),
    ``all`` / ``none`` (round 3); contrée ``80:S`` .. ``160:C``, ``capot:H``, ``120:all``,
    ``coinche``, ``surcoinche``.
    """

    kind: BidKind
    trump: Trump | None = None  # None for a classic "take" of the turned card's suit
    value: int | None = None

    @property
    def code(self) -> str:
        if self.kind is BidKind.TAKE:
            if self.trump is None:
                return "take"
            if isinstance(self.trump, TrumpMode):
                return self.trump.value
            return f"take:{self.trump.char}"
        if self.kind is BidKind.VALUE:
            assert self.trump is not None and self.value is not None
            amount = "capot" if self.value == CAPOT_VALUE else str(self.value)
            return f"{amount}:{trump_to_str(self.trump)}"
        return self.kind.value

    def __str__(self) -> str:
        return self.code

    @classmethod
    def from_code(cls, code: str) -> Bid:
        """Parse a bid code.

        >>> Bid.from_code("take:H").trump
        <Suit.HEARTS: 1>
        >>> Bid.from_code("capot:all").value
        250
        >>> Bid.from_code("90:S").code
        '90:S'

        Raises:
            IllegalBidError: not a bid code.
        """
        if not isinstance(code, str):
            raise IllegalBidError(f"bad bid code {code!r}")
        if code in ("pass", "coinche", "surcoinche"):
            return cls(BidKind(code))
        if code == "take":
            return cls(BidKind.TAKE)
        if code in ("all", "none"):
            return cls(BidKind.TAKE, trump_from_str(code))
        head, sep, tail = code.partition(":")
        try:
            trump = trump_from_str(tail)
        except CardError:
            raise IllegalBidError(f"bad bid code {code!r}") from None
        if sep and head == "take" and isinstance(trump, Suit):
            return cls(BidKind.TAKE, trump)
        if sep and head == "capot":
            return cls(BidKind.VALUE, trump, CAPOT_VALUE)
        if sep and head.isdigit() and int(head) in CONTREE_VALUES:
            return cls(BidKind.VALUE, trump, int(head))
        raise IllegalBidError(f"bad bid code {code!r}")


PASS = Bid(BidKind.PASS)
TAKE = Bid(BidKind.TAKE)
COINCHE = Bid(BidKind.COINCHE)
SURCOINCHE = Bid(BidKind.SURCOINCHE)


class Bidding:
    """Shared part of the two bidding procedures.

    Attributes:
        dealer: the dealer's seat; ``dealer + 1`` speaks first.
        to_play: seat expected to bid next (meaningless once `is_over`).
        history: ``(seat, bid)`` in order.
    """

    def __init__(self, dealer: int, rules: Rules) -> None:
        if dealer not in range(4):
            raise RulesError(f"dealer must be a seat 0..3, not {dealer!r}")
        self.dealer = dealer
        self.rules = rules
        self.to_play = (dealer + 1) % 4
        self.history: list[tuple[int, Bid]] = []
        self.is_over = False
        self.contract: Contract | None = None

    def legal_bids(self) -> list[Bid]:
        """Bids the seat to play may make now, in a fixed order (empty when over)."""
        raise NotImplementedError

    def _apply(self, bid: Bid) -> None:
        raise NotImplementedError

    def apply(self, bid: Bid | str, seat: int | None = None) -> None:
        """Apply the next bid (a `Bid` or its code), checking it.

        Raises:
            IllegalBidError: bidding is over, it is not ``seat``'s turn, or the bid is not legal.
        """
        if isinstance(bid, str):
            bid = Bid.from_code(bid)
        if self.is_over:
            raise IllegalBidError("the bidding is over")
        if seat is not None and seat != self.to_play:
            raise IllegalBidError(f"seat {seat} bid but it is seat {self.to_play}'s turn")
        if bid not in self.legal_bids():
            raise IllegalBidError(f"seat {self.to_play} may not bid {bid.code!r} now")
        self.history.append((self.to_play, bid))
        self._apply(bid)


class ClassicBidding(Bidding):
    """Classic Belote bidding on a turned card: round 1 take/pass, round 2 name a suit,
    optional round 3 all trumps / no trumps. ``contract`` is None when everybody passed.
    """

    def __init__(self, dealer: int, turned: Card, rules: Rules | None = None) -> None:
        super().__init__(dealer, rules or Rules())
        self.turned = turned
        self.round = 1
        self._passes = 0

    def legal_bids(self) -> list[Bid]:
        if self.is_over:
            return []
        if self.round == 1:
            return [PASS, TAKE]
        if self.round == 2:
            return [PASS] + [
                Bid(BidKind.TAKE, suit) for suit in Suit
                if suit != self.turned.suit or self.rules.second_round_any_suit
            ]
        return [PASS, Bid(BidKind.TAKE, ALL_TRUMPS), Bid(BidKind.TAKE, NO_TRUMPS)]

    def _apply(self, bid: Bid) -> None:
        if bid.kind is BidKind.TAKE:
            trump = self.turned.suit if bid.trump is None else bid.trump
            self.contract = Contract(trump=trump, taker=self.to_play)
            self.is_over = True
            return
        self._passes += 1
        self.to_play = (self.to_play + 1) % 4
        if self._passes == 4:
            self._passes = 0
            last_round = 3 if self.rules.all_no_trumps else 2
            if self.round == last_round:
                self.is_over = True
            else:
                self.round += 1


class ContreeBidding(Bidding):
    """Contrée bidding: values 80..160 and capot with a trump, coinche and surcoinche.

    Phases: ``"auction"``; ``"surcoinche"`` (after a coinche, the bidding team may
    surcoinche or pass); with `Rules.contree_raise_sequence`, ``"raise"`` (declarer may
    raise once), ``"double"`` (opponents may coinche), ``"redouble"`` (declarer's team).
    """

    def __init__(self, dealer: int, rules: Rules | None = None) -> None:
        super().__init__(dealer, rules or Rules(variant="contree"))
        self.phase = "auction"
        self.best: Bid | None = None
        self.bidder: int | None = None
        self.coinche = 0
        self._passes = 0
        self._queue: list[int] = []  # seats still to speak in a closing phase

    def _trumps(self) -> list[Trump]:
        trumps: list[Trump] = list(Suit)
        if self.rules.all_no_trumps:
            trumps += [ALL_TRUMPS, NO_TRUMPS]
        return trumps

    def _higher_values(self) -> list[int]:
        floor = self.best.value if self.best is not None and self.best.value else 0
        return [value for value in CONTREE_VALUES + (CAPOT_VALUE,) if value > floor]

    def legal_bids(self) -> list[Bid]:
        if self.is_over:
            return []
        seat = self.to_play
        if self.phase == "auction":
            bids = [PASS] + [
                Bid(BidKind.VALUE, trump, value)
                for value in self._higher_values() for trump in self._trumps()
            ]
            if self.bidder is not None and (seat - self.bidder) % 2 == 1:
                bids.append(COINCHE)
            return bids
        if self.phase in ("surcoinche", "redouble"):
            return [PASS, SURCOINCHE]
        if self.phase == "raise":
            assert self.best is not None and self.best.trump is not None
            return [PASS] + [Bid(BidKind.VALUE, self.best.trump, value)
                             for value in self._higher_values()]
        return [PASS, COINCHE]  # "double"

    def _close(self) -> None:
        self.is_over = True
        assert self.best is not None and self.best.trump is not None and self.bidder is not None
        self.contract = Contract(self.best.trump, self.bidder, self.best.value, self.coinche)

    def _next_in_queue(self) -> None:
        if self._queue:
            self.to_play = self._queue.pop(0)
        else:
            self._close()

    def _apply(self, bid: Bid) -> None:
        seat = self.to_play
        if self.phase == "auction":
            if bid.kind is BidKind.VALUE:
                self.best, self.bidder, self._passes = bid, seat, 0
                self.to_play = (seat + 1) % 4
            elif bid.kind is BidKind.COINCHE:
                assert self.bidder is not None
                self.coinche = 1
                self.phase = "surcoinche"
                self._queue = [(seat + 1) % 4, (seat + 3) % 4]
                self._next_in_queue()
            else:
                self._passes += 1
                self.to_play = (seat + 1) % 4
                if self.bidder is None and self._passes == 4:
                    self.is_over = True
                elif self.bidder is not None and self._passes == 3:
                    if self.rules.contree_raise_sequence:
                        self.phase = "raise"
                        self.to_play = self.bidder
                    else:
                        self._close()
            return
        if self.phase == "surcoinche" or self.phase == "redouble":
            if bid.kind is BidKind.SURCOINCHE:
                self.coinche = 2
                self._close()
            else:
                self._next_in_queue()
            return
        if self.phase == "raise":
            assert self.bidder is not None
            if bid.kind is BidKind.VALUE:
                self.best = bid
            self.phase = "double"
            self._queue = [(self.bidder + 1) % 4, (self.bidder + 3) % 4]
            self._next_in_queue()
            return
        # "double"
        if bid.kind is BidKind.COINCHE:
            assert self.bidder is not None
            self.coinche = 1
            self.phase = "redouble"
            self._queue = [self.bidder, (self.bidder + 2) % 4]
        self._next_in_queue()


def new_bidding(rules: Rules, dealer: int, turned: Card | None = None) -> Bidding:
    """The bidding procedure of ``rules.variant``.

    Raises:
        RulesError: classic bidding without a turned card.
    """
    if rules.is_contree:
        return ContreeBidding(dealer, rules)
    if turned is None:
        raise RulesError("classic bidding needs the turned-up card")
    return ClassicBidding(dealer, turned, rules)


# ---------------------------------------------------------------------------
# Announcements

_CARRE_POINTS: dict[Rank, int] = {
    Rank.JACK: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100, Rank.QUEEN: 100,
}
_CARRE_STRENGTH: dict[Rank, int] = {
    Rank.QUEEN: 0, Rank.KING: 1, Rank.TEN: 2, Rank.ACE: 3, Rank.NINE: 4, Rank.JACK: 5,
}
_SEQUENCE_POSITION = {rank: i for i, rank in enumerate(SEQUENCE_ORDER)}


@dataclass(frozen=True)
class Announcement:
    """A tierce/quarte/quinte (``kind="sequence"``) or a carré (``kind="carre"``).

    Attributes:
        seat: who holds it.
        kind: ``"sequence"`` or ``"carre"``.
        cards: its cards, sorted.
        points: 20, 50, 100 for sequences of 3, 4, 5+; 100/150/200 for carrés.
        rank: carré rank, or top card rank of a sequence.
        suit: suit of a sequence (None for a carré).
        length: number of cards.
    """

    seat: int
    kind: str
    cards: tuple[Card, ...]
    points: int
    rank: Rank
    suit: Suit | None
    length: int

    @property
    def name(self) -> str:
        if self.kind == "carre":
            return f"carre of {self.rank.name.lower()}s"
        return {3: "tierce", 4: "quarte"}.get(self.length, "quinte") + f" to {self.rank.char}"

    def strength(self, trump: Trump) -> tuple[int, int, int, int]:
        """Comparison key, without the seat tie-break: higher wins."""
        if self.kind == "carre":
            return (1, _CARRE_STRENGTH[self.rank], 0, 0)
        in_trump = int(self.suit is not None and _is_trump_like(self.suit, trump_code(trump)))
        return (0, self.length, _SEQUENCE_POSITION[self.rank], in_trump)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "points": self.points,
                "cards": [str(card) for card in self.cards]}


def _sequences_in(mask: int, seat: int) -> list[Announcement]:
    found = []
    for suit in Suit:
        run: list[Card] = []
        for rank in SEQUENCE_ORDER + (None,):
            if rank is not None and mask >> (suit * 8 + rank) & 1:
                run.append(CARDS[suit * 8 + rank])
                continue
            if len(run) >= 3:
                points = {3: 20, 4: 50}.get(len(run), 100)
                found.append(Announcement(seat, "sequence", tuple(sorted(run)), points,
                                          run[-1].rank, suit, len(run)))
            run = []
    return found


def detect_announcements(hand: Iterable[Card] | int, seat: int) -> list[Announcement]:
    """Announcements of one 8-card hand, using each card once and choosing the
    decomposition worth most (then with the strongest single announcement).

    >>> [a.name for a in detect_announcements(parse_cards(
    ...     ["QS", "KS", "JH", "JD", "JC", "JS", "7C", "8D"]), seat=0)]
    ['carre of jacks']
    >>> [a.points for a in detect_announcements(parse_cards(
    ...     ["7H", "8H", "9H", "TH", "JH", "AD", "KD", "QD"]), seat=1)]
    [100, 20]
    """
    mask = hand if isinstance(hand, int) else mask_of(hand)
    carres = [rank for rank in _CARRE_POINTS
              if all(mask >> (suit * 8 + rank) & 1 for suit in Suit)]
    best: list[Announcement] = []
    best_key: tuple[int, tuple[int, int, int, int]] = (0, (-1, 0, 0, 0))
    for choice in range(1 << len(carres)):
        remaining = mask
        chosen: list[Announcement] = []
        for bit, rank in enumerate(carres):
            if choice >> bit & 1:
                cards = tuple(CARDS[suit * 8 + rank] for suit in Suit)
                chosen.append(Announcement(seat, "carre", cards, _CARRE_POINTS[rank], rank,
                                           None, 4))
                remaining &= ~mask_of(cards)
        chosen += _sequences_in(remaining, seat)
        top = max((a.strength(NO_TRUMPS) for a in chosen), default=(-1, 0, 0, 0))
        key = (sum(a.points for a in chosen), top)
        if key > best_key:
            best, best_key = chosen, key
    return sorted(best, key=lambda a: a.strength(NO_TRUMPS), reverse=True)


def compare_announcements(
    announcements: Sequence[Sequence[Announcement]], first_speaker: int, trump: Trump,
    tie: AnnounceTieRule = "nearest",
) -> int | None:
    """Team (0 or 1) whose announcements score, or None.

    ``announcements[seat]`` lists each seat's announcements. The best single announcement
    wins for its team; equal ones go to the player nearest ``first_speaker`` in playing
    order, or to nobody when ``tie == "nobody"``.
    """
    best: tuple[tuple[int, int, int, int], int] | None = None
    tied = False
    for seat in ((first_speaker + step) % 4 for step in range(4)):
        for item in announcements[seat]:
            key = item.strength(trump)
            if best is None or key > best[0]:
                best, tied = (key, seat), False
            elif key == best[0] and seat % 2 != best[1] % 2:
                tied = True
    if best is None or (tied and tie == "nobody"):
        return None
    return best[1] % 2


# ---------------------------------------------------------------------------
# Legal moves


def legal_mask(hand: int, seat: int, led: int, win_card: int, win_seat: int, code: int,
               optional_undertrump: bool) -> int:
    """Mask of the cards of ``hand`` that ``seat`` may play (fast, integer arguments).

    ``led`` is the led suit (-1 for an empty trick), ``win_card``/``win_seat`` the card and
    seat currently winning the trick, ``code`` the `trump_code`.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if code < 4:
        if led == code:
            if follow:
                return (follow & _ABOVE[code][win_card]) or follow
            return hand
        if follow:
            return follow
        if win_seat == seat ^ 2:
            return hand
        trumps = hand & SUIT_MASKS[code]
        if not trumps:
            return hand
        if win_card >> 3 == code:
            higher = trumps & _ABOVE[code][win_card]
            if higher:
                return higher
            return hand if optional_undertrump else trumps
        return trumps
    if code == _ALL_CODE:
        if follow:
            return (follow & _ABOVE[code][win_card]) or follow
        return hand
    return follow or hand


def legal_cards(hand: Iterable[Card], trick: Sequence[Card], leader: int, trump: Trump,
                undertrump: UndertrumpRule = "required") -> list[Card]:
    """Cards of ``hand`` the next seat may play on ``trick`` (led by ``leader``), sorted.

    >>> [str(c) for c in legal_cards(parse_cards(["7H", "JS", "9C"]),
    ...  parse_cards(["JD", "AD"]), leader=0, trump=Suit.SPADES)]
    ['JS']
    >>> [str(c) for c in legal_cards(parse_cards(["7H", "JS", "9C"]),
    ...  parse_cards(["AD", "JD"]), leader=0, trump=Suit.SPADES)]
    ['JS', '7H', '9C']
    """
    code = trump_code(trump)
    hand_mask = mask_of(hand)
    if not trick:
        return cards_of(hand_mask)
    winner = trick_winner(trick, leader, trump)
    win_card = trick[(winner - leader) % 4]
    seat = (leader + len(trick)) % 4
    return cards_of(legal_mask(hand_mask, seat, trick[0].suit, win_card.index, winner, code,
                               undertrump == "optional"))


def explain_illegal(hand: Iterable[Card], trick: Sequence[Card], leader: int, trump: Trump,
                    card: Card, undertrump: UndertrumpRule = "required") -> str | None:
    """Why ``card`` may not be played (a short phrase), or None when it is legal.

    >>> explain_illegal(parse_cards(["9H", "7D"]), parse_cards(["AD"]), 0, Suit.SPADES,
    ...                 Card.from_str("9H"))
    'must follow diamonds'
    """
    held = list(hand)
    if card not in held:
        return "does not hold it"
    allowed = legal_cards(held, trick, leader, trump, undertrump)
    if card in allowed:
        return None
    led = trick[0].suit
    if any(c.suit == led for c in held):
        if card.suit == led:
            return f"must play higher in {led.label}"
        return f"must follow {led.label}"
    assert isinstance(trump, Suit)  # only suit contracts force a void player to trump
    trumped = [c for c in trick if c.suit == trump]
    if trumped:
        best = max(trumped, key=lambda c: _ORDER[trump][c.index])
        if all(_ORDER[trump][c.index] > _ORDER[trump][best.index] for c in allowed):
            return f"must overtrump {best}"
        return f"must undertrump (play a {trump.label[:-1]})"
    return f"must trump with {trump.label}"


# ---------------------------------------------------------------------------
# Playing a hand


class Trick(NamedTuple):
    """A completed trick."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int  # card points, plus the dix de der on the last trick

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [str(card) for card in self.cards],
                "winner": self.winner, "points": self.points}


def _belote_team_points(hands: Sequence[int], code: int) -> tuple[list[int], list[int]]:
    """Belote points per team and the seats holding each belote."""
    team = [0, 0]
    holders: list[int] = []
    suits = range(4) if code == _ALL_CODE else ([code] if code < 4 else [])
    for suit in suits:
        pair = (1 << (suit * 8 + Rank.KING)) | (1 << (suit * 8 + Rank.QUEEN))
        for seat, hand in enumerate(hands):
            if hand & pair == pair:
                team[seat % 2] += BELOTE_POINTS
                holders.append(seat)
    return team, holders


class PlayState:
    """One hand's card play: 32 cards, 8 tricks, from ``leader`` (dealer + 1).

    Tracks the trick in progress, tricks won and card points per team (the dix de der is
    added to the last trick), belotes (from the hands at the start of play) and
    announcements (when `Rules.announcements`).
    """

    def __init__(self, hands: Sequence[Iterable[Card] | int], contract: Contract, leader: int,
                 rules: Rules | None = None) -> None:
        """``hands[seat]`` is an iterable of cards or a card mask.

        Raises:
            CardError: not four hands of 8 distinct cards making the 32-card deck.
        """
        self.rules = rules or Rules()
        if len(hands) != 4:
            raise CardError(f"a hand needs 4 seats, got {len(hands)}")
        masks = []
        for seat, hand in enumerate(hands):
            if isinstance(hand, int):
                mask, count = hand, hand.bit_count()
            else:
                cards = list(hand)
                mask, count = mask_of(cards), len(cards)
            if count != 8 or mask.bit_count() != 8:
                raise CardError(f"seat {seat} must hold 8 distinct cards, got {count}"
                                f" ({mask.bit_count()} distinct)")
            masks.append(mask)
        if masks[0] | masks[1] | masks[2] | masks[3] != FULL_DECK_MASK:
            raise CardError("the four hands must hold the 32 cards once each")
        if leader not in range(4):
            raise CardError(f"leader must be a seat 0..3, not {leader!r}")
        self.contract = contract
        self.trump = contract.trump
        self.code = trump_code(contract.trump)
        self.optional_undertrump = self.rules.undertrump == "optional"
        self.start_hands: tuple[int, ...] = tuple(masks)
        self.hands: list[int] = masks
        self.first_leader = leader
        self.leader = leader
        self.to_play = leader
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0]
        self.card_points = [0, 0]
        self.played = 0
        self._led = -1
        self._win_card = 0
        self._win_seat = leader
        self._win_key = -2
        self._trick_points = 0
        self._keys = _WIN_KEY[self.code]
        self._points = _POINTS[self.code]
        self.belote, self.belote_holders = _belote_team_points(masks, self.code)
        if self.rules.announcements:
            self.announced: list[list[Announcement]] = [
                detect_announcements(mask, seat) for seat, mask in enumerate(masks)]
        else:
            self.announced = [[], [], [], []]

    @classmethod
    def from_plays(cls, hands: Sequence[Iterable[Card] | int], contract: Contract, leader: int,
                   rules: Rules | None = None, plays: Iterable[Card | str] = ()) -> PlayState:
        """Rebuild a state from the starting hands and the cards played so far (checked).

        Raises:
            CardError: bad hands.
            IllegalMoveError: an illegal play.
        """
        state = cls(hands, contract, leader, rules)
        for card in plays:
            state.play(card)
        return state

    # -- queries
    @property
    def is_over(self) -> bool:
        return self.played == 32

    def hand(self, seat: int) -> list[Card]:
        """Cards still held by ``seat``, sorted."""
        return cards_of(self.hands[seat])

    def legal_mask(self) -> int:
        """Mask of the legal cards of the seat to play (0 when the hand is over)."""
        if self.played == 32:
            return 0
        return legal_mask(self.hands[self.to_play], self.to_play, self._led, self._win_card,
                          self._win_seat, self.code, self.optional_undertrump)

    def legal_cards(self) -> list[Card]:
        """Legal cards of the seat to play, in the card-list sort order."""
        return cards_of(self.legal_mask())

    def explain_illegal(self, card: Card) -> str | None:
        """Why the seat to play may not play ``card`` now, or None if it may."""
        if self.played == 32:
            return "the hand is over"
        return explain_illegal(self.hand(self.to_play), self.trick, self.leader, self.trump,
                               card, self.rules.undertrump)

    @property
    def current_winner(self) -> int | None:
        """Seat currently winning the trick in progress (None before its first card)."""
        return self._win_seat if self.trick else None

    # -- moves
    def play(self, card: Card | str, seat: int | None = None) -> Trick | None:
        """Play ``card`` (a `Card` or its code) for the seat to play, checking it; returns
        the trick it completes.

        Raises:
            CardError: a malformed card code.
            IllegalMoveError: the hand is over, it is not ``seat``'s turn, or the card is
                not held or not legal.
        """
        if isinstance(card, str):
            card = Card.from_str(card)
        if self.played == 32:
            raise IllegalMoveError("the hand is over")
        if seat is not None and seat != self.to_play:
            raise IllegalMoveError(f"seat {seat} played but it is seat {self.to_play}'s turn")
        if not self.legal_mask() >> card.index & 1:
            reason = self.explain_illegal(card) or "not legal"
            raise IllegalMoveError(f"seat {self.to_play} played {card} but {reason}")
        return self.play_unchecked(card.index)

    def play_unchecked(self, index: int) -> Trick | None:
        """Play card ``index`` WITHOUT any check (fast path for bots and simulations only:
        an illegal or unheld card silently corrupts the state). Returns the completed trick.
        """
        seat = self.to_play
        self.hands[seat] &= ~(1 << index)
        trick = self.trick
        if trick:
            key = self._keys[self._led * 32 + index]
            if key > self._win_key:
                self._win_key, self._win_card, self._win_seat = key, index, seat
            self._trick_points += self._points[index]
        else:
            self._led = led = index >> 3
            self._win_key = self._keys[led * 32 + index]
            self._win_card, self._win_seat = index, seat
            self._trick_points = self._points[index]
        trick.append(CARDS[index])
        self.played += 1
        if len(trick) < 4:
            self.to_play = (seat + 1) & 3
            return None
        return self._close_trick()

    def _close_trick(self) -> Trick:
        winner = self._win_seat
        points = self._trick_points + (LAST_TRICK_BONUS if self.played == 32 else 0)
        done = Trick(self.leader, tuple(self.trick), winner, points)
        self.tricks.append(done)
        self.tricks_won[winner & 1] += 1
        self.card_points[winner & 1] += points
        self.trick = []
        self.leader = self.to_play = winner
        self._led, self._win_key, self._trick_points = -1, -2, 0
        return done

    def play_random(self, rng: random.Random) -> None:
        """Finish the hand with uniformly random legal cards drawn from ``rng``.

        Simulation fast path (random playouts, benchmarks): it runs on local integers and
        only ever plays legal cards, so it needs no checks.
        """
        uniform = rng.random
        while self.trick and self.played < 32:
            mask = self.legal_mask()
            for _ in range(int(uniform() * mask.bit_count())):
                mask &= mask - 1
            self.play_unchecked((mask & -mask).bit_length() - 1)
        hands, keys, points = self.hands, self._keys, self._points
        code, optional = self.code, self.optional_undertrump
        leader = self.leader
        while self.played < 32:
            hand = hands[leader]
            for _ in range(int(uniform() * hand.bit_count())):
                hand &= hand - 1
            index = (hand & -hand).bit_length() - 1
            hands[leader] ^= 1 << index
            led = index >> 3
            base = led * 32
            win_key, win_card, win_seat = keys[base + index], index, leader
            trick_points = points[index]
            indices = [index]
            for step in (1, 2, 3):
                seat = (leader + step) & 3
                mask = legal_mask(hands[seat], seat, led, win_card, win_seat, code, optional)
                for _ in range(int(uniform() * mask.bit_count())):
                    mask &= mask - 1
                index = (mask & -mask).bit_length() - 1
                hands[seat] ^= 1 << index
                key = keys[base + index]
                if key > win_key:
                    win_key, win_card, win_seat = key, index, seat
                trick_points += points[index]
                indices.append(index)
            self.played += 4
            if self.played == 32:
                trick_points += LAST_TRICK_BONUS
            self.tricks.append(Trick(leader, (CARDS[indices[0]], CARDS[indices[1]],
                                              CARDS[indices[2]], CARDS[indices[3]]),
                                     win_seat, trick_points))
            self.tricks_won[win_seat & 1] += 1
            self.card_points[win_seat & 1] += trick_points
            leader = win_seat
        self.leader = self.to_play = leader

    # -- scoring
    def score(self, carried: int = 0) -> HandScore:
        """Score of the finished hand (see `score_hand`).

        Raises:
            BeloteError: the hand is not over.
        """
        if self.played != 32:
            raise BeloteError("the hand is not over")
        return score_hand(self.contract, self.rules, self.card_points, self.tricks_won,
                          self.belote, self.announced, self.first_leader, carried,
                          last_trick_team=self.tricks[-1].winner % 2)


# ---------------------------------------------------------------------------
# Scoring

Outcome = Literal["made", "failed", "contention"]


@dataclass(frozen=True)
class HandScore:
    """Breakdown of one hand's score. Pairs are indexed by team (0: seats 0+2, 1: seats 1+3).

    Attributes:
        card_points: card points incl. dix de der, or 252/0 on a capot.
        dix_de_der: 10 for the team that took the last trick.
        belote: belote-rebelote points per holding team (before any transfer).
        announcements: points of announcements per team (only the best team's count).
        totals: card points + announcements + belote, used to decide made/failed.
        outcome: ``made``, ``failed`` or ``contention`` (classic exact tie).
        capot_team: team that took all 8 tricks, or None.
        hand_score: points written on the score sheet this hand (incl. carried points).
        carried_in: contention points that were waiting before this hand.
        carried_awarded: how those carried points were awarded this hand, per team.
        carry_out: points to hold for the next hand (contention).
    """

    taker_team: int
    card_points: tuple[int, int]
    dix_de_der: tuple[int, int]
    belote: tuple[int, int]
    announcements: tuple[int, int]
    totals: tuple[int, int]
    outcome: Outcome
    capot_team: int | None
    hand_score: tuple[int, int]
    carried_in: int = 0
    carried_awarded: tuple[int, int] = (0, 0)
    carry_out: int = 0
    announcement_team: int | None = None
    multiplier: int = 1
    contract_value: int | None = None

    @property
    def is_capot(self) -> bool:
        return self.capot_team is not None

    @property
    def winning_team(self) -> int | None:
        """Team that won the hand (None on contention)."""
        if self.outcome == "contention":
            return None
        return self.taker_team if self.outcome == "made" else 1 - self.taker_team

    def to_dict(self) -> dict[str, Any]:
        return {
            "taker_team": self.taker_team, "card_points": list(self.card_points),
            "dix_de_der": list(self.dix_de_der), "belote": list(self.belote),
            "announcements": list(self.announcements), "totals": list(self.totals),
            "outcome": self.outcome, "capot": self.capot_team is not None,
            "capot_team": self.capot_team, "hand_score": list(self.hand_score),
            "carried_in": self.carried_in, "carried_awarded": list(self.carried_awarded),
            "carry_out": self.carry_out, "announcement_team": self.announcement_team,
            "multiplier": self.multiplier, "contract_value": self.contract_value,
        }


def score_hand(
    contract: Contract, rules: Rules, card_points: Sequence[int], tricks_won: Sequence[int],
    belote: Sequence[int] = (0, 0), announcements: Sequence[Sequence[Announcement]] = ((),) * 4,
    first_leader: int | None = None, carried: int = 0, last_trick_team: int | None = None,
) -> HandScore:
    """Score a finished hand.

    Args:
        card_points: per team, including the dix de der (sum 162).
        tricks_won: per team (sum 8).
        belote: belote points per holding team.
        announcements: per seat, as found by `detect_announcements`.
        first_leader: first speaker (dealer + 1), for announcement ties.
        carried: contention points held from earlier hands; they go to the team that wins
            this hand (or stay held on a new contention).
        last_trick_team: team of the last trick (only reported; guessed from tricks when
            one team took them all).

    Classic: takers must total strictly more than defenders; otherwise defenders get 162
    (252 on their capot) plus all announcements; an exact tie is a contention.
    Contrée: made when takers' total reaches the bid (capot bid: all 8 tricks); made scores
    points + bid, failed gives defenders 160 + bid + all announcements; coinche doubles,
    surcoinche quadruples the bid (or the whole score with ``multiplier="whole"``).
    Belote always stays with its holders, except to the defence on a failed contrée with
    `Rules.belote_to_defence_on_failed`.

    Raises:
        BeloteError: points or tricks do not add up.
    """
    if sum(card_points) != HAND_POINTS_TOTAL or sum(tricks_won) != 8:
        raise BeloteError(f"card points {list(card_points)} / tricks {list(tricks_won)} "
                          "do not add up to 162 / 8")
    takers = contract.taker_team
    defenders = 1 - takers
    capot_team = next((team for team in (0, 1) if tricks_won[team] == 8), None)
    cards = [0, 0]
    if capot_team is not None:
        cards[capot_team] = CAPOT_POINTS
    else:
        cards = list(card_points)
    if last_trick_team is None and capot_team is not None:
        last_trick_team = capot_team
    dix = [0, 0]
    if last_trick_team is not None:
        dix[last_trick_team] = LAST_TRICK_BONUS

    leader = first_leader if first_leader is not None else (contract.taker + 1) % 4
    ann_team = compare_announcements(announcements, leader, contract.trump, rules.announce_tie)
    ann = [0, 0]
    if ann_team is not None and rules.announcements:
        ann[ann_team] = sum(a.points for seat in range(4) if seat % 2 == ann_team
                            for a in announcements[seat])
    elif not rules.announcements:
        ann_team = None
    bel = list(belote)
    totals = [cards[team] + ann[team] + bel[team] for team in (0, 1)]
    score = [0, 0]
    carry_out = 0
    multiplier = 1
    awarded = [0, 0]

    if not rules.is_contree:
        if totals[takers] > totals[defenders]:
            outcome: Outcome = "made"
            score = list(totals)
        elif totals[takers] < totals[defenders]:
            outcome = "failed"
            score[defenders] = (cards[defenders] if capot_team == defenders
                                else HAND_POINTS_TOTAL) + ann[0] + ann[1] + bel[defenders]
            score[takers] = bel[takers]
        else:
            outcome = "contention"
            score[defenders] = totals[defenders]
            score[takers] = bel[takers]
            carry_out = totals[takers] - bel[takers]
    else:
        value = contract.value if contract.value is not None else CONTREE_VALUES[0]
        multiplier = (1, 2, 4)[contract.coinche]
        if contract.is_capot_bid:
            made = capot_team == takers
        else:
            made = totals[takers] >= value
        outcome = "made" if made else "failed"
        contract_part = value * multiplier if rules.multiplier == "contract" else value
        if made:
            score[takers] = totals[takers] - bel[takers] + contract_part
            score[defenders] = totals[defenders] - bel[defenders]
        else:
            score[defenders] = CONTREE_FAILED_POINTS + contract_part + ann[0] + ann[1]
        if rules.multiplier == "whole":
            score = [points * multiplier for points in score]
        for team in (0, 1):
            if not made and team == takers and rules.belote_to_defence_on_failed:
                score[defenders] += bel[takers]
            else:
                score[team] += bel[team]

    if outcome == "contention":
        carry_out += carried
    elif carried:
        winner = takers if outcome == "made" else defenders
        awarded[winner] = carried
        score[winner] += carried
    return HandScore(
        taker_team=takers, card_points=(cards[0], cards[1]), dix_de_der=(dix[0], dix[1]),
        belote=(bel[0], bel[1]), announcements=(ann[0], ann[1]), totals=(totals[0], totals[1]),
        outcome=outcome, capot_team=capot_team, hand_score=(score[0], score[1]),
        carried_in=carried, carried_awarded=(awarded[0], awarded[1]), carry_out=carry_out,
        announcement_team=ann_team, multiplier=multiplier, contract_value=contract.value,
    )


# ---------------------------------------------------------------------------
# Dealing (the caller supplies the shuffled deck: no randomness here)


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
