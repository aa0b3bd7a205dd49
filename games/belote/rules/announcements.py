"""Announcements (tierce, quarte, quinte, carré): finding them in a hand and deciding
which team scores them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    CARDS,
    SUITS,
    Card,
    Rank,
    Suit,
    mask_of,
    parse_cards,  # noqa: F401 (used by the doctests)
)
from .trumps import NO_TRUMPS, SEQUENCE_ORDER, Trump, _is_trump_like, trump_code
from .variants import AnnounceTieRule

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
    for suit in SUITS:
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
              if all(mask >> (suit * 8 + rank) & 1 for suit in SUITS)]
    best: list[Announcement] = []
    best_key: tuple[int, tuple[int, int, int, int]] = (0, (-1, 0, 0, 0))
    for choice in range(1 << len(carres)):
        remaining = mask
        chosen: list[Announcement] = []
        for bit, rank in enumerate(carres):
            if choice >> bit & 1:
                cards = tuple(CARDS[suit * 8 + rank] for suit in SUITS)
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
