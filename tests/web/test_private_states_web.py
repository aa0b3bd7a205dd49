"""Private parallel states over HTTP: each player's ``/data`` and ``/events`` carry their own
private state and args, and never another player's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from framework.game.registry import GameRegistry
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.framework.classic_games import secret_definition
from tests.web.conftest import Browser


@pytest.fixture
def secret_app(tmp_path: Path, platform_template: PlatformTemplate) -> Iterator[Flask]:
    registry = GameRegistry(packages={})
    registry.add_definition(secret_definition())
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({
        "TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "ARENA_REGISTRY": registry,
        "SECRET_KEY": "test", "SSE_MAX_SECONDS": 0.3, "SSE_POLL": 0.05, "SSE_KEEPALIVE": 0.1,
    })
    yield app
    app.extensions["arena"].close()


def test_private_args_reach_only_their_player(secret_app: Flask) -> None:
    runtime = secret_app.extensions["arena"].runtime
    table_id = runtime.create_table("secretgame", 3, seed=11)
    players = [int(p) for p in runtime.get_data(table_id, None)["playerorder"]]
    with runtime.read(table_id) as t:
        codes = {p: t.code(p) for p in players}
    browser = Browser(secret_app.test_client())
    a, b, c = players
    assert browser.act(table_id, a, "choose", value=7).status_code == 200
    refused = browser.act(table_id, b, "confirm")
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "not_allowed_in_state"
    for viewer in (a, b, c, None):
        query = f"?as={viewer}" if viewer else ""
        data = browser.get(f"/table/{table_id}/data{query}")
        events = browser.get(f"/table/{table_id}/events{query}")
        assert data.status_code == events.status_code == 200
        body = data.data + events.data
        for pid, code in codes.items():
            assert (str(code).encode() in body) == (pid == viewer), (pid, viewer)
        if viewer is not None:
            own = data.get_json()["gamestate"]["private_state"]
            assert own["name"] == ("confirm" if viewer == a else "chooseFirst")
        else:
            assert "private_state" not in data.get_json()["gamestate"]
