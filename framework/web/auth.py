"""Accounts (name + werkzeug password hash), signed sessions, and CSRF on every change.

Studio tables need no account (test players); production tables need a signed-in player.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, flash, g, redirect, render_template, request, session, url_for
from sqlalchemy import Engine, bindparam, select
from werkzeug.security import check_password_hash, generate_password_hash

from framework.platform.models import Player, db
from framework.web.current import error_response, site

bp = Blueprint("auth", __name__)

NAME = re.compile(r"^[A-Za-z0-9_.-]{2,32}$")
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
CSRF_FORM_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


def csrf_token() -> str:
    """This session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return str(token)


def _csrf_ok() -> bool:
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FORM_FIELD) or ""
    return csrf_matches(session, sent)


def csrf_matches(session_data: Mapping[str, Any], sent: str) -> bool:
    """``sent`` is the CSRF token of the session (which has one)."""
    expected = session_data.get("csrf")
    if not expected:
        return False
    return hmac.compare_digest(str(expected).encode(), str(sent).encode())  # any text a client sends


def current_account() -> dict[str, Any] | None:
    """The signed-in player as ``{"id", "name"}``, or None."""
    if "account" in g:
        return g.account  # type: ignore[no-any-return]
    account = None
    pid = session.get("account_id")
    if pid is not None:

        account = account_of(site().platform, pid)
    g.account = account
    return account


#: the signed-in player's row, as one Core statement: the ORM session it used to open
#: (identity map, unit of work) cost more than the query on every request of a player
_ACCOUNT = select(Player.id, Player.name).where(Player.id == bindparam("account_id"),
                                                 Player.password_hash.is_not(None))


def account_of(platform: Engine, account_id: Any) -> dict[str, Any] | None:
    """A session's ``account_id`` as ``{"id", "name"}`` while that player exists and has a
    password, else None."""
    with platform.connect() as conn:
        row = conn.execute(_ACCOUNT, {"account_id": int(account_id)}).first()
    return {"id": row.id, "name": row.name} if row is not None else None


def init_app(app: Flask) -> None:
    @app.before_request
    def _check_csrf() -> Any:
        if request.method in UNSAFE_METHODS and not app.config.get("CSRF_DISABLED") and not _csrf_ok():

            return error_response(400, "csrf", g.translate(
                "This form has expired or did not come from Arena; reload the page and try again"))
        return None

    @app.context_processor
    def _auth_context() -> dict[str, Any]:
        return {"csrf_token": csrf_token, "account": current_account()}


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("lobby.index")


@bp.route("/register", methods=["GET", "POST"])
def register() -> Any:
    if request.method == "GET":
        return render_template("auth/register.html", next=request.args.get("next", ""))

    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    tr = g.translate
    error = None
    if not NAME.match(name):
        error = tr("A name is 2 to 32 letters, digits, dots, dashes or underscores")
    elif len(password) < 6:
        error = tr("A password needs at least 6 characters")
    else:
        with db.session.begin():
            existing = db.session.scalar(select(Player).where(Player.name == name))
            if existing is not None:
                error = tr("This name is taken")
            else:
                rec = Player(name=name, password_hash=generate_password_hash(password), is_test=False,
                             language=session.get("lang"))
                db.session.add(rec)
                db.session.flush()
                new_id = rec.id
    if error:
        flash(error)
        return render_template("auth/register.html", next=request.form.get("next", ""), name=name), 400
    session.clear()
    session["account_id"] = new_id
    return redirect(_safe_next(request.form.get("next")))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    if request.method == "GET":
        return render_template("auth/login.html", next=request.args.get("next", ""))

    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    with db.session.begin():
        rec = db.session.scalar(select(Player).where(Player.name == name))
        ok = rec is not None and rec.password_hash and check_password_hash(rec.password_hash, password)
        pid = rec.id if rec is not None else None
        lang = rec.language if rec is not None else None
    if not ok:
        flash(g.translate("Wrong name or password"))
        return render_template("auth/login.html", next=request.form.get("next", ""), name=name), 401
    session.clear()
    session["account_id"] = pid
    if lang:
        session["lang"] = lang
    return redirect(_safe_next(request.form.get("next")))


@bp.post("/logout")
def logout() -> Any:
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    return redirect(url_for("lobby.index"))
