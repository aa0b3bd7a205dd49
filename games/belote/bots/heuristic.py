"""The "beginner" bot: bids from an estimate of its hand's strength and plays standard card
play (cash masters, draw trumps with a master trump, feed a partner's sure trick, win
cheaply, discard low). It never raises its partner's bid without real support, and
coinches when a rough expected score says so."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..rules import (
    BEATEN_BY,
    ORDER_BY_TRUMP,
    POINTS_BY_TRUMP,
    SUIT_MASKS,
    Bid,
    BidKind,
    Card,
    Contract,
    Rank,
    Rules,
    Trump,
    beats,
    mask_of,
    score_hand,
    trump_code,
    trump_from_code,
)
from .knowledge import knowledge_of
from .strength import hand_strength, support_strength
from .views import SeatView


def trump_strength(hand: Sequence[Card], trump: Trump) -> float:
    """Rough trick-taking strength of ``hand`` if ``trump`` were the contract (see
    `hand_strength`).

    >>> hearts = Card.from_str("JH").suit
    >>> trump_strength([Card.from_str(code) for code in ["JH", "9H", "7H", "AS", "8D"]], hearts)
    8.0
    """
    return hand_strength(mask_of(hand), trump_code(trump))


def contree_estimate(strength: float) -> int:
    """Contrée bid (80..160) a hand of this strength supports on its own, or 0 to pass.

    >>> contree_estimate(6.0), contree_estimate(7.0), contree_estimate(9.5)
    (0, 80, 100)
    """
    if strength < 7.0:
        return 0
    return min(160, 80 + 10 * int((strength - 7.0) / 1.1))


def coinche_gain(rules: Rules, contract: Contract, defender: int, defence: float) -> float:
    """Expected gain (for ``defender``'s team) of coinching ``contract`` rather than passing,
    from a rough chance of failure given the defender's strength ``defence`` in the trump;
    the two outcomes are scored with the table's scoring (`score_hand`)."""
    value = contract.value or 80
    expected = 145.0 - 11.0 * defence  # the takers' likely card points
    failure = 1.0 / (1.0 + math.exp(-(value - expected) / 12.0))
    made_points = int(min(162, max(value, expected)))
    failed_points = int(max(0, min(value - 10, expected)))
    team = defender % 2
    slam = contract.is_capot_bid or contract.is_generale_bid
    gains = []
    for coinche in (0, 1):
        doubled = Contract(contract.trump, contract.taker, contract.value, coinche)
        outcome = 0.0
        for share, points, made in ((1 - failure, made_points, True),
                                    (failure, failed_points, False)):
            if slam and made:  # a capot or a générale is made by the taker's eight tricks
                points = 162
            taker_points = [0, 0]
            taker_points[contract.taker_team] = points
            taker_points[1 - contract.taker_team] = 162 - points
            tricks = [4, 4]
            if slam and made:
                tricks = [0, 0]
                tricks[contract.taker_team] = 8
            score = score_hand(doubled, rules, card_points=taker_points, tricks_won=tricks,
                               taker_tricks=tricks[contract.taker_team] if made else 0).hand_score
            outcome += share * (score[team] - score[1 - team])
        gains.append(outcome)
    return gains[1] - gains[0]


class HeuristicBot:
    """The beginner: hand-strength bids and standard card play (see the module docstring)."""

    take_threshold = 6.0
    name_threshold = 6.5
    all_none_threshold = 8.0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- bidding
    def choose_bid(self, view: SeatView) -> Bid:
        legal = list(view.legal_bids)
        if view.rules.is_contree:
            return self._contree_bid(view, legal)
        assert view.turned is not None
        with_turned = mask_of(view.hand) | 1 << view.turned.index
        options: list[tuple[float, Bid]] = []
        for bid in legal:
            if bid.kind is not BidKind.TAKE:
                continue
            if bid.trump is None:
                code, threshold = int(view.turned.suit), self.take_threshold
            else:
                code = trump_code(bid.trump)
                threshold = self.name_threshold if code < 4 else self.all_none_threshold
            options.append((hand_strength(with_turned, code) - threshold, bid))
        if options:
            margin, bid = max(options, key=lambda item: item[0])
            if margin >= 0:
                return bid
        return legal[0]  # pass

    def _contree_bid(self, view: SeatView, legal: list[Bid]) -> Bid:
        pass_bid = next(bid for bid in legal if bid.kind is BidKind.PASS)
        values = [bid for bid in legal if bid.kind is BidKind.VALUE]
        mine = mask_of(view.hand)
        last_seat, last = next(((seat, bid) for seat, bid in reversed(view.bids)
                                if bid.kind is BidKind.VALUE), (None, None))
        if any(bid.kind is BidKind.SURCOINCHE for bid in legal):
            return pass_bid
        coinche = next((bid for bid in legal if bid.kind is BidKind.COINCHE), None)
        if coinche is not None and last is not None and last_seat is not None:
            assert last.trump is not None
            contract = Contract(last.trump, last_seat, last.value)
            defence = hand_strength(mine, trump_code(last.trump))
            if coinche_gain(view.rules, contract, view.seat, defence) > 5.0:
                return coinche
        if not values:
            return pass_bid
        codes = list(range(4)) + ([4, 5] if view.rules.all_no_trumps else [])
        best_value, best_code = 0, -1
        for code in codes:
            value = contree_estimate(hand_strength(mine, code))
            if value > best_value:
                best_value, best_code = value, code
        my_bids = [bid for seat, bid in view.bids if seat == view.seat
                   and bid.kind is BidKind.VALUE]
        partner = (view.seat + 2) % 4
        if last is not None and last_seat == partner and last.trump is not None:
            code = trump_code(last.trump)
            assert last.value is not None
            raised_before = any(bid.trump == last.trump for bid in my_bids)
            support = support_strength(mine, code)
            # the bid already counts on a partner's trick or so: raise only beyond that
            if not raised_before and support >= 2.0:
                raise_to = min(140, last.value + 10 * int(support - 1.0))
                if raise_to > best_value:
                    best_value, best_code = raise_to, code
            if best_code != code and best_value < last.value + 20:
                return pass_bid
        if best_code < 0 or any(bid.trump == trump_from_code(best_code) for bid in my_bids) \
                and last is not None and last_seat in (view.seat, partner):
            return pass_bid
        target = trump_from_code(best_code)
        candidates = [bid for bid in values if bid.trump == target
                      and bid.value is not None and bid.value <= best_value]
        if not candidates:
            return pass_bid
        return max(candidates, key=lambda bid: bid.value or 0)

    # -- card play
    def choose_card(self, view: SeatView) -> Card:
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        assert view.contract is not None
        trump = view.contract.trump
        code = trump_code(trump)
        order, points = ORDER_BY_TRUMP[code], POINTS_BY_TRUMP[code]
        facts = knowledge_of(view)
        unseen = facts.hidden
        opponents = ((view.seat + 1) % 4, (view.seat + 3) % 4)
        trump_mask = SUIT_MASKS[code] if code < 4 else 0

        def is_master(card: Card) -> bool:
            return not BEATEN_BY[code][card.index] & unseen

        def opponents_may_trump() -> bool:
            return bool(trump_mask) and any(facts.may_hold(seat, trump_mask) for seat in opponents)

        if not view.trick:
            return self._lead(view, legal, code, unseen, opponents_may_trump())

        led = view.trick[0].suit
        win_position = 0
        for position, card in enumerate(view.trick):
            if beats(card, view.trick[win_position], led, trump):
                win_position = position
        winner_seat = (view.leader + win_position) % 4
        winning_card = view.trick[win_position]
        last_to_play = len(view.trick) == 3
        partner_wins = winner_seat == (view.seat + 2) % 4
        right = (view.seat + 1) % 4  # the opponent still to play, if any

        if partner_wins:
            may_be_trumped = (code < 4 and led != code and winning_card.suit != code
                              and facts.may_hold(right, trump_mask))
            safe = last_to_play or ((is_master(winning_card) or not facts.may_hold(
                right, BEATEN_BY[code][winning_card.index])) and not may_be_trumped)
            if safe:
                plain = [card for card in legal if not (code < 4 and card.suit == code)]
                pool = plain or legal
                # feed points, but keep master cards (other than tens) for later tricks
                return max(pool, key=lambda card: (
                    points[card.index] - 20 * (is_master(card) and card.rank is not Rank.TEN),
                    -order[card.index]))
            return min(legal, key=lambda card: (points[card.index], order[card.index]))

        winners = [card for card in legal if beats(card, winning_card, led, trump)]
        if winners:
            if last_to_play:
                following = [card for card in winners if card.suit == led]
                if following and not (code < 4 and led == code):
                    return max(following, key=lambda card: points[card.index])
                return min(winners, key=lambda card: (order[card.index], points[card.index]))
            masters = [card for card in winners if is_master(card)]
            if masters:
                return max(masters, key=lambda card: points[card.index])
            trick_value = sum(points[card.index] for card in view.trick)
            if trick_value >= 10 or any(card.suit == code for card in winners):
                return min(winners, key=lambda card: (points[card.index], order[card.index]))
        return min(legal, key=lambda card: (points[card.index]
                                            + (8 if code < 4 and card.suit == code else 0),
                                            order[card.index]))

    def _lead(self, view: SeatView, legal: list[Card], code: int, unseen: int,
              opponents_may_trump: bool) -> Card:
        assert view.contract is not None
        order, points = ORDER_BY_TRUMP[code], POINTS_BY_TRUMP[code]
        master = [card for card in legal if not BEATEN_BY[code][card.index] & unseen]
        our_contract = view.contract.taker % 2 == view.seat % 2
        if code < 4:
            my_trumps = [card for card in legal if card.suit == code]
            plain = [card for card in legal if card.suit != code]
            if our_contract and my_trumps and opponents_may_trump:
                top = max(my_trumps, key=lambda card: order[card.index])
                if top in master:  # never a trump that is not master into the jack
                    return top
            plain_masters = [card for card in master if card.suit != code]
            if plain_masters:
                return max(plain_masters, key=lambda card: points[card.index])
            pool = plain or legal
            return min(pool, key=lambda card: (points[card.index], order[card.index]))
        if master:
            return max(master, key=lambda card: points[card.index])
        return min(legal, key=lambda card: (points[card.index], order[card.index]))

