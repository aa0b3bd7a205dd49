"""Benchmark of the pure Belote engine: complete hands of random legal cards per second."""

from __future__ import annotations

import random
import time

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
