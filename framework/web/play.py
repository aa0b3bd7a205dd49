"""The table: the page, its JSON API (data, act, log) and its Server-Sent Events stream.

Who is asking: on a studio table, ``?as=<player id>`` (one tab per test player, like BGA
Studio), else the signed-in player; on a production table, only the signed-in player.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    send_from_directory,
)
from markupsafe import Markup
from sqlalchemy import select

from framework.core.errors import (
    ArenaError,
    ConfigError,
    GameCodeError,
    GameSystemError,
    NotYourTurnError,
    UserError,
)
from framework.engine.final_stats import final_statistics
from framework.engine.replays import start_data
from framework.engine.runtime import ActionResult, Runtime, TableInfo
from framework.game.registry import GameDefinition
from framework.game.table import Table
from framework.i18n import Translate
from framework.platform.models import Player, TableSeat, db
from framework.web.auth import csrf_token, current_account
from framework.web.current import site
from framework.web.disconnect import client_gone_check
from framework.web.language import current_language, js_catalog, js_msgids, translator_for
from framework.web.live_reload import broken_game_page, live_config
from framework.web.lobby import bot_kinds, bot_labels
from framework.web.preferences import stored_preferences

log = logging.getLogger(__name__)

bp = Blueprint("play", __name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
# The framework's client, in load order (docs/client.md); start.js runs after the game's.
FRAMEWORK_SCRIPTS = ("arena.js", "notifications.js", "replay.js",
                     "templates.js", "animations.js", "counters.js",
                     "statusbar.js", "dialogs.js", "panels.js", "stock.js", "legacystock.js", "studio.js",
                     "bga.js",
                     # the table's features (chat, turn alert, last trick, concede, end panel)
                     "chat.js", "alerts.js", "lasttrick.js", "concede.js", "endpanel.js")
FRAMEWORK_JS = tuple(STATIC_DIR / name for name in FRAMEWORK_SCRIPTS)
MAX_ARGS_BYTES = 64 * 1024
MAX_REPLAY_EVENTS = 20_000  # notifications a replay plays at most (a long Belote game has ~1500)


def parse_int(raw: Any, what: str) -> int:
    try:
        value = int(str(raw))
    except (TypeError, ValueError):
        raise UserError("${what} must be a whole number, not ${value}", "bad_request",
                        what=what, value=str(raw)[:32]) from None
    if not -(2**62) < value < 2**62:
        raise UserError("${what} is out of range", "bad_request", what=what)
    return value


def table_info(table_id: int) -> TableInfo:
    return site().runtime.table_info(table_id)


def viewer(info: TableInfo) -> int | None:
    """The player this request speaks for (None: a spectator); see ``viewer_of``. A studio
    table's ``?as=`` needs no account (none is looked up)."""
    raw_as = request.args.get("as")
    if info.mode == "studio" and raw_as not in (None, ""):
        return parse_int(raw_as, "as")
    return viewer_of(info, current_account(), raw_as)


def viewer_of(info: TableInfo, account: dict[str, Any] | None, raw_as: str | None) -> int | None:
    """Who a request with the signed-in ``account`` and ``?as=raw_as`` speaks for.

    Raises:
        UserError: ``as`` is not a number.
        NotYourTurnError: on a production table, ``as`` names someone else.
    """
    if info.mode == "studio":
        if raw_as not in (None, ""):
            return parse_int(raw_as, "as")
        return account["id"] if account else None
    if raw_as not in (None, "") and (account is None or parse_int(raw_as, "as") != account["id"]):
        raise NotYourTurnError("You can only play as yourself at this table", "wrong_player")
    return account["id"] if account else None


def seated_players(table_id: int) -> list[dict[str, Any]]:
    with db.session.begin():
        rows = db.session.execute(select(TableSeat, Player).join(Player, Player.id == TableSeat.player_id)
                                  .where(TableSeat.table_id == table_id).order_by(TableSeat.player_no)).all()
        return [{"id": p.id, "name": p.name, "no": seat.player_no, "bot": seat.is_bot} for seat, p in rows]


def game_of(info: TableInfo) -> GameDefinition:
    return site().runtime.game_for(info)


def catalog_of(gdef: GameDefinition) -> Path:
    """Where a table's translations come from: the folder of the code it runs, so a
    production table's from its stored release (the strings its code writes), a studio
    table's from the working tree."""
    return gdef.directory


def _game_fragment(gdef: GameDefinition) -> Markup:
    """The game's own HTML (``games/<g>/templates/<g>.html``), rendered with Jinja."""
    path = gdef.directory / "templates" / f"{gdef.name}.html"
    if not path.exists():
        return Markup("")
    env = current_app.jinja_env
    cache: dict[tuple[str, float], Any] = current_app.extensions.setdefault("arena_fragments", {})
    key = (str(path), path.stat().st_mtime)
    template = cache.get(key)
    if template is None:
        template = env.from_string(path.read_text(encoding="utf-8"))
        cache[key] = template
    return Markup(template.render())


@bp.get("/table/<int:table_id>")
def table_page(table_id: int) -> Any:
    try:
        notices = site().runtime.notices(table_id)  # read first: it refreshes a stale release
        info = table_info(table_id)
        gdef = game_of(info)
    except ConfigError as exc:
        # the studio says why, and reloads once fixed
        page = broken_game_page(table_info(table_id), exc)
        if page is None:
            raise
        return page
    g.game = gdef.name
    pid = viewer(info)
    seats = seated_players(table_id)
    if pid is not None and pid not in {p["id"] for p in seats}:
        pid = None
    lang = current_language()
    static_dir = gdef.directory / "static"
    game_js = (static_dir / f"{gdef.name}.js")
    game_css = (static_dir / f"{gdef.name}.css")
    msgids = list(js_msgids((*FRAMEWORK_JS, game_js)))
    for st in gdef.states:
        msgids += [st.description, st.description_my_turn]
    catalog = js_catalog(msgids, catalog_of(gdef))
    trg = translator_for(lang, catalog_of(gdef))

    config = {
        "table_id": table_id, "player_id": pid, "game": gdef.name, "mode": info.mode, "lang": lang,
        "csrf": csrf_token(), "i18n": catalog, "bot_kinds": bot_kinds(gdef) if info.mode == "studio" else [],
        "bot_labels": bot_labels(gdef, trg) if info.mode == "studio" else {},
        "urls": {"base": f"/table/{table_id}", "static": f"/table/{table_id}/static/"},
        "as": pid if info.mode == "studio" else None,
        "states": [{"id": st.id, "name": st.name} for st in gdef.states],
        "notices": notices.to_json(),
        "live": live_config(info),  # live reload in the local studio (static/live_reload.js)
        "features": table_features(gdef),
        "preferences": stored_preferences(pid, gdef),  # the game's declared ones (preferences.py)
    }
    return render_template(
        "play/table.html", info=info, title=trg(gdef.info.display_name), seats=seats, me=pid,
        notices=notices,
        config=json.dumps(config).replace("<", "\\u003c"), fragment=_game_fragment(gdef),
        has_js=game_js.exists(), has_css=game_css.exists(), game=gdef.name,
        framework_scripts=FRAMEWORK_SCRIPTS,
    )


@bp.get("/table/<int:table_id>/static/<path:filename>")
def game_static(table_id: int, filename: str) -> Any:
    gdef = game_of(table_info(table_id))
    return send_from_directory(gdef.directory / "static", filename, max_age=0)


@bp.get("/table/<int:table_id>/data")
def data(table_id: int) -> Any:
    info = table_info(table_id)
    gdef = game_of(info)
    pid = viewer(info)
    translate = translator_for(current_language(), catalog_of(gdef))
    out = site().runtime.get_data(table_id, pid, translate)
    if pid is not None and (out["players"].get(str(pid)) or {}).get("zombie"):
        # a player who left (conceded) watches the rest of the game as a spectator
        out = site().runtime.get_data(table_id, None, translate)
    out["notices"] = site().runtime.notices(table_id).to_json()
    out["mode"] = info.mode
    out["lang"] = current_language()
    return jsonify(out)


@bp.post("/table/<int:table_id>/act/<action>")
def act(table_id: int, action: str) -> Any:
    """A move: ``Runtime.act`` with the request's player, arguments and seen move.

    The game's translator is looked up only for a refusal (an accepted move's answer has
    no text to translate)."""
    runtime = site().runtime
    info = runtime.table_info(table_id)
    try:
        pid = viewer(info)
        if pid is None:
            raise NotYourTurnError("Sign in to play at this table", "not_signed_in")
        length = request.content_length
        if length and length > MAX_ARGS_BYTES:
            raise UserError("This request is too large", "bad_request")
        args = action_arguments(request.get_data())
        seen_move = seen_move_of(request.headers.get("X-Arena-Move"))
        result = runtime.act(table_id, pid, action, args, seen_move=seen_move)
    except UserError:
        g.translate = translator_for(current_language(), catalog_of(runtime.game_for(info)))
        raise
    return json_answer(act_answer(result))


def json_answer(data: dict[str, Any]) -> Any:
    """``jsonify(data)`` (the same bytes) without its checks of the arguments, through an
    encoder made once (``json.dumps`` with arguments makes one per call)."""
    app = current_app
    provider = app.json
    body = _answer_encoder(bool(getattr(provider, "ensure_ascii", True)),
                           bool(getattr(provider, "sort_keys", True))).encode(data) + "\n"
    return app.response_class(body, content_type="application/json")


@functools.lru_cache(maxsize=4)
def _answer_encoder(ensure_ascii: bool, sort_keys: bool) -> json.JSONEncoder:
    return json.JSONEncoder(separators=(",", ":"), ensure_ascii=ensure_ascii, sort_keys=sort_keys)


def action_arguments(body: bytes) -> dict[str, Any]:
    """An action's arguments: the request body, a JSON object (empty: none).

    Raises:
        UserError: the body is not a JSON object.
    """
    if not body:
        return {}
    try:
        args = current_app.json.loads(body)
    except ValueError:
        raise UserError("The action's arguments must be a JSON object", "bad_request") from None
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise UserError("The action's arguments must be a JSON object", "bad_request")
    return args


def seen_move_of(raw: str | None) -> int | None:
    """``X-Arena-Move``: the move number the player's view was at; a second request sent
    from the same view (double click, retry after a lost answer) is refused, not applied
    twice.

    Raises:
        UserError: not a number.
    """
    return parse_int(raw, "X-Arena-Move") if raw not in (None, "") else None


def act_answer(result: ActionResult) -> dict[str, Any]:
    return {"ok": True, "state": result.state, "last_notification_id": result.last_notification_id,
            "game_over": result.game_over, "move": result.move}


@bp.post("/table/<int:table_id>/leave")
def leave(table_id: int) -> Any:
    info = table_info(table_id)
    pid = viewer(info)
    if pid is None:
        raise NotYourTurnError("You are not playing at this table", "not_a_player")
    site().runtime.leave(table_id, pid)
    return jsonify({"ok": True})


def _after(default: int = 0) -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after")
    if raw in (None, ""):
        return default
    value = parse_int(raw, "after")
    return max(0, value)


@bp.get("/table/<int:table_id>/log")
def game_log(table_id: int) -> Any:
    """Notifications after ``after`` that this player may see, as JSON (replay, tests)."""
    info = table_info(table_id)
    gdef = game_of(info)
    pid = viewer(info)
    translate = translator_for(current_language(), catalog_of(gdef))
    limit = min(parse_int(request.args.get("limit", 1000), "limit"), 5000)
    events = site().runtime.events(table_id, pid, _after(), translate, limit=max(1, limit))
    return jsonify({"events": events})


@bp.get("/table/<int:table_id>/replay")
def replay(table_id: int) -> Any:
    """A replay's material: what this reader saw when the table began (``start``, as
    ``/data``), and every notification they may see after it (``events``, as ``/log``)."""
    info = table_info(table_id)
    gdef = game_of(info)
    pid = viewer(info)
    runtime = site().runtime
    translate = translator_for(current_language(), catalog_of(gdef))
    try:
        start = start_data(runtime.directory, table_id, pid, translate, runtime.now)
    except UserError:
        g.translate = translate
        raise
    except Exception as exc:
        if isinstance(exc, ArenaError) and not isinstance(exc, GameSystemError):
            raise
        runtime.log_error(table_id, pid, "replay", exc)
        raise GameCodeError("The game hit an error while reading the table; it is in the "
                            "table's error log", "game_error") from exc
    after = int(start["notifications"]["last_packet_id"])
    events = runtime.events(table_id, pid, after, translate, limit=MAX_REPLAY_EVENTS)
    start["mode"] = info.mode
    start["lang"] = current_language()
    return jsonify({"start": start, "events": events, "over": runtime.is_over(table_id)})


def event_stream(table_id: int, player_id: int | None, after: int, lang: str, game: str | Path,
                 keepalive: float, poll: float, max_seconds: float, limit: int = 500,
                 client_gone: Callable[[], bool] = lambda: False) -> Iterator[bytes]:
    """The SSE body, in UTF-8: every notification after ``after`` that the player may see,
    each exactly once and in order (``id:`` = gamelog id), then new ones as they commit.

    Wakes at once on a commit in this process (the runtime's condition), whose
    notifications it gets in memory (``Streams.batch``), and on another process's or
    machine's (the bus, ``framework.live.streams``); when no wake-up came for ``poll``
    seconds it reads the gamelog itself. What one wake-up finds goes out as one chunk (the
    events, then the table's status).

    Once the game is over and everything is sent, an ``end`` event closes the stream (the
    page does not reconnect): nothing more will come, and a finished table's open pages
    would otherwise keep it watched and read for as long as they stay open. After a wait
    that no wake-up ended, a stream whose client has gone (``client_gone``) ends (after a
    wake-up, its write fails).
    """
    runtime = site().runtime
    # arguments, not a closure: no cell per value kept for the stream's life
    return _stream(runtime, table_id, player_id, after, (lang, str(game)), translator_for(lang, game),
                   keepalive, poll, max_seconds, limit, client_gone)


def _stream(runtime: Runtime, table_id: int, player_id: int | None, after: int, key: tuple[str, str],
            translate: Translate, keepalive: float, poll: float, max_seconds: float, limit: int,
            client_gone: Callable[[], bool]) -> Iterator[bytes]:
    """``event_stream``'s generator, outside the request's context (made inside it)."""
    streams = runtime.streams
    last = after
    started = last_sent = time.monotonic()
    from_database = True
    yield b"retry: 1000\n\n"
    try:
        over = runtime.is_over(table_id)
    except Exception:
        log.exception("event stream of table %s", table_id)
        return
    while True:
        seen = streams.version(table_id)
        try:
            batch = streams.batch(table_id, player_id, last, seen, key, translate, limit, from_database)
        except Exception:
            log.exception("event stream of table %s", table_id)
            return
        now = time.monotonic()
        if batch.packets:
            assert batch.status is not None
            yield "".join([*(p.sse(key, translate) for p in batch.packets), batch.status]).encode()
            last_sent = now
            over = over or any(p.ends_game() for p in batch.packets)
        elif last and batch.top < last:
            # The log went back (a studio slot was loaded): the page must reload.
            yield b"event: reset\ndata: {}\n\n"
            return
        last, more = max(last, batch.top), batch.more
        del batch  # its packets are not kept for the wait (a read of the log: this stream's own)
        if more:
            from_database = False
            continue  # more are waiting
        if over:
            yield b"event: end\ndata: {}\n\n"
            return
        if now - started >= max_seconds:
            return
        if now - last_sent >= keepalive:
            yield b": keepalive\n\n"
            last_sent = now
        woken = streams.wait(table_id, seen, max(0.05, min(poll, keepalive - (now - last_sent))))
        if woken == seen:
            # No wake-up came: nothing to write, so a gone client would not show; read the
            # log itself, unless another stream of the table just did. (After a wake-up
            # the stream writes: a gone client fails the write, at the second at most.)
            if client_gone():
                return
            from_database = streams.needs_read(table_id, seen, poll)
        else:
            from_database = False


@bp.get("/table/<int:table_id>/events")
def events(table_id: int) -> Any:
    info = table_info(table_id)
    gdef = game_of(info)
    pid = still_playing(table_id, viewer(info))
    after = _after()
    cfg = current_app.config
    body = event_stream(table_id, pid, after, current_language(), catalog_of(gdef),
                        float(cfg["SSE_KEEPALIVE"]),
                        float(cfg["SSE_POLL"]), float(cfg["SSE_MAX_SECONDS"]),
                        client_gone=client_gone_check(request.environ))
    # bytes passed through: the server iterates the stream itself, not through werkzeug's
    # encoding and closing wrappers (each a level of the C stack every waiting stream's
    # greenlet keeps a copy of), and the Response object is not kept for the stream's life
    return Response(body, mimetype="text/event-stream", direct_passthrough=True,
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/table/<int:table_id>/players")
def players(table_id: int) -> Any:
    table_info(table_id)
    return jsonify({"players": seated_players(table_id)})


def ensure_studio(info: TableInfo) -> None:
    if info.mode != "studio":
        abort(404)


# ---------------------------------------------------------------------- the table's features
def table_features(gdef: GameDefinition) -> dict[str, bool]:
    """What the page offers that depends on the game: the last trick when it has the hook
    (``static/lasttrick.js`` reads it)."""
    return {"last_trick": gdef.table_class.get_last_trick is not Table.get_last_trick}


@bp.get("/table/<int:table_id>/lasttrick")
def last_trick(table_id: int) -> Any:
    """The game's ``get_last_trick`` for this viewer: ``{"last_trick": ... or null}``."""
    info = table_info(table_id)
    pid = viewer(info)
    with site().runtime.read(table_id, pid) as table:
        if pid is not None and pid not in table.load_players_basic_infos():
            pid = None
        trick = table.get_last_trick(pid)
    return jsonify({"last_trick": trick})


@bp.get("/table/<int:table_id>/stats")
def end_statistics(table_id: int) -> Any:
    """The end-of-game panel: ranking and statistics, names translated (409 during play)."""
    info = table_info(table_id)
    gdef = game_of(info)
    translate = translator_for(current_language(), catalog_of(gdef))
    g.translate = translate
    with site().runtime.read(table_id) as table:
        return jsonify(final_statistics(table, translate))


def still_playing(table_id: int, pid: int | None) -> int | None:
    """``pid``, unless they left the game (a zombie plays their seat): they watch the rest of it
    as a spectator, their seat's private notifications included no more."""
    if pid is None:
        return None
    with site().runtime.read(table_id) as table:
        row = table.load_players_basic_infos().get(pid)
    return None if row is not None and row["player_zombie"] else pid
