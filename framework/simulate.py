"""``arena simulate GAME``: whole games played by bots through the framework."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from framework.core.errors import UserError
from framework.site import Site


def simulate(
    site: Site,
    game: str,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    options: Mapping[Any, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` tables where every seat is a bot; seat i gets ``bots[i % len(bots)]``.

    ``win_rate`` has one entry per bot kind, in the order given: the share of games won
    (ranked first) by a seat of that kind. A game's Table may define
    ``simulation_summary() -> dict[str, int]``; its values are summed into the result.
    """
    gdef = site.registry.get(game)
    if games < 1:
        raise UserError("Simulate at least one game", "bad_count")
    if not bots:
        raise UserError("Name at least one bot", "bad_bots")
    players = gdef.info.min_players
    kinds = list(dict.fromkeys(bots))
    wins = dict.fromkeys(kinds, 0.0)
    extra: dict[str, int] = {}
    runtime = site.runtime
    before = runtime.automatic_turns
    start = time.perf_counter()
    for i in range(games):
        seats = {seat: bots[seat % len(bots)] for seat in range(players)}
        table_id = runtime.create_table(game, players, options or {}, seed=f"{seed}:{i}", bots=seats)
        ranking = runtime.ranking(table_id)
        order = runtime.get_data(table_id, None)["playerorder"]
        winners = [r["player_id"] for r in ranking if r["rank"] == 1]
        kinds_won = {seats[order.index(pid)] for pid in winners}
        for kind in kinds_won:
            wins[kind] += 1 / len(kinds_won)
        with runtime.read(table_id) as table:
            summary = getattr(table, "simulation_summary", None)
            if summary is not None:
                for key, value in summary().items():
                    extra[key] = extra.get(key, 0) + int(value)
        if progress is not None:
            progress(1)
    seconds = time.perf_counter() - start
    actions = runtime.automatic_turns - before
    return {
        "game": game,
        "games": games,
        **extra,
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1) if seconds else 0.0,
        "seconds": round(seconds, 3),
        "bots": kinds,
        "win_rate": [round(wins[k] / games, 4) for k in kinds],
    }
