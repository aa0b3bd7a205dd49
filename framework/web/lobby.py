"""The lobby: installed games, tables in progress, creating a table."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.errors import ArenaError
from framework.platform.models import GameTableRecord
from framework.web import site

bp = Blueprint("lobby", __name__)


@bp.get("/")
def index() -> str:
    s = site()
    games = []
    for name in s.registry.names():
        try:
            g = s.registry.get(name)
            games.append({"name": name, "title": g.info.display_name, "min": g.info.min_players,
                          "max": g.info.max_players, "options": list(g.options.options.values()),
                          "error": None})
        except ArenaError as exc:
            games.append({"name": name, "title": name, "error": str(exc), "options": []})
    with Session(s.platform) as db:
        tables = db.scalars(select(GameTableRecord).order_by(GameTableRecord.id.desc()).limit(100)).all()
        rows = [{"id": t.id, "game": t.game, "mode": t.mode, "status": t.status,
                 "created": t.created_at.strftime("%Y-%m-%d %H:%M")} for t in tables]
    return render_template("lobby/index.html", games=games, tables=rows)


@bp.post("/tables")
def create_table():  # type: ignore[no-untyped-def]
    s = site()
    game = request.form.get("game", "")
    try:
        players = int(request.form.get("players", "0") or 0)
        options = {k[len("option_"):]: v for k, v in request.form.items() if k.startswith("option_")}
        table_id = s.runtime.create_table(game, players, options)
    except ValueError:
        flash("The number of players must be a whole number")
        return redirect(url_for("lobby.index")), 400
    except ArenaError as exc:
        flash(str(exc))
        return redirect(url_for("lobby.index")), 400
    flash(f"Table {table_id} created")
    return redirect(url_for("lobby.index"))
