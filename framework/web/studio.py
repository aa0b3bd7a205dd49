"""Studio tools on a studio table: save/load slots, go to a state, bots at any seat, the
error log, a read-only view of the table's database, bug reports reopened as new tables.

``set_bot``, ``jump_to_state``, ``snapshot`` and ``restore_snapshot`` are plain functions
over the runtime (tests call them directly); the routes are thin wrappers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from framework.core.errors import GameOverError, NotFoundError, UserError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.runtime import Runtime
from framework.game.table import ActionContext, Table
from framework.platform.models import BugReport, GameTableRecord, TableSeat, db
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.web.auth import current_account
from framework.web.current import site
from framework.web.language import current_language, translator_for
from framework.web.lobby import bot_kinds
from framework.web.play import catalog_of, ensure_studio, game_of, parse_int, table_info, viewer

bp = Blueprint("studio", __name__)

MAX_ROWS_SHOWN = 500
MAX_BUG_TEXT = 10_000


def set_bot(runtime: Runtime, table_id: int, player_id: int, kind: str | None) -> None:
    """Give ``player_id``'s seat to a bot of ``kind`` (None: back to a person), mid-game.

    Raises:
        NotFoundError: the player is not at the table.
        GameOverError: the game has ended.
    """

    def change(table: Table) -> None:
        if table.gamestate.is_game_over():
            raise GameOverError("This game is over", "game_over")
        players = table.load_players_basic_infos()
        if player_id not in players:
            raise NotFoundError("There is no player ${player_id} at this table", "unknown_player",
                                player_id=player_id)
        table.db_query("UPDATE player SET player_ai = %s WHERE player_id = %s", (1 if kind else 0, player_id))
        if kind:
            table.set_meta(f"bot:{player_id}", kind)
            table.notify_all_players("botSeat", "${player_name} is now played by a bot (${kind})",
                                     player_id=player_id, player_name=players[player_id]["player_name"],
                                     kind=kind, bot=1)
        else:
            table.notify_all_players("botSeat", "${player_name} takes their seat back",
                                     player_id=player_id, player_name=players[player_id]["player_name"],
                                     bot=0)

    runtime.apply_change(table_id, change, "set_bot")
    with Session(runtime.platform) as s, s.begin():
        s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id)
                  .values(is_bot=bool(kind)))


def jump_to_state(runtime: Runtime, table_id: int, state_id: int) -> None:
    """Studio: put the table in state ``state_id`` (its ``st_`` action runs), like BGA's
    debug ``jumpToState``.

    Raises:
        NotFoundError: the game has no such state.
    """
    gdef = runtime.game_for(runtime.table_info(table_id))
    if state_id not in gdef.states.by_id or state_id == 1:
        raise NotFoundError("There is no state ${state} to go to", "unknown_state", state=state_id)

    def change(table: Table) -> None:
        table.gamestate.jump_to_state(state_id)

    runtime.apply_change(table_id, change, f"jump_to_state({state_id})")
    with Session(runtime.platform) as s, s.begin():
        rec = s.get(GameTableRecord, table_id)
        if rec is not None and state_id != 99 and rec.status == TablePhase.FINISHED:
            rec.status, rec.finished_at = TablePhase.PLAYING, None


def _quote(name: str, dialect: str) -> str:
    return f"`{name}`" if dialect == "mysql" else f'"{name}"'


def read_tables(db: TableConnection, with_copies: bool = False) -> dict[str, dict[str, Any]]:
    """Every table of a game table's database: ``{name: {"columns", "rows"}}``."""
    out = {}
    for name in db.table_names():
        if not with_copies and name.startswith(COPY_PREFIXES):
            continue
        columns = db.column_names(name)
        rows = db.execute(f"SELECT * FROM {_quote(name, db.dialect)}").rows
        out[name] = {"columns": columns, "rows": rows}
    return out


def snapshot(runtime: Runtime, table_id: int) -> dict[str, Any]:
    """The whole live table (every table of its database, copies left out), as JSON-able data."""
    info = runtime.table_info(table_id)
    with runtime.store.connect(info.id, write=False) as db:
        tables = read_tables(db)
    return json.loads(json.dumps({"game": info.game, "release_version": info.release_version,
                                  "tables": tables}, default=str))


def restore_snapshot(runtime: Runtime, snap: Mapping[str, Any]) -> int:
    """A new studio table in exactly the state of ``snap``; returns its id."""
    tables = snap["tables"]
    players = sorted(tables["player"]["rows"], key=lambda r: int(r["player_no"]))
    names = [str(p["player_name"]) for p in players]
    options = {int(r["global_id"]): int(r["global_value"]) for r in tables["global"]["rows"]
               if 100 <= int(r["global_id"]) <= 199}
    gdef = runtime.registry.get(str(snap["game"]))
    known = set(gdef.options.options)
    table_id = runtime.create_table(gdef.name, names, {k: v for k, v in options.items() if k in known},
                                    seed="bug-report", mode=TableMode.STUDIO)
    info = runtime.table_info(table_id)
    ids = {str(p["player_name"]): int(p["player_id"]) for p in players}
    with runtime.store.connect(info.id) as db:
        mark = "?" if db.dialect == "sqlite" else "%s"
        new_ids = {r["player_name"]: int(r["player_id"])
                   for r in db.execute("SELECT player_id, player_name FROM player").rows}
        if new_ids != ids:
            raise UserError("The players of this report cannot be seated again", "bad_snapshot")
        live = set(Runtime.live_tables(db))
        for name, content in tables.items():
            if name not in live:
                continue
            columns = [c for c in content["columns"] if c in set(db.column_names(name))]
            db.execute(f"DELETE FROM {_quote(name, db.dialect)}")
            if not columns:
                continue
            column_list = ", ".join(_quote(c, db.dialect) for c in columns)
            sql = (f"INSERT INTO {_quote(name, db.dialect)} ({column_list})"
                   f" VALUES ({', '.join(mark for _ in columns)})")
            for row in content["rows"]:
                db.execute(sql, [row.get(c) for c in columns])
        ai = {int(r["player_id"]): bool(int(r.get("player_ai") or 0)) for r in players}
    with Session(runtime.platform) as s, s.begin():
        for pid, is_bot in ai.items():
            s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == pid)
                      .values(is_bot=is_bot))
        over = any(int(r["global_id"]) == 1 and int(r["global_value"]) == 99
                   for r in tables["global"]["rows"])
        rec = s.get(GameTableRecord, table_id)
        if rec is not None:
            rec.status = TablePhase.FINISHED if over else TablePhase.PLAYING
    runtime.changed(table_id)
    return table_id


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
    pid = viewer(info)
    snap = snapshot(rt, table_id)
    events = rt.events(table_id, pid, 0, translator_for(current_language(), catalog_of(rt.game_for(info))),
                       limit=100_000)
    with rt.read(table_id) as table:
        state_name = table.gamestate.state().name
    with db.session.begin():
        rec = BugReport(table_id=table_id, game=info.game, release_version=info.release_version,
                        player_id=pid, text=text[:MAX_BUG_TEXT], state_name=state_name,
                        snapshot=json.dumps(snap), log=json.dumps(events, default=str))
        db.session.add(rec)
        db.session.flush()
        bug_id = rec.id
    return jsonify({"ok": True, "bug_id": bug_id, "url": url_for("studio.bug", bug_id=bug_id)})


@bp.get("/bugs")
def bugs() -> Any:
    with db.session.begin():
        rows = db.session.scalars(select(BugReport).order_by(BugReport.id.desc()).limit(200)).all()
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
    table_id = restore_snapshot(rt, snap)
    with db.session.begin():
        r2 = db.session.get(BugReport, bug_id)
        if r2 is not None:
            r2.reopened_table_id = table_id
    account = current_account()
    del account
    flash(g.translate("Bug report ${id} reopened as table ${table}").replace("${id}", str(bug_id))
          .replace("${table}", str(table_id)))
    return redirect(url_for("play.table_page", table_id=table_id))
