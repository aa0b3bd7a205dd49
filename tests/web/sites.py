"""A production site of the lab game for the role tests: accounts of every role, signed in
through the real ``/login``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from framework.game.registry import GameRegistry
from framework.platform import accounts
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.web.conftest import Browser, fake_production

PASSWORD = "secret-pw"
#: role -> account name; the first account made is the site's admin
ROLE_NAMES = {"admin": "ada", "player": "pat", "other_dev": "olga", "developer": "dave"}
ROLES = ("anonymous", "player", "other_dev", "developer", "admin")


def production_app(tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate,
                   **config: Any) -> Flask:
    """A site with ``ARENA_MODE=production``, the lab game's production release faked, and
    the accounts of ``ROLE_NAMES`` (dave develops labgame, olga another game)."""
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({
        "TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "ARENA_REGISTRY": registry,
        "SECRET_KEY": "test", "SSE_MAX_SECONDS": 0.2, "SSE_POLL": 0.05, "SSE_KEEPALIVE": 0.1,
        "ARENA_MODE": "production", **config,
    })
    fake_production(app)
    platform = app.extensions["arena"].platform
    for role in ("admin", "player", "other_dev", "developer"):
        accounts.add_account(platform, ROLE_NAMES[role], PASSWORD)
    accounts.grant_developer(platform, "dave", "labgame")
    accounts.grant_developer(platform, "olga", "othergame")
    return app


def account_id(app: Flask, name: str) -> int:
    return next(a.id for a in accounts.list_accounts(app.extensions["arena"].platform) if a.name == name)


class Visitor(Browser):
    """A test client, signed in as ``name`` (None: anonymous), that knows its CSRF token."""

    def __init__(self, app: Flask, name: str | None = None) -> None:
        super().__init__(app.test_client())
        if name is not None:
            answer = self.post("/login", data={"name": name, "password": PASSWORD})
            assert answer.status_code == 302, answer.data[:300]
            self.refresh_token()


def visitor(app: Flask, role: str) -> Visitor:
    return Visitor(app, ROLE_NAMES.get(role))


def denied(answer: Any) -> str | None:
    """How the access check refused ``answer`` ("sign in" or "forbidden"), or None when the
    route let the request through (whatever the view then answered)."""
    if answer.status_code in (301, 302, 303) and answer.headers["Location"].startswith("/login"):
        return "sign in"
    if answer.status_code == 401 and answer.is_json and answer.get_json()["error"]["code"] == "sign_in_required":
        return "sign in"
    if answer.status_code == 403:
        code = answer.get_json()["error"]["code"] if answer.is_json else None
        if code == "forbidden" or b'data-code="forbidden"' in answer.data:
            return "forbidden"
    return None
