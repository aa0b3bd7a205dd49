"""Bots playing without the framework: one hand (`play_hand`) or a match to a target
(`play_match`), dealt from a seeded random source."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import (
    CARDS,
    Card,
    ClassicBidding,
    Contract,
    ContreeBidding,
    PlayState,
    Rules,
    deal_classic_first,
    deal_classic_rest,
    deal_contree,
)
from .views import Bot, bid_view, play_view


@dataclass(frozen=True)
class MatchResult:
    """Outcome of `play_match`: final scores per team, winning team and hand counts."""

    scores: tuple[int, int]
    winner: int
    hands_played: int
    hands_cancelled: int


def play_dealt_hand(rules: Rules, bots: Sequence[Bot], deck: Sequence[Card], dealer: int,
                    match_scores: tuple[int, int] | None = None,
                    ) -> tuple[Contract | None, PlayState | None]:
    """Run the bidding and the play of the shuffled ``deck`` with ``bots`` (who see
    ``match_scores``, the game's score before the hand, or None for a hand on its own).
    Returns ``(None, None)`` when everybody passed."""
    bidding: ClassicBidding | ContreeBidding
    turned: Card | None = None
    if rules.is_contree:
        hands = deal_contree(deck, dealer)
        bidding = ContreeBidding(dealer, rules)
    else:
        hands, turned = deal_classic_first(deck, dealer)
        bidding = ClassicBidding(dealer, turned, rules)
    while not bidding.is_over:
        seat = bidding.to_play
        bidding.apply(bots[seat].choose_bid(bid_view(bidding, hands[seat], match_scores)), seat)
    contract = bidding.contract
    if contract is None:
        return None, None
    if not rules.is_contree:
        hands = deal_classic_rest(deck, dealer, hands, contract.taker)
    state = PlayState(hands, contract, (dealer + 1) % 4, rules)
    while not state.is_over:
        seat = state.to_play
        state.play(bots[seat].choose_card(play_view(state, dealer, bidding.history, turned,
                                                    match_scores)), seat)
    return contract, state


def play_hand(rules: Rules, bots: Sequence[Bot], rng: random.Random, dealer: int,
              match_scores: tuple[int, int] | None = None,
              ) -> tuple[Contract | None, PlayState | None]:
    """Deal with ``rng``, run the bidding and the play with ``bots`` (``match_scores``: see
    `play_dealt_hand`); score the hand with ``state.score(carried)``. Returns
    ``(None, None)`` when everybody passed."""
    deck = list(CARDS)
    rng.shuffle(deck)
    return play_dealt_hand(rules, bots, deck, dealer, match_scores)


def play_match(rules: Rules, bots: Sequence[Bot], rng: random.Random,
               target: int | None = None, first_dealer: int = 0,
               max_hands: int = 1000) -> MatchResult:
    """Play hands until a team reaches ``target`` (default `Rules.target`) with the higher
    score. The dealer rotates every hand, cancelled ones included; contention points are
    carried to the next played hand. The bots see the match score.

    Raises:
        BeloteError: a bot played an illegal bid or card.
    """
    goal = rules.target if target is None else target
    scores = [0, 0]
    dealer = first_dealer
    carried = 0
    played = cancelled = 0
    while played + cancelled < max_hands:
        contract, state = play_hand(rules, bots, rng, dealer, (scores[0], scores[1]))
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
