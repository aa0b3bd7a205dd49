"""The expert's machinery: the exact solver against brute force, samples consistent with
what is public, the search picking the winning card in known end positions."""

from __future__ import annotations

import itertools
import random

import pytest

from games.belote.bots import SearchBot, SearchBudget, play_view
from games.belote.bots.knowledge import knowledge_of
from games.belote.bots.rollout import greedy_card
from games.belote.bots.sampling import sample_deals
from games.belote.bots.search import TAKER_STRENGTH, _bid_hints
from games.belote.bots.solver import Solver
from games.belote.bots.strength import hand_strength
from games.belote.bots.tables import KEYS
from games.belote.bots.views import SeatView
from games.belote.rules import (
    CARDS,
    FULL_DECK_MASK,
    Bid,
    BidKind,
    Card,
    Contract,
    PlayState,
    Rules,
    Suit,
    legal_cards,
    legal_mask,
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


def test_card_samples_stay_within_the_work_budget() -> None:
    budget = SearchBudget(card_samples=30, card_work=1600, min_card_samples=12)
    bot = SearchBot(random.Random(1), budget)
    seen = set()
    for candidates in range(2, 9):
        for tricks_left in range(1, 9):
            samples = bot.card_samples(candidates, tricks_left)
            seen.add(samples)
            assert 12 <= samples <= 30
            assert samples == 12 or samples * candidates * tricks_left <= 1600
    assert bot.card_samples(2, 2) == 30  # cheap decisions get every sample
    assert bot.card_samples(8, 8) == 25  # the costliest get fewer
    assert len(seen) > 1
    tight = SearchBot(random.Random(1), SearchBudget(card_work=100, min_card_samples=12))
    assert tight.card_samples(8, 8) == 12  # never fewer than the minimum


def test_a_decision_with_one_distinct_card_draws_nothing() -> None:
    # a heart led: 7H and 8H play alike (no live heart between them), nothing to search
    state = PlayState([parse_cards(hand.split()) for hand in (
        "7H 8H 7S 8S 9S JS QS KS", "7D 8D 9D JD QD KD TD AD",
        "TH JH QH KH AH 7C TS AS", "9H 8C 9C TC JC QC KC AC")], Contract(Suit.CLUBS, 0), 3)
    state.play("9H")
    assert [str(card) for card in state.legal_cards()] == ["7H", "8H"]
    rng = random.Random(3)
    before = rng.getstate()
    card = SearchBot(rng).choose_card(play_view(state, dealer=2))
    assert str(card) in ("7H", "8H")
    assert rng.getstate() == before


def test_rollout_feeds_a_partner_trick_without_a_card_that_wins_its_own() -> None:
    # spades trump; seat 1 wins the club trick; seat 3, void in clubs and trumps, gives the
    # ten of hearts (the opponents hold the ace) and keeps its master ace of diamonds
    code = 0
    hands = [mask_of(parse_cards(cards.split()))
             for cards in ("AH KD", "8H 9D", "TD QD", "AD TH 7D")]
    trick = parse_cards("7C AC 8C".split())
    keys = KEYS[code]
    led = int(Suit.CLUBS)
    win_card = trick[1].index
    legal = legal_mask(hands[3], 3, led, win_card, 1, code, False)
    played = greedy_card(hands, 3, legal, code, led, keys[led * 32 + win_card], 1, 3, 0)
    assert CARDS[played] == Card.from_str("TH")


def test_classic_samples_give_the_taker_a_takers_hand() -> None:
    turned = Card.from_str("9H")
    hand = parse_cards("7S 8S 7D 8D 7C 8C QC KC".split())
    bids = ((1, Bid(BidKind.PASS)), (2, Bid(BidKind.PASS)), (3, Bid(BidKind.TAKE)))
    seat_view = SeatView(seat=0, dealer=0, rules=Rules(), hand=tuple(hand), bids=bids,
                         turned=turned, contract=Contract(Suit.HEARTS, 3))
    hints = _bid_hints(seat_view, int(Suit.HEARTS))
    assert any(hint.seat == 3 and hint.low == TAKER_STRENGTH for hint in hints)
    mine = mask_of(hand)
    held = [0, 0, 0, 1 << turned.index]
    room = [0, 8, 8, 8]
    hidden = FULL_DECK_MASK & ~mine
    hinted = sample_deals(random.Random(2), hidden, room, (0, 0, 0, 0), held, 60, hints)
    plain = sample_deals(random.Random(2), hidden, room, (0, 0, 0, 0), held, 60)

    def taker_strength(deals: list[list[int]]) -> float:
        return sum(hand_strength(deal[3], int(Suit.HEARTS)) for deal in deals) / len(deals)
    assert taker_strength(hinted) >= TAKER_STRENGTH - 0.5
    assert taker_strength(hinted) > taker_strength(plain) + 1.0
