"""The move route (``POST /table/<id>/act/<action>``): an accepted move's answer, and each
kind of refused move answered with its status and a JSON error, nothing applied."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import Browser, fake_production
from tests.web.test_lobby import _sign_up


def test_an_accepted_move_answers_compact_json(app: Flask, browser: Browser, table_id: int,
                                               players: list[int]) -> None:
    r = browser.act(table_id, players[0], "pick", number=4)
    assert r.status_code == 200, r.data
    assert r.headers["Content-Type"] == "application/json"
    assert r.headers["Vary"] == "Cookie"  # the answer depends on the session
    assert "Set-Cookie" not in r.headers  # an unchanged session is not sent back
    body = r.get_json()
    assert set(body) == {"ok", "state", "last_notification_id", "game_over", "move"}
    assert body["ok"] is True and body["state"] == "pick" and body["move"] == 1
    assert r.data.endswith(b"\n") and b" " not in r.data
    assert app.extensions["arena"].runtime.get_data(table_id, players[0])["move"] == 1


@pytest.mark.parametrize(("case", "status", "code"), [
    ("no_csrf", 400, "csrf"),
    ("wrong_csrf", 400, "csrf"),
    ("bad_json", 400, "bad_request"),
    ("json_list", 400, "bad_request"),
    ("too_large", 400, "bad_request"),
    ("bad_as", 400, "bad_request"),
    ("bad_move_header", 400, "bad_request"),
    ("unknown_table", 404, "unknown_table"),
    ("unknown_action", 404, "unknown_action"),
    ("not_in_state", 400, "not_allowed_in_state"),
    ("bad_argument", 400, "bad_pick"),
    ("wrong_type", 400, "bad_arguments"),
    ("spectator", 403, "not_signed_in"),
    ("future_move", 400, "bad_move"),
    ("trailing_slash", 404, "not_found"),
])
def test_a_refused_move_gets_its_status_and_a_json_error(app: Flask, browser: Browser, table_id: int,
                                                         players: list[int], case: str, status: int,
                                                         code: str) -> None:
    p = players[0]
    base = f"/table/{table_id}/act"
    headers = {"X-CSRF-Token": browser.token, "Accept-Language": "fr"}
    post = browser.client.post
    sends: dict[str, Any] = {
        "no_csrf": lambda: post(f"{base}/pick?as={p}", json={"number": 2}),
        "wrong_csrf": lambda: post(f"{base}/pick?as={p}", json={"number": 2}, headers={"X-CSRF-Token": "nope"}),
        "bad_json": lambda: post(f"{base}/pick?as={p}", data=b"{nope", headers=headers),
        "json_list": lambda: post(f"{base}/pick?as={p}", json=[1], headers=headers),
        "too_large": lambda: post(f"{base}/pick?as={p}", headers=headers, json={"number": 2, "pad": "x" * 70000}),
        "bad_as": lambda: post(f"{base}/pick?as=ann", json={}, headers=headers),
        "bad_move_header": lambda: post(f"{base}/pick?as={p}", json={"number": 2},
                                        headers={**headers, "X-Arena-Move": "x"}),
        "unknown_table": lambda: post(f"/table/999/act/pick?as={p}", json={}, headers=headers),
        "unknown_action": lambda: post(f"{base}/fly?as={p}", json={}, headers=headers),
        "not_in_state": lambda: post(f"{base}/bump?as={p}", json={}, headers=headers),
        "bad_argument": lambda: post(f"{base}/pick?as={p}", json={"number": 9}, headers=headers),
        "wrong_type": lambda: post(f"{base}/pick?as={p}", json={"number": "two"}, headers=headers),
        "spectator": lambda: post(f"{base}/pick", json={"number": 2}, headers=headers),
        "future_move": lambda: post(f"{base}/pick?as={p}", json={"number": 2},
                                   headers={**headers, "X-Arena-Move": "5"}),
        "trailing_slash": lambda: post(f"{base}/pick/?as={p}", json={"number": 2}, headers=headers),
    }
    r = sends[case]()
    assert (r.status_code, r.get_json()["error"]["code"]) == (status, code), r.data
    assert r.get_json()["error"]["message"]
    assert app.extensions["arena"].runtime.get_data(table_id, p)["move"] == 0  # nothing applied


def test_a_second_request_from_the_same_view_is_refused(app: Flask, browser: Browser, table_id: int,
                                                        players: list[int]) -> None:
    headers = {"X-CSRF-Token": browser.token, "X-Arena-Move": "0"}
    url = f"/table/{table_id}/act/pick?as={players[0]}"
    assert browser.client.post(url, json={"number": 2}, headers=headers).status_code == 200
    again = browser.client.post(url, json={"number": 2}, headers=headers)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "stale_move"
    assert app.extensions["arena"].runtime.get_data(table_id, players[0])["move"] == 1


def test_a_refusal_from_the_game_is_in_the_players_language(browser: Browser, table_id: int,
                                                            players: list[int]) -> None:
    r = browser.client.post(f"/table/{table_id}/act/pick?as={players[0]}", json={"number": 9},
                            headers={"X-CSRF-Token": browser.token, "Accept-Language": "fr"})
    english = browser.client.post(f"/table/{table_id}/act/pick?as={players[0]}", json={"number": 9},
                                  headers={"X-CSRF-Token": browser.token})
    assert r.status_code == english.status_code == 400
    assert "9" in r.get_json()["error"]["message"]
    assert english.get_json()["error"]["message"] == "Pick a number from 1 to 5, not 9"


def test_a_crash_in_game_code_is_logged_once(app: Flask, browser: Browser, table_id: int,
                                             players: list[int]) -> None:
    r = browser.act(table_id, players[0], "crash")
    assert r.status_code == 500 and r.get_json()["error"]["code"] == "game_error"
    errors = app.extensions["arena"].runtime.errors(table_id)
    assert len(errors) == 1 and "ZeroDivisionError" in errors[0]["traceback"]
    assert app.extensions["arena"].runtime.get_data(table_id, players[0])["move"] == 0


def test_a_signed_in_player_plays_only_as_themselves(app: Flask) -> None:
    fake_production(app)
    ann, bob = _sign_up(app, "ann"), _sign_up(app, "bob")
    assert ann.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"}).status_code == 302
    assert bob.post("/open/1/join").status_code == 302
    me = bob.get("/table/1/data").get_json()["current_player_id"]
    r = bob.post("/table/1/act/pick", json={"number": 3})
    assert r.status_code == 200, r.data
    ann_id = next(p for p in bob.get("/table/1/data").get_json()["players"] if int(p) != me)
    r = bob.post(f"/table/1/act/pick?as={ann_id}", json={"number": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "wrong_player"
    anon = Browser(app.test_client())
    r = anon.post("/table/1/act/pick", json={"number": 3})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "not_signed_in"


def test_a_tampered_session_cookie_is_refused(app: Flask, browser: Browser, table_id: int,
                                              players: list[int]) -> None:
    cookie = browser.client.get_cookie("session")
    assert cookie is not None
    payload, _, signature = cookie.value.rpartition(".")
    browser.client.set_cookie("session", payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:])
    r = browser.act(table_id, players[0], "pick", number=4)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "csrf"  # a fresh session: no token
    assert app.extensions["arena"].runtime.get_data(table_id, players[0])["move"] == 0
