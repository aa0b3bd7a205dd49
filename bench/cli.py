"""``arena bench ...``: benchmarks of a checkout, each printing one JSON object."""

from __future__ import annotations

import json

import click

from framework.cli.base import guarded


@click.group()
def bench() -> None:
    """Benchmarks; each prints one JSON object."""


@bench.command("runtime")
@click.option("--actions", default=5000, show_default=True)
@click.option("--tables", default=20, show_default=True)
@guarded
def bench_runtime_cmd(actions: int, tables: int) -> None:
    """Actions/s through the runtime on the scaffolded game (SQLite file per table)."""
    from bench.runtime import bench_runtime

    click.echo(json.dumps(bench_runtime(actions=actions, tables=tables)))


def _game_with_policy(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from bench.policies import games_with_policies

    known = games_with_policies()
    if value not in known:
        raise click.BadParameter(
            f"{value!r} is not one of {', '.join(known)} (the games with a bench policy)")
    return value


@bench.command("server")
@click.option("--tables", default=20, show_default=True, type=click.IntRange(min=1),
              help="Tables played at once.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1),
              help="gunicorn gevent workers.")
@click.option("--db", "database_url", default=None,
              help="ARENA_DATABASE_URL of the run (default: SQLite in a temporary folder).")
@click.option("--actions", default=None, type=click.IntRange(min=1),
              help="Stop after this many actions (default: 20000; no limit with --pace).")
@click.option("--seconds", default=60.0, show_default=True, help="Stop after this long of play.")
@click.option("--game", default="benchgame", show_default=True, callback=_game_with_policy,
              help="The scaffolded game (2 players), or any installed game whose package has "
                   "bench.bench_policy (as many players as it seats).")
@click.option("--pace", default=None, type=click.FloatRange(min=0, min_open=True),
              help="Each player thinks this many seconds on average (exponential) before a move "
                   "(default: as fast as it can).")
@click.option("--seed", default=1, show_default=True, help="The bots' random source (moves, think times).")
@guarded
def bench_server_cmd(tables: int, workers: int, database_url: str | None, actions: int | None,
                     seconds: float, game: str, pace: float | None, seed: int) -> None:
    """Start the server (gevent workers), play N tables with bots over HTTP on loopback, every
    player holding its event stream: actions/s, action and commit-to-event latency
    percentiles, errors, the workers' memory."""
    from bench.server import bench_server
    from framework.web.server import require_server_extra

    require_server_extra()
    if actions is None and pace is None:
        actions = 20000
    click.echo(json.dumps(bench_server(tables=tables, workers=workers, database_url=database_url,
                                       actions=actions, seconds=seconds, game=game, pace=pace,
                                       seed=seed)))


@bench.command("streams")
@click.option("--streams", default=2000, show_default=True, type=click.IntRange(min=1))
@click.option("--tables", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--rounds", default=2, show_default=True, type=click.IntRange(min=1))
@guarded
def bench_streams_cmd(streams: int, tables: int, workers: int, rounds: int) -> None:
    """A worker's memory per open event stream, and what it gives back once they close."""
    from bench.streams import bench_streams
    from framework.web.server import require_server_extra

    require_server_extra()
    click.echo(json.dumps(bench_streams(streams=streams, tables=tables, workers=workers, rounds=rounds)))


@bench.command("upgrade")
@click.option("--tables", "count", default=200, show_default=True, type=click.IntRange(min=1),
              help="Tables per backend and release kind.")
@click.option("--backend", "backends", multiple=True, type=click.Choice(["sqlite", "postgresql", "mysql"]),
              help="Repeat for several (default: all three; servers from ARENA_BENCH_POSTGRES_URL / "
                   "ARENA_BENCH_MYSQL_URL, else ARENA_TEST_POSTGRES_URL / ARENA_TEST_MYSQL_URL).")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(["no_ddl", "add_column"]),
              help="Release kinds (default both): a new statistic, or a new column.")
@guarded
def bench_upgrade_cmd(count: int, backends: tuple[str, ...], kinds: tuple[str, ...]) -> None:
    """Seconds to upgrade N in-progress tables to a new release (one transaction each), per
    backend and per release kind."""
    from bench.upgrade import BACKENDS, KINDS, bench_upgrades

    click.echo(json.dumps(bench_upgrades(count, backends or BACKENDS, kinds or KINDS)))


@bench.command("floor")
@click.option("--tables", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1))
@click.option("--seconds", default=10.0, show_default=True)
@guarded
def bench_floor_cmd(tables: int, workers: int, seconds: float) -> None:
    """The floor of a move over HTTP: Flask + gevent + one SQLite transaction per POST."""
    from bench.floor import bench_floor
    from framework.web.server import require_server_extra

    require_server_extra()
    click.echo(json.dumps(bench_floor(tables=tables, workers=workers, seconds=seconds)))


@bench.command("ratios")
@click.option("--rounds", default=3, show_default=True, type=click.IntRange(min=1),
              help="Interleaved rounds of the floor and the server.")
@click.option("--tables", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1))
@click.option("--seconds", default=15.0, show_default=True, help="Length of each run.")
@click.option("--game", default="belote", show_default=True, callback=_game_with_policy)
@click.option("--db", "database_url", default=None, help="ARENA_DATABASE_URL of the server runs.")
@guarded
def bench_ratios_cmd(rounds: int, tables: int, workers: int, seconds: float, game: str,
                     database_url: str | None) -> None:
    """Server CPU per action of ``arena bench server`` over the floor's, in interleaved runs
    (the performance issue's goal: at most 1.3)."""
    import os

    from bench.floor import bench_floor
    from bench.server import bench_server
    from framework.web.server import require_server_extra

    require_server_extra()
    runs = []
    for _ in range(rounds):
        floor = bench_floor(tables=tables, workers=workers, seconds=seconds)
        server = bench_server(tables=tables, workers=workers, database_url=database_url,
                              actions=int(seconds * 1000), seconds=seconds, game=game)
        f, s = floor["server_cpu_ms_per_action"], server["server_cpu_ms_per_action"]
        runs.append({"floor_ms": f, "server_ms": s, "ratio": round(s / f, 2) if f and s else None,
                     "server_actions": server.get("actions"), "server_errors": server.get("errors"),
                     "load": round(os.getloadavg()[0], 2)})
    ratios = sorted(r["ratio"] for r in runs if r["ratio"] is not None)
    click.echo(json.dumps({"game": game, "tables": tables, "workers": workers,
                           "backend": database_url.split(":")[0] if database_url else "sqlite",
                           "runs": runs, "median_ratio": ratios[len(ratios) // 2] if ratios else None,
                           "goal": 1.3}))
