"""Benchmarks printed as JSON (``arena bench ...``): speed targets live here, not in tests."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.scaffold import new_game
from framework.site import Site

BENCH_GAME = "benchgame"


def scaffold_registry(directory: Path) -> GameRegistry:
    """A registry holding only a freshly scaffolded game, loaded from ``directory``."""
    games_dir = directory / "scaffold_games"
    games_dir.mkdir(parents=True, exist_ok=True)
    folder = games_dir / BENCH_GAME
    if not folder.exists():
        new_game(BENCH_GAME, games_dir)
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(folder, f"arena_scaffold_{BENCH_GAME}"))
    return registry


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def bench_runtime(actions: int = 5000, tables: int = 20, seed: int = 1) -> dict[str, Any]:
    """Actions per second through ``Runtime.act`` on the scaffolded game (SQLite file per
    table, one transaction and commit per action), with per-action latency percentiles."""
    with tempfile.TemporaryDirectory() as tmp:
        site = Site.open(Path(tmp) / "instance", registry=scaffold_registry(Path(tmp)))
        runtime = site.runtime
        ids = [runtime.create_table(BENCH_GAME, 2, {"target": 3}, seed=seed + i) for i in range(tables)]
        latencies: list[float] = []
        done = 0
        start = time.perf_counter()
        while done < actions:
            for tid in list(ids):
                if done >= actions:
                    break
                with runtime.read(tid) as t:
                    if t.gamestate.is_game_over():
                        ids.remove(tid)
                        ids.append(runtime.create_table(BENCH_GAME, 2, {"target": 3}, seed=done))
                        continue
                    player = t.get_active_player_id()
                    total = t.turn_total(player)  # type: ignore[attr-defined]
                t0 = time.perf_counter()
                runtime.act(tid, player, "bank" if total >= 12 else "draw", {})
                latencies.append(time.perf_counter() - t0)
                done += 1
        wall = time.perf_counter() - start
        site.close()
    latencies.sort()
    return {
        "actions": done,
        "actions_per_s": round(done / sum(latencies), 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 3),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 3),
        "wall_s_with_reads": round(wall, 3),
    }
