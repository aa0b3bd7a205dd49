"""A player's page: their rating per game and its history, finished games, and each
statistic's history per game as a chart. Simulated tables and tables without a result are
left out.

History is keyed by the stat's stable id, so it survives releases; a statistic a newer
release no longer declares keeps its history under its id.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for
from markupsafe import Markup, escape
from sqlalchemy import case, func, select

from framework.core.errors import ArenaError
from framework.core.kinds import TablePhase
from framework.platform.models import (
    GameTableRecord,
    Player,
    Rating,
    RatingChange,
    StatRecord,
    TableSeat,
    db,
)
from framework.web.auth import current_account
from framework.web.current import site
from framework.web.language import current_language, translator_for

bp = Blueprint("players", __name__)


def line_chart(values: list[float], width: int = 320, height: int = 90, label: str = "") -> Markup:
    """A small SVG line chart of ``values`` (in order), with its min and max marked."""
    if not values:
        return Markup("")
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    pad = 14
    n = len(values)
    step = (width - 2 * pad) / max(1, n - 1)
    points = [(pad + i * step, height - pad - (v - lo) / span * (height - 2 * pad))
              for i, v in enumerate(values)]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"><title>{escape(_fmt(v))}</title></circle>'
                   for (x, y), v in zip(points, values, strict=True))
    return Markup(
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(label)}"><rect x="0" y="0" width="{width}" height="{height}" class="bg"/>'
        f'<polyline points="{path}" class="line"/>{dots}'
        f'<text x="2" y="10" class="axis">{escape(_fmt(hi))}</text>'
        f'<text x="2" y="{height - 2}" class="axis">{escape(_fmt(lo))}</text></svg>'
    )


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}"


@bp.get("/me")
def me() -> Any:
    account = current_account()
    if account is None:
        return redirect(url_for("auth.login", next="/me"))
    return redirect(url_for("players.player", player_id=account["id"]))


#: Rows of the finished games' list and of each game's rating history on a player's page.
MAX_FINISHED_ROWS = 200
MAX_RATING_ROWS = 50


def _counted() -> Any:
    """Tables a player page counts: finished, not simulated, with the seat's result and date."""
    return (GameTableRecord.status == TablePhase.FINISHED, GameTableRecord.simulated.is_(False),
            GameTableRecord.finished_at.is_not(None), TableSeat.rank.is_not(None),
            TableSeat.score.is_not(None))


@bp.get("/player/<int:player_id>")
def player(player_id: int) -> Any:
    s = site()
    lang = current_language()
    with db.session.begin():
        rec = db.session.get(Player, player_id)
        if rec is None:
            abort(404)
        name = rec.name
        joined = (select(TableSeat, GameTableRecord)
                  .join(GameTableRecord, GameTableRecord.id == TableSeat.table_id)
                  .where(TableSeat.player_id == player_id, *_counted()))
        rows = db.session.execute(
            joined.order_by(GameTableRecord.finished_at.desc(), GameTableRecord.id.desc())
            .limit(MAX_FINISHED_ROWS)).all()
        finished = [{"table_id": t.id, "game": t.game, "rank": seat.rank, "score": seat.score,
                     "finished": t.finished_at.strftime("%Y-%m-%d %H:%M") if t.finished_at else "",
                     "mode": t.mode, "release": t.release_version} for seat, t in rows]
        counts = {game: (int(played), int(won or 0)) for game, played, won in db.session.execute(
            select(GameTableRecord.game, func.count(), func.sum(case((TableSeat.rank == 1, 1), else_=0)))
            .select_from(TableSeat).join(GameTableRecord, GameTableRecord.id == TableSeat.table_id)
            .where(TableSeat.player_id == player_id, *_counted()).group_by(GameTableRecord.game)).all()}
        stats = db.session.scalars(
            select(StatRecord).join(GameTableRecord, GameTableRecord.id == StatRecord.table_id)
            .where(StatRecord.player_id == player_id, StatRecord.scope == "player",
                   GameTableRecord.simulated.is_(False))
            .order_by(StatRecord.game, StatRecord.stat_id, StatRecord.table_id)).all()
        series: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        for st in stats:
            series[st.game][st.stat_id].append(float(st.value))
        ratings = {r.game: (r.rating, r.games) for r in
                   db.session.scalars(select(Rating).where(Rating.player_id == player_id))}
        history: dict[str, list[tuple[int, float, float, datetime]]] = defaultdict(list)
        for ch in db.session.scalars(select(RatingChange).where(RatingChange.player_id == player_id)
                                     .order_by(RatingChange.recorded_at, RatingChange.table_id)):
            history[ch.game].append((ch.table_id, ch.before, ch.after, ch.recorded_at))
    per_game = []
    for game in sorted(set(series) | set(counts) | set(ratings)):
        by_stat = series.get(game, {})
        names: dict[int, str] = {}
        try:
            gdef = s.registry.get(game)
            tr = translator_for(lang, game)
            names = {st.id: tr(st.name) for st in gdef.stats.by_scope("player")}
        except ArenaError:
            pass
        charts = []
        for stat_id, values in sorted(by_stat.items()):
            label = names.get(stat_id) or f"#{stat_id}"
            charts.append({"id": stat_id, "name": label, "count": len(values), "last": _fmt(values[-1]),
                           "average": _fmt(sum(values) / len(values)),
                           "chart": line_chart(values, label=label)})
        played, won = counts.get(game, (0, 0))
        changes = history.get(game, [])
        rating, rated_games = ratings.get(game, (None, 0))
        per_game.append({
            "game": game, "charts": charts, "played": played, "won": won,
            "rating": None if rating is None else round(rating), "rated_games": rated_games,
            "rating_chart": line_chart([round(v) for v in (changes[0][1], *(c[2] for c in changes))],
                                       label=game)
            if changes else Markup(""),
            "rating_changes": [{
                "table_id": table_id, "before": round(before), "after": round(after),
                "change": f"{after - before:+.1f}", "date": when.strftime("%Y-%m-%d %H:%M"),
            } for table_id, before, after, when in reversed(changes[-MAX_RATING_ROWS:])],
        })
    return render_template("players/player.html", name=name, player_id=player_id, finished=finished,
                           games=per_game)
