"""A table's chat: ``GET /table/<id>/chat?after=`` (the lines after an id, read by every
viewer of the table), ``POST /table/<id>/chat`` (a line: the table's players; spectators once
the game is over or when the table's ``chat_spectators`` meta value is ``1``) and
``POST /table/<id>/chat/<line>/hide`` (the game's developers and the site's admins).

Pages poll the first route (``static/chat.js``); lines are text, shown with ``textContent``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, jsonify, request
from sqlalchemy import select

from framework.core.errors import NotYourTurnError, UserError
from framework.core.kinds import TableMode
from framework.engine.runtime import TableInfo
from framework.platform import chat
from framework.platform.models import TableSeat, db
from framework.web.access import ForbiddenError, principal
from framework.web.current import site
from framework.web.play import parse_int, table_info, viewer
from framework.web.throttle import may_chat

bp = Blueprint("chat", __name__)

#: the table's ``arena_meta`` key that opens its chat to spectators during play
SPECTATORS_META = "chat_spectators"


class ChatFloodError(UserError):
    """Too many lines in a short time: this one is not stored."""

    http_status = 429


def _seated(table_id: int) -> set[int]:
    with db.session.begin():
        return set(db.session.scalars(select(TableSeat.player_id).where(TableSeat.table_id == table_id)))


def spectators_may_chat(table_id: int) -> bool:
    """Spectators may write: the game is over, or the table allows it (``chat_spectators``)."""
    with site().runtime.read(table_id) as table:
        return table.gamestate.is_game_over() or table.meta(SPECTATORS_META) == "1"


def writer(info: TableInfo) -> int:
    """Who writes this request's line: a player of the table (on a studio table, any of its
    test players through ``?as=``), or a signed-in spectator when spectators may chat.

    Raises:
        NotYourTurnError: nobody signed in, or a spectator while the game is in play.
    """
    pid = viewer(info)
    seated = _seated(info.id)
    if pid is not None and pid in seated:
        return pid
    if pid is None or info.mode == TableMode.STUDIO:  # a studio spectator has no account
        raise NotYourTurnError("Only the players of this table can chat", "chat_not_player")
    if not spectators_may_chat(info.id):
        raise NotYourTurnError("Spectators cannot chat while the game is in play", "chat_spectator")
    return pid


def may_moderate(info: TableInfo) -> bool:
    return principal().can_develop(info.game)


@bp.get("/table/<int:table_id>/chat")
def lines(table_id: int) -> Any:
    info = table_info(table_id)
    after = max(0, parse_int(request.args.get("after", 0), "after"))
    try:
        writer(info)
        closed = None
    except NotYourTurnError as exc:  # may read, may not write: the page says why
        closed = exc.render(g.translate)
    with db.session.begin():
        found = chat.lines_after(db.session, table_id, after)
        hidden = chat.hidden_ids(db.session, table_id)
    return jsonify({"lines": [line.to_json() for line in found], "hidden": hidden,
                    "max_length": chat.MAX_LENGTH, "moderator": may_moderate(info),
                    "can_write": closed is None, "closed": closed})


@bp.post("/table/<int:table_id>/chat")
def write(table_id: int) -> Any:
    """A line. The body is JSON ``{"body": "..."}`` or a form field ``body``.

    Raises:
        ChatLineError: empty or too long.
        ChatFloodError: the writer's rate limit (``ARENA_CHAT_LIMIT``) is used up.
    """
    info = table_info(table_id)
    author = writer(info)
    payload = request.get_json(silent=True) if request.is_json else None
    raw = payload.get("body") if isinstance(payload, dict) else request.form.get("body")
    body = chat.clean_body(raw)
    if not may_chat(author):
        raise ChatFloodError("You are writing too fast: wait a few seconds", "chat_flood")
    with db.session.begin():
        line = chat.write(db.session, table_id, author, body)
    return jsonify({"line": line.to_json()})


@bp.post("/table/<int:table_id>/chat/<int:line_id>/hide")
def hide(table_id: int, line_id: int) -> Any:
    info = table_info(table_id)
    if not may_moderate(info):
        raise ForbiddenError("Only the developers of ${game} and the site's admins may do this",
                             "forbidden", game=info.game)
    with db.session.begin():
        chat.hide(db.session, table_id, line_id)
    return jsonify({"ok": True})
