"""Belote's benchmarks: the pure engine (complete hands of random legal cards per second)
and the play policy of ``arena bench server --game belote`` (``bench_policy``)."""

from __future__ import annotations

import random
import time
from typing import Any, Protocol

from .rules import Contract, PlayState, Rules, trump_from_code

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
