"""Belote's benchmarks: the pure engine (complete hands of random legal cards per second),
the expert bot's time per decision (``bench_bots``) and the play policy of
``arena bench server --game belote`` (``bench_policy``)."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Protocol

from .bots import Bot, HeuristicBot, SearchBot, SeatView
from .bots.matches import play_hand
from .rules import Bid, Card, Contract, PlayState, Rules, trump_from_code

_CONTRACTS = tuple(Contract(trump_from_code(code), taker) for code in range(6)
                   for taker in range(4))


def random_masks(rng: random.Random) -> list[int]:
    """Four random 8-card hands as card masks (a uniform deal)."""
    keys = [rng.random() for _ in range(32)]
    order = sorted(range(32), key=keys.__getitem__)
    masks = [0, 0, 0, 0]
    for position, index in enumerate(order):
        masks[position >> 3] |= 1 << index
    return masks


def random_play_hand(rules: Rules, rng: random.Random) -> PlayState:
    """Deal a random hand, pick a random contract (suit, all or no trumps; any taker) and
    play it to the end with uniformly random legal cards."""
    masks = random_masks(rng)
    contract = _CONTRACTS[int(rng.random() * len(_CONTRACTS))]
    state = PlayState(masks, contract, int(rng.random() * 4), rules)
    state.play_random(rng)
    return state


def bench_pure(hands: int, seed: int) -> dict[str, float | int]:
    """Play ``hands`` random hands and time them (deal and play, no scoring).

    Returns ``{"pure_hands_per_s": float, "hands": n}``.
    """
    rng = random.Random(seed)
    rules = Rules()
    start = time.perf_counter()
    for _ in range(hands):
        random_play_hand(rules, rng)
    elapsed = time.perf_counter() - start
    return {"pure_hands_per_s": hands / elapsed if elapsed > 0 else float("inf"),
            "hands": hands}


class _Timed:
    """Wraps a bot and records how long each of its decisions takes: wall-clock time, and
    the process's CPU time (what one free core would take on a machine shared with others)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.cards: list[float] = []
        self.bids: list[float] = []
        self.cards_cpu: list[float] = []
        self.bids_cpu: list[float] = []

    def choose_bid(self, view: SeatView) -> Bid:
        start, start_cpu = time.perf_counter(), time.process_time()
        bid = self.bot.choose_bid(view)
        self.bids.append(time.perf_counter() - start)
        self.bids_cpu.append(time.process_time() - start_cpu)
        return bid

    def choose_card(self, view: SeatView) -> Card:
        start, start_cpu = time.perf_counter(), time.process_time()
        card = self.bot.choose_card(view)
        self.cards.append(time.perf_counter() - start)
        self.cards_cpu.append(time.process_time() - start_cpu)
        return card


def bench_bots(deals: int, rules: Rules, seed: int = 1) -> dict[str, Any]:
    """Play ``deals`` hands, the expert on seats 0 and 2 against the beginner, and time the
    expert's decisions: ``card_ms`` / ``bid_ms`` mean and max (forced moves included), in
    wall-clock time and, as ``card_cpu_ms`` / ``bid_cpu_ms``, in the process's CPU time,
    with the load average when the run ends (``load``). The hands are those of games to
    ``rules.target`` one after the other: the bots see the match score, as at a table."""
    rng = random.Random(seed)
    timed = [_Timed(SearchBot(random.Random(f"{seed}:{seat}"))) for seat in (0, 2)]
    bots: list[Bot] = [timed[0], HeuristicBot(random.Random(1)), timed[1],
                       HeuristicBot(random.Random(3))]
    scores = [0, 0]
    for number in range(deals):
        _, state = play_hand(rules, bots, rng, number % 4, (scores[0], scores[1]))
        if state is not None:
            hand_score = state.score().hand_score
            scores = [scores[0] + hand_score[0], scores[1] + hand_score[1]]
            if max(scores) >= rules.target:
                scores = [0, 0]
    cards = [value for bot in timed for value in bot.cards]
    bids = [value for bot in timed for value in bot.bids]
    cards_cpu = [value for bot in timed for value in bot.cards_cpu]
    bids_cpu = [value for bot in timed for value in bot.bids_cpu]

    def stats(values: list[float], name: str) -> dict[str, float]:
        if not values:
            return {f"{name}_ms_mean": 0.0, f"{name}_ms_max": 0.0}
        return {f"{name}_ms_mean": round(1000 * sum(values) / len(values), 2),
                f"{name}_ms_max": round(1000 * max(values), 2)}

    return {"variant": rules.variant, "deals": deals, **stats(cards, "card"), "cards": len(cards),
            **stats(bids, "bid"), "bids": len(bids),
            **stats(cards_cpu, "card_cpu"), **stats(bids_cpu, "bid_cpu"),
            "load": round(os.getloadavg()[0], 2)}


class TableView(Protocol):
    """What a benchmark player knows of its table (``bench.policies.View``)."""

    state: str
    args: dict[str, Any]
    private: dict[str, Any] | None

    def acting(self, me: int) -> bool: ...


def bench_policy(view: TableView, me: int, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Random legal bids (passing most of the time) and random legal cards; None while
    another player is to act."""
    if not view.acting(me):
        return None
    bids = view.args.get("legal_bids")
    if bids:
        if "pass" in bids and rng.random() < 0.7:
            return "bid", {"bid": "pass"}
        return "bid", {"bid": rng.choice(bids)}
    if view.state == "playerTurn":
        cards = (view.private or {}).get("legal_cards")
        return ("play_card", {"card": rng.choice(cards)}) if cards else None
    return None
