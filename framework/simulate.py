"""``arena simulate GAME``: whole games played by bots through the framework, on a scratch
site of their own unless asked to keep them (then marked simulated, apart from what players
see)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from framework.core.errors import UserError
from framework.game.registry import GameDefinition, GameRegistry
from framework.site import Site


def bot_kinds(gdef: GameDefinition) -> list[str]:
    """The bot kinds a game offers: ``BOT_KINDS`` on its Table class, else ``default`` (its
    ``bot_turn``, or its ``zombie_turn`` when it has none)."""
    kinds = getattr(gdef.table_class, "BOT_KINDS", None)
    return [str(k) for k in kinds] if kinds else ["default"]


def check_bots(gdef: GameDefinition, bots: Sequence[str]) -> list[str]:
    """``bots`` as given, or the game's first bot kind when none is given.

    Raises:
        UserError: a name is not one of the game's bot kinds (the message lists them).
    """
    known = bot_kinds(gdef)
    if not bots:
        return [known[0]]
    unknown = [b for b in bots if b not in known]
    if unknown:
        raise UserError("${game} has no bot ${bots}; its bots: ${known}", "bad_bots", game=gdef.name,
                        bots=", ".join(unknown), known=", ".join(known))
    return list(bots)


@contextmanager
def scratch_site(registry: GameRegistry) -> Iterator[Site]:
    """A site of its own in a temporary folder (SQLite, an in-process bus), removed after:
    where simulations play unless their tables are kept."""
    with tempfile.TemporaryDirectory(prefix="arena-simulate-") as folder:
        path = Path(folder)
        site = Site.open(path, database_url=f"sqlite:///{path / 'platform.sqlite'}", registry=registry,
                         bus_url="memory://")
        try:
            yield site
        finally:
            site.close()


def simulate(
    site: Site,
    game: str,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    options: Mapping[Any, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` tables where every seat is a bot; seat i gets ``bots[i % len(bots)]``
    (no bots given: the game's first kind). Each table is marked simulated.

    ``win_rate`` has one entry per bot kind, in the order given: the share of games won
    (ranked first) by a seat of that kind. A game's Table may define
    ``simulation_summary() -> dict[str, int]``; its values are summed into the result, and
    then given to its optional classmethod ``simulation_ratios(totals) -> dict[str, float]``,
    whose values are added too.

    Raises:
        NotFoundError: no such game.
        UserError: fewer than one game, a bot the game does not have.
    """
    gdef = site.registry.get(game)
    if games < 1:
        raise UserError("Simulate at least one game", "bad_count")
    bots = check_bots(gdef, bots)
    players = gdef.info.min_players
    kinds = list(dict.fromkeys(bots))
    wins = dict.fromkeys(kinds, 0.0)
    extra: dict[str, int] = {}
    runtime = site.runtime
    before = runtime.automatic_turns
    start = time.perf_counter()
    for i in range(games):
        seats = {seat: bots[seat % len(bots)] for seat in range(players)}
        table_id = runtime.create_table(game, players, options or {}, seed=f"{seed}:{i}", bots=seats,
                                        simulated=True)
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
    ratios_of = getattr(gdef.table_class, "simulation_ratios", None)
    ratios: dict[str, float] = dict(ratios_of(dict(extra))) if ratios_of is not None else {}
    return {
        "game": game,
        "games": games,
        **extra,
        **ratios,
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1) if seconds else 0.0,
        "seconds": round(seconds, 3),
        "bots": kinds,
        "win_rate": [round(wins[k] / games, 4) for k in kinds],
    }
