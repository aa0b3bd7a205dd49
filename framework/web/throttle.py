"""Slowing down password guessing, mass registration and chat floods, with Flask-Limiter's
storage.

Failed sign-ins are counted per account name and per address (``ARENA_LOGIN_LIMIT_ACCOUNT``,
``ARENA_LOGIN_LIMIT_ADDRESS``); registrations per address (``ARENA_REGISTER_LIMIT``); chat
lines per writer (``ARENA_CHAT_LIMIT``). Limits are Flask-Limiter strings ("10 per 15
minutes"). The counts live in ``ARENA_THROTTLE_STORAGE``: ``memory://`` by default (one
process: the studio; each worker its own in production), or the site's bus when it is Redis
(``ARENA_BUS_URL``), so that every worker and machine shares them.
"""

from __future__ import annotations

import logging
import os

from flask import Flask, current_app, request
from flask_limiter import Limiter
from limits import RateLimitItem, parse

from framework.core.messages import clienttranslate

log = logging.getLogger(__name__)

DEFAULT_ACCOUNT_LIMIT = "10 per 15 minutes"
DEFAULT_ADDRESS_LIMIT = "50 per 15 minutes"
DEFAULT_REGISTER_LIMIT = "20 per hour"
DEFAULT_CHAT_LIMIT = "8 per 10 seconds"
TOO_MANY = clienttranslate("Too many attempts: wait a few minutes and try again")


def storage_uri(config: dict[str, object] | None = None) -> str:
    """Where the counts are kept: ``ARENA_THROTTLE_STORAGE``, else the site's Redis bus, else
    memory.

    >>> storage_uri({"ARENA_THROTTLE_STORAGE": "memory://"}), storage_uri({"ARENA_BUS_URL": "redis://h:6379/0"})
    ('memory://', 'redis://h:6379/0')
    """
    cfg = config or {}
    chosen = cfg.get("ARENA_THROTTLE_STORAGE") or os.environ.get("ARENA_THROTTLE_STORAGE")
    if chosen:
        return str(chosen)
    bus = str(cfg.get("ARENA_BUS_URL") or os.environ.get("ARENA_BUS_URL") or "")
    if bus.startswith(("redis://", "rediss://", "unix://")):
        return bus
    return "memory://"


def init_app(app: Flask) -> None:
    app.config.setdefault("ARENA_LOGIN_LIMIT_ACCOUNT", DEFAULT_ACCOUNT_LIMIT)
    app.config.setdefault("ARENA_LOGIN_LIMIT_ADDRESS", DEFAULT_ADDRESS_LIMIT)
    app.config.setdefault("ARENA_REGISTER_LIMIT", DEFAULT_REGISTER_LIMIT)
    app.config.setdefault("ARENA_CHAT_LIMIT", DEFAULT_CHAT_LIMIT)
    # One limiter per app (tests make many apps in one process; memory:// must not be shared),
    # set up on an app of its own: on the site's app Flask-Limiter would add its before- and
    # after-request hooks, a few hundred Python calls on every request (every move) for limits
    # that two routes check themselves, below.
    holder = Flask(f"{app.import_name}.throttle")
    limiter = Limiter(lambda: request.remote_addr or "-", app=holder, storage_uri=storage_uri(app.config),
                      default_limits=[], swallow_errors=True)
    app.extensions["arena_throttle"] = limiter
    # the site's bus channel: two sites on one Redis keep their own counts
    site = app.extensions.get("arena")
    app.extensions["arena_throttle_key"] = site.streams.channel if site is not None else "arena"


def _limit(key: str) -> RateLimitItem:
    return parse(str(current_app.config[key]))


def _check(key: str, *identifiers: str, hit: bool) -> bool:
    limiter: Limiter = current_app.extensions["arena_throttle"]
    try:
        strategy = limiter.limiter
        site_key = str(current_app.extensions["arena_throttle_key"])
        item = _limit(key)
        if hit:
            return bool(strategy.hit(item, site_key, key, *identifiers))
        return bool(strategy.test(item, site_key, key, *identifiers))
    except Exception:  # the storage is down: let people in rather than lock everyone out
        log.exception("login throttle storage failed")
        return True


def _address() -> str:
    return request.remote_addr or "-"


def may_sign_in(name: str) -> bool:
    """Neither this name nor this address has used up its failed sign-ins."""
    return (_check("ARENA_LOGIN_LIMIT_ACCOUNT", name.lower(), hit=False)
            and _check("ARENA_LOGIN_LIMIT_ADDRESS", _address(), hit=False))


def failed_sign_in(name: str) -> None:
    """Count a wrong password (or an unknown name) against the name and the address."""
    _check("ARENA_LOGIN_LIMIT_ACCOUNT", name.lower(), hit=True)
    _check("ARENA_LOGIN_LIMIT_ADDRESS", _address(), hit=True)


def may_register() -> bool:
    return _check("ARENA_REGISTER_LIMIT", _address(), hit=False)


def registered() -> None:
    """Count a registration attempt of this address (whatever its outcome)."""
    _check("ARENA_REGISTER_LIMIT", _address(), hit=True)


def may_chat(author_id: int) -> bool:
    """Count a chat line of ``author_id``: False once they have written too many lately."""
    return _check("ARENA_CHAT_LIMIT", str(author_id), hit=True)
