"""The lobby: installed games with their options and best rated players, creating a table
(studio or production), open production tables to join, tables in progress (simulated
tables are never shown)."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from sqlalchemy import select

from framework.core.errors import ArenaError, NotFoundError, UserError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.open_tables import Joined
from framework.game.registry import GameDefinition
from framework.platform.models import GameTableRecord, OpenTable, Player, Rating, TableSeat, db
from framework.web.access import principal
from framework.web.auth import current_account
from framework.web.caps import check_studio_tables, record_table_owner
from framework.web.current import site
from framework.web.language import current_language, translator_for

bp = Blueprint("lobby", __name__)

MAX_BOTS_KINDS = 8
#: Players in each game's "best rated" box.
TOP_PLAYERS = 5


def bot_kinds(gdef: GameDefinition) -> list[str]:
    """The bot kinds a game offers (``BOT_KINDS`` on its Table class), else ``default``."""
    kinds = getattr(gdef.table_class, "BOT_KINDS", None)
    if not kinds:
        return ["default"] if hasattr(gdef.table_class, "bot_turn") else []
    return [str(k) for k in list(kinds)[:MAX_BOTS_KINDS]]


def bot_labels(gdef: GameDefinition, translate: Any) -> dict[str, str]:
    """What to call each bot kind: the game's ``BOT_LABELS`` translated, else the kind."""
    labels = getattr(gdef.table_class, "BOT_LABELS", None) or {}
    return {kind: translate(labels[kind]) if kind in labels else kind for kind in bot_kinds(gdef)}


def game_entry(name: str) -> dict[str, Any]:
    s = site()
    tr = g.translate
    try:
        gdef = s.registry.get(name)
    except ArenaError as exc:
        return {"name": name, "title": name, "error": str(exc), "options": []}

    trg = translator_for(current_language(), name)
    options = []
    for opt in gdef.options.options.values():
        options.append({
            "id": opt.id, "name": trg(opt.name),
            "description": trg(opt.description) if opt.description else "",
            "default": opt.default,
            "choices": [{"value": v, "name": trg(opt.value_name(v)),
                        "description": trg(opt.value_description(v)) if opt.value_description(v) else ""}
                       for v in opt.values],
            "displaycondition": {str(k): list(v) for k, v in opt.displaycondition.items()},
        })
    return {"name": name, "title": trg(gdef.info.display_name), "min": gdef.info.min_players,
            "max": gdef.info.max_players, "options": options, "error": None, "bots": bot_kinds(gdef),
            "bot_labels": bot_labels(gdef, trg),
            "description": trg(gdef.info.description) if gdef.info.description else "",
            "duration": gdef.info.estimated_duration_min, "tr": tr}


@bp.get("/")
def index() -> str:
    s = site()
    games = [game_entry(name) for name in s.registry.names()]
    account = current_account()
    with db.session.begin():
        done = GameTableRecord.status == TablePhase.FINISHED
        shown = GameTableRecord.simulated.is_(False)
        newest = GameTableRecord.id.desc()
        tables = db.session.scalars(select(GameTableRecord).where(~done, shown).order_by(newest)
                                    .limit(100)).all()
        finished = db.session.scalars(select(GameTableRecord).where(done, shown).order_by(newest)
                                      .limit(20)).all()
        for entry in games:
            entry["top"] = [{"id": pid, "name": name, "rating": round(rating)} for pid, name, rating in
                            db.session.execute(
                                select(Player.id, Player.name, Rating.rating)
                                .join(Player, Player.id == Rating.player_id)
                                .where(Rating.game == entry["name"])
                                .order_by(Rating.rating.desc(), Player.name).limit(TOP_PLAYERS)).all()]
        rows = []
        who = principal()
        for t in list(tables) + list(finished):
            if t.mode == TableMode.STUDIO and not who.can_develop(t.game):
                continue  # a studio table is its developers' only
            seats = db.session.execute(
                select(TableSeat, Player).join(Player, Player.id == TableSeat.player_id)
                .where(TableSeat.table_id == t.id).order_by(TableSeat.player_no)).all()
            rows.append({
                "id": t.id, "game": t.game, "mode": t.mode, "status": t.status,
                "progression": t.progression, "created": t.created_at.strftime("%Y-%m-%d %H:%M"),
                "seats": [{"id": p.id, "name": p.name, "bot": seat.is_bot} for seat, p in seats],
                "mine": account is not None and any(p.id == account["id"] for _, p in seats),
            })
        waiting = []
        for o in db.session.scalars(select(OpenTable).where(OpenTable.table_id.is_(None))
                                    .order_by(OpenTable.id.desc()).limit(50)).all():
            names = list(o.player_names or [])
            waiting.append({"id": o.id, "game": o.game, "players": o.players, "names": names,
                            "mine": account is not None and account["name"] in names})
    return render_template("lobby/index.html", games=games,
                           tables=[r for r in rows if r["status"] != TablePhase.FINISHED],
                           finished=[r for r in rows if r["status"] == TablePhase.FINISHED], waiting=waiting,
                           account=account)


def _form_options() -> dict[str, str]:
    return {k[len("option_"):]: v for k, v in request.form.items() if k.startswith("option_")}


@bp.post("/tables")
def create_table() -> Any:
    s = site()
    tr = g.translate
    game = request.form.get("game", "")
    mode = request.form.get("mode", TableMode.STUDIO)
    owner = principal().account_id
    if mode == TableMode.STUDIO:
        check_studio_tables(owner)  # a translated 409 page when reached
    try:
        try:
            players = int(request.form.get("players", "0") or 0)
        except ValueError:
            raise UserError("The number of players must be a whole number", "bad_player_count") from None
        gdef = s.registry.get(game)
        gdef.check_player_count(players)
        options = gdef.options.resolve(_form_options())
        if mode == TableMode.STUDIO:
            bots: dict[int, str] = {}
            kinds = bot_kinds(gdef)
            for seat in range(players):
                kind = request.form.get(f"bot_{seat}", "")
                if kind:
                    if kind not in kinds:
                        raise UserError("This game has no bot ${kind}", "bad_bot", kind=kind)
                    bots[seat] = kind
            seed = request.form.get("seed") or None
            table_id = s.runtime.create_table(game, players, options, seed=seed, mode=TableMode.STUDIO,
                                              bots=bots)
            record_table_owner(table_id, owner)
            flash(tr("Table ${id} created").replace("${id}", str(table_id)))
            first_human = next((i for i in range(players) if i not in bots), 0)
            with db.session.begin():
                seat = db.session.scalar(select(TableSeat).where(TableSeat.table_id == table_id,
                                                                 TableSeat.player_no == first_human + 1))
                pid = seat.player_id if seat else None
            return redirect(url_for("play.table_page", table_id=table_id, **({"as": pid} if pid else {})))
        if mode != TableMode.PRODUCTION:
            raise UserError("A table is 'studio' or 'production', not ${mode}", "bad_mode", mode=mode)
        account = current_account()
        if account is None:
            flash(tr("Sign in to create a production table"))
            return redirect(url_for("auth.login", next=url_for("lobby.index")))
        open_id = s.runtime.open_tables.open(game, players, options, account["name"], account["id"])
        return _start_if_full(open_id)
    except UserError as exc:  # a form the lobby cannot take
        return refused(exc, 400)
    except ArenaError as exc:
        flash(str(exc))
        return index(), 400


def _start_if_full(open_id: int) -> Any:
    table_id = site().runtime.open_tables.start_if_full(open_id)
    if table_id is None:
        return redirect(url_for("lobby.index"))
    return redirect(url_for("play.table_page", table_id=table_id))


@bp.post("/open/<int:open_id>/join")
def join(open_id: int) -> Any:
    tr = g.translate
    account = current_account()
    if account is None:
        flash(tr("Sign in to join a table"))
        return redirect(url_for("auth.login", next=url_for("lobby.index")))
    tables = site().runtime.open_tables
    try:
        joined = tables.join(open_id, account["name"])
        if joined is Joined.FILLED:  # this request took the last seat: it starts the table
            return redirect(url_for("play.table_page", table_id=tables.start_claimed(open_id)))
    except UserError as exc:  # full, started or gone: this player did not sit
        return refused(exc)
    if joined is Joined.ALREADY_SEATED:
        flash(tr("You are already at this table"))
    else:
        flash(tr("You are seated; the table starts when every seat is taken"))
    return redirect(url_for("lobby.index"))


def refused(exc: UserError, status: int | None = None) -> Any:
    """The lobby again, answered with ``status`` (default: the refusal's) and the message at
    the top."""
    flash(exc.render(g.translate))
    return index(), status or exc.http_status


@bp.post("/open/<int:open_id>/leave")
def leave_open(open_id: int) -> Any:
    account = current_account()
    if account is None:
        abort(403)
    try:
        site().runtime.open_tables.leave(open_id, account["name"])
    except NotFoundError:
        abort(404)
    return redirect(url_for("lobby.index"))


@bp.get("/favicon.ico")
def favicon() -> Any:
    """The site's icon where browsers look for it without being told (pages link the SVG)."""
    assert current_app.static_folder is not None
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml",
                               max_age=86400)
