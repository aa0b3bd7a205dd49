"""The Flask application factory of the local studio; one blueprint per area.

Production: ``ARENA_MODE=production gunicorn -k gevent -w 4 'framework.web:create_app()'`` (see the README).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask, g, has_request_context, request
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from framework.core.errors import ArenaError, BlockedError, UserError
from framework.site import Site, default_instance_path
from framework.web import (
    access,
    auth,
    chat,
    control,
    gamehelp,
    headers,
    language,
    limits,
    live_reload,
    lobby,
    play,
    players,
    preferences,
    studio,
)
from framework.web.current import error_response
from framework.web.database import platform_engine
from framework.web.flask_app import ArenaFlask

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Defaults, then ``instance/config.py``, then ``test_config``.

    Keys: ``ARENA_INSTANCE`` (site folder; default: the ``ARENA_INSTANCE`` environment
    variable, else ./instance), ``ARENA_DATABASE_URL`` and ``ARENA_BUS_URL`` (default: the environment's),
    ``ARENA_REGISTRY`` (a ``GameRegistry``, for tests), ``ARENA_MIGRATE`` (False: the platform
    schema is left as it is, for ``arena db upgrade``), ``SSE_KEEPALIVE`` / ``SSE_POLL`` / ``SSE_MAX_SECONDS``
    (event stream timings), ``SECRET_KEY`` (else ``ARENA_SECRET_KEY``, else one is made and kept
    in the instance), ``ARENA_MODE`` (``studio``, the default, or ``production``: roles checked) and
    the security settings of ``docs/security.md``.
    """
    app = ArenaFlask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC),
                static_url_path="/static/arena", instance_relative_config=False)
    app.url_map.converters["int"] = _IdConverter
    app.config.from_mapping(
        ARENA_INSTANCE=str(default_instance_path()),
        SSE_KEEPALIVE=15.0, SSE_POLL=5.0, SSE_MAX_SECONDS=600.0,
        SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True,
        # a signed-in cookie is sent again when its session changes (its last use moves on
        # at most once a minute: ``auth.session_is_alive``), not signed and sent again with
        # every answer
        SESSION_REFRESH_EACH_REQUEST=False,
        JSON_SORT_KEYS=False,
    )
    app.config.from_mapping(limits.DEFAULTS)
    if test_config:
        app.config.update(test_config)
    instance = Path(app.config["ARENA_INSTANCE"])
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)  # the site's secrets: the owner's only
    app.config.from_pyfile(str(instance / "config.py"), silent=True)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("ARENA_SECRET_KEY") or _instance_secret(instance)
    # gunicorn starts several workers at once: one at a time migrates the platform database.
    with open(instance / ".startup.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            site = Site.open(instance, database_url=app.config.get("ARENA_DATABASE_URL"),
                             registry=app.config.get("ARENA_REGISTRY"),
                             bus_url=app.config.get("ARENA_BUS_URL"),
                             migrate=app.config.get("ARENA_MIGRATE", True),
                             make_engine=lambda url, options: platform_engine(app, url, options))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    app.extensions["arena"] = site
    app.session_interface = _SessionInterface()

    headers.init_app(app)
    language.init_app(app)
    auth.init_app(app)
    access.init_app(app)  # who may do what: after the CSRF check
    limits.init_app(app)
    for module in (language, auth, lobby, play, chat, studio, gamehelp, players, control, live_reload,
                   preferences):
        app.register_blueprint(module.bp)
    _register_error_handlers(app)
    return app


class _IdConverter(IntegerConverter):
    """``<int:...>`` in every route: a number a database id can be. A larger one matches no
    route (404) instead of overflowing the database driver."""

    def __init__(self, url_map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**62)
        super().__init__(url_map, *args, **kwargs)


class _SessionJSON(TaggedJSONSerializer):
    """Flask's session serializer, reading the cookie's JSON with the standard library (what
    the app's provider does too, after its checks of request bodies: depth and NUL
    characters, which a cookie signed by the site does not need)."""

    def __init__(self) -> None:
        super().__init__()
        self._decoder = json.JSONDecoder(object_hook=self.untag)  # made once, not per cookie

    def loads(self, value: str) -> Any:
        return self._decoder.decode(value)


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions (every request's cookie has its signature and age
    checked), with less work per request: the serializer and its signers are made once per
    key, the HMAC runs in OpenSSL (Flask's default digest is a Python function, which sends
    ``hmac`` down its pure-Python path) and an unchanged session is not looked at again
    when the answer leaves."""

    digest_method = staticmethod(hashlib.sha1)
    serializer = _SessionJSON()
    _cached: tuple[tuple[Any, ...], Any] | None = None

    def get_signing_serializer(self, app: Flask) -> Any:
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        cached = self._cached
        if cached is None or cached[0] != key:
            serializer = super().get_signing_serializer(app)
            if serializer is not None:
                serializer = _OnceSignedSerializer(
                    serializer.secret_keys, salt=serializer.salt, serializer=self.serializer,
                    signer_kwargs=serializer.signer_kwargs)
            cached = self._cached = (key, serializer)
        return cached[1]

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when the site says so (``ARENA_SECURE_COOKIES``) or the request came over
        HTTPS (behind a proxy: with ``ARENA_PROXY_FIX``)."""
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        if session.modified or (session and self.should_set_cookie(app, session)):
            super().save_session(app, session, response)
        elif session.accessed:
            if "Vary" in response.headers:
                response.vary.add("Cookie")
            else:
                response.headers["Vary"] = "Cookie"


class _DerivedOnceSigner(TimestampSigner):
    """A signer whose key is derived from the secret once (itsdangerous derives it again for
    every signature it makes or checks)."""

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        derived: dict[str | bytes | None, bytes] = self.__dict__.setdefault("_derived", {})
        key = derived.get(secret_key)
        if key is None:
            key = derived[secret_key] = super().derive_key(secret_key)
        return key


class _OnceSignedSerializer(URLSafeTimedSerializer):
    """itsdangerous's cookie serializer with its signers made once, not per cookie."""

    default_signer = _DerivedOnceSigner

    def iter_unsigners(self, salt: str | bytes | None = None) -> Iterator[Any]:
        if salt is not None and salt != self.salt:
            yield from super().iter_unsigners(salt)
            return
        signers = self.__dict__.get("_signers")
        if signers is None:
            signers = self._signers = tuple(super().iter_unsigners(salt))
        yield from signers


def _instance_secret(instance: Path) -> str:
    """A random key kept in the instance folder, so sessions survive a restart and every
    worker process signs with the same key (the first one to start writes it)."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            key = path.read_text(encoding="utf-8").strip()
            if key:
                return key
            time.sleep(0.02)  # another worker is writing it
        raise RuntimeError(f"{path} is empty: delete it and start again") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(key)
    return key


def _register_error_handlers(app: Flask) -> None:
    @app.errorhandler(UserError)
    def user_error(exc: UserError) -> Any:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, BlockedError) else None
        return error_response(exc.http_status, exc.code, exc.render(g.get("translate")), headers)

    @app.errorhandler(ArenaError)
    def arena_error(exc: ArenaError) -> Any:
        log.error("request %s failed: %s", request.path, exc)
        tr = g.get("translate") or (lambda s: s)
        return error_response(500, "system_error", tr("The server hit an error: ${error}").replace(
            "${error}", str(exc)))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        tr = g.get("translate") or (lambda s: s)
        messages = {404: "There is nothing here", 405: "This address does not accept that method",
                    400: "The request was not understood",
                    413: "This request is too large"}
        message = tr(messages.get(exc.code or 500, exc.name))
        if exc.code == 400 and exc.description and g.get("explain_400"):
            message = exc.description
        return error_response(exc.code or 500, exc.name.lower().replace(" ", "_"), message)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        log.exception("unexpected error on %s", request.path)
        tr = g.get("translate") or (lambda s: s)
        return error_response(500, "server_error", tr("The server hit an unexpected error"))
