"""The expert weighs a hand by the match score: the chance of winning the game, what a hand
is worth near the target, and the public score reaching the bots (matches and tables)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.testing import GameHarness
from games.belote import game as belote_game
from games.belote.bots import (
    Bot,
    HeuristicBot,
    SearchBot,
    SeatView,
    bid_view,
    play_dealt_hand,
    play_match,
)
from games.belote.bots.stakes import SPREADS, Stakes, win_chance
from games.belote.rules import CARDS, Bid, Card, ClassicBidding, Rules, deal_classic_first


class Spy:
    """A beginner that notes the match score of every view it is given."""

    def __init__(self, seen: list[tuple[int, int] | None], seed: int = 0) -> None:
        self.bot = HeuristicBot(random.Random(seed))
        self.seen = seen

    def choose_bid(self, view: SeatView) -> Bid:
        self.seen.append(view.match_scores)
        return self.bot.choose_bid(view)

    def choose_card(self, view: SeatView) -> Card:
        self.seen.append(view.match_scores)
        return self.bot.choose_card(view)


def test_win_chance_grows_with_the_lead_and_is_settled_at_the_target() -> None:
    spread = SPREADS["classic"]
    chances = [win_chance(own, 500, 1000, spread) for own in (300, 450, 500, 550, 700)]
    assert chances == sorted(chances) and chances[2] == pytest.approx(0.5)
    assert win_chance(990, 900, 1000, spread) > win_chance(590, 500, 1000, spread)
    assert win_chance(1001, 1000, 1000, spread) == 1.0
    assert win_chance(1000, 1001, 1000, spread) == 0.0


def test_near_the_target_the_chance_counts_the_hands_that_end_the_game() -> None:
    spread = SPREADS["classic"]
    outcomes = list(spread.outcomes) + [(b, a) for a, b in spread.outcomes]
    own, other = 961, 901
    wins = sum(own + a >= 1000 and own + a > other + b for a, b in outcomes) / len(outcomes)
    losses = sum(other + b >= 1000 and other + b > own + a for a, b in outcomes) / len(outcomes)
    assert wins + losses == 1  # every hand ends the game, for one team or the other
    chance = win_chance(own, other, 1000, spread)
    assert chance == pytest.approx(wins, abs=0.02)  # read off a grid
    assert chance < 0.7  # a random walk of the lead said about 0.8
    # 100 points lower, hands may leave both short: the chance lies between
    low = sum(own - 100 + a >= 1000 and own + a > other + b for a, b in outcomes) / len(outcomes)
    high = 1 - sum(other - 100 + b >= 1000 and other + b > own + a
                   for a, b in outcomes) / len(outcomes)
    assert low < high and low <= win_chance(own - 100, other - 100, 1000, spread) <= high
    assert win_chance(other, own, 1000, spread) == pytest.approx(1 - chance, abs=1e-9)


def test_a_hand_that_wins_the_game_is_worth_more_than_a_bigger_one_that_does_not() -> None:
    behind = Stakes(0, (900, 950), 1000, "classic")
    assert behind.worth((110, 52)) > behind.worth((90, 0))  # 1010-1002 wins, 990-950 plays on
    alone = Stakes(0, None, 1000, "classic")
    assert alone.worth((110, 52)) < alone.worth((90, 0))
    # far from the target a hand is worth about its points, for either team
    start = Stakes(1, (0, 0), 1000, "classic")
    assert start.worth((62, 100)) == pytest.approx(38, abs=2)
    assert start.worth((100, 62)) == pytest.approx(-38, abs=2)


def test_ahead_near_the_end_a_sure_small_gain_beats_a_gamble_of_more_points() -> None:
    ahead = Stakes(0, (850, 650), 1000, "classic")
    sure = ahead.worth((90, 72))
    gamble = (ahead.worth((250, 0)) + ahead.worth((0, 162))) / 2
    assert sure > gamble
    assert 90 - 72 < (250 - 162) / 2  # the gamble is worth more points on average


def test_matches_show_the_bots_the_match_score_and_lone_hands_none() -> None:
    seen: list[tuple[int, int] | None] = []
    bots: list[Bot] = [Spy(seen, seat) for seat in range(4)]
    result = play_match(Rules(target=501), bots, random.Random(4))
    assert result.hands_played >= 2
    assert None not in seen and seen[0] == (0, 0)
    assert max(max(scores) for scores in seen if scores is not None) > 0
    lone: list[tuple[int, int] | None] = []
    deck = list(CARDS)
    random.Random(1).shuffle(deck)
    play_dealt_hand(Rules(), [Spy(lone, seat) for seat in range(4)], deck, 0)
    assert lone and set(lone) == {None}


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


@pytest.mark.parametrize(("target", "scored"), [(2, True), (10, False)])
def test_table_bots_see_the_score_in_a_game_to_points_only(
        harness: GameHarness, monkeypatch: pytest.MonkeyPatch, target: int, scored: bool) -> None:
    seen: list[tuple[int, int] | None] = []
    monkeypatch.setattr(belote_game, "make_bot", lambda kind, rng: Spy(seen))
    table = harness.create_table(players=4, seed=3, options={"target": target},
                                 bots={seat: "beginner" for seat in range(4)})
    assert table.is_over and seen
    if scored:
        assert None not in seen and any(max(scores) > 0 for scores in seen if scores)
    else:
        assert set(seen) == {None}


def test_near_the_end_the_expert_takes_a_hand_it_cannot_lose_the_game_by() -> None:
    deck = list(CARDS)
    random.Random(20).shuffle(deck)  # seat 1 holds JD QC 8S TS AS, the king of clubs turned
    hands, turned = deal_classic_first(deck, 0)
    bidding = ClassicBidding(0, turned, Rules())
    seat = bidding.to_play
    assert seat == 1

    def bid(scores: tuple[int, int] | None) -> str:
        return SearchBot(random.Random(5)).choose_bid(bid_view(bidding, hands[seat], scores)).code
    assert bid(None) == bid((400, 420)) == "pass"
    # team 1 at 980 to 500: made, the contract wins the game; failed (162 to the other
    # team, 662) it leaves team 1 far ahead
    assert bid((500, 980)) == "take"
    # at 950 to 700 a failure (862) would leave the next hand close to even: with two
    # trumps the risk costs more than passing
    assert bid((700, 950)) == "pass"
