"""The "expert" bot: determinised search. Every decision samples deals of the hidden cards
consistent with what the seat knows (`sampling`), plays each out (greedy double-dummy
`rollout`, the exact `solver` for the last tricks) and picks the card or the bid with the
best expected score, scored by the table's own rules (`score_hand`).

Decisions are deterministic for a given random source: the work per decision is a number
of samples (`SearchBudget`); an optional time limit may cut it short (then a decision also
depends on the machine's speed, so tables that must replay leave it unset).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import (
    FULL_DECK_MASK,
    GENERALE_VALUE,
    Announcement,
    Bid,
    BidKind,
    Card,
    Contract,
    Rules,
    detect_announcements,
    score_hand,
    trump_code,
    trump_from_code,
)
from .knowledge import knowledge_of
from .passing import deal_for_taker, first_hands, next_taker, round_two_codes
from .rollout import Outcome, playout
from .sampling import BidHint, sample_deals
from .solver import Solver
from .stakes import Stakes
from .strength import hand_strength
from .tables import ALL_CODE, ORDER, POINTS, SUITS, indices, king_queen
from .views import SeatView

BELOTE = 20
_HOPELESS = 2.5  # below this `hand_strength`, a contract is not worth evaluating
TAKER_STRENGTH = 6.0
"""Classic: `hand_strength` (whole hand) the taker is assumed to hold in the trump."""
PASSER_STRENGTH = 8.5
"""Classic: `hand_strength` a player who passed is assumed to lack in the suit passed."""
GENERALE_SHARE = 0.9
"""Contrée: the générale is considered only when the seat takes all eight tricks alone in
this share of the sampled playouts (they see every hand: they are optimistic)."""
COINCHE_STRENGTH = 3.5
"""`hand_strength` in the contract's trump a player who coinches is assumed to hold."""


@dataclass(frozen=True)
class SearchBudget:
    """How much work one decision may do.

    Attributes:
        card_samples: sampled deals per card decision.
        card_work: at most this many playout steps per card decision, counted as samples
            x distinct candidate cards x tricks left: early decisions with many candidates
            use fewer samples (at least ``min_card_samples``), which keeps every card
            within its time goal without a clock.
        min_card_samples: the fewest samples a card decision uses.
        bid_samples: sampled deals per contract considered in bidding.
        solve_tricks: the exact solver plays the hand out once at most this many tricks
            remain (the greedy playout before that).
        bid_margin: contrée: how much a bid's expected score must beat passing (the
            standing contract played) by (the playouts are optimistic for whoever acts
            on them).
        classic_margin: classic: how much a take's expected score must beat passing by;
            smaller than in contrée, as passing is itself valued by playouts of what it
            leads to (`SearchBot._pass_value`: another seat taking is as optimistic for
            it), which leaves less of the playouts' optimism to cover (games to 1000
            against the beginner, seeds 1 and 2: 649/800 won with 5, 638/800 with 10).
        hint_tries: random draws per sampled deal, the one that fits the bids best kept
            (`sampling.sample_deals`): more draws follow the bids more closely.
        time_limit: seconds per decision, or None (deterministic: the samples alone).
    """

    card_samples: int = 30
    card_work: int = 1600
    min_card_samples: int = 12
    bid_samples: int = 64
    solve_tricks: int = 3
    bid_margin: float = 10.0
    classic_margin: float = 5.0
    hint_tries: int = 6
    time_limit: float | None = None


def belote_points(hands: Sequence[int], code: int) -> tuple[int, int]:
    """Belote points per team from the hands as dealt."""
    team = [0, 0]
    suits = range(4) if code == ALL_CODE else ([code] if code < 4 else [])
    for suit in suits:
        pair = king_queen(suit)
        for seat in range(4):
            if hands[seat] & pair == pair:
                team[seat & 1] += BELOTE
    return team[0], team[1]


def hand_scores(rules: Rules, contract: Contract, dealt: Sequence[int],
                points: Sequence[int], first_leader: int,
                tricks: Sequence[int] | None = None,
                taker_tricks: int | None = None) -> tuple[int, int]:
    """The hand score per team (team 0 first) of a hand whose card points (dix de der
    included) end as ``points`` from the deal ``dealt`` (scored with `score_hand`).
    ``tricks``: per team, when known (else guessed from the points: a capot or not);
    ``taker_tricks``: the tricks the taker took alone (a générale), when known (else a capot
    of the takers counts as the taker's own)."""
    if tricks is None:
        if points[0] == 162:
            tricks = (8, 0)
        elif points[1] == 162:
            tricks = (0, 8)
        else:
            tricks = (4, 4)
    if taker_tricks is None:
        taker_tricks = tricks[contract.taker_team]
    announced: list[list[Announcement]] = [[], [], [], []]
    if rules.announcements:
        announced = [detect_announcements(dealt[seat], seat) for seat in range(4)]
    code = trump_code(contract.trump)
    score = score_hand(contract, rules, card_points=points, tricks_won=tricks,
                       belote=belote_points(dealt, code), announcements=announced,
                       first_leader=first_leader, taker_tricks=taker_tricks).hand_score
    return score[0], score[1]


def stakes_of(view: SeatView) -> Stakes:
    """What a hand's score is worth to the seat's team, from the public match score."""
    return Stakes(view.seat & 1, view.match_scores, view.rules.target, view.rules.variant)


def _bid_hints(view: SeatView, code: int | None) -> list[BidHint]:
    """Soft constraints on the other hands from the bids (see `sampling.BidHint`)."""
    hints: list[BidHint] = []
    if view.rules.is_contree:
        bidders: dict[int, list[int]] = {}
        standing = -1
        for seat, bid in view.bids:
            if bid.kind is BidKind.VALUE and bid.trump is not None:
                standing = trump_code(bid.trump)
            if seat != view.seat and bid.kind is BidKind.COINCHE and standing >= 0:
                hints.append(BidHint(seat, standing, low=COINCHE_STRENGTH))
            if seat == view.seat or bid.kind is not BidKind.VALUE or bid.trump is None:
                continue
            bid_code = trump_code(bid.trump)
            supported = bid_code in bidders.get(seat ^ 2, [])
            low = 2.0 if supported else 4.5 + 0.4 * ((bid.value or 80) - 80) / 10
            hints.append(BidHint(seat, bid_code, low=min(low, 9.0)))
            bidders.setdefault(seat, []).append(bid_code)
        return hints
    if view.turned is None:
        return hints
    turned_code = int(view.turned.suit)
    for position, (seat, bid) in enumerate(view.bids):
        if seat == view.seat:
            continue
        if bid.kind is BidKind.TAKE:
            taken = turned_code if bid.trump is None else trump_code(bid.trump)
            hints.append(BidHint(seat, taken, low=TAKER_STRENGTH))
        elif position < 4:
            hints.append(BidHint(seat, turned_code, high=PASSER_STRENGTH))
        elif code is not None and code < 4:
            hints.append(BidHint(seat, code, high=PASSER_STRENGTH))
    return hints


class SearchBot:
    """The expert: expected score over sampled deals (see the module docstring)."""

    def __init__(self, rng: random.Random, budget: SearchBudget | None = None) -> None:
        self.rng = rng
        self.budget = budget or SearchBudget()

    def _out_of_time(self, start: float) -> bool:
        limit = self.budget.time_limit
        return limit is not None and time.perf_counter() - start > limit

    # ------------------------------------------------------------------ card play
    def card_samples(self, candidates: int, tricks_left: int) -> int:
        """Samples for a card decision among ``candidates`` distinct cards with
        ``tricks_left`` tricks to play (the trick in progress included): `SearchBudget`'s
        ``card_samples`` within its ``card_work``.

        >>> bot = SearchBot(random.Random(1))
        >>> bot.card_samples(8, 8), bot.card_samples(4, 8), bot.card_samples(2, 3)
        (25, 30, 30)
        """
        budget = self.budget
        affordable = budget.card_work // max(1, candidates * tricks_left)
        return max(min(budget.card_samples, budget.min_card_samples), min(budget.card_samples, affordable))

    def choose_card(self, view: SeatView) -> Card:
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        assert view.contract is not None
        start = time.perf_counter()
        contract = view.contract
        facts = knowledge_of(view)
        code = facts.code
        me = view.seat
        room = [0 if seat == me else facts.counts[seat] for seat in range(4)]
        hints = _bid_hints(view, code)
        candidates = _distinct_cards(legal, facts.hidden | facts.mine, code, view.trick)
        if len(candidates) == 1:
            return candidates[0]
        trick = [card.index for card in view.trick]
        remaining_tricks = 8 - facts.played // 4
        deals = sample_deals(self.rng, facts.hidden, room, facts.forbidden, facts.held,
                             self.card_samples(len(candidates), remaining_tricks), hints,
                             extra=facts.played_by, tries=self.budget.hint_tries)
        use_solver = remaining_tricks <= self.budget.solve_tricks
        optional = view.rules.undertrump == "optional"
        first_leader = (view.dealer + 1) % 4
        stakes = stakes_of(view)
        totals = [0.0] * len(candidates)
        for deal in deals:
            deal[me] = facts.mine
            dealt = [deal[seat] | facts.played_by[seat] for seat in range(4)]
            solver = Solver(code, optional) if use_solver else None
            for position, card in enumerate(candidates):
                hands = list(deal)
                hands[me] ^= 1 << card.index
                after = trick + [card.index]
                if solver is not None:
                    gained0 = solver.value(hands, view.leader, after)
                    gained = (gained0, 162 - view.card_points[0] - view.card_points[1] - gained0)
                else:
                    outcome = playout(hands, code, view.leader, after, facts.played + 1,
                                      contract.taker_team, optional)
                    gained = outcome.points
                points = (view.card_points[0] + gained[0], view.card_points[1] + gained[1])
                totals[position] += stakes.worth(hand_scores(view.rules, contract, dealt,
                                                             points, first_leader))
            if self._out_of_time(start):
                break
        best = max(range(len(candidates)), key=lambda position: (totals[position], -position))
        return candidates[best]

    # ------------------------------------------------------------------ bidding
    def choose_bid(self, view: SeatView) -> Bid:
        legal = list(view.legal_bids)
        if len(legal) == 1:
            return legal[0]
        if view.rules.is_contree:
            return self._contree_bid(view, legal)
        return self._classic_bid(view, legal)

    def _deals_for_bidding(self, view: SeatView, count: int) -> list[list[int]]:
        """Whole deals (8 cards each) consistent with the seat's hand and the bids; in
        classic the turned-up card goes to the seat (it considers taking)."""
        mine = 0
        for card in view.hand:
            mine |= 1 << card.index
        room = [8, 8, 8, 8]
        room[view.seat] = 8 - len(view.hand)
        held = [0, 0, 0, 0]
        if view.turned is not None:
            held[view.seat] = 1 << view.turned.index
        extra = [0, 0, 0, 0]
        extra[view.seat] = mine
        code = None if view.turned is None else int(view.turned.suit)
        deals = sample_deals(self.rng, FULL_DECK_MASK & ~mine, room, (0, 0, 0, 0), held, count,
                             _bid_hints(view, code), extra=extra, tries=self.budget.hint_tries)
        for deal in deals:
            deal[view.seat] |= mine
        return deals

    def _playouts(self, view: SeatView, deals: Sequence[list[int]], code: int,
                  taker: int) -> list[tuple[list[int], Outcome]]:
        """The deals with how each plays out in ``code`` (taker ``taker``)."""
        leader = (view.dealer + 1) % 4
        optional = view.rules.undertrump == "optional"
        return [(deal, playout(list(deal), code, leader, [], 0, taker & 1, optional))
                for deal in deals]

    def _expected(self, view: SeatView, contract: Contract,
                  results: Sequence[tuple[list[int], Outcome]]) -> float:
        if not results:
            return 0.0
        first_leader = (view.dealer + 1) % 4
        stakes = stakes_of(view)
        return sum(stakes.worth(hand_scores(view.rules, contract, deal, outcome.points,
                                            first_leader, outcome.tricks,
                                            outcome.seat_tricks[contract.taker]))
                   for deal, outcome in results) / len(results)

    def _classic_bid(self, view: SeatView, legal: list[Bid]) -> Bid:
        """The take with the best expected score, less the margin, if it beats what passing
        leads to (`_pass_value`)."""
        assert view.turned is not None
        start = time.perf_counter()
        deals = self._deals_for_bidding(view, self.budget.bid_samples)
        margin = self.budget.classic_margin
        mine = sum(1 << card.index for card in view.hand) | 1 << view.turned.index
        options: list[tuple[float, Bid]] = []
        for bid in legal:
            if bid.kind is not BidKind.TAKE:
                continue
            trump = view.turned.suit if bid.trump is None else bid.trump
            code = trump_code(trump)
            if hand_strength(mine, code) < _HOPELESS:
                continue
            value = self._expected(view, Contract(trump, view.seat),
                                   self._playouts(view, deals, code, view.seat))
            options.append((value - margin, bid))
            if self._out_of_time(start):
                break
        if not options:
            return legal[0]
        best_bid, best_value = legal[0], self._pass_value(view, deals, mine)
        for value, bid in options:
            if value > best_value:
                best_bid, best_value = bid, value
        return best_bid

    def _pass_value(self, view: SeatView, deals: Sequence[list[int]], mine: int) -> float:
        """Classic: the expected worth of passing over ``deals`` (`passing`): the contract
        another seat takes, the seat's own best option in round two (from round one), or a
        cancelled deal."""
        assert view.turned is not None
        stakes = stakes_of(view)
        cancelled = stakes.worth((0, 0))
        position = len(view.bids)
        if position >= 8 or not deals:  # the third round (all or no trumps): not modelled
            return cancelled
        second = position + 4 if position < 4 else 8  # the seat's turn in round two
        total = 0.0
        waiting: list[tuple[list[int], list[int]]] = []
        for deal in deals:
            first = first_hands(self.rng, deal, view.seat)
            taking = next_taker(view.dealer, position + 1, second, first, view.turned,
                                view.rules)
            if taking is not None:
                total += self._taken_by(view, stakes, deal, first, *taking)
            elif second < 8:
                waiting.append((deal, first))
            else:
                total += cancelled
        if waiting:
            total += len(waiting) * self._round_two_value(view, stakes, waiting, second, mine)
        return total / len(deals)

    def _round_two_value(self, view: SeatView, stakes: Stakes,
                         waiting: Sequence[tuple[list[int], list[int]]], second: int,
                         mine: int) -> float:
        """Classic, bidding in round one: the seat's best choice at its turn in round two
        (position ``second``) over the deals that reach it (``waiting``, each with the other
        seats' first cards): naming a suit (less the margin) or passing again."""
        assert view.turned is not None
        cancelled = stakes.worth((0, 0))
        again = 0.0
        for deal, first in waiting:
            taking = next_taker(view.dealer, second + 1, 8, first, view.turned, view.rules)
            again += (cancelled if taking is None
                      else self._taken_by(view, stakes, deal, first, *taking))
        best = again / len(waiting)
        deals = [deal for deal, _ in waiting]
        for code in round_two_codes(view.turned, view.rules):
            if hand_strength(mine, code) < _HOPELESS:
                continue
            trump = trump_from_code(code)
            value = self._expected(view, Contract(trump, view.seat),
                                   self._playouts(view, deals, code, view.seat))
            best = max(best, value - self.budget.classic_margin)
        return best

    def _taken_by(self, view: SeatView, stakes: Stakes, deal: Sequence[int],
                  first: Sequence[int], taker: int, code: int) -> float:
        """The worth of ``deal`` played out when ``taker`` (not the seat) takes in ``code``."""
        assert view.turned is not None
        hands = deal_for_taker(deal, view.seat, taker, view.turned, first)
        contract = Contract(trump_from_code(code), taker)
        leader = (view.dealer + 1) % 4
        outcome = playout(list(hands), code, leader, [], 0, taker & 1,
                          view.rules.undertrump == "optional")
        return stakes.worth(hand_scores(view.rules, contract, hands, outcome.points, leader,
                                        outcome.tricks, outcome.seat_tricks[taker]))

    def _contree_bid(self, view: SeatView, legal: list[Bid]) -> Bid:
        start = time.perf_counter()
        me = view.seat
        mine = sum(1 << card.index for card in view.hand)
        pass_bid = next(bid for bid in legal if bid.kind is BidKind.PASS)
        holder, standing = next(((seat, bid) for seat, bid in reversed(view.bids)
                                 if bid.kind is BidKind.VALUE), (None, None))
        coinched = sum(1 for _, bid in view.bids if bid.kind is BidKind.COINCHE)
        deals = self._deals_for_bidding(view, self.budget.bid_samples)
        margin = self.budget.bid_margin
        options: list[tuple[float, Bid]] = []
        status_quo = 0.0
        standing_code = -1
        if holder is not None and standing is not None and standing.trump is not None:
            standing_code = trump_code(standing.trump)
            current = Contract(standing.trump, holder, standing.value, min(coinched, 1))
            results = self._playouts(view, deals, standing_code, holder)
            status_quo = self._expected(view, current, results)
            for bid in legal:
                if bid.kind in (BidKind.COINCHE, BidKind.SURCOINCHE):
                    level = 1 if bid.kind is BidKind.COINCHE else 2
                    doubled = Contract(standing.trump, holder, standing.value, level)
                    # doubling doubles the playouts' error too: ask for a wider margin
                    options.append((self._expected(view, doubled, results) - 3 * margin, bid))
        by_trump: dict[int, list[Bid]] = {}
        for bid in legal:
            if bid.kind is BidKind.VALUE and bid.trump is not None:
                by_trump.setdefault(trump_code(bid.trump), []).append(bid)
        own_team = holder is not None and holder & 1 == me & 1
        for code, bids in by_trump.items():
            if self._out_of_time(start):
                break
            partners_trump = own_team and code == standing_code
            if not partners_trump and hand_strength(mine, code) < _HOPELESS:
                continue
            taker = holder if partners_trump and holder is not None else me
            results = self._playouts(view, deals, code, taker)
            made = sorted(outcome.points[me & 1] for _, outcome in results)
            reach = made[len(made) * 3 // 4]  # what the side makes in a good quarter of deals
            alone = sum(outcome.seat_tricks[me] == 8 for _, outcome in results) / len(results)
            trump = trump_from_code(code)
            for bid in bids:
                if bid.value == GENERALE_VALUE:
                    if alone < GENERALE_SHARE:
                        continue
                elif bid.value is None or (bid.value > reach + 10 and bid is not bids[0]):
                    continue
                value = self._expected(view, Contract(trump, me, bid.value), results)
                options.append((value - margin, bid))
        best_value, best_bid = status_quo, pass_bid
        for value, bid in options:
            if value > best_value:
                best_value, best_bid = value, bid
        return best_bid


def _distinct_cards(legal: Sequence[Card], live: int, code: int,
                    trick: Sequence[Card]) -> list[Card]:
    """Legal cards without equivalent ones: two cards of a suit with the same points and no
    live card (held by anyone, or winning in the trick) between them play alike."""
    points, order = POINTS[code], ORDER[code]
    live_all = live | sum(1 << card.index for card in trick)
    legal_mask = sum(1 << card.index for card in legal)
    kept: list[Card] = []
    for suit in range(4):
        ranked = sorted(indices(live_all & SUITS[suit]), key=order.__getitem__, reverse=True)
        previous = -1
        for index in ranked:
            if legal_mask >> index & 1:
                if previous < 0 or points[previous] != points[index]:
                    kept.append(next(card for card in legal if card.index == index))
                previous = index
            else:
                previous = -1
    kept.sort(key=lambda card: (points[card.index], card.index))
    return kept
