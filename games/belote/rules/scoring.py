"""Scoring a finished hand (`score_hand`) into a `HandScore` breakdown, classic and contrée
(BGA's seed 002 reading, or the French federation's, FFB)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .announcements import Announcement, compare_announcements
from .contracts import Contract
from .errors import BeloteError
from .trumps import (
    CAPOT_POINTS,
    CONTREE_FAILED_POINTS,
    CONTREE_VALUES,
    HAND_POINTS_TOTAL,
    LAST_TRICK_BONUS,
)
from .variants import Rules

Outcome = Literal["made", "failed", "contention"]

#: Card points of a capot under the FFB reading (the seeds' 252 otherwise).
FFB_CAPOT_POINTS = 250


@dataclass
class _Parts:
    """What one hand writes per team, by part (cards, contract, announcements, belote)."""

    cards: list[int]
    contract: list[int]
    announcements: list[int]
    belote: list[int]

    @classmethod
    def empty(cls) -> _Parts:
        return cls([0, 0], [0, 0], [0, 0], [0, 0])

    def total(self, team: int) -> int:
        return (self.cards[team] + self.contract[team] + self.announcements[team]
                + self.belote[team])

    def times(self, factor: int) -> None:
        """Multiply every part but the belote (BGA's "whole hand" multiplier)."""
        for part in (self.cards, self.contract, self.announcements):
            part[0], part[1] = part[0] * factor, part[1] * factor


def round_to_ten(points: int) -> int:
    """Points made, rounded to the nearest ten, a 5 rounding down.

    >>> [round_to_ten(p) for p in (81, 85, 86, 94, 0, 162)]
    [80, 80, 90, 90, 0, 160]
    """
    return (points + 4) // 10 * 10


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
        announcement_team: team whose announcements count, or None.
        multiplier: 1, 2 (coinche) or 4 (surcoinche).
        contract_value: the contrée bid, None in classic.
        scored_cards, scored_contract, scored_announcements, scored_belote: what each team
            writes this hand, by part; with ``carried_awarded`` they add up to ``hand_score``
            (a failed contrée's 160 + bid is its ``scored_contract``).
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
    scored_cards: tuple[int, int] = (0, 0)
    scored_contract: tuple[int, int] = (0, 0)
    scored_announcements: tuple[int, int] = (0, 0)
    scored_belote: tuple[int, int] = (0, 0)

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
            "scored_cards": list(self.scored_cards), "scored_contract": list(self.scored_contract),
            "scored_announcements": list(self.scored_announcements),
            "scored_belote": list(self.scored_belote),
        }


def score_hand(
    contract: Contract, rules: Rules, card_points: Sequence[int], tricks_won: Sequence[int],
    belote: Sequence[int] = (0, 0), announcements: Sequence[Sequence[Announcement]] = ((),) * 4,
    first_leader: int | None = None, carried: int = 0, last_trick_team: int | None = None,
    taker_tricks: int | None = None,
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
        taker_tricks: tricks the taker took alone (needed for a générale only).

    Classic: takers must total strictly more than defenders; otherwise defenders get 162
    (252 on their capot) plus all announcements; an exact tie is a contention.

    Contrée, BGA's reading (``contree_scoring="bga"``): made when the takers' total (cards,
    announcements, belote) reaches the bid (capot bid: all 8 tricks); made scores points +
    bid, the defence its points; failed gives the defence 160 + bid + all announcements;
    coinche doubles, surcoinche quadruples the bid (or the whole score with
    ``multiplier="whole"``).

    Contrée, the FFB reading (``contree_scoring="ffb"``): made when the takers' total
    reaches the bid *and* is more than the defence's (80 made 81 to 81 is failed); a capot
    is 250 card points. Not coinched and made: the takers write the bid + their points, the
    defence its points. Failed: the defence writes 160 + bid + all announcements, the takers
    nothing. Coinched (surcoinched): the side that wins writes (160 + bid) x 2 (x 4) + its
    announcements, the other side nothing.

    Contrée, the générale (`Rules.generale`, bid 500): made only when the taker alone takes
    all eight tricks (a trick won by the partner fails it, although the team is capot); it
    is then scored as any contract of value 500 (FFB, not coinched: 500 + the capot's 250).

    Both: belote always stays with its holders (BGA: except to the defence of a failed
    contrée with `Rules.belote_to_defence_on_failed`); with `Rules.round_points` the points
    made are written rounded to the ten (`round_to_ten`).

    Raises:
        BeloteError: points or tricks do not add up, or a générale is scored without the
            taker's own tricks.
    """
    if sum(card_points) != HAND_POINTS_TOTAL or sum(tricks_won) != 8:
        raise BeloteError(f"card points {list(card_points)} / tricks {list(tricks_won)} "
                          "do not add up to 162 / 8")
    if contract.is_generale_bid and (taker_tricks is None
                                     or not 0 <= taker_tricks <= tricks_won[contract.taker_team]):
        raise BeloteError(f"a générale needs the tricks the taker took alone (0 to its team's "
                          f"{tricks_won[contract.taker_team]}), not {taker_tricks!r}")
    takers = contract.taker_team
    defenders = 1 - takers
    capot_team = next((team for team in (0, 1) if tricks_won[team] == 8), None)
    cards = [0, 0]
    if capot_team is not None:
        cards[capot_team] = FFB_CAPOT_POINTS if rules.is_ffb else CAPOT_POINTS
    else:
        cards = list(card_points)
    if last_trick_team is None and capot_team is not None:
        last_trick_team = capot_team
    dix = [0, 0]
    if last_trick_team is not None:
        dix[last_trick_team] = LAST_TRICK_BONUS

    leader = first_leader if first_leader is not None else (contract.taker + 1) % 4
    ann_team = compare_announcements(announcements, leader, contract.trump, rules.announce_tie)
    ann_team, ann = _announcement_points(announcements, ann_team, rules)
    bel = list(belote)
    totals = [cards[team] + ann[team] + bel[team] for team in (0, 1)]
    multiplier = 1
    if not rules.is_contree:
        outcome, parts, carry_out = _classic_outcome(takers, cards, ann, bel, totals, capot_team)
    else:
        alone = taker_tricks == 8
        outcome, parts, multiplier = _contree_outcome(contract, rules, cards, ann, bel, totals,
                                                      capot_team, alone)
        carry_out = 0

    score = [parts.total(0), parts.total(1)]
    awarded = [0, 0]
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
        scored_cards=(parts.cards[0], parts.cards[1]),
        scored_contract=(parts.contract[0], parts.contract[1]),
        scored_announcements=(parts.announcements[0], parts.announcements[1]),
        scored_belote=(parts.belote[0], parts.belote[1]),
    )


def _announcement_points(
    announcements: Sequence[Sequence[Announcement]], ann_team: int | None, rules: Rules,
) -> tuple[int | None, list[int]]:
    """(team whose announcements count, points per team): the best team's announcements
    count, all of them; none at all when the table does not play announcements."""
    ann = [0, 0]
    if ann_team is not None and rules.announcements:
        ann[ann_team] = sum(a.points for seat in range(4) if seat % 2 == ann_team
                            for a in announcements[seat])
    elif not rules.announcements:
        ann_team = None
    return ann_team, ann


def _classic_outcome(
    takers: int, cards: Sequence[int], ann: Sequence[int], bel: Sequence[int],
    totals: Sequence[int], capot_team: int | None,
) -> tuple[Outcome, _Parts, int]:
    """(outcome, parts per team, points held for the next hand) in classic belote."""
    defenders = 1 - takers
    parts = _Parts.empty()
    parts.belote = list(bel)
    carry_out = 0
    if totals[takers] > totals[defenders]:
        outcome: Outcome = "made"
        parts.cards, parts.announcements = list(cards), list(ann)
    elif totals[takers] < totals[defenders]:
        outcome = "failed"
        parts.cards[defenders] = (cards[defenders] if capot_team == defenders
                                  else HAND_POINTS_TOTAL)
        parts.announcements[defenders] = ann[0] + ann[1]
    else:
        outcome = "contention"
        parts.cards[defenders] = cards[defenders]
        parts.announcements[defenders] = ann[defenders]
        carry_out = totals[takers] - bel[takers]
    return outcome, parts, carry_out


def _is_contree_made(contract: Contract, rules: Rules, totals: Sequence[int],
                     capot_team: int | None, alone: bool) -> bool:
    """A générale needs all 8 tricks taken by the taker ``alone``; a capot bid all 8 tricks
    to the team; another bid its value (FFB: and more than the defence)."""
    takers = contract.taker_team
    if contract.is_generale_bid:
        return alone
    if contract.is_capot_bid:
        return capot_team == takers
    value = contract.value if contract.value is not None else CONTREE_VALUES[0]
    if rules.is_ffb and totals[takers] <= totals[1 - takers]:
        return False
    return totals[takers] >= value


def _contree_outcome(
    contract: Contract, rules: Rules, cards: Sequence[int], ann: Sequence[int],
    bel: Sequence[int], totals: Sequence[int], capot_team: int | None, alone: bool,
) -> tuple[Outcome, _Parts, int]:
    """(outcome, parts per team, multiplier) in contrée (``alone``: the taker took all eight
    tricks by themself)."""
    takers = contract.taker_team
    defenders = 1 - takers
    value = contract.value if contract.value is not None else CONTREE_VALUES[0]
    multiplier = (1, 2, 4)[contract.coinche]
    made = _is_contree_made(contract, rules, totals, capot_team, alone)
    outcome: Outcome = "made" if made else "failed"
    winner = takers if made else defenders
    made_points = [round_to_ten(p) for p in cards] if rules.round_points else list(cards)
    parts = _Parts.empty()
    if rules.is_ffb and multiplier > 1:
        parts.contract[winner] = (CONTREE_FAILED_POINTS + value) * multiplier
        parts.announcements[winner] = ann[winner] if made else ann[0] + ann[1]
    elif rules.is_ffb or rules.multiplier == "contract":
        if made:
            parts.cards = made_points
            parts.contract[takers] = value * multiplier
            parts.announcements = list(ann)
        else:
            parts.contract[defenders] = CONTREE_FAILED_POINTS + value * multiplier
            parts.announcements[defenders] = ann[0] + ann[1]
    else:  # BGA, "whole": the hand's score, belote apart, times the multiplier
        if made:
            parts.cards = made_points
            parts.contract[takers] = value
            parts.announcements = list(ann)
        else:
            parts.contract[defenders] = CONTREE_FAILED_POINTS + value
            parts.announcements[defenders] = ann[0] + ann[1]
        parts.times(multiplier)
    parts.belote = list(bel)
    if not made and rules.belote_to_defence_on_failed and not rules.is_ffb:
        parts.belote[defenders] += bel[takers]
        parts.belote[takers] = 0
    return outcome, parts, multiplier
