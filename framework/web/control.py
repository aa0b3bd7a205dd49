"""The studio page of a game (releases, status, blocking: BGA's control panel) and the
public page of its release notes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from framework.core.errors import ArenaError, UserError
from framework.web.access import principal
from framework.web.caps import check_releases, record_release_owner
from framework.web.current import site

bp = Blueprint("control", __name__)


@bp.get("/studio/<game>")
def game_page(game: str) -> Any:
    from framework.releases.check import last_check
    from framework.releases.deploy import game_overview

    s = site()
    try:
        overview = game_overview(s, game)
    except ArenaError as exc:
        return render_template("error.html", message=str(exc)), 404
    return render_template("control/game.html", o=overview, check=last_check(s, game))


def _run(game: str, action: Any) -> Any:
    try:
        message = action()
        flash(message)
        return redirect(url_for("control.game_page", game=game))
    except ArenaError as exc:
        reason = exc.render(g.translate) if isinstance(exc, UserError) else str(exc)
        flash(g.translate("Refused: ") + reason)
        return redirect(url_for("control.game_page", game=game)), 303


@bp.post("/studio/<game>/build")
def build(game: str) -> Any:
    from framework.releases.builds import build as do_build
    from framework.releases.check import check

    builder = principal().account_id
    check_releases(builder)  # a translated 409 page when reached

    def action() -> str:
        manifest = do_build(site(), game, notes=request.form.get("notes", "")[:2000],
                            major=request.form.get("major") == "1")
        record_release_owner(game, manifest["version"], builder)
        check(site(), game, manifest["version"])
        return f"built {manifest['version']}"

    return _run(game, action)


@bp.post("/studio/<game>/check")
def check(game: str) -> Any:
    from framework.releases.check import check as do_check

    def action() -> str:
        report = do_check(site(), game, request.form.get("version") or None)
        return f"checked {report.candidate}: {len(report.errors)} error(s), {len(report.breaking)} breaking"

    return _run(game, action)


@bp.post("/studio/<game>/deploy")
def deploy(game: str) -> Any:
    from framework.releases.deploy import deploy as do_deploy

    def action() -> str:
        version = request.form.get("version", "")
        result = do_deploy(site(), game, version, block=request.form.get("block") == "1",
                           force=request.form.get("force") == "1")
        text = f"{version} is in production"
        if result["upgrade"]:
            u = result["upgrade"]
            text += f" (upgraded {u['upgraded']}, current {u['current']}, failed {u['failed']})"
        tables = result["blocked_tables"]
        if tables["repaired"]:
            text += f"; unblocked tables {', '.join(map(str, tables['repaired']))}"
        if tables["remaining"]:
            text += "; still blocked: " + "; ".join(
                f"{t['table']} ({t['reason']})" for t in tables["remaining"])
        if result["game_blocked"]:
            text += f"; {game} stays blocked (blocked before the deploy)"
        return text

    return _run(game, action)


@bp.post("/studio/<game>/rollback")
def rollback(game: str) -> Any:
    from framework.releases.deploy import rollback as do_rollback

    return _run(game, lambda: f"back on {do_rollback(site(), game)['version']}")


@bp.post("/studio/<game>/block")
def block(game: str) -> Any:
    from framework.releases.deploy import set_blocked

    blocked = request.form.get("blocked") == "1"

    def action() -> str:
        set_blocked(site(), game, blocked)
        return "blocked" if blocked else "unblocked"

    return _run(game, action)


@bp.post("/studio/<game>/status")
def status(game: str) -> Any:
    from framework.releases.deploy import set_status

    return _run(game, lambda: f"status: {set_status(site(), game, request.form.get('status'))}")


@bp.get("/game/<game>/news")
def news(game: str) -> Any:
    """Release notes for players, newest first; major releases announced."""
    from framework.releases.builds import list_releases

    s = site()
    try:
        gdef = s.registry.get(game)
    except ArenaError as exc:
        return render_template("error.html", message=str(exc)), 404
    releases = [r for r in reversed(list_releases(s, game)) if r["notes"]]
    return render_template("control/news.html", game=gdef.info.display_name, name=game, releases=releases)
