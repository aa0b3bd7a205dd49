"""Random playouts: invariants of every hand (cards, tricks, points, legality, scores)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.belote.bench import bench_pure, random_play_hand
from games.belote.rules import (
    ALL_TRUMPS,
    CARDS,
    NO_TRUMPS,
    Card,
    Contract,
    PlayState,
    Rules,
    Suit,
    Trump,
    card_points,
    trump_from_code,
)

PLAIN = "789JQKTA"   # lowest first
TRUMP = "78QKTA9J"


def strength(card: Card, led: Suit, trump: Trump) -> int:
    """Independent statement of the trick order, straight from the rules text."""
    trump_like = trump is ALL_TRUMPS or card.suit == trump
    rank = (TRUMP if trump_like else PLAIN).index(card.rank.char)
    if trump is not ALL_TRUMPS and trump is not NO_TRUMPS and card.suit == trump:
        return 100 + rank
    return rank if card.suit == led else -1


def reference_legal(hand: list[Card], trick: list[Card], leader: int, trump: Trump,
                    undertrump: str) -> list[Card]:
    """Independent statement of the legal-card rules, straight from the rules text."""
    if not trick:
        return sorted(hand)
    led = trick[0].suit
    seat = (leader + len(trick)) % 4
    best = max(range(len(trick)), key=lambda i: strength(trick[i], led, trump))
    partner_wins = (leader + best) % 4 == (seat + 2) % 4
    follow = [c for c in hand if c.suit == led]
    if trump is NO_TRUMPS:
        return sorted(follow or hand)
    if trump is ALL_TRUMPS or led == trump:
        if not follow:
            return sorted(hand)
        top = max(strength(c, led, trump) for c in trick)
        higher = [c for c in follow if strength(c, led, trump) > top]
        return sorted(higher or follow)
    if follow:
        return sorted(follow)
    if partner_wins:
        return sorted(hand)
    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return sorted(hand)
    played_trumps = [strength(c, led, trump) for c in trick if c.suit == trump]
    if not played_trumps:
        return sorted(trumps)
    higher = [c for c in trumps if strength(c, led, trump) > max(played_trumps)]
    if higher:
        return sorted(higher)
    return sorted(hand) if undertrump == "optional" else sorted(trumps)


RULE_SETS = [
    Rules(), Rules(undertrump="optional"), Rules(announcements=True),
    Rules(variant="contree"), Rules(variant="contree", undertrump="optional", multiplier="whole",
                                    belote_to_defence_on_failed=True, announcements=True),
]


def check_hand(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = [deck[0:8], deck[8:16], deck[16:24], deck[24:32]]
    value = rng.choice([80, 90, 100, 110, 120, 130, 140, 150, 160, 250])
    contract = Contract(trump_from_code(rng.randrange(6)), rng.randrange(4),
                        value if rules.is_contree else None,
                        rng.randrange(3) if rules.is_contree else 0)
    leader = rng.randrange(4)
    state = PlayState(hands, contract, leader, rules)
    played: list[Card] = []
    while not state.is_over:
        seat = state.to_play
        legal = state.legal_cards()
        expected = reference_legal(state.hand(seat), list(state.trick), state.leader,
                                   contract.trump, rules.undertrump)
        assert legal == expected
        card = rng.choice(legal)
        state.play(card, seat)
        played.append(card)
    assert sorted(played) == list(CARDS)
    assert len(state.tricks) == 8 and sum(state.tricks_won) == 8
    assert all(len(trick.cards) == 4 for trick in state.tricks)
    assert sum(state.card_points) == 162
    for number, trick in enumerate(state.tricks, start=1):
        bonus = 10 if number == 8 else 0
        cards = sum(card_points(card, contract.trump) for card in trick.cards)
        assert trick.points == cards + bonus
    for team in (0, 1):
        won = [t for t in state.tricks if t.winner % 2 == team]
        assert state.card_points[team] == sum(t.points for t in won)
        assert state.tricks_won[team] == sum(1 for t in state.tricks if t.winner % 2 == team)
    carried = rng.choice([0, 0, 81])
    score = state.score(carried)
    assert sum(score.card_points) == (252 if score.is_capot else 162)
    base = sum(score.card_points) + sum(score.announcements) + sum(score.belote)
    total = sum(score.hand_score) + score.carry_out - carried
    if not rules.is_contree:
        assert total == base
        if score.outcome == "contention":
            assert score.totals[0] == score.totals[1]
    else:
        assert contract.value is not None
        multiplier = (1, 2, 4)[contract.coinche]
        if rules.multiplier == "contract":
            contract_part = contract.value * multiplier
            cards_part = base if score.outcome == "made" else (
                160 + sum(score.announcements) + sum(score.belote))
            assert total == cards_part + contract_part
        assert score.outcome in ("made", "failed")
        if contract.value == 250:
            assert (score.outcome == "made") == (score.capot_team == contract.taker_team)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), rules_index=st.integers(0, 4))
def test_random_hands_keep_every_invariant(seed: int, rules_index: int) -> None:
    check_hand(seed, RULE_SETS[rules_index])


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.variant)
def test_thousands_of_seeded_hands(rules: Rules) -> None:
    for seed in range(600):
        check_hand(seed, rules)


@pytest.mark.parametrize("undertrump", ["required", "optional"])
def test_fast_random_playouts_only_play_legal_cards(undertrump: str) -> None:
    rng = random.Random(11)
    rules = Rules(undertrump=undertrump)  # type: ignore[arg-type]
    for _ in range(2000):
        fast = random_play_hand(rules, rng)
        checked = PlayState(list(fast.start_hands), fast.contract, fast.first_leader, rules)
        for trick in fast.tricks:
            for card in trick.cards:
                checked.play(card)  # raises if the fast path played an illegal card
        assert [t.winner for t in checked.tricks] == [t.winner for t in fast.tricks]
        assert checked.card_points == fast.card_points
        assert sum(fast.card_points) == 162 and fast.hands == [0, 0, 0, 0]


def test_fast_playout_can_finish_a_partly_played_hand() -> None:
    rng = random.Random(3)
    deck = list(CARDS)
    rng.shuffle(deck)
    state = PlayState([deck[0:8], deck[8:16], deck[16:24], deck[24:32]],
                      Contract(Suit.HEARTS, 0), 2)
    for _ in range(6):
        state.play(state.legal_cards()[0])
    state.play_random(rng)
    assert state.is_over and sum(state.card_points) == 162 and len(state.tricks) == 8


def test_bench_pure_reports_hands_per_second() -> None:
    result = bench_pure(hands=200, seed=1)
    assert result["hands"] == 200
    assert result["pure_hands_per_s"] > 0
