"""Benchmarks printed as JSON (``arena bench ...``): speed targets live here, not in tests."""

from __future__ import annotations

import sqlite3
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
        cpu = 0.0
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
                c0 = time.process_time()
                runtime.act(tid, player, "bank" if total >= 12 else "draw", {})
                cpu += time.process_time() - c0
                latencies.append(time.perf_counter() - t0)
                done += 1
        wall = time.perf_counter() - start
        site.close()
        bare = bare_transaction_cpu(Path(tmp) / "bare", actions, tables)
    latencies.sort()
    act_us = cpu * 1e6 / max(1, done)
    return {
        "actions": done,
        "actions_per_s": round(done / sum(latencies), 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 3),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 3),
        "wall_s_with_reads": round(wall, 3),
        "act_cpu_us_per_action": round(act_us, 1),
        "bare_transaction_cpu_us": round(bare, 1),
        # the performance issue's goal: at most 4x the bare transaction of the same run
        "act_to_bare_ratio": round(act_us / bare, 2) if bare else None,
    }


def bare_transaction_cpu(folder: Path, actions: int, tables: int) -> float:
    """CPU microseconds of the floor of a move in ``Runtime.act``: a SQLite write transaction
    on a table's own file (WAL, synchronous=NORMAL) that bumps the move counter and inserts
    one log row, round-robin over ``tables`` files."""
    folder.mkdir(parents=True, exist_ok=True)
    conns = []
    for n in range(tables):
        conn = sqlite3.connect(folder / f"{n}.sqlite", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE global (global_id INTEGER PRIMARY KEY, global_value INTEGER)")
        conn.execute("CREATE TABLE gamelog (gamelog_packet_id INTEGER PRIMARY KEY AUTOINCREMENT, "
                     "gamelog_move_id INTEGER, gamelog_notification TEXT)")
        conn.execute("INSERT INTO global VALUES (3, 0)")
        conns.append(conn)
    c0 = time.process_time()
    for i in range(actions):
        conn = conns[i % tables]
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE global SET global_value = global_value + 1 WHERE global_id = 3")
        conn.execute("INSERT INTO gamelog (gamelog_move_id, gamelog_notification) VALUES (?, ?)",
                     (i, '[{"type": "move"}]'))
        conn.execute("COMMIT")
    cpu = time.process_time() - c0
    for conn in conns:
        conn.close()
    return cpu * 1e6 / max(1, actions)
