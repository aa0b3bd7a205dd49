"""Live reload in the local studio: what an open table page polls to learn that its game's
files changed (``static/live_reload.js``), and the page of a game that does not load."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, g, jsonify, render_template, url_for

from framework.core.errors import ConfigError, NotFoundError
from framework.core.kinds import TableMode
from framework.engine.runtime import TableInfo
from framework.game.registry import GameLoadError
from framework.game.reloading import GameStatus, ReloadingRegistry
from framework.web.current import site

bp = Blueprint("live_reload", __name__)

#: How often (ms) an open page asks whether its game changed (the registry looks at the
#: files at most once a second anyway).
POLL_MS = 1000


def reloading_registry() -> ReloadingRegistry | None:
    """The site's registry when it reloads games (``arena serve``), else None."""
    registry = site().registry
    return registry if isinstance(registry, ReloadingRegistry) else None


def status_of(info: TableInfo) -> GameStatus | None:
    """The game's status for a studio table of a reloading studio, else None."""
    registry = reloading_registry()
    if registry is None or info.mode != TableMode.STUDIO:
        return None
    try:
        return registry.status(info.game)
    except NotFoundError:
        return None


def live_config(info: TableInfo) -> dict[str, Any] | None:
    """What ``live_reload.js`` reads from the page's ``arena-config`` (None: not watched)."""
    status = status_of(info)
    if status is None:
        return None
    return {"url": url_for("live_reload.table_status", table_id=info.id), "version": status.version,
            "poll_ms": POLL_MS, "error": error_json(status.error)}


def error_json(error: ConfigError | None) -> dict[str, Any] | None:
    """A load error for the page: the message, and the file, line and source line when known."""
    if error is None:
        return None
    tr = g.get("translate") or (lambda s: s)
    out: dict[str, Any] = {"title": tr("This game does not load"), "message": str(error),
                           "file": "", "line": 0, "source": ""}
    if isinstance(error, GameLoadError):
        out.update(file=error.file, line=error.line, source=error.source)
    return out


@bp.get("/table/<int:table_id>/live")
def table_status(table_id: int) -> Any:
    """``{"live": false}`` where nothing is reloaded (production, a production table), else
    the game's ``version`` and ``error``."""
    status = status_of(site().runtime.table_info(table_id))
    if status is None:
        return jsonify({"live": False})
    return jsonify({"live": True, "version": status.version, "error": error_json(status.error)})


def broken_game_page(info: TableInfo, exc: ConfigError) -> Any:
    """The page of a studio table whose game does not load: the error with its file and line,
    watched like a table page (it loads the table again once the game is fixed); None where
    games are not reloaded (the error then takes the way of any developer's mistake)."""
    config = live_config(info)
    if config is None:
        return None
    body = render_template("reload/broken.html", game=info.game, table_id=info.id,
                           error=error_json(exc) or {},
                           config=json.dumps({"live": config}).replace("<", "\\u003c"))
    return body, 500
