"""Flask test-client fixtures: a studio site of the lab game in a temporary instance."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from framework.engine.runtime import Runtime, RuntimeHooks
from framework.game.registry import GameRegistry
from framework.web import create_app
from tests.backends import PlatformTemplate

CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> Iterator[Flask]:
    platform_template.seed(tmp_path / "instance", None)  # create_app finds it at head
    app = create_app({
        "TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "ARENA_REGISTRY": registry,
        "SECRET_KEY": "test", "SSE_MAX_SECONDS": 0.3, "SSE_POLL": 0.05, "SSE_KEEPALIVE": 0.1,
    })
    yield app
    app.extensions["arena"].close()


class Browser:
    """A test client that knows its session's CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.token = self.refresh_token()

    def refresh_token(self) -> str:
        page = self.client.get("/")
        found = CSRF.search(page.data)
        assert found, "the lobby has no CSRF token"
        self.token = found.group(1).decode()
        return self.token

    def get(self, url: str, **kw: Any) -> Any:
        return self.client.get(url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        if "json" in kw:
            kw.setdefault("headers", {})["X-CSRF-Token"] = self.token
        else:
            kw.setdefault("data", {})["csrf_token"] = self.token
        return self.client.post(url, **kw)

    def act(self, table_id: int, player_id: int, action: str, **args: Any) -> Any:
        return self.post(f"/table/{table_id}/act/{action}?as={player_id}", json=args)


@pytest.fixture
def browser(app: Flask) -> Browser:
    return Browser(app.test_client())


@pytest.fixture
def table_id(app: Flask) -> int:
    return app.extensions["arena"].runtime.create_table("labgame", 3, seed=7)


@pytest.fixture
def players(app: Flask, table_id: int) -> list[int]:
    return [int(p) for p in app.extensions["arena"].runtime.get_data(table_id, None)["playerorder"]]


def fake_production(app: Flask) -> None:
    """Production tables of the lab game run its current code as release 261129-1200
    (the releases package is tested on its own): the site gets a runtime with those hooks,
    wired to the same event streams."""
    site = app.extensions["arena"]
    registry = site.registry
    hooks = RuntimeHooks(
        game_loader=lambda info: registry.get(info.game),
        production_release=lambda game: ("261129-1200", registry.get(game)),
    )
    site.runtime = Runtime(site.platform, site.store, registry, hooks=hooks, streams=site.streams)
