"""Belote's table features through their routes: the last trick (the game's ``get_last_trick``
hook), the end-of-game statistics with their translated names, and leaving a game (the
zombie plays the seat to the end; the player then sees the table as a spectator)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from framework.engine.debug import Debug
from framework.game.registry import GameRegistry
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.web.conftest import Browser
from tests.web.sites import Visitor, account_id, production_app

FOUR_HANDS = {"target": 10}


@pytest.fixture(scope="module")
def belote_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    instance = tmp_path_factory.mktemp("features") / "instance"
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(instance), "SECRET_KEY": "test",
                      "SSE_MAX_SECONDS": 0.3, "SSE_POLL": 0.05, "SSE_KEEPALIVE": 0.1})
    yield app
    app.extensions["arena"].close()


@pytest.fixture
def client(belote_app: Flask) -> Browser:
    return Browser(belote_app.test_client())


def runtime_of(app: Flask) -> Any:
    return app.extensions["arena"].runtime


def trick_wins(app: Flask, table_id: int) -> list[dict[str, Any]]:
    return [e for e in runtime_of(app).events(table_id, None, 0, limit=10_000) if e["type"] == "trickWin"]


def last_trick(client: Browser, table_id: int, as_: int | None = None) -> Any:
    answer = client.get(f"/table/{table_id}/lasttrick" + (f"?as={as_}" if as_ is not None else ""))
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()["last_trick"]


def test_the_last_trick_is_the_last_trick_won_and_stays_until_the_next(belote_app: Flask, client: Browser) -> None:
    runtime = runtime_of(belote_app)
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=11)
    players = runtime.get_data(table_id, None)["playerorder"]
    assert last_trick(client, table_id) is None
    debug = Debug(runtime)
    debug.play_until(table_id, lambda n, t: t.gamestate.state().name == "playerTurn"
                     and len(t.play_state().tricks) == 1)
    won = trick_wins(belote_app, table_id)[-1]["args"]
    shown = last_trick(client, table_id, as_=players[0])
    assert shown["winner"] == won["player_id"] and shown["points"] == won["points"]
    assert [c["card"] for c in shown["cards"]] == won["cards"]
    assert sorted(c["player_id"] for c in shown["cards"]) == sorted(players)
    assert last_trick(client, table_id) == shown  # a spectator sees the same: it was face up
    # into the next hand's bidding: still the last trick of the hand before
    debug.play_until(table_id, lambda n, t: t.hand_no == 2 and t.gamestate.state().name == "playerBid")
    eighth = trick_wins(belote_app, table_id)[-1]["args"]
    shown = last_trick(client, table_id)
    assert shown["trick_no"] == 8 and shown["winner"] == eighth["player_id"]
    assert [c["card"] for c in shown["cards"]] == eighth["cards"]


def test_the_end_panel_statistics_come_at_the_end_with_translated_names(belote_app: Flask,
                                                                        client: Browser) -> None:
    runtime = runtime_of(belote_app)
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=12)
    early = client.get(f"/table/{table_id}/stats")
    assert early.status_code == 409 and early.get_json()["error"]["code"] == "game_not_over"
    Debug(runtime).play_until(table_id, lambda n: False)
    assert runtime.is_over(table_id)
    english = client.get(f"/table/{table_id}/stats").get_json()
    assert [r["rank"] for r in english["ranking"]] == [1, 1, 3, 3]
    table_stats = {s["key"]: s for s in english["table"]}
    assert table_stats["hands_played"] == {"key": "hands_played", "name": "Hands played", "type": "int",
                                           "value": 4}
    tricks = next(s for s in english["players"] if s["key"] == "tricks_won")
    assert tricks["name"] == "Tricks won" and sum(tricks["values"].values()) == 32
    assert set(tricks["values"]) == {str(r["player_id"]) for r in english["ranking"]}
    french = client.get(f"/table/{table_id}/stats", headers={"Accept-Language": "fr"}).get_json()
    names = {s["key"]: s["name"] for s in french["table"] + french["players"]}
    assert names["hands_played"] != "Hands played" and names["tricks_won"] != "Tricks won"


def test_a_player_who_leaves_is_played_by_the_zombie_to_the_end(belote_app: Flask, client: Browser) -> None:
    runtime = runtime_of(belote_app)
    # the three others are bots: once the first seat leaves, nobody is left to wait for
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=13, bots=[1, 2, 3])
    me = runtime.get_data(table_id, None)["playerorder"][0]
    assert not runtime.is_over(table_id)
    assert client.get(f"/table/{table_id}/data?as={me}").get_json()["current_player_id"] == me
    left = client.post(f"/table/{table_id}/leave?as={me}", json={})
    assert left.status_code == 200, left.data
    assert runtime.is_over(table_id)  # the zombie (Belote's heuristic bot) played every turn
    events = runtime.events(table_id, None, 0, limit=10_000)
    assert any(e["type"] == "playerLeft" and e["args"]["player_id"] == me for e in events)
    after_leaving = [e for e in events[next(i for i, e in enumerate(events) if e["type"] == "playerLeft"):]
                     if e["type"] == "playCard" and e["args"]["player_id"] == me]
    assert after_leaving, "the zombie played the seat's cards"
    data = client.get(f"/table/{table_id}/data?as={me}").get_json()
    assert data["current_player_id"] is None and data["hand"] == []  # a spectator now
    again = client.post(f"/table/{table_id}/leave?as={me}", json={})
    assert again.status_code == 409


def streamed(client: Browser, table_id: int, as_: int) -> list[dict[str, Any]]:
    body = client.get(f"/table/{table_id}/events?after=0&as={as_}").data.decode()
    return [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: {\"")]


def test_leaving_twice_is_refused_and_changes_nothing(belote_app: Flask, client: Browser) -> None:
    runtime = runtime_of(belote_app)
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=14)
    me = runtime.get_data(table_id, None)["playerorder"][1]
    assert any(e.get("type") == "newHand" for e in streamed(client, table_id, me))  # their own deal
    assert client.post(f"/table/{table_id}/leave?as={me}", json={}).status_code == 200
    # watching as a spectator now: the seat's private notifications go to nobody
    assert not any(e.get("type") == "newHand" for e in streamed(client, table_id, me))
    before = runtime.get_data(table_id, None)["notifications"]["last_packet_id"]
    again = client.post(f"/table/{table_id}/leave?as={me}", json={})
    assert again.status_code == 400 and again.get_json()["error"]["code"] == "already_left"
    assert runtime.get_data(table_id, None)["notifications"]["last_packet_id"] == before
    spectator = client.post(f"/table/{table_id}/leave?as=0", json={})
    assert spectator.status_code == 403


def test_the_table_page_offers_the_features(belote_app: Flask, client: Browser) -> None:
    table_id = runtime_of(belote_app).create_table("belote", 4, FOUR_HANDS, seed=15)
    page = client.get(f"/table/{table_id}").data.decode()
    for script in ("chat.js", "alerts.js", "lasttrick.js", "concede.js", "endpanel.js"):
        assert f"/static/{script}" in page or script in page
    assert '"last_trick": true' in page and 'id="chat-box"' in page and 'id="end-panel"' in page


def test_on_a_production_table_a_player_concedes_and_watches_as_a_spectator(
        tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> None:
    app = production_app(tmp_path, registry, platform_template)
    try:
        runtime = runtime_of(app)
        table_id = runtime.create_table("labgame", ["pat", "dave", "ada"], seed=2, mode="production")
        pat, anonymous = Visitor(app, "pat"), Visitor(app)
        assert pat.get(f"/table/{table_id}/data").get_json()["current_player_id"] == account_id(app, "pat")
        assert anonymous.post(f"/table/{table_id}/leave", json={}).status_code == 401
        assert pat.post(f"/table/{table_id}/leave", json={}).status_code == 200
        data = pat.get(f"/table/{table_id}/data").get_json()
        assert data["current_player_id"] is None
        assert data["players"][str(account_id(app, "pat"))]["zombie"] == 1
        assert pat.get(f"/table/{table_id}/stats").status_code == 409  # still in play
    finally:
        app.extensions["arena"].close()
