"""Belote bots (random and heuristic) and a pure match runner; bots see only a `SeatView`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .rules import (
    ALL_TRUMPS,
    BEATEN_BY,
    CARDS,
    NO_TRUMPS,
    ORDER_BY_TRUMP,
    POINTS_BY_TRUMP,
    SUIT_MASKS,
    Bid,
    Bidding,
    BidKind,
    Card,
    ClassicBidding,
    Contract,
    ContreeBidding,
    PlayState,
    Rank,
    Rules,
    Suit,
    Trump,
    beats,
    deal_classic_first,
    deal_classic_rest,
    deal_contree,
    mask_of,
    trump_code,
)


@dataclass(frozen=True)
class SeatView:
    """What one seat may know when it has to act.

    Attributes:
        seat: the acting seat.
        dealer: the dealer's seat.
        rules: table options.
        hand: the seat's own cards, sorted.
        bids: bidding history ``(seat, bid)`` so far.
        turned: classic, the turned-up card (None in contrée).
        legal_bids: bids allowed now (empty during play).
        contract: the contract, once bidding is over.
        leader: seat that led the trick in progress.
        trick: cards of the trick in progress, in order from ``leader``.
        played: cards of completed tricks, as ``(seat, card)`` in playing order.
        legal_cards: cards allowed now (empty during bidding).
        card_points: card points taken so far per team.
    """

    seat: int
    dealer: int
    rules: Rules
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, Bid], ...] = ()
    turned: Card | None = None
    legal_bids: tuple[Bid, ...] = ()
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[Card, ...] = ()
    played: tuple[tuple[int, Card], ...] = ()
    legal_cards: tuple[Card, ...] = ()
    card_points: tuple[int, int] = (0, 0)


def bid_view(bidding: Bidding, hand: Sequence[Card]) -> SeatView:
    """View of the seat to bid, from a bidding procedure and that seat's cards."""
    turned = bidding.turned if isinstance(bidding, ClassicBidding) else None
    return SeatView(seat=bidding.to_play, dealer=bidding.dealer, rules=bidding.rules,
                    hand=tuple(sorted(hand)), bids=tuple(bidding.history), turned=turned,
                    legal_bids=tuple(bidding.legal_bids()))


def play_view(state: PlayState, dealer: int,
              bids: Sequence[tuple[int, Bid]] = ()) -> SeatView:
    """View of the seat to play in ``state``."""
    played = tuple(((trick.leader + position) % 4, card) for trick in state.tricks
                   for position, card in enumerate(trick.cards))
    return SeatView(
        seat=state.to_play, dealer=dealer, rules=state.rules,
        hand=tuple(state.hand(state.to_play)), bids=tuple(bids), contract=state.contract,
        leader=state.leader, trick=tuple(state.trick), played=played,
        legal_cards=tuple(state.legal_cards()),
        card_points=(state.card_points[0], state.card_points[1]),
    )


class Bot(Protocol):
    def choose_bid(self, view: SeatView) -> Bid: ...

    def choose_card(self, view: SeatView) -> Card: ...


class RandomBot:
    """Uniformly random legal bids and cards."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_bid(self, view: SeatView) -> Bid:
        return self.rng.choice(view.legal_bids)

    def choose_card(self, view: SeatView) -> Card:
        return self.rng.choice(view.legal_cards)


# -- hand evaluation

_TRUMP_VALUE = {Rank.JACK: 3.5, Rank.NINE: 2.5, Rank.ACE: 1.5, Rank.TEN: 1.2}
_OTHER_TRUMP_VALUE = 0.8


def trump_strength(hand: Sequence[Card], trump: Trump) -> float:
    """Rough trick-taking strength of ``hand`` if ``trump`` were the contract.

    >>> trump_strength([Card.from_str(code) for code in ["JH", "9H", "7H", "AS", "8D"]], Suit.HEARTS)
    8.0
    """
    score = 0.0
    if trump is ALL_TRUMPS:
        for card in hand:
            score += {Rank.JACK: 3.0, Rank.NINE: 2.0, Rank.ACE: 0.6}.get(card.rank, 0.0)
        return score
    if trump is NO_TRUMPS:
        aces = {card.suit for card in hand if card.rank is Rank.ACE}
        for card in hand:
            if card.rank is Rank.ACE:
                score += 2.5
            elif card.rank is Rank.TEN:
                score += 1.5 if card.suit in aces else 0.3
        return score
    aces = {card.suit for card in hand if card.rank is Rank.ACE}
    for card in hand:
        if card.suit == trump:
            score += _TRUMP_VALUE.get(card.rank, _OTHER_TRUMP_VALUE)
        elif card.rank is Rank.ACE:
            score += 1.2
        elif card.rank is Rank.TEN and card.suit in aces:
            score += 0.6
    return score


def _contree_estimate(strength: float) -> int:
    """Bid value a hand of this strength (8 cards) supports, or 0 to pass."""
    if strength < 7.0:
        return 0
    return min(160, 80 + 10 * int((strength - 7.0) / 1.1))


class HeuristicBot:
    """Bids on hand strength and plays standard card play: cash master cards, draw trumps
    when taking, let a partner's winning trick be, feed it points, trump or overtake the
    opponents' winning tricks as cheaply as possible, otherwise discard low."""

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
        with_turned = list(view.hand) + [view.turned]
        options: list[tuple[float, Bid]] = []
        for bid in legal:
            if bid.kind is not BidKind.TAKE:
                continue
            trump = view.turned.suit if bid.trump is None else bid.trump
            if bid.trump is None:
                options.append((trump_strength(with_turned, trump) - self.take_threshold, bid))
            elif isinstance(trump, Suit):
                options.append((trump_strength(with_turned, trump) - self.name_threshold, bid))
            else:
                options.append((trump_strength(with_turned, trump) - self.all_none_threshold,
                                bid))
        if options:
            margin, bid = max(options, key=lambda item: item[0])
            if margin >= 0:
                return bid
        return legal[0]  # pass

    def _contree_bid(self, view: SeatView, legal: list[Bid]) -> Bid:
        pass_bid = next(bid for bid in legal if bid.kind is BidKind.PASS)
        last = next((bid for _, bid in reversed(view.bids) if bid.kind is BidKind.VALUE), None)
        last_seat = next((seat for seat, bid in reversed(view.bids)
                          if bid.kind is BidKind.VALUE), None)
        partner_bid = last is not None and last_seat == (view.seat + 2) % 4
        if any(bid.kind is BidKind.COINCHE for bid in legal) and last is not None:
            assert last.trump is not None and last.value is not None
            if trump_strength(view.hand, last.trump) >= 7.5 and last.value >= 100:
                return next(bid for bid in legal if bid.kind is BidKind.COINCHE)
        values = [bid for bid in legal if bid.kind is BidKind.VALUE]
        if not values:
            return pass_bid
        trumps: list[Trump] = list(Suit)
        if view.rules.all_no_trumps:
            trumps += [ALL_TRUMPS, NO_TRUMPS]
        best_value, best_trump = 0, None
        for trump in trumps:
            value = _contree_estimate(trump_strength(view.hand, trump) + 0.0)
            if value > best_value:
                best_value, best_trump = value, trump
        if partner_bid and last is not None and last.trump is not None:
            # support partner: each ace or top trump adds about ten points
            support = sum(1 for card in view.hand if card.rank is Rank.ACE
                          or (card.suit == last.trump and card.rank in (Rank.JACK, Rank.NINE)))
            assert last.value is not None
            if support and last.value + 10 * support > best_value:
                best_value, best_trump = min(160, last.value + 10 * support), last.trump
        if best_trump is None:
            return pass_bid
        candidates = [bid for bid in values if bid.trump == best_trump
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
        seen = mask_of(card for _, card in view.played) | mask_of(view.trick) | mask_of(view.hand)
        unseen = ((1 << 32) - 1) & ~seen

        def is_master(card: Card) -> bool:
            return not BEATEN_BY[code][card.index] & unseen

        def trumps_in(mask: int) -> int:
            return mask & SUIT_MASKS[code] if code < 4 else 0

        if not view.trick:
            return self._lead(view, legal, code, unseen)

        led = view.trick[0].suit
        win_position = 0
        for position, card in enumerate(view.trick):
            if beats(card, view.trick[win_position], led, trump):
                win_position = position
        winner_seat = (view.leader + win_position) % 4
        winning_card = view.trick[win_position]
        last_to_play = len(view.trick) == 3
        partner_wins = winner_seat == (view.seat + 2) % 4

        if partner_wins:
            safe = last_to_play or (winning_card.suit == led and is_master(winning_card)
                                    and not (code < 4 and led != code
                                             and trumps_in(unseen))) \
                or (code < 4 and winning_card.suit == code and is_master(winning_card))
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

    def _lead(self, view: SeatView, legal: list[Card], code: int, unseen: int) -> Card:
        assert view.contract is not None
        order, points = ORDER_BY_TRUMP[code], POINTS_BY_TRUMP[code]
        master = [card for card in legal if not BEATEN_BY[code][card.index] & unseen]
        our_contract = view.contract.taker % 2 == view.seat % 2
        if code < 4:
            my_trumps = [card for card in legal if card.suit == code]
            unseen_trumps = unseen & SUIT_MASKS[code]
            if our_contract and my_trumps and unseen_trumps:
                top = max(my_trumps, key=lambda card: order[card.index])
                if top in master or view.contract.taker == view.seat:
                    return top
            plain_masters = [card for card in master if card.suit != code]
            if plain_masters:
                return max(plain_masters, key=lambda card: points[card.index])
            if master and not unseen_trumps:
                return master[0]
            plain = [card for card in legal if card.suit != code]
            pool = plain or legal
            return min(pool, key=lambda card: (points[card.index], order[card.index]))
        if master:
            return max(master, key=lambda card: points[card.index])
        return min(legal, key=lambda card: (points[card.index], order[card.index]))


# -- matches


@dataclass(frozen=True)
class MatchResult:
    """Outcome of `play_match`: final scores per team, winning team and hand counts."""

    scores: tuple[int, int]
    winner: int
    hands_played: int
    hands_cancelled: int


def play_hand(rules: Rules, bots: Sequence[Bot], rng: random.Random,
              dealer: int) -> tuple[Contract | None, PlayState | None]:
    """Deal with ``rng``, run the bidding and the play with ``bots``; score the hand with
    ``state.score(carried)``. Returns ``(None, None)`` when everybody passed."""
    deck = list(CARDS)
    rng.shuffle(deck)
    bidding: ClassicBidding | ContreeBidding
    if rules.is_contree:
        hands = deal_contree(deck, dealer)
        bidding = ContreeBidding(dealer, rules)
    else:
        hands, turned = deal_classic_first(deck, dealer)
        bidding = ClassicBidding(dealer, turned, rules)
    while not bidding.is_over:
        seat = bidding.to_play
        bidding.apply(bots[seat].choose_bid(bid_view(bidding, hands[seat])), seat)
    contract = bidding.contract
    if contract is None:
        return None, None
    if not rules.is_contree:
        hands = deal_classic_rest(deck, dealer, hands, contract.taker)
    state = PlayState(hands, contract, (dealer + 1) % 4, rules)
    while not state.is_over:
        seat = state.to_play
        state.play(bots[seat].choose_card(play_view(state, dealer, bidding.history)), seat)
    return contract, state


def play_match(rules: Rules, bots: Sequence[Bot], rng: random.Random,
               target: int | None = None, first_dealer: int = 0,
               max_hands: int = 1000) -> MatchResult:
    """Play hands until a team reaches ``target`` (default `Rules.target`) with the higher
    score. The dealer rotates every hand, cancelled ones included; contention points are
    carried to the next played hand.

    Raises:
        BeloteError: a bot played an illegal bid or card.
    """
    goal = rules.target if target is None else target
    scores = [0, 0]
    dealer = first_dealer
    carried = 0
    played = cancelled = 0
    while played + cancelled < max_hands:
        contract, state = play_hand(rules, bots, rng, dealer)
        dealer = (dealer + 1) % 4
        if state is None:
            cancelled += 1
            continue
        played += 1
        score = state.score(carried)
        carried = score.carry_out
        scores[0] += score.hand_score[0]
        scores[1] += score.hand_score[1]
        if max(scores) >= goal and scores[0] != scores[1]:
            break
    winner = 0 if scores[0] > scores[1] else 1
    return MatchResult((scores[0], scores[1]), winner, played, cancelled)

