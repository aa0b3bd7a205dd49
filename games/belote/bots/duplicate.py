"""Duplicate matches between two bot levels: each deal is played twice with the teams'
seats swapped, so the cards' luck cancels out; and games to a target score."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..rules import CARDS, Rules
from .levels import level_of, make_bot
from .matches import play_dealt_hand, play_match
from .search import SearchBudget
from .views import Bot


def _table(a: str, b: str, a_first: bool, rng_seed: str,
           budget: SearchBudget | None) -> list[Bot]:
    """Bots by seat: ``a`` on seats 0 and 2 when ``a_first``, else on 1 and 3."""
    bots: list[Bot] = []
    for seat in range(4):
        kind = a if (seat % 2 == 0) == a_first else b
        bots.append(make_bot(kind, random.Random(f"{rng_seed}:{seat}"), budget))
    return bots


def duplicate_deal(a: str, b: str, number: int, rules: Rules, seed: int = 1,
                   budget: SearchBudget | None = None) -> dict[str, Any]:
    """Deal ``number`` of the series ``seed`` played twice: ``difference`` is ``a``'s hand
    score minus ``b``'s, averaged over the two tables (0 for an all-pass table); also who
    took each table's contract and whether it was made."""
    deck = list(CARDS)
    random.Random(f"{seed}:deal:{number}").shuffle(deck)
    dealer = number % 4
    total = 0.0
    tables: list[dict[str, Any] | None] = []
    for a_first in (True, False):
        bots = _table(a, b, a_first, f"{seed}:{number}:{a_first}", budget)
        contract, state = play_dealt_hand(rules, bots, deck, dealer)
        if state is None or contract is None:
            tables.append(None)
            continue
        score = state.score()
        a_team = 0 if a_first else 1
        total += score.hand_score[a_team] - score.hand_score[1 - a_team]
        tables.append({"taker": "a" if contract.taker_team == a_team else "b",
                       "made": score.outcome == "made", "value": contract.value,
                       "coinche": contract.coinche})
    return {"deal": number, "difference": total / 2, "tables": tables}


def play_games(a: str, b: str, games: int, rules: Rules, seed: int = 1,
               budget: SearchBudget | None = None, first: int = 0) -> int:
    """Games ``first``.. ``first + games - 1`` to ``rules.target``, ``a`` as team 0 in even
    games and team 1 in odd ones; returns how many ``a`` won."""
    wins = 0
    for number in range(first, first + games):
        a_first = number % 2 == 0
        bots = _table(a, b, a_first, f"{seed}:game:{number}", budget)
        result = play_match(rules, bots, random.Random(f"{seed}:game:{number}"),
                            first_dealer=number % 4)
        wins += result.winner == (0 if a_first else 1)
    return wins


def summarize(a: str, b: str, rules: Rules, seed: int, deals: list[dict[str, Any]],
              games: int = 0, wins: int = 0) -> dict[str, Any]:
    """The report of `duplicate` from its deals (`duplicate_deal` results) and games."""
    differences = [deal["difference"] for deal in deals]
    contracts = {"a": 0, "b": 0, "made_a": 0, "made_b": 0, "cancelled": 0}
    for deal in deals:
        for table in deal["tables"]:
            if table is None:
                contracts["cancelled"] += 1
                continue
            contracts[table["taker"]] += 1
            contracts["made_" + table["taker"]] += table["made"]
    count = len(differences)
    mean = sum(differences) / count if count else 0.0
    spread = (math.sqrt(sum((value - mean) ** 2 for value in differences) / (count - 1))
              if count > 1 else 0.0)
    half = 1.96 * spread / math.sqrt(count) if count else 0.0
    return {
        "variant": rules.variant, "a": level_of(a), "b": level_of(b), "deals": count,
        "seed": seed, "mean_difference": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)], "sd": round(spread, 2),
        "contracts": contracts, "games": games, "target": rules.target, "a_wins": wins,
        "a_win_rate": round(wins / games, 4) if games else None,
    }


def duplicate(a: str, b: str, deals: int, rules: Rules, seed: int = 1, games: int = 0,
              budget: SearchBudget | None = None,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``deals`` deals twice (``a`` as team 0, then as team 1) and ``games`` games to
    ``rules.target`` (``a`` alternating teams). Returns the mean of ``a``'s hand score minus
    ``b``'s per hand (cancelled deals count 0) with a 95 % interval, contract counts and
    ``a``'s game win rate."""
    results = []
    for number in range(deals):
        results.append(duplicate_deal(a, b, number, rules, seed, budget))
        if progress is not None:
            progress(1)
    wins = play_games(a, b, games, rules, seed, budget)
    return summarize(a, b, rules, seed, results, games, wins)
