"""What a seat can infer from public play: the cards still hidden, how many each other seat
holds, the suits and trumps a seat has shown it lacks, the cards it is known to hold, and
the tricks taken so far."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import BEATEN_BY, trump_code
from .tables import ALL_CODE, KEYS, SUITS
from .views import SeatView


@dataclass(frozen=True)
class Knowledge:
    """Public facts of a card-play position, seen from ``view.seat``.

    Attributes:
        seat: the seat that knows.
        code: the contract's trump code.
        mine: the seat's own cards (mask).
        gone: cards played in completed tricks and in the trick in progress (mask).
        counts: cards each seat still holds.
        forbidden: per seat, cards it cannot hold (shown voids, failures to overtrump).
        held: per seat, cards it is known to hold (`SeatView.known`).
        played_by: per seat, the cards it has played (mask).
        tricks: tricks won per team so far.
        played: number of cards played, the trick in progress included.
    """

    seat: int
    code: int
    mine: int
    gone: int
    counts: tuple[int, int, int, int]
    forbidden: tuple[int, int, int, int]
    held: tuple[int, int, int, int]
    played_by: tuple[int, int, int, int]
    tricks: tuple[int, int]
    played: int

    @property
    def hidden(self) -> int:
        """Cards not seen by the seat (in the other hands)."""
        return ((1 << 32) - 1) & ~(self.mine | self.gone)

    def may_hold(self, seat: int, mask: int) -> bool:
        """Whether ``seat`` may still hold a card of ``mask`` as far as the seat knows."""
        if seat == self.seat:
            return bool(self.mine & mask)
        return bool(self.hidden & mask & ~self.forbidden[seat])


def _infer(forbidden: list[int], seat: int, index: int, led: int, win_card: int, win_seat: int,
           code: int, optional_undertrump: bool) -> None:
    """Add to ``forbidden[seat]`` what playing ``index`` on the trick shows it lacks."""
    suit = index >> 3
    keys = KEYS[code]
    beats = keys[led * 32 + index] > keys[led * 32 + win_card]
    if suit != led:
        forbidden[seat] |= SUITS[led]
        if code < 4 and led != code and win_seat != seat ^ 2:
            trumped_already = win_card >> 3 == code
            if suit != code:
                if trumped_already and optional_undertrump:
                    forbidden[seat] |= BEATEN_BY[code][win_card]
                else:
                    forbidden[seat] |= SUITS[code]
            elif trumped_already and not beats:
                forbidden[seat] |= BEATEN_BY[code][win_card]
        return
    if (code == ALL_CODE or led == code) and win_card >> 3 == led and not beats:
        forbidden[seat] |= BEATEN_BY[code][win_card]


def knowledge_of(view: SeatView) -> Knowledge:
    """The public facts of ``view`` (a card-play view).

    Raises:
        ValueError: the view has no contract (bidding is not over).
    """
    if view.contract is None:
        raise ValueError("knowledge_of needs a card-play view")
    code = trump_code(view.contract.trump)
    optional = view.rules.undertrump == "optional"
    keys = KEYS[code]
    forbidden = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    tricks = [0, 0]
    plays = list(view.played) + [((view.leader + position) % 4, card)
                                 for position, card in enumerate(view.trick)]
    for start in range(0, len(plays), 4):
        group = plays[start:start + 4]
        first_seat, first = group[0]
        led = first.index >> 3
        win_card, win_seat = first.index, first_seat
        played_by[first_seat] |= 1 << first.index
        for seat, card in group[1:]:
            _infer(forbidden, seat, card.index, led, win_card, win_seat, code, optional)
            played_by[seat] |= 1 << card.index
            if keys[led * 32 + card.index] > keys[led * 32 + win_card]:
                win_card, win_seat = card.index, seat
        if len(group) == 4:
            tricks[win_seat & 1] += 1
    gone = 0
    for mask in played_by:
        gone |= mask
    mine = 0
    for card in view.hand:
        mine |= 1 << card.index
    held = [0, 0, 0, 0]
    for seat, card in view.known:
        held[seat] |= 1 << card.index
    counts = tuple(8 - mask.bit_count() for mask in played_by)
    return Knowledge(
        seat=view.seat, code=code, mine=mine, gone=gone,
        counts=(counts[0], counts[1], counts[2], counts[3]),
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        held=(held[0], held[1], held[2], held[3]),
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        tricks=(tricks[0], tricks[1]), played=len(plays),
    )
