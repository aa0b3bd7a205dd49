"""Bids and the two bidding procedures (classic take/pass on a turned card, contrée auction),
each checking the bids it is given and ending on a `Contract`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import SUITS, Card, Suit
from .contracts import Contract
from .errors import CardError, IllegalBidError, RulesError
from .trumps import (
    ALL_TRUMPS,
    CAPOT_VALUE,
    CONTREE_VALUES,
    GENERALE_VALUE,
    NO_TRUMPS,
    Trump,
    TrumpMode,
    trump_from_str,
    trump_to_str,
)
from .variants import Rules

_NAMED_VALUES: dict[int, str] = {CAPOT_VALUE: "capot", GENERALE_VALUE: "generale"}
"""Contrée values written by name in bid codes."""
_VALUES_BY_NAME = {name: value for value, name in _NAMED_VALUES.items()}


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
    ``all`` / ``none`` (round 3); contrée ``80:S`` .. ``160:C``, ``capot:H``, ``generale:D``, ``120:all``,
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
            amount = _NAMED_VALUES.get(self.value, str(self.value))
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
        >>> Bid.from_code("generale:H").value
        500
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
        if sep and head in _VALUES_BY_NAME:
            return cls(BidKind.VALUE, trump, _VALUES_BY_NAME[head])
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
                Bid(BidKind.TAKE, suit) for suit in SUITS
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
    """Contrée bidding: values 80..160 and capot with a trump (and the générale with
    `Rules.generale`), coinche and surcoinche.

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
        trumps: list[Trump] = list(SUITS)
        if self.rules.all_no_trumps:
            trumps += [ALL_TRUMPS, NO_TRUMPS]
        return trumps

    def _higher_values(self) -> list[int]:
        floor = self.best.value if self.best is not None and self.best.value else 0
        values = CONTREE_VALUES + (CAPOT_VALUE,)
        if self.rules.generale:
            values += (GENERALE_VALUE,)
        return [value for value in values if value > floor]

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
