"""Elo ratings per game, as Board Game Arena computes them: the pure formula (no I/O).

The formula, its constants and the choices for teams and players who left are written out
in ``docs/ratings.md``; ``GameRecords.record_finish`` applies them to finished production
tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Every player's rating in a game before their first rated table of it (BGA's).
START_RATING = 1500.0
#: A player who left the game (a zombie at the end) loses this much on top of a last place
#: (BGA's penalty for quitting).
QUIT_PENALTY = 10.0
#: The rating difference at which the stronger side is expected to win 10 times out of 11.
SCALE = 400.0
#: (rated tables already played, below which this K applies), then the K for everybody else.
K_STEPS: tuple[tuple[int, float], ...] = ((10, 60.0), (20, 40.0))
K_EXPERIENCED = 20.0


@dataclass(frozen=True)
class Standing:
    """One player's place at a finished table, and their rating before it.

    ``side``: players of one side are partners (a team game) and share its result; every
    player of a game without teams is a side of their own. ``rank``: 1 is best, equal ranks
    are a tie. ``games``: the rated tables of this game they played before this one.
    """

    player_id: int
    side: int
    rank: int
    rating: float = START_RATING
    games: int = 0
    left: bool = False


def k_factor(games: int) -> float:
    """How far one table can move a player who has played ``games`` rated tables before.

    >>> k_factor(0), k_factor(9), k_factor(10), k_factor(19), k_factor(20)
    (60.0, 60.0, 40.0, 40.0, 20.0)
    """
    for below, k in K_STEPS:
        if games < below:
            return k
    return K_EXPERIENCED


def expected_score(rating: float, opponent: float) -> float:
    """The chance that ``rating`` finishes ahead of ``opponent`` (a tie counting a half).

    >>> expected_score(1500, 1500)
    0.5
    >>> round(expected_score(1600, 1400), 4)
    0.7597
    """
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / SCALE)))


def pair_score(rank: int, other_rank: int) -> float:
    """1 for finishing ahead of the other, 0.5 for a tie, 0 for finishing behind.

    >>> pair_score(1, 2), pair_score(2, 2), pair_score(3, 1)
    (1.0, 0.5, 0.0)
    """
    if rank == other_rank:
        return 0.5
    return 1.0 if rank < other_rank else 0.0


def pair_weight(sides: int) -> float:
    """Each comparison's share of K when ``sides`` sides are compared pair by pair: 1 for two
    sides, less for more, so that a table of more sides still moves ratings more in all.

    >>> pair_weight(2), pair_weight(3), pair_weight(5)
    (1.0, 0.75, 0.5)
    """
    return 3.0 / (sides + 1)


@dataclass(frozen=True)
class _Side:
    members: tuple[Standing, ...]
    rank: int
    rating: float


def _sides(standings: Sequence[Standing]) -> list[_Side]:
    """Partners who stayed make one side at their best rank, rated at their average; each
    player who left is a side of their own, behind everybody who stayed."""
    last = max((s.rank for s in standings), default=0) + 1
    grouped: dict[int, list[Standing]] = {}
    sides: list[_Side] = []
    for s in standings:
        if s.left:
            sides.append(_Side((s,), last, s.rating))
        else:
            grouped.setdefault(s.side, []).append(s)
    for members in grouped.values():
        sides.append(_Side(tuple(members), min(m.rank for m in members),
                           sum(m.rating for m in members) / len(members)))
    return sides


def rating_changes(standings: Sequence[Standing]) -> dict[int, float]:
    """How much each player's rating moves: ``player_id -> change``.

    Each side is compared with every other side: ``K * w * (score - expected)`` summed over
    the comparisons, where ``score`` is 1, 0.5 or 0 by rank, ``expected`` comes from the two
    sides' ratings (a team's is its members' average), ``w = pair_weight(sides)`` and K is
    the member's own (``k_factor``). A player who left also loses ``QUIT_PENALTY``. Fewer
    than two sides: nothing moves.

    Two new players, the first wins:

    >>> rating_changes([Standing(1, side=1, rank=1), Standing(2, side=2, rank=2)])
    {1: 30.0, 2: -30.0}

    Two teams of two (BGA's Belote): partners share their team's result.

    >>> changes = rating_changes([Standing(1, 0, 1, 1600, 30), Standing(2, 1, 2, 1500, 0),
    ...                           Standing(3, 0, 1, 1400, 30), Standing(4, 1, 2, 1500, 0)])
    >>> {pid: round(delta, 2) for pid, delta in changes.items()}
    {1: 10.0, 3: 10.0, 2: -30.0, 4: -30.0}
    """
    sides = _sides(standings)
    if len(sides) < 2:
        return {}
    weight = pair_weight(len(sides))
    changes: dict[int, float] = {}
    for side in sides:
        surprise = sum(pair_score(side.rank, other.rank) - expected_score(side.rating, other.rating)
                       for other in sides if other is not side)
        for member in side.members:
            change = k_factor(member.games) * weight * surprise
            if member.left:
                change -= QUIT_PENALTY
            changes[member.player_id] = change
    return changes
