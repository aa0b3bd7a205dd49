"""What a hand's score is worth towards winning the game: the chance of winning from the
public match score (`win_chance`), and a hand's outcome valued by that chance (`Stakes`)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class HandSpread:
    """How one hand moves the match score, roughly (measured on bot games).

    Attributes:
        total: points one hand adds to both teams' scores together, on average.
        spread: standard deviation of one hand's score difference between the teams.
        outcomes: hand scores (one team, the other) at evenly spaced quantiles of the
            difference, either team taking: what a hand the seat passes may bring.
    """

    total: float
    spread: float
    outcomes: tuple[tuple[int, int], ...]


SPREADS: dict[str, HandSpread] = {
    "classic": HandSpread(total=171.0, spread=112.0, outcomes=(
        (0, 252), (0, 162), (14, 168), (17, 145), (26, 136), (31, 131), (47, 135), (41, 121),
        (59, 123), (67, 115), (64, 98), (83, 99), (89, 73), (98, 64), (115, 67), (113, 49),
        (121, 41), (125, 37), (131, 31), (136, 26), (145, 17), (158, 4), (162, 0), (252, 0))),
    "contree": HandSpread(total=345.0, spread=280.0, outcomes=(
        (0, 560), (46, 516), (0, 382), (0, 340), (0, 280), (0, 240), (28, 244), (31, 231),
        (33, 219), (44, 208), (55, 197), (68, 174), (184, 78), (198, 54), (203, 39), (219, 33),
        (231, 31), (244, 28), (240, 0), (332, 50), (340, 0), (462, 80), (509, 33), (571, 11))),
}
"""`HandSpread` per variant (`Rules.variant`), measured on hands of the expert against the
beginner (default `Rules`: BGA contrée scoring): the totals and spreads on 240 classic and
194 contrée hands, the outcomes on 326 and 248 others, each counted for both teams."""

_FLAT = 1e-6
"""Below this slope of the chance per point, the game is as good as decided: a hand is
valued by its plain score difference."""


GRID_CELLS = 64
"""`win_chance` tabulates the chance on a grid of about this many scores a team up to the
target (finer costs time once per variant and target, for no measurable gain)."""


class _ChanceTable:
    """The chance of winning from every score on a grid, hands played by others: each hand
    one of `HandSpread.outcomes` or its mirror (either team), all alike, until the game is
    over (`_settled`). Filled from the end of the game back: a hand always adds at least a
    full hand of points, so the chances after it are known."""

    def __init__(self, spread: HandSpread, target: int) -> None:
        self.target = target
        self.step = max(1.0, target / GRID_CELLS)
        self.size = int(math.ceil(target / self.step))  # grid scores 0 .. (size - 1) * step
        outcomes = [(float(a), float(b)) for a, b in spread.outcomes]
        outcomes += [(b, a) for a, b in outcomes]
        self.values = [[0.5] * self.size for _ in range(self.size)]
        order = sorted(((i, j) for i in range(self.size) for j in range(self.size)),
                       key=lambda cell: -(cell[0] + cell[1]))
        for i, j in order:
            own, other = i * self.step, j * self.step
            self.values[i][j] = sum(self.at(own + a, other + b)
                                    for a, b in outcomes) / len(outcomes)

    def at(self, own: float, other: float) -> float:
        """The chance at the score ``own`` to ``other``: settled, or read off the grid."""
        settled = _settled(own, other, self.target)
        if settled is not None:
            return settled
        last = self.size - 1
        x = min(own / self.step, float(last))
        y = min(other / self.step, float(last))
        i, j = min(int(x), last - 1), min(int(y), last - 1)
        dx, dy = x - i, y - j
        row, up = self.values[i], self.values[i + 1]
        return ((1 - dx) * ((1 - dy) * row[j] + dy * row[j + 1])
                + dx * ((1 - dy) * up[j] + dy * up[j + 1]))


def _settled(own: float, other: float, target: int) -> float | None:
    """1 or 0 once the game is over (a team at the target with more points), else None;
    an exact tie at or past the target plays on (even, 0.5, on the grid's last row)."""
    if max(own, other) >= target:
        if own == other:
            return 0.5
        return 1.0 if own > other else 0.0
    return None


@functools.lru_cache(maxsize=16)
def _chance_table(spread: HandSpread, target: int) -> _ChanceTable:
    return _ChanceTable(spread, target)


def win_chance(own: float, other: float, target: int, spread: HandSpread) -> float:
    """Chance that the team with ``own`` points beats the one with ``other`` in a game to
    ``target``, both teams playing alike: every hand one of ``spread.outcomes`` for either
    team (`_ChanceTable`), until a team has reached the target with more points than the
    other. Near the target this counts which hands end the game and for whom, which a
    random walk of the score difference does not (a team 60 ahead at 961 wins only when the
    next hand brings it 39 points and the other not 60 more). Without outcomes, the
    difference as a random walk of ``spread.spread`` a hand until the nearer team reaches
    the target (half of ``spread.total`` a hand each).

    >>> spread = HandSpread(total=160.0, spread=100.0, outcomes=())
    >>> win_chance(0, 0, 1000, spread), win_chance(1010, 990, 1000, spread)
    (0.5, 1.0)
    >>> win_chance(900, 300, 1000, spread) > 0.999 > win_chance(300, 0, 1000, spread) > 0.8
    True
    >>> classic = SPREADS["classic"]
    >>> round(win_chance(500, 500, 1000, classic), 3)
    0.5
    >>> 0.5 < win_chance(961, 901, 1000, classic) < 0.7  # most hands end it; a third for them
    True
    """
    settled = _settled(own, other, target)
    if settled is not None and own != other:
        return settled
    if spread.outcomes:
        return _chance_table(spread, target).at(own, other)
    need = max(1.0, target - max(own, other))
    hands = max(0.25, need / (spread.total / 2))
    z = (own - other) / (spread.spread * math.sqrt(hands))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


class Stakes:
    """One team's view of what a hand's score is worth, from the match score.

    Without a match score (a hand on its own, as in duplicate deals) a hand is worth its
    score difference. With one, it is worth the chance of winning the game after it, as
    points: the gain in chance over a hand played by others (`HandSpread.outcomes`, either
    team taking), divided by what a point of difference is worth there. Far from the target
    that is the score difference again; near it a hand that wins the game is worth more
    than its points, and points that cannot change the result are worth less.
    """

    def __init__(self, team: int, scores: tuple[int, int] | None, target: int,
                 variant: str) -> None:
        self.team = team
        self.target = target
        self.spread = SPREADS.get(variant, SPREADS["classic"])
        self.own = self.other = 0.0
        self.even = self.slope = 0.0
        self.aware = scores is not None
        if scores is not None:
            self.own, self.other = float(scores[team]), float(scores[1 - team])
            shift = self.spread.spread / 4
            outcomes = self.spread.outcomes
            self.even = sum(self._chance(a, b) for a, b in outcomes) / len(outcomes)
            ahead = sum(self._chance(a + shift, b - shift) for a, b in outcomes)
            behind = sum(self._chance(a - shift, b + shift) for a, b in outcomes)
            self.slope = (ahead - behind) / len(outcomes) / (4 * shift)
            self.aware = self.slope > _FLAT

    def _chance(self, own_gain: float, other_gain: float) -> float:
        return win_chance(self.own + own_gain, self.other + other_gain, self.target, self.spread)

    def worth(self, hand_score: tuple[int, int] | tuple[float, float]) -> float:
        """What the hand score ``hand_score`` (per team, team 0 first) is worth to the team,
        in points of score difference (see the class docstring).

        >>> alone = Stakes(0, None, 1000, "classic")
        >>> alone.worth((100, 62))
        38.0
        >>> start = Stakes(0, (0, 0), 1000, "classic")
        >>> 37 < start.worth((100, 62)) < 39  # far from the target: about its points
        True
        >>> end = Stakes(0, (900, 950), 1000, "classic")
        >>> end.worth((110, 52)) > end.worth((90, 0))  # the first wins the game, not the other
        True
        """
        own_gain = float(hand_score[self.team])
        other_gain = float(hand_score[1 - self.team])
        if not self.aware:
            return own_gain - other_gain
        return (self._chance(own_gain, other_gain) - self.even) / self.slope
