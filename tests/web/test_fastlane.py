"""The move route's fast lane (framework.web.fastlane): ordinary moves are answered without
Flask; every other request, and every refused move, gets exactly Flask's answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, request_started

from framework.web.fastlane import ActLane
from tests.web.conftest import Browser, fake_production
from tests.web.test_lobby import _sign_up


@pytest.fixture
def flask_calls(app: Flask) -> Iterator[list[str]]:
    """The paths of the requests Flask itself handled."""
    seen: list[str] = []

    def started(sender: Any, **extra: Any) -> None:
        from flask import request

        seen.append(request.path)

    request_started.connect(started, app)
    yield seen
    request_started.disconnect(started, app)


def without_lane(app: Flask, send: Any) -> Any:
    """``send()`` with the lane taken out of the app."""
    lane = app.wsgi_app
    assert isinstance(lane, ActLane)
    app.wsgi_app = lane.wsgi_app  # type: ignore[method-assign]
    try:
        return send()
    finally:
        app.wsgi_app = lane  # type: ignore[method-assign]


def test_an_ordinary_move_never_reaches_flask(app: Flask, browser: Browser, table_id: int,
                                              players: list[int], flask_calls: list[str]) -> None:
    r = browser.act(table_id, players[0], "pick", number=4)
    assert r.status_code == 200, r.data
    assert flask_calls == []
    assert r.headers["Content-Type"] == "application/json"
    assert r.headers["Vary"] == "Cookie"
    body = r.get_json()
    assert set(body) == {"ok", "state", "last_notification_id", "game_over", "move", "committed_at"}
    assert body["ok"] is True and body["state"] == "pick" and body["move"] == 1
    # the same answer as Flask's own view gives
    flask_answer = without_lane(app, lambda: browser.act(table_id, players[1], "pick", number=2))
    assert flask_calls == [f"/table/{table_id}/act/pick"]
    assert set(flask_answer.get_json()) == set(body)
    assert r.data.count(b" ") == flask_answer.data.count(b" ") == 0  # the same compact JSON
    assert flask_answer.headers["Content-Type"] == r.headers["Content-Type"]
    picks = app.extensions["arena"].runtime.get_data(table_id, players[0])
    assert picks["move"] == 2


@pytest.mark.parametrize("case", [
    "no_csrf", "wrong_csrf", "bad_json", "json_list", "too_large", "bad_as", "bad_move_header",
    "unknown_table", "unknown_action", "not_in_state", "bad_argument", "wrong_type", "spectator",
    "stale_move", "trailing_slash",
])
def test_a_refused_move_gets_flasks_answer(app: Flask, browser: Browser, table_id: int,
                                           players: list[int], case: str) -> None:
    p = players[0]
    base = f"/table/{table_id}/act"
    headers = {"X-CSRF-Token": browser.token, "Accept-Language": "fr"}
    sends: dict[str, Any] = {
        "no_csrf": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": 2}),
        "wrong_csrf": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": 2},
                                                  headers={"X-CSRF-Token": "nope"}),
        "bad_json": lambda: browser.client.post(f"{base}/pick?as={p}", data=b"{nope",
                                                headers=headers),
        "json_list": lambda: browser.client.post(f"{base}/pick?as={p}", json=[1], headers=headers),
        "too_large": lambda: browser.client.post(f"{base}/pick?as={p}", headers=headers,
                                                 json={"number": 2, "pad": "x" * 70000}),
        "bad_as": lambda: browser.client.post(f"{base}/pick?as=ann", json={}, headers=headers),
        "bad_move_header": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": 2},
                                                       headers={**headers, "X-Arena-Move": "x"}),
        "unknown_table": lambda: browser.client.post(f"/table/999/act/pick?as={p}", json={},
                                                     headers=headers),
        "unknown_action": lambda: browser.client.post(f"{base}/fly?as={p}", json={}, headers=headers),
        "not_in_state": lambda: browser.client.post(f"{base}/bump?as={p}", json={}, headers=headers),
        "bad_argument": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": 9},
                                                    headers=headers),
        "wrong_type": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": "two"},
                                                  headers=headers),
        "spectator": lambda: browser.client.post(f"{base}/pick", json={"number": 2}, headers=headers),
        "stale_move": lambda: browser.client.post(f"{base}/pick?as={p}", json={"number": 2},
                                                  headers={**headers, "X-Arena-Move": "5"}),
        "trailing_slash": lambda: browser.client.post(f"{base}/pick/?as={p}", json={"number": 2},
                                                      headers=headers),
    }
    with_lane = sends[case]()
    flask_only = without_lane(app, sends[case])
    assert with_lane.status_code >= 400, with_lane.data
    assert (with_lane.status_code, with_lane.get_json()) == (flask_only.status_code, flask_only.get_json())
    assert app.extensions["arena"].runtime.get_data(table_id, p)["move"] == 0  # nothing applied


def test_a_refusal_from_the_game_is_translated_once(app: Flask, browser: Browser, table_id: int,
                                                    players: list[int], flask_calls: list[str]) -> None:
    r = browser.client.post(f"/table/{table_id}/act/pick?as={players[0]}", json={"number": 9},
                            headers={"X-CSRF-Token": browser.token, "Accept-Language": "fr"})
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error["code"] == "bad_pick" and "9" in error["message"]
    assert flask_calls == [f"/table/{table_id}/act/pick"]  # the view answered it


def test_a_crash_in_game_code_is_logged_once(app: Flask, browser: Browser, table_id: int,
                                             players: list[int]) -> None:
    r = browser.act(table_id, players[0], "crash")
    assert r.status_code == 500 and r.get_json()["error"]["code"] == "game_error"
    errors = app.extensions["arena"].runtime.errors(table_id)
    assert len(errors) == 1 and "ZeroDivisionError" in errors[0]["traceback"]
    assert app.extensions["arena"].runtime.get_data(table_id, players[0])["move"] == 0


def test_signed_in_players_of_production_tables_take_the_lane(app: Flask, flask_calls: list[str]) -> None:
    fake_production(app)
    ann, bob = _sign_up(app, "ann"), _sign_up(app, "bob")
    assert ann.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"}).status_code == 302
    assert bob.post("/open/1/join").status_code == 302
    me = bob.get("/table/1/data").get_json()["current_player_id"]
    flask_calls.clear()
    r = bob.post("/table/1/act/pick", json={"number": 3})
    assert r.status_code == 200, r.data
    assert flask_calls == []
    # someone else's seat, and no account: Flask's refusals
    ann_id = next(p for p in bob.get("/table/1/data").get_json()["players"] if int(p) != me)
    r = bob.post(f"/table/1/act/pick?as={ann_id}", json={"number": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "wrong_player"
    anon = Browser(app.test_client())
    r = anon.post("/table/1/act/pick", json={"number": 3})
    assert r.get_json()["error"]["code"] == "not_signed_in"
    assert flask_calls == ["/table/1/data", "/table/1/act/pick", "/", "/table/1/act/pick"]


def test_the_lane_can_be_turned_off(tmp_path: Any, registry: Any) -> None:
    from framework.web import create_app

    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "off"), "ARENA_REGISTRY": registry,
                      "SECRET_KEY": "test", "ACT_LANE": False})
    try:
        assert not isinstance(app.wsgi_app, ActLane)
    finally:
        app.extensions["arena"].close()
