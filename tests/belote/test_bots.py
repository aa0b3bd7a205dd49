"""Bots: legal choices, sensible heuristic play, and matches against random players."""

from __future__ import annotations

import doctest
import importlib
import random
from collections.abc import Callable

import pytest

from games.belote.bots import (
    Bot,
    HeuristicBot,
    RandomBot,
    SearchBot,
    SearchBudget,
    SeatView,
    bid_view,
    play_hand,
    play_match,
    play_view,
)
from games.belote.bots.heuristic import coinche_gain
from games.belote.rules import (
    Bid,
    BidKind,
    Card,
    ClassicBidding,
    Contract,
    ContreeBidding,
    PlayState,
    Rules,
    Suit,
    legal_cards,
    parse_cards,
)


def view(hand: str, trick: str = "", leader: int = 0, seat: int | None = None,
         trump: Suit = Suit.SPADES, taker: int = 1, played: str = "") -> SeatView:
    cards = parse_cards(hand.split())
    trick_cards = parse_cards(trick.split())
    to_play = (leader + len(trick_cards)) % 4 if seat is None else seat
    return SeatView(
        seat=to_play, dealer=(leader - 1) % 4, rules=Rules(), hand=tuple(sorted(cards)),
        contract=Contract(trump, taker), leader=leader, trick=tuple(trick_cards),
        played=tuple((0, card) for card in parse_cards(played.split())),
        legal_cards=tuple(legal_cards(cards, trick_cards, leader, trump)),
    )


def choose(bot_view: SeatView) -> str:
    return str(HeuristicBot(random.Random(0)).choose_card(bot_view))


def test_random_bot_picks_among_legal_moves() -> None:
    bot = RandomBot(random.Random(1))
    bot_view = view("7H AH 9C", "TH")
    assert {str(bot.choose_card(bot_view)) for _ in range(50)} == {"7H", "AH"}


def test_heuristic_feeds_points_to_a_partner_who_wins_for_sure() -> None:
    # last to play, partner (seat 3) wins with the ace of hearts: throw the ten, not the seven
    assert choose(view("7H TH 8C", "8H AH 9H", leader=2)) == "TH"


def test_heuristic_does_not_waste_a_card_when_the_partner_may_lose() -> None:
    # second hand on the opponent's king: the master ace takes it
    assert choose(view("7H AH 8C", "KH", leader=3)) == "AH"
    # partner (seat 0) wins with the queen but the ace and ten are out: play low
    assert choose(view("7H TH 8C", "QH 8H", leader=0)) == "7H"


def test_heuristic_trumps_an_opponent_trick_as_cheaply_as_possible() -> None:
    # void in hearts, the opponent's ace wins: the lowest trump is enough (last to play)
    assert choose(view("7S JS 9S 8C", "AH 9H 7H", leader=3)) == "7S"


def test_heuristic_discards_low_when_it_cannot_win() -> None:
    assert choose(view("7C KD 8D", "AH TH", leader=2, trump=Suit.SPADES)) == "7C"


def test_heuristic_leads_a_master_card() -> None:
    assert choose(view("AH 7C 8D 9D", leader=0, seat=0, taker=1)) == "AH"


def test_heuristic_taker_draws_trumps() -> None:
    assert choose(view("JS 7S AH 8D", leader=0, seat=0, taker=0)) == "JS"


def bid_choice(hand: str, turned: str, bids: str = "") -> str:
    bidding = ClassicBidding(dealer=3, turned=Card.from_str(turned))
    for code in bids.split():
        bidding.apply(code)
    return HeuristicBot(random.Random(0)).choose_bid(
        bid_view(bidding, parse_cards(hand.split()))).code


def test_heuristic_classic_bidding_follows_hand_strength() -> None:
    assert bid_choice("JH 9H AS 7C 8D", "7H") == "take"
    assert bid_choice("7S 8S 9D QC KD", "7H") == "pass"
    assert bid_choice("JC 9C AC AS 8D", "7H", "pass pass pass pass") == "take:C"
    assert bid_choice("7S 8S 9D QC KD", "7H", "pass pass pass pass") == "pass"


def test_heuristic_contree_bidding_bids_and_raises() -> None:
    rules = Rules(variant="contree")
    strong = parse_cards("JH 9H AH TH 7H AS AC 8D".split())
    bidding = ContreeBidding(0, rules)
    bid = HeuristicBot(random.Random(0)).choose_bid(bid_view(bidding, strong))
    assert bid.trump == Suit.HEARTS and bid.value is not None and bid.value >= 100
    weak = parse_cards("7S 8S 9D QC KD 7C 8H 9C".split())
    assert HeuristicBot(random.Random(0)).choose_bid(bid_view(bidding, weak)).code == "pass"


def test_views_hold_only_what_the_seat_may_know() -> None:
    rng = random.Random(4)
    deck = parse_cards(f"{rank}{suit}" for suit in "SHDC" for rank in "789TJQKA")
    rng.shuffle(deck)
    hands = [deck[0:8], deck[8:16], deck[16:24], deck[24:32]]
    state = PlayState(hands, Contract(Suit.HEARTS, 0), 1)
    for _ in range(6):
        state.play(state.legal_cards()[0])
    seen = play_view(state, dealer=0, bids=[(1, Bid.from_code("take"))])
    assert seen.seat == state.to_play
    assert list(seen.hand) == state.hand(seen.seat)
    visible = set(seen.hand) | set(seen.trick) | {card for _, card in seen.played}
    others = {card for seat in range(4) if seat != seen.seat for card in state.hand(seat)}
    assert visible.isdisjoint(others)
    assert len(seen.trick) == 2
    assert [card for _, card in seen.played] == list(state.tricks[0].cards)
    assert [seat for seat, _ in seen.played] == [1, 2, 3, 0]
    assert list(seen.legal_cards) == state.legal_cards()


class PassingBot(RandomBot):
    """Always passes, and records the dealer it saw."""

    def __init__(self, dealers: list[int]) -> None:
        super().__init__(random.Random(0))
        self.dealers = dealers

    def choose_bid(self, view: SeatView) -> Bid:
        if not view.bids:
            self.dealers.append(view.dealer)
        return view.legal_bids[0]


@pytest.mark.parametrize("variant", ["classic", "contree"])
def test_dealer_rotates_on_cancelled_hands(variant: str) -> None:
    dealers: list[int] = []
    bots = [PassingBot(dealers) for _ in range(4)]
    result = play_match(Rules(variant=variant), bots, random.Random(0),  # type: ignore[arg-type]
                        first_dealer=2, max_hands=6)
    assert result.hands_cancelled == 6 and result.hands_played == 0
    assert dealers == [2, 3, 0, 1, 2, 3]


def test_play_hand_with_random_bots_finishes_legally() -> None:
    rng = random.Random(8)
    for variant in ("classic", "contree"):
        bots = [RandomBot(random.Random(seat)) for seat in range(4)]
        for dealer in range(8):
            contract, state = play_hand(Rules(variant=variant), bots, rng, dealer % 4)  # type: ignore[arg-type]
            if state is not None:
                assert state.is_over and sum(state.card_points) == 162


def win_rate(rules: Rules, matches: int) -> float:
    wins = 0
    for seed in range(matches):
        heuristic = HeuristicBot(random.Random(2 * seed))
        rand = RandomBot(random.Random(2 * seed + 1))
        result = play_match(rules, [heuristic, rand, heuristic, rand], random.Random(seed),
                            first_dealer=seed % 4)
        assert max(result.scores) >= rules.target
        wins += result.winner == 0
    return wins / matches


def test_target_ends_the_match() -> None:
    heuristic = HeuristicBot(random.Random(1))
    rand = RandomBot(random.Random(2))
    short = play_match(Rules(target=501), [heuristic, rand, heuristic, rand], random.Random(3))
    long = play_match(Rules(), [heuristic, rand, heuristic, rand], random.Random(3))
    assert 501 <= max(short.scores) < 1000 <= max(long.scores)
    assert short.hands_played < long.hands_played


@pytest.mark.parametrize("module", ["heuristic", "levels", "passing", "solver", "stakes",
                                    "strength", "tables"])
def test_bots_doctests_pass(module: str) -> None:
    assert doctest.testmod(importlib.import_module(f"games.belote.bots.{module}")).failed == 0


def test_heuristic_team_beats_random_team_in_classic() -> None:
    assert win_rate(Rules(), 200) >= 0.9


def test_heuristic_team_beats_random_team_in_contree() -> None:
    assert win_rate(Rules(variant="contree"), 60) >= 0.9


# ---------------------------------------------------------------------------- contrée bidding


def contree_auctions(make: Callable[[int], Bot], deals: int, seed: int) -> list[
        tuple[list[tuple[int, Bid]], Contract | None, str | None]]:
    """Bidding histories, contracts and outcomes of ``deals`` seeded contrée hands."""
    rules = Rules(variant="contree")
    rng = random.Random(seed)
    out = []
    for number in range(deals):
        bots = [make(seat + 10 * number) for seat in range(4)]
        recorder = [Recorder(bot) for bot in bots]
        contract, state = play_hand(rules, recorder, rng, number % 4)  # type: ignore[arg-type]
        history = max((bot.last_bids for bot in recorder), key=len)
        out.append((history, contract, None if state is None else state.score().outcome))
    return out


class Recorder:
    """Passes a bot's choices through and keeps the longest bidding history it saw."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.last_bids: list[tuple[int, Bid]] = []

    def choose_bid(self, view: SeatView) -> Bid:
        bid = self.bot.choose_bid(view)
        self.last_bids = list(view.bids) + [(view.seat, bid)]
        return bid

    def choose_card(self, view: SeatView) -> Card:
        return self.bot.choose_card(view)


def partner_raises(history: list[tuple[int, Bid]]) -> int:
    """The most times one team outbid its own partner's bid in an auction."""
    raises = [0, 0]
    previous: int | None = None
    for seat, bid in history:
        if bid.kind is not BidKind.VALUE:
            continue
        if previous is not None and previous == (seat + 2) % 4:
            raises[seat % 2] += 1
        previous = seat
    return max(raises)


def test_beginner_does_not_ratchet_and_coinches() -> None:
    auctions = contree_auctions(lambda seed: HeuristicBot(random.Random(seed)), 150, seed=1)
    contracts = [contract for _, contract, _ in auctions if contract is not None]
    at_160 = [contract for contract in contracts if (contract.value or 0) >= 160]
    assert len(contracts) >= 100
    assert len(at_160) <= 0.05 * len(contracts)
    assert all(partner_raises(history) <= 1 for history, _, _ in auctions)
    assert any(contract.coinche for contract in contracts)
    failed = sum(1 for _, contract, outcome in auctions if contract and outcome == "failed")
    assert failed <= 0.35 * len(contracts)


def test_expert_does_not_ratchet() -> None:
    budget = SearchBudget(card_samples=3, bid_samples=16)
    auctions = contree_auctions(lambda seed: SearchBot(random.Random(seed), budget), 10, seed=2)
    contracts = [contract for _, contract, _ in auctions if contract is not None]
    assert contracts
    assert all(partner_raises(history) <= 2 for history, _, _ in auctions)
    assert sum(1 for contract in contracts if (contract.value or 0) >= 160) <= 2


def coinche_view(hand: str, bids: str, dealer: int = 0) -> SeatView:
    bidding = ContreeBidding(dealer, Rules(variant="contree"))
    for code in bids.split():
        bidding.apply(code)
    return bid_view(bidding, parse_cards(hand.split()))


@pytest.mark.parametrize("make", [lambda: HeuristicBot(random.Random(0)),
                                  lambda: SearchBot(random.Random(0), SearchBudget(bid_samples=32))])
def test_bots_coinche_a_contract_they_hold_the_trumps_of(make: Callable[[], Bot]) -> None:
    # seat 1 bids 140 hearts; seat 2 holds the four top hearts and two aces
    view = coinche_view("JH 9H AH TH AS AC 7D 8D", "140:H")
    assert view.seat == 2 and any(bid.code == "coinche" for bid in view.legal_bids)
    assert make().choose_bid(view).code == "coinche"


@pytest.mark.parametrize("make", [lambda: HeuristicBot(random.Random(0)),
                                  lambda: SearchBot(random.Random(0), SearchBudget(bid_samples=32))])
def test_bots_do_not_coinche_without_defence(make: Callable[[], Bot]) -> None:
    view = coinche_view("7S 8S 7D 8D 9D 7C 8C 9C", "80:H")
    assert make().choose_bid(view).code != "coinche"


def test_coinche_gain_grows_with_defence_and_bid() -> None:
    rules = Rules(variant="contree")
    contract = Contract(Suit.HEARTS, 1, 120)
    assert coinche_gain(rules, contract, 2, 1.0) < 0 < coinche_gain(rules, contract, 2, 7.0)
    assert coinche_gain(rules, Contract(Suit.HEARTS, 1, 80), 2, 4.0) < coinche_gain(rules, contract, 2, 4.0)


# ---------------------------------------------------------------------------- hidden cards


def test_expert_decides_from_its_view_only() -> None:
    """Two deals that look the same to seat 0 (its hand and the public play) but differ in
    the other hands: the expert, with the same random source, makes the same decision."""
    mine = "JS 9S AH TH 7D 8D KC QC"
    others_one = ["7S 8S TS AS 7H 8H 9H JH", "QS KS QH KH AD TD 9D JD", "QD KD 7C 8C 9C TC AC JC"]
    others_two = ["QS KS QH KH AD TD 9D JD", "7S 8S TS AS 7H 8H 9H JH", "QD KD 7C 8C 9C TC AC JC"]
    choices = []
    for others in (others_one, others_two):
        hands = [parse_cards(mine.split())] + [parse_cards(hand.split()) for hand in others]
        state = PlayState(hands, Contract(Suit.SPADES, 0), 0)
        view = play_view(state, dealer=3)
        assert view.hand == tuple(sorted(parse_cards(mine.split())))
        assert view.known == ()
        choices.append(SearchBot(random.Random(9), SearchBudget(card_samples=6)).choose_card(view))
    assert choices[0] == choices[1]


def test_known_cards_are_only_public_ones() -> None:
    # seat 1 holds the trump king and queen: after it plays the king ("Belote"), everybody
    # knows it holds the queen; the turned-up card is known in the taker's hand
    hands = ["7S 8S 9S TS 7H 8H 9H TH", "KS QS JS AS 7D 8D 9D TD",
             "JH QH KH AH JD QD KD AD", "7C 8C 9C TC JC QC KC AC"]
    state = PlayState([parse_cards(hand.split()) for hand in hands], Contract(Suit.SPADES, 1), 1)
    turned = Card.from_str("AS")
    before = play_view(state, dealer=0, turned=turned)
    assert before.seat == 1 and before.known == ()  # its own cards are not "known" facts
    state.play("KS")
    after = play_view(state, dealer=0, turned=turned)
    assert after.seat == 2
    assert set(after.known) == {(1, Card.from_str("QS")), (1, Card.from_str("AS"))}
