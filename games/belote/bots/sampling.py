"""Determinisation: random deals of the hidden cards consistent with what a seat knows
(counts, shown voids, cards known to be held) and, softly, with the bids made."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .strength import hand_strength
from .tables import indices


@dataclass(frozen=True)
class BidHint:
    """A soft constraint from the bidding: ``seat``'s whole hand (played cards included)
    should have `hand_strength` in ``code`` within ``[low, high)``."""

    seat: int
    code: int
    low: float = float("-inf")
    high: float = float("inf")


def _deal_once(rng: random.Random, pool: list[int], room: list[int], forbidden: Sequence[int],
               seats: Sequence[int]) -> list[int] | None:
    """One random assignment of ``pool`` to ``seats`` within ``room``, or None on a dead end."""
    eligible = {index: [seat for seat in seats if not forbidden[seat] >> index & 1]
                for index in pool}
    order = sorted(pool, key=lambda index: (len(eligible[index]), rng.random()))
    room = list(room)
    hands = [0, 0, 0, 0]
    for index in order:
        choices = [seat for seat in eligible[index] if room[seat] > 0]
        if not choices:
            return None
        total = sum(room[seat] for seat in choices)
        pick = rng.random() * total
        for seat in choices:
            pick -= room[seat]
            if pick < 0:
                break
        room[seat] -= 1
        hands[seat] |= 1 << index
    return hands


def _deal_exhaustive(rng: random.Random, pool: list[int], room: list[int],
                     forbidden: Sequence[int], seats: Sequence[int]) -> list[int] | None:
    """A consistent assignment by backtracking (used when random tries keep failing)."""
    order = sorted(pool, key=lambda index: sum(1 for seat in seats
                                               if not forbidden[seat] >> index & 1))
    hands = [0, 0, 0, 0]
    room = list(room)

    def place(position: int) -> bool:
        if position == len(order):
            return True
        index = order[position]
        choices = [seat for seat in seats if room[seat] and not forbidden[seat] >> index & 1]
        rng.shuffle(choices)
        for seat in choices:
            room[seat] -= 1
            hands[seat] |= 1 << index
            if place(position + 1):
                return True
            room[seat] += 1
            hands[seat] &= ~(1 << index)
        return False

    return hands if place(0) else None


def _misfit(hands: Sequence[int], extra: Sequence[int], hints: Sequence[BidHint]) -> float:
    """How far a deal is from the bid hints (0: consistent)."""
    miss = 0.0
    for hint in hints:
        value = hand_strength(hands[hint.seat] | extra[hint.seat], hint.code)
        if value < hint.low:
            miss += hint.low - value
        elif value >= hint.high:
            miss += value - hint.high + 0.1
    return miss


def _free_deals(rng: random.Random, pool: list[int], space: Sequence[int], held: Sequence[int],
                count: int, hints: Sequence[BidHint], extra: Sequence[int],
                tries: int) -> list[list[int]]:
    """`sample_deals` when nothing is forbidden: shuffle and cut."""
    deals: list[list[int]] = []
    cards = list(pool)
    for _ in range(count):
        best: list[int] = []
        best_miss = float("inf")
        for _ in range(max(1, tries)):
            rng.shuffle(cards)
            hands = list(held)
            position = 0
            for seat in range(4):
                for index in cards[position:position + space[seat]]:
                    hands[seat] |= 1 << index
                position += space[seat]
            miss = _misfit(hands, extra, hints) if hints else 0.0
            if miss < best_miss:
                best, best_miss = hands, miss
            if miss == 0.0:
                break
        deals.append(best)
    return deals


def sample_deals(rng: random.Random, hidden: int, room: Sequence[int], forbidden: Sequence[int],
                 held: Sequence[int], count: int, hints: Sequence[BidHint] = (),
                 extra: Sequence[int] = (0, 0, 0, 0), tries: int = 6) -> list[list[int]]:
    """``count`` deals of the ``hidden`` cards: each is four masks where seat ``s`` gets its
    ``held`` cards and ``room[s]`` cards in all, never one of ``forbidden[s]``. Deals that fit
    the ``hints`` (strength of ``deal[s] | extra[s]``) are preferred: up to ``tries`` draws
    per deal, keeping the best fit.

    Raises:
        ValueError: no deal is consistent (the facts contradict each other).
    """
    seats = [seat for seat in range(4) if room[seat] > 0]
    pool = list(indices(hidden & ~(held[0] | held[1] | held[2] | held[3])))
    space = [room[seat] - held[seat].bit_count() for seat in range(4)]
    if sum(space) != len(pool) or min(space) < 0:
        raise ValueError(f"{len(pool)} hidden cards for {space} places")
    deals: list[list[int]] = []
    if not any(forbidden[seat] for seat in seats):
        return _free_deals(rng, pool, space, held, count, hints, extra, tries)
    for _ in range(count):
        best: list[int] | None = None
        best_miss = float("inf")
        for _ in range(max(1, tries)):
            hands = None
            for _ in range(20):
                hands = _deal_once(rng, pool, space, forbidden, seats)
                if hands is not None:
                    break
            if hands is None:
                hands = _deal_exhaustive(rng, pool, space, forbidden, seats)
            if hands is None:
                raise ValueError("no deal of the hidden cards fits what is known")
            hands = [hands[seat] | held[seat] for seat in range(4)]
            miss = _misfit(hands, extra, hints) if hints else 0.0
            if miss < best_miss:
                best, best_miss = hands, miss
            if miss == 0.0:
                break
        assert best is not None
        deals.append(best)
    return deals
