"""Game preferences kept on the account (framework/web/preferences.py): stored by
``POST /preferences/<game>``, given back in the table page; bad input is refused and stores
nothing; on a production site only the signed-in player changes their own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import games.belote
from framework.game.registry import GameRegistry, load_game
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.web.conftest import Browser
from tests.web.sites import ROLE_NAMES, Visitor, account_id, production_app

CONFIG = re.compile(r'<script id="arena-config" type="application/json">(.*?)</script>', re.S)
FACES = 100  # games/belote/options.py PREFERENCES


@pytest.fixture
def belote_app(tmp_path: Path, platform_template: PlatformTemplate) -> Iterator[Flask]:
    registry = GameRegistry(packages={})
    registry.add_definition(load_game(games.belote))
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"),
                      "ARENA_REGISTRY": registry, "SECRET_KEY": "test"})
    yield app
    app.extensions["arena"].close()


def page_preferences(browser: Browser, table_id: int, player_id: int | None) -> dict[str, Any]:
    query = "" if player_id is None else f"?as={player_id}"
    page = browser.get(f"/table/{table_id}{query}").get_data(as_text=True)
    found = CONFIG.search(page)
    assert found, "the table page has no arena-config"
    return json.loads(found.group(1))["preferences"]  # type: ignore[no-any-return]


def test_a_preference_is_kept_for_its_player_and_given_back_in_the_page(belote_app: Flask) -> None:
    runtime = belote_app.extensions["arena"].runtime
    table_id = runtime.create_table("belote", 4, seed=1)
    players = [int(p) for p in runtime.get_data(table_id, None)["playerorder"]]
    browser = Browser(belote_app.test_client())
    assert page_preferences(browser, table_id, players[0]) == {"100": 1, "101": 1}
    answer = browser.post(f"/preferences/belote?as={players[0]}", json={"id": FACES, "value": 2})
    assert answer.status_code == 200 and answer.get_json() == {"ok": True, "id": FACES, "value": 2}
    assert page_preferences(browser, table_id, players[0]) == {"100": 2, "101": 1}
    assert page_preferences(browser, table_id, players[1]) == {"100": 1, "101": 1}
    assert page_preferences(browser, table_id, None) == {"100": 1, "101": 1}
    # Another table of the same game: the same choice (it is the player's, not the table's).
    other = runtime.create_table("belote", 4, seed=2)
    assert page_preferences(browser, other, players[0])["100"] == 2


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"id": 999, "value": 1}, 400, "bad_preference"),
    ({"id": FACES, "value": 9}, 400, "bad_preference"),
    ({"id": "faces", "value": 1}, 400, "bad_preference"),
    ({"id": FACES}, 400, "bad_preference"),
    (["not", "an", "object"], 400, "bad_preference"),
])
def test_bad_preferences_are_refused_and_store_nothing(belote_app: Flask, body: Any, status: int,
                                                       code: str) -> None:
    runtime = belote_app.extensions["arena"].runtime
    table_id = runtime.create_table("belote", 4, seed=1)
    player = int(runtime.get_data(table_id, None)["playerorder"][0])
    browser = Browser(belote_app.test_client())
    answer = browser.post(f"/preferences/belote?as={player}", json=body)
    assert answer.status_code == status and answer.get_json()["error"]["code"] == code
    assert page_preferences(browser, table_id, player) == {"100": 1, "101": 1}


def test_an_unknown_game_or_player_is_not_found(belote_app: Flask) -> None:
    browser = Browser(belote_app.test_client())
    assert browser.post("/preferences/nogame?as=1", json={"id": FACES, "value": 1}).status_code == 404
    answer = browser.post("/preferences/belote?as=987654", json={"id": FACES, "value": 1})
    assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "no_player"


def test_on_a_production_site_a_player_changes_only_their_own(
        tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> None:
    app = production_app(tmp_path, registry, platform_template)
    try:
        player = Visitor(app, ROLE_NAMES["player"])
        other = account_id(app, ROLE_NAMES["admin"])
        answer = player.post(f"/preferences/labgame?as={other}", json={"id": 100, "value": 1})
        assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "wrong_player"
        # The lab game declares no preference: the player's own request reaches the game.
        mine = account_id(app, ROLE_NAMES["player"])
        answer = player.post(f"/preferences/labgame?as={mine}", json={"id": 100, "value": 1})
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_preference"
        assert Visitor(app).post("/preferences/labgame", json={"id": 100, "value": 1}).status_code == 401
    finally:
        app.extensions["arena"].close()
