"""The expert's machinery: the exact solver against brute force, samples consistent with
what is public, the search picking the winning card in known end positions."""

from __future__ import annotations

import itertools
import random

import pytest

from games.belote.bots import SearchBot, SearchBudget, play_view
from games.belote.bots.knowledge import knowledge_of
from games.belote.bots.sampling import sample_deals
from games.belote.bots.solver import Solver
from games.belote.rules import (
    CARDS,
    Card,
    Contract,
    PlayState,
    Suit,
    legal_cards,
    mask_of,
    parse_cards,
    trick_points,
    trick_winner,
    trump_code,
    trump_from_code,
)


def brute_force(hands: list[list[Card]], leader: int, trick: list[Card], trump_index: int) -> int:
    """Team 0's card points from here with perfect play, by plain minimax over the rules'
    own legal cards, trick winner and trick points."""
    trump = trump_from_code(trump_index)
    seat = (leader + len(trick)) % 4
    if len(trick) == 4:
        winner = trick_winner(trick, leader, trump)
        left = sum(len(hand) for hand in hands)
        points = trick_points(trick, trump) + (10 if left == 0 else 0)
        gained = points if winner % 2 == 0 else 0
        if left == 0:
            return gained
        return gained + brute_force(hands, winner, [], trump_index)
    values = []
    for card in legal_cards(hands[seat], trick, leader, trump):
        rest = [list(hand) for hand in hands]
        rest[seat].remove(card)
        values.append(brute_force(rest, leader, trick + [card], trump_index))
    return max(values) if seat % 2 == 0 else min(values)


def end_position(rng: random.Random, tricks_left: int, code: int, extra: int) -> PlayState:
    deck = list(CARDS)
    rng.shuffle(deck)
    state = PlayState([deck[i * 8:(i + 1) * 8] for i in range(4)],
                      Contract(trump_from_code(code), 0), rng.randrange(4))
    while state.played < 32 - 4 * tricks_left + extra:
        state.play(rng.choice(state.legal_cards()))
    return state


@pytest.mark.parametrize("code", range(6))
def test_solver_matches_brute_force(code: int) -> None:
    rng = random.Random(code)
    for number in range(12):
        state = end_position(rng, 3 if number % 2 else 2, code, extra=number % 4)
        hands = [state.hand(seat) for seat in range(4)]
        expected = brute_force(hands, state.leader, list(state.trick), code)
        got = Solver(code).value(list(state.hands), state.leader,
                                 [card.index for card in state.trick])
        assert got == expected


def test_solver_closes_a_full_trick() -> None:
    hands = [mask_of(parse_cards(cards.split())) for cards in ("AH", "TH", "7S", "KH")]
    assert Solver(0).value([0, 0, 0, 0], 0, [card.index for card in parse_cards(
        ["AH", "TH", "7S", "KH"])]) == 35
    assert Solver(0).value(hands, 0, []) == 35


def test_samples_respect_voids_counts_and_known_cards() -> None:
    rng = random.Random(5)
    for _ in range(20):
        state = end_position(rng, 5, int(Suit.HEARTS), extra=rng.randrange(4))
        view = play_view(state, dealer=(state.first_leader - 1) % 4)
        facts = knowledge_of(view)
        me = view.seat
        # every fact holds in the real deal
        for seat in range(4):
            if seat != me:
                assert not state.hands[seat] & facts.forbidden[seat]
                assert state.hands[seat].bit_count() == facts.counts[seat]
        room = [0 if seat == me else facts.counts[seat] for seat in range(4)]
        for deal in sample_deals(rng, facts.hidden, room, facts.forbidden, facts.held, 10):
            assert deal[me] == 0
            assert sum(mask.bit_count() for mask in deal) == facts.hidden.bit_count()
            for seat in range(4):
                if seat != me:
                    assert deal[seat].bit_count() == facts.counts[seat]
                    assert not deal[seat] & facts.forbidden[seat]
                    assert deal[seat] & facts.held[seat] == facts.held[seat]
                    assert not deal[seat] & facts.mine


def test_voids_are_inferred_from_play() -> None:
    # spades trump; seat 1 discards on a heart lead: no hearts, and no trumps (it had to trump)
    hands = ["AH 7S 8S 9S JS QS KS TS", "7D 8D 9D JD QD KD TD AD",
             "7H 8H 9H TH JH QH KH 7C", "8C 9C TC JC QC KC AC AS"]
    state = PlayState([parse_cards(hand.split()) for hand in hands], Contract(Suit.SPADES, 0), 0)
    state.play("AH")
    state.play("7D")
    facts = knowledge_of(play_view(state, dealer=3))
    spades, hearts = 0xFF, 0xFF << 8
    assert facts.forbidden[1] & hearts == hearts
    assert facts.forbidden[1] & spades == spades


def distributions(pool: list[Card], counts: dict[int, int]) -> list[dict[int, list[Card]]]:
    """Every way to give ``counts[seat]`` cards of ``pool`` to each seat."""
    seats = sorted(counts)
    if not seats:
        return [{}]
    first, rest = seats[0], {seat: counts[seat] for seat in seats[1:]}
    out = []
    for chosen in itertools.combinations(pool, counts[first]):
        left = [card for card in pool if card not in chosen]
        for other in distributions(left, rest):
            out.append({first: list(chosen), **other})
    return out


def dominant_card(state: PlayState) -> Card | None:
    """The legal card that is strictly best for the seat to play in every placement of the
    cards it cannot see (by brute force), or None."""
    me = state.to_play
    code = trump_code(state.trump)
    pool = [card for seat in range(4) if seat != me for card in state.hand(seat)]
    counts = {seat: len(state.hand(seat)) for seat in range(4) if seat != me}
    worst: dict[Card, int] = {}
    best: dict[Card, int] = {}
    for placement in distributions(pool, counts):
        hands = [placement.get(seat, state.hand(me)) for seat in range(4)]
        for card in state.legal_cards():
            rest = [list(hand) for hand in hands]
            rest[me].remove(card)
            value = brute_force(rest, state.leader, list(state.trick) + [card], code)
            mine = value if me % 2 == 0 else 162 - sum(state.card_points) - value
            worst[card] = min(worst.get(card, 999), mine)
            best[card] = max(best.get(card, -1), mine)
    for card in worst:
        if all(worst[card] > best[other] for other in best if other != card):
            return card
    return None


def test_search_picks_the_winning_card_in_known_end_positions() -> None:
    rng = random.Random(11)
    found = 0
    while found < 6:
        state = end_position(rng, 2, rng.randrange(6), extra=rng.randrange(4))
        card = dominant_card(state)
        if card is None:
            continue
        found += 1
        bot = SearchBot(random.Random(found), SearchBudget(card_samples=6))
        assert bot.choose_card(play_view(state, dealer=(state.first_leader - 1) % 4)) == card


def test_trump_code_round_trip() -> None:
    assert all(trump_code(trump_from_code(code)) == code for code in range(6))
