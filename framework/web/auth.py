"""Accounts (name + werkzeug password hash), signed sessions that end, and CSRF on every change.

A signed-in cookie holds the account's id, its session version (``players.session_version``:
signing out or a new password raises it, which ends every cookie of the account), when it
signed in and when it was last used; each request that asks who is signed in checks all
four (idle and absolute lifetimes: ``ARENA_SESSION_IDLE_S``, ``ARENA_SESSION_MAX_S``).
Who may do what is ``framework.web.access``.
"""

from __future__ import annotations

import hmac
import os
import secrets
import time
from collections.abc import Mapping, MutableMapping
from datetime import timedelta
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import Engine, bindparam, select
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.security import generate_password_hash

from framework.core.errors import UserError
from framework.platform.accounts import check_password, create_account, end_sessions, verify_password
from framework.platform.models import Player, db
from framework.web.current import error_response, site
from framework.web.redirects import safe_next
from framework.web.throttle import TOO_MANY, failed_sign_in, may_register, may_sign_in, registered
from framework.web.throttle import init_app as init_throttle

bp = Blueprint("auth", __name__)

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
CSRF_FORM_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
#: the session's keys that say who is signed in (the rest: CSRF token, language)
ACCOUNT_KEYS = ("account_id", "sv", "since", "seen")
DEFAULT_IDLE_S = 7 * 24 * 3600
DEFAULT_MAX_S = 30 * 24 * 3600


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
    """The signed-in player as ``{"id", "name", "is_admin"}``, or None.

    A cookie whose session version is no longer the account's (signed out, new password),
    or that was idle or alive too long, is signed out here."""
    if "account" in g:
        return g.account  # type: ignore[no-any-return]
    account = None
    pid = session.get("account_id")
    if pid is not None:
        row = account_of(site().platform, pid)
        if row is not None and session_is_alive(session, row, time.time(), current_app.config):
            account = {"id": row["id"], "name": row["name"], "is_admin": row["is_admin"]}
        else:
            sign_out_cookie(session)
    g.account = account
    return account


#: the signed-in player's row, as one Core statement: the ORM session it used to open
#: (identity map, unit of work) cost more than the query on every request of a player
_ACCOUNT = select(Player.id, Player.name, Player.is_admin, Player.session_version).where(
    Player.id == bindparam("account_id"), Player.password_hash.is_not(None))


def account_of(platform: Engine, account_id: Any) -> dict[str, Any] | None:
    """A session's ``account_id`` as ``{"id", "name", "is_admin", "session_version"}`` while
    that player exists and has a password, else None."""
    try:
        key = int(account_id)
    except (TypeError, ValueError):
        return None
    with platform.connect() as conn:
        row = conn.execute(_ACCOUNT, {"account_id": key}).first()
    if row is None:
        return None
    return {"id": row.id, "name": row.name, "is_admin": bool(row.is_admin),
            "session_version": int(row.session_version or 0)}


def session_is_alive(data: MutableMapping[str, Any], row: Mapping[str, Any], now: float,
                     config: Mapping[str, Any]) -> bool:
    """The signed-in cookie ``data`` still speaks for the account ``row`` at ``now``; its
    last use is moved on (at most once a minute, so that a move rarely rewrites the cookie)."""
    if data.get("sv") != row["session_version"]:
        return False
    since, seen = data.get("since"), data.get("seen")
    if not isinstance(since, int | float) or not isinstance(seen, int | float):
        return False
    idle = float(config.get("ARENA_SESSION_IDLE_S", DEFAULT_IDLE_S))
    longest = float(config.get("ARENA_SESSION_MAX_S", DEFAULT_MAX_S))
    if now - seen > idle or now - since > longest or since > now + 60:
        return False
    if now - seen > min(60.0, idle / 10):
        data["seen"] = int(now)
    return True


def signed_in_session(account_id: int, session_version: int, now: float | None = None) -> dict[str, Any]:
    """The keys a session holds for a player who has just signed in."""
    moment = int(time.time() if now is None else now)
    return {"account_id": account_id, "sv": session_version, "since": moment, "seen": moment}


def sign_in(account_id: int, session_version: int, lang: str | None = None) -> None:
    """A fresh session for ``account_id`` (a new CSRF token too: nothing carries over)."""
    session.clear()
    session.update(signed_in_session(account_id, session_version))
    session.permanent = True  # the cookie's own expiry: the absolute lifetime
    if lang:
        session["lang"] = lang
    g.pop("account", None)


def sign_out_cookie(data: MutableMapping[str, Any]) -> None:
    for key in ACCOUNT_KEYS:
        data.pop(key, None)


def _setting(app: Flask, key: str, default: Any) -> Any:
    """``key`` from the app's configuration, else the environment, else ``default``."""
    value = app.config.get(key)
    return value if value is not None else os.environ.get(key, default)


def is_true(value: Any) -> bool:
    """A setting's yes.

    >>> is_true("1"), is_true("yes"), is_true("0"), is_true(False)
    (True, True, False, False)
    """
    return str(value).strip().lower() in {"1", "true", "yes", "on"}


def init_app(app: Flask) -> None:
    """Sessions (lifetimes, ``Secure``), HTTPS behind a proxy, login throttling, the CSRF check."""
    for key, default in (("ARENA_SESSION_IDLE_S", DEFAULT_IDLE_S), ("ARENA_SESSION_MAX_S", DEFAULT_MAX_S)):
        app.config[key] = float(_setting(app, key, default))
    if _setting(app, "ARENA_SECURE_COOKIES", None) is not None:
        app.config["SESSION_COOKIE_SECURE"] = is_true(_setting(app, "ARENA_SECURE_COOKIES", "0"))
    proxies = int(_setting(app, "ARENA_PROXY_FIX", 0) or 0)
    if proxies > 0:
        # the client's address, scheme and host as the proxies in front tell them
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,  # type: ignore[method-assign]
                                x_port=proxies)
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(seconds=float(app.config["ARENA_SESSION_MAX_S"]))
    init_throttle(app)

    @app.before_request
    def _check_csrf() -> Any:
        if request.method in UNSAFE_METHODS and not app.config.get("CSRF_DISABLED") and not _csrf_ok():

            return error_response(400, "csrf", g.translate(
                "This form has expired or did not come from Arena; reload the page and try again"))
        return None

    @app.context_processor
    def _auth_context() -> dict[str, Any]:
        return {"csrf_token": csrf_token, "account": current_account()}


def _form_page(template: str, status: int, message: str | None = None, **context: Any) -> Any:
    if message:
        flash(message)
    return render_template(template, next=safe_next(request.form.get("next"), ""), **context), status


@bp.route("/register", methods=["GET", "POST"])
def register() -> Any:
    if request.method == "GET":
        return render_template("auth/register.html", next=safe_next(request.args.get("next"), ""))

    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    tr = g.translate
    if not may_register():
        return _form_page("auth/register.html", 429, tr(TOO_MANY), name=name)
    registered()
    try:
        with db.session.begin():
            rec = create_account(db.session, name, password, language=session.get("lang"))
            new_id, version = rec.id, rec.session_version
    except UserError as exc:
        return _form_page("auth/register.html", 400, exc.render(tr), name=name)
    sign_in(new_id, version, session.get("lang"))
    return redirect(safe_next(request.form.get("next")))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    if request.method == "GET":
        return render_template("auth/login.html", next=safe_next(request.args.get("next"), ""))

    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    if not may_sign_in(name):
        return _form_page("auth/login.html", 429, g.translate(TOO_MANY), name=name)
    with db.session.begin():
        rec = db.session.scalar(select(Player).where(Player.name == name))
        # the hash is always checked (a dummy one for an unknown name): one answer time for both
        ok = verify_password(rec.password_hash if rec is not None else None, password)
        pid = rec.id if rec is not None else None
        lang = rec.language if rec is not None else None
        version = rec.session_version if rec is not None else 0
    if not ok or pid is None:
        failed_sign_in(name)
        return _form_page("auth/login.html", 401, g.translate("Wrong name or password"), name=name)
    sign_in(pid, int(version or 0), lang)
    return redirect(safe_next(request.form.get("next")))


@bp.post("/logout")
def logout() -> Any:
    """Ends this account's sessions everywhere (every copy of its cookie stops working)."""
    account = current_account()
    if account is not None:
        with db.session.begin():
            end_sessions(db.session, account["id"])
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    return redirect(url_for("lobby.index"))


@bp.route("/password", methods=["GET", "POST"])
def password() -> Any:
    """A new password for the signed-in player: every other session of the account ends,
    this one goes on (under the new session version)."""
    account = current_account()
    if account is None:
        return redirect(url_for("auth.login", next=url_for("auth.password")))
    if request.method == "GET":
        return render_template("auth/password.html")
    tr = g.translate
    new = request.form.get("password") or ""
    if not may_sign_in(account["name"]):
        return _form_page("auth/password.html", 429, tr(TOO_MANY))
    try:
        check_password(new)
    except UserError as exc:
        return _form_page("auth/password.html", 400, exc.render(tr))
    with db.session.begin():
        rec = db.session.get(Player, account["id"])
        if rec is None or not verify_password(rec.password_hash, request.form.get("current") or ""):
            failed = True
        else:
            failed = False
            rec.password_hash = generate_password_hash(new)
            version = end_sessions(db.session, account["id"])
    if failed:
        failed_sign_in(account["name"])
        return _form_page("auth/password.html", 401, tr("Wrong password"))
    session["sv"] = version
    flash(tr("Your password is changed; your other sessions have ended"))
    return redirect(url_for("players.me"))
