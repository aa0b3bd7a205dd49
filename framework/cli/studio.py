"""``arena serve`` without ``--production``: the local studio, which reloads games live; and
what ``arena new-game`` tells to do next."""

from __future__ import annotations

import os
import shlex
import socket
from pathlib import Path

import click

from framework.core.errors import UserError
from framework.game.registry import EXTRA_GAMES_ENV, extra_game_folders, games_package_folders
from framework.game.reloading import ReloadingRegistry

LIVE_RELOAD_NOTE = (
    "Live reload: an edit to a game's Python, templates, JS, CSS or catalogs, and a new game, "
    "apply without a restart (tables in play run the new code from their next action; open pages reload)."
)
DEBUG_NOTE = (
    "--debug: Flask's debug mode, and werkzeug's reloader restarts the studio when the framework's "
    "own Python changes (not needed for games, which reload live)."
)


def check_port_free(host: str, port: int) -> None:
    """Bind ``host:port`` for a moment, as the server is about to.

    Raises:
        UserError: something listens there already, or the address cannot be taken; the
            message names ``--port``.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # The servers set SO_REUSEADDR too: a port a closed server left in TIME_WAIT is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UserError("Port ${port} on ${host} is not available (${reason}): stop what uses it, "
                            "or choose another port with --port", "port_in_use",
                            port=port, host=host, reason=exc.strerror or str(exc)) from None


def serve_studio(instance: Path, host: str, port: int, debug: bool) -> None:
    """Serve the studio with a ``ReloadingRegistry`` whose events are printed on stderr.

    With ``debug`` werkzeug runs the studio in a child process it restarts when a Python file
    changes, the games' folders excepted (live reload takes them)."""
    from framework.web import create_app

    in_reloader_child = os.environ.get("WERKZEUG_RUN_MAIN") == "true"
    if not in_reloader_child:  # the child serves on the socket its parent bound
        check_port_free(host, port)
    registry = ReloadingRegistry(report=lambda line: click.echo(f"studio: {line}", err=True))
    app = create_app({"ARENA_INSTANCE": str(instance.resolve()), "ARENA_REGISTRY": registry})
    if not in_reloader_child:
        click.echo(f"Arena studio on http://{host}:{port}/")
        click.echo(LIVE_RELOAD_NOTE)
        if debug:
            click.echo(DEBUG_NOTE)
    if in_reloader_child or not debug:
        registry.check_all()  # a game that does not load says so now
    if debug:
        games = [f"{folder}{os.sep}*" for folder in registry.game_folders()]
        app.run(host=host, port=port, debug=True, threaded=True, exclude_patterns=games)
    else:
        app.run(host=host, port=port, threaded=True)


def follow_up(name: str, target: Path) -> str:
    """The commands that play and test the game just made in ``target``: they name its folder
    in ``ARENA_EXTRA_GAMES`` unless the game is found without it (in the ``games`` package,
    or in a folder ``ARENA_EXTRA_GAMES`` already names)."""
    folder = target.resolve().parent
    extra = extra_game_folders()
    play = f"arena table create {name} --players 2"
    lines = []
    if folder not in extra and folder not in games_package_folders():
        value = shlex.quote(os.pathsep.join(str(p) for p in [*extra, folder]))
        play = f"{EXTRA_GAMES_ENV}={value} {play}"
        lines.append(f"  (export {EXTRA_GAMES_ENV}={value}: then every arena command, arena serve "
                     "included, finds it)")
    lines.insert(0, f"play it: {play}")
    lines.append(f"test it: pytest {shlex.quote(str(target))}")
    return "\n".join(lines)

