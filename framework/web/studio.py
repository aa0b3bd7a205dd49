"""Studio tools on a studio table: save/load slots, go to a state, bots at any seat, the
error log, a read-only view of the table's database, bug reports reopened as new tables.

The tools themselves are the engine's (``framework.engine.studio_tools``); the routes are thin
wrappers.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from framework.core.errors import UserError
from framework.engine.studio_tools import jump_to_state, read_tables, restore_snapshot, set_bot, snapshot
from framework.game.table import ActionContext
from framework.platform.models import BugReport, db
from framework.web.access import principal
from framework.web.caps import check_bug_reports, check_studio_tables, record_table_owner
from framework.web.current import site
from framework.web.language import current_language, translator_for
from framework.web.lobby import bot_kinds
from framework.web.play import catalog_of, ensure_studio, game_of, parse_int, table_info, viewer

bp = Blueprint("studio", __name__)

MAX_ROWS_SHOWN = 500
MAX_BUG_TEXT = 10_000


# ---------------------------------------------------------------------- routes
def _studio_table(table_id: int) -> Any:
    info = table_info(table_id)
    ensure_studio(info)
    return info


def _json_body() -> dict[str, Any]:
    if request.is_json:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise UserError("The request must be a JSON object", "bad_request")
        return body
    return dict(request.form)


@bp.post("/table/<int:table_id>/studio/save/<int:slot>")
def save(table_id: int, slot: int) -> Any:
    _studio_table(table_id)
    site().runtime.save_slot(table_id, slot)
    return jsonify({"ok": True, "slot": slot})


@bp.post("/table/<int:table_id>/studio/load/<int:slot>")
def load(table_id: int, slot: int) -> Any:
    info = _studio_table(table_id)
    rt = site().runtime
    rt.load_slot(table_id, slot)
    # The log went back with the rest: tell every open page to reload.
    with rt.store.connect(info.id) as db:
        table = rt.game_for(info).table_class(ActionContext(db=db, now=rt.now))
        table.notify_all_players("studioReload", "")
    rt.changed(table_id)
    return jsonify({"ok": True, "slot": slot, "reload": True})


@bp.post("/table/<int:table_id>/studio/jump")
def jump(table_id: int) -> Any:
    _studio_table(table_id)
    state_id = parse_int(_json_body().get("state_id"), "state_id")
    jump_to_state(site().runtime, table_id, state_id)
    return jsonify({"ok": True, "state_id": state_id})


@bp.post("/table/<int:table_id>/studio/bot")
def bot(table_id: int) -> Any:
    info = _studio_table(table_id)
    body = _json_body()
    pid = parse_int(body.get("player_id"), "player_id")
    kind = str(body.get("kind") or "") or None

    if kind is not None and kind not in bot_kinds(game_of(info)):
        raise UserError("This game has no bot ${kind}", "bad_bot", kind=kind[:32])
    set_bot(site().runtime, table_id, pid, kind)
    return jsonify({"ok": True, "player_id": pid, "kind": kind})


@bp.get("/table/<int:table_id>/studio/errors")
def errors(table_id: int) -> Any:
    _studio_table(table_id)
    return jsonify({"errors": site().runtime.errors(table_id)})


@bp.get("/table/<int:table_id>/studio/database")
def database(table_id: int) -> Any:
    info = _studio_table(table_id)
    with_copies = request.args.get("copies") == "1"
    with site().runtime.store.connect(info.id, write=False) as db:
        tables = read_tables(db, with_copies)
    shown = {name: {"columns": t["columns"], "rows": t["rows"][:MAX_ROWS_SHOWN], "total": len(t["rows"])}
             for name, t in tables.items()}
    return render_template("studio/database.html", table_id=table_id, tables=shown, copies=with_copies,
                           game=info.game)


@bp.post("/table/<int:table_id>/studio/bug")
def report_bug(table_id: int) -> Any:
    info = _studio_table(table_id)
    rt = site().runtime
    body = _json_body()
    text = str(body.get("text") or "").strip()
    if not text:
        raise UserError("Say what went wrong", "empty_report")
    reporter = principal().account_id
    check_bug_reports(reporter)
    pid = viewer(info)
    snap = snapshot(rt, table_id)
    events = rt.events(table_id, pid, 0, translator_for(current_language(), catalog_of(rt.game_for(info))),
                       limit=100_000)
    with rt.read(table_id) as table:
        state_name = table.gamestate.state().name
    with db.session.begin():
        rec = BugReport(table_id=table_id, game=info.game, release_version=info.release_version,
                        player_id=pid, text=text[:MAX_BUG_TEXT], state_name=state_name,
                        snapshot=json.dumps(snap), log=json.dumps(events, default=str), account_id=reporter)
        db.session.add(rec)
        db.session.flush()
        bug_id = rec.id
    return jsonify({"ok": True, "bug_id": bug_id, "url": url_for("studio.bug", bug_id=bug_id)})


@bp.get("/bugs")
def bugs() -> Any:
    who = principal()
    query = select(BugReport).order_by(BugReport.id.desc()).limit(200)
    if not (who.local or who.is_admin):
        query = query.where(BugReport.game.in_(sorted(who.games)))  # the games they develop
    with db.session.begin():
        rows = db.session.scalars(query).all()
        reports = [{"id": r.id, "table_id": r.table_id, "game": r.game, "text": r.text,
                    "state": r.state_name, "created": r.created_at.strftime("%Y-%m-%d %H:%M"),
                    "reopened": r.reopened_table_id} for r in rows]
    return render_template("studio/bugs.html", reports=reports)


@bp.get("/bugs/<int:bug_id>")
def bug(bug_id: int) -> Any:
    with db.session.begin():
        r = db.session.get(BugReport, bug_id)
        if r is None:
            abort(404)
        report = {"id": r.id, "table_id": r.table_id, "game": r.game, "text": r.text, "state": r.state_name,
                  "created": r.created_at.strftime("%Y-%m-%d %H:%M"), "reopened": r.reopened_table_id,
                  "release": r.release_version, "log": json.loads(r.log)}
    return render_template("studio/bug.html", report=report)


@bp.post("/bugs/<int:bug_id>/reopen")
def reopen(bug_id: int) -> Any:
    rt = site().runtime
    with db.session.begin():
        r = db.session.get(BugReport, bug_id)
        if r is None:
            abort(404)
        snap = json.loads(r.snapshot)
        reporter = r.player_id
    owner = principal().account_id
    check_studio_tables(owner)
    table_id = restore_snapshot(rt, snap)
    record_table_owner(table_id, owner)
    with db.session.begin():
        r2 = db.session.get(BugReport, bug_id)
        if r2 is not None:
            r2.reopened_table_id = table_id
    flash(g.translate("Bug report ${id} reopened as table ${table}").replace("${id}", str(bug_id))
          .replace("${table}", str(table_id)))
    # As the player who reported it (else the first seat): a test player, not a spectator.
    seat = reporter if reporter is not None else first_player(snap)
    target = url_for("play.table_page", table_id=table_id)
    return redirect(target + (f"?as={seat}" if seat is not None else ""))


def first_player(snap: dict[str, Any]) -> int | None:
    """The player of the first seat in a bug report's snapshot."""
    rows = sorted(snap.get("tables", {}).get("player", {}).get("rows", []), key=lambda r: int(r["player_no"]))
    return int(rows[0]["player_id"]) if rows else None
