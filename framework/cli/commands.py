"""The site's own commands: ``serve``, ``games``, ``new-game``, ``table ...``, ``simulate``, ``db``."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from framework.cli.base import guarded, main, site_of
from framework.core.errors import ArenaError, UserError
from framework.core.kinds import TableMode
from framework.site import Site


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--debug/--no-debug", default=False,
              help="Flask's debug mode and werkzeug's reloader: a restart when the framework's own "
                   "Python changes (games reload live without it).")
@click.option("--production", is_flag=True,
              help="gunicorn with gevent workers on one port (pip install -e '.[server]').")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --production: worker processes.")
@click.pass_context
@guarded
def serve(ctx: click.Context, host: str, port: int, debug: bool, production: bool,
          workers: int | None) -> None:
    """Start the local studio in the browser (or, with --production, the production server)."""
    if workers is not None and not production:
        raise click.UsageError("--workers needs --production (the studio is one process)")
    if production:
        from framework.cli.studio import check_port_free
        from framework.web.server import DEFAULT_WORKERS, serve_production

        check_port_free(host, port)

        count = workers or DEFAULT_WORKERS
        click.echo(f"Arena on http://{host}:{port}/ ({count} gevent workers)")
        serve_production(Path(ctx.obj["instance"]), host, port, count)
        return
    from framework.cli.studio import serve_studio

    serve_studio(Path(ctx.obj["instance"]), host, port, debug)


@main.command("games")
@click.pass_context
@guarded
def games_cmd(ctx: click.Context) -> None:
    """List the installed games (and those whose files are broken)."""
    site = site_of(ctx)
    for name in site.registry.names():
        try:
            g = site.registry.get(name)
            click.echo(f"{name}\t{g.info.display_name}\t{g.info.min_players}-{g.info.max_players} players")
        except ArenaError as exc:
            click.echo(f"{name}\tBROKEN: {exc}")


@main.command("new-game")
@click.argument("name")
@click.option("--dir", "games_dir", type=click.Path(path_type=Path), default=Path("games"),
              show_default=True, help="Folder that holds the games.")
@click.option("--style", type=click.Choice(["states", "classic"]), default="states",
              show_default=True,
              help="states: today's BGA style (state classes); classic: states.py and st_/act_ methods.")
@guarded
def new_game_cmd(name: str, games_dir: Path, style: str) -> None:
    """Create games/NAME/: a small, complete, playable game to start from."""
    from framework.scaffold import new_game

    if not games_dir.is_dir():
        raise UserError("No folder ${path}: run this at the top of your Arena checkout or pass --dir",
                        "no_games_dir", path=str(games_dir))
    from framework.cli.studio import follow_up

    target = new_game(name, games_dir, style)
    click.echo(f"created {target}")
    click.echo(follow_up(name, target))


@main.group()
def table() -> None:
    """Create, show and play game tables."""


def _parse_pairs(pairs: tuple[str, ...], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UserError("${what} ${pair} must be written KEY=VALUE", "bad_syntax", what=what, pair=pair)
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


@table.command("create")
@click.argument("game")
@click.option("--players", "-p", type=int, default=0, help="Number of test players.")
@click.option("--option", "-o", "options", multiple=True, help="ID=VALUE (or KEY=VALUE).")
@click.option("--seed", default=None)
@click.option("--bot", "bots", type=int, multiple=True, help="Seat (0-based) played by a bot.")
@click.option("--production", is_flag=True, help="A production table (runs the deployed release).")
@click.pass_context
@guarded
def table_create(ctx: click.Context, game: str, players: int, options: tuple[str, ...],
                 seed: str | None, bots: tuple[int, ...], production: bool) -> None:
    """Create a table and print its id."""
    site = site_of(ctx)
    count = players or site.registry.get(game).info.min_players
    table_id = site.runtime.create_table(
        game, count, _parse_pairs(options, "Option"), seed=seed, bots=bots,
        mode=TableMode.PRODUCTION if production else TableMode.STUDIO,
    )
    click.echo(table_id)


def _player_id(site: Site, table_id: int, who: str) -> int:
    data = site.runtime.get_data(table_id, None)
    for p in data["players"].values():
        if who in (str(p["id"]), p["name"]):
            return int(p["id"])
    names = ", ".join(f"{p['name']} ({p['id']})" for p in data["players"].values())
    raise UserError("No player ${who} at table ${table}; players: ${names}", "unknown_player",
                    who=who, table=table_id, names=names)


@table.command("show")
@click.argument("table_id", type=int)
@click.option("--as", "as_player", default=None, help="Player name or id (default: spectator).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@guarded
def table_show(ctx: click.Context, table_id: int, as_player: str | None, as_json: bool) -> None:
    """What a player (or a spectator) sees of a table: its state, then the game's text view
    (Table.text_view: the players and scores, and what the game adds; never another's
    hidden cards)."""
    site = site_of(ctx)
    pid = _player_id(site, table_id, as_player) if as_player else None
    data = site.runtime.get_data(table_id, pid)
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))
        return
    gs = data["gamestate"]
    click.echo(f"table {table_id} ({data['game']}), state {gs['id']} {gs['name']}, "
               f"progression {data['progression']}%")
    acting = pid is not None and pid in [*gs["multiactive"], gs["active_player"]]
    text = gs["descriptionmyturn"] if acting else gs["description"]
    if text:
        click.echo(text)
    with site.runtime.read(table_id, pid) as game_table:
        view = game_table.text_view(pid)  # the game's hook (default: players and scores)
    if view:
        click.echo(view)


@table.command("act")
@click.argument("table_id", type=int)
@click.argument("player")
@click.argument("action")
@click.argument("args", nargs=-1)
@click.pass_context
@guarded
def table_act(ctx: click.Context, table_id: int, player: str, action: str, args: tuple[str, ...]) -> None:
    """Act as PLAYER (name or id): arena table act 1 player1 draw, or ... play_card card=5"""
    site = site_of(ctx)
    pid = _player_id(site, table_id, player)
    result = site.runtime.act(table_id, pid, action, _parse_pairs(args, "Argument"))
    click.echo(f"ok: state {result.state}" + (" (game over)" if result.game_over else ""))


@main.command("simulate")
@click.argument("game")
@click.option("--games", "count", default=10, show_default=True, type=int)
@click.option("--seed", default=0, type=int)
@click.option("--bots", default="",
              help="Bot kinds, comma-separated; seat i plays the (i mod n)-th (default: the game's first).")
@click.option("--option", "-o", "options", multiple=True, help="ID=VALUE (or KEY=VALUE).")
@click.option("--keep", is_flag=True,
              help="Store the tables in this site (marked simulated: no lobby, player page, statistics "
                   "or rating shows them); by default they are played on a scratch site, removed after.")
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object, alone on stdout.")
@click.pass_context
@guarded
def simulate_cmd(ctx: click.Context, game: str, count: int, seed: int, bots: str,
                 options: tuple[str, ...], keep: bool, as_json: bool) -> None:
    """Play whole games with bots through the framework and report win rates."""
    from framework.game.registry import GameRegistry
    from framework.simulate import check_bots, scratch_site, simulate

    kinds = [b.strip() for b in bots.split(",") if b.strip()]
    chosen = _parse_pairs(options, "Option")
    with contextlib.ExitStack() as stack:
        if keep:
            site = site_of(ctx)
        else:
            registry = GameRegistry()
            check_bots(registry.get(game), kinds)  # refused before a scratch site is made
            site = stack.enter_context(scratch_site(registry))
        if as_json or not sys.stderr.isatty():
            result = simulate(site, game, count, kinds, seed, chosen)
        else:
            with click.progressbar(length=count, label="games", file=sys.stderr) as bar:
                result = simulate(site, game, count, kinds, seed, chosen, bar.update)
    if as_json:
        click.echo(json.dumps(result))
        return
    for key, value in result.items():
        click.echo(f"{key}: {value}")


@main.group()
def db() -> None:
    """The platform database."""


@db.command("upgrade")
@click.pass_context
@guarded
def db_upgrade(ctx: click.Context) -> None:
    """Apply the platform database's pending Alembic revisions."""
    from framework.platform.db import current_revision, upgrade_platform

    site = site_of(ctx, migrate=False)
    before = current_revision(site.platform)
    after = upgrade_platform(site.platform)
    click.echo(f"platform database: {before or 'empty'} -> {after}")
