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
@click.option("--actions", default=20000, show_default=True, help="Stop after this many actions.")
@click.option("--seconds", default=60.0, show_default=True, help="Stop after this long.")
@click.option("--game", default="benchgame", show_default=True, callback=_game_with_policy,
              help="The scaffolded game (2 players), or any installed game whose package has "
                   "bench.bench_policy (as many players as it seats).")
@guarded
def bench_server_cmd(tables: int, workers: int, database_url: str | None, actions: int, seconds: float,
                     game: str) -> None:
    """Start the server (gevent workers), play N tables with bots over HTTP on loopback:
    actions/s, action latency percentiles, commit-to-event latency, errors."""
    from bench.server import bench_server
    from framework.web.server import require_server_extra

    require_server_extra()
    click.echo(json.dumps(bench_server(tables=tables, workers=workers, database_url=database_url,
                                       actions=actions, seconds=seconds, game=game)))


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
