"""The ``arena`` group and what every command shares: a site (in an app context) per command,
one-line errors."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from framework.core.errors import ArenaError
from framework.site import Site


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Errors a user can cause print one line and exit 1; no traceback."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ArenaError as exc:
            _fail(str(exc))
        except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
            _fail(str(exc))

    return wrapper


class ArenaGroup(click.Group):
    """Also offers each game's own commands (``games/<g>/cli.py``'s ``cli`` group) as
    ``arena <game> ...``, found at run time so ``framework`` never imports ``games``."""

    def _game_group(self, ctx: click.Context, name: str) -> click.Command | None:
        from framework.game.registry import discover

        try:
            package = discover().get(name)
        except ArenaError:
            return None
        if package is None or importlib.util.find_spec(f"{package}.cli") is None:
            return None
        group = getattr(importlib.import_module(f"{package}.cli"), "cli", None)
        return group if isinstance(group, click.Command) else None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._game_group(ctx, cmd_name)


@click.group(cls=ArenaGroup)
@click.option("--instance", type=click.Path(path_type=Path), envvar="ARENA_INSTANCE",
              default=Path("instance"), show_default=True, help="Folder of the local site.")
@click.pass_context
def main(ctx: click.Context, instance: Path) -> None:
    """Arena: a local Board Game Arena studio."""
    ctx.ensure_object(dict)
    ctx.obj["instance"] = instance


def site_of(ctx: click.Context, migrate: bool = True) -> Site:
    """The command's site, made by the web app's factory as Flask's ``FlaskGroup`` does: the
    command runs in that app's context, whose ``db.session`` is removed when it ends, then
    the site is closed. ``migrate=False`` leaves the platform schema as it is."""
    if "site" not in ctx.obj:
        # A real lazy load: ``arena --help`` and the commands without a site import no views.
        from framework.web import create_app

        app = create_app({"ARENA_INSTANCE": str(Path(ctx.obj["instance"]).resolve()),
                          "ARENA_MIGRATE": migrate})
        ctx.obj["site"] = app.extensions["arena"]
        ctx.call_on_close(ctx.obj["site"].close)
        ctx.with_resource(app.app_context())  # popped before the site closes
    site: Site = ctx.obj["site"]
    return site
