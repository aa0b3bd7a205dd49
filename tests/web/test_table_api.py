"""The table's JSON API and page: data, act, log, errors as JSON; bad input never a 500."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from tests.web.conftest import Browser


def test_page_is_the_framework_client_with_the_config(browser: Browser, table_id: int, players: list[int]) -> None:
    page = browser.get(f"/table/{table_id}?as={players[1]}")
    assert page.status_code == 200
    html = page.data.decode()
    # Every framework file, in order, then start.js, then every page's page.js (the language
    # menu): no inline script on the page.
    scripts = [src.split('"')[0] for src in html.split('<script src="')[1:]]
    assert scripts[0] == "/static/arena/arena.js" and scripts[-2:] == ["/static/arena/start.js", "/static/arena/page.js"]
    assert {"/static/arena/stock.js", "/static/arena/animations.js", "/static/arena/counters.js"} <= set(scripts)
    assert "Arena.start()" not in html and " onclick=" not in html
    config = json.loads(html.split('<script id="arena-config" type="application/json">')[1].split("</script>")[0])
    assert config["player_id"] == players[1] and config["mode"] == "studio" and config["csrf"]
    assert "studio-tools" in html
    assert all(f"?as={p}" in html for p in players)  # one click opens the table as any test player


def test_data_is_the_players_view(browser: Browser, table_id: int, players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=4)
    mine = browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()
    assert mine["my_pick"] == 4 and mine["current_player_id"] == players[0]
    assert mine["gamestate"]["name"] == "pick" and mine["gamestate"]["args"]["_private"] == {"hint": players[0] % 5 + 1}
    assert set(mine["players"]) == {str(p) for p in players}
    assert mine["notifications"]["last_packet_id"] > 0
    theirs = browser.get(f"/table/{table_id}/data?as={players[1]}").get_json()
    assert theirs["my_pick"] is None
    spectator = browser.get(f"/table/{table_id}/data").get_json()
    assert spectator["current_player_id"] is None and "_private" not in spectator["gamestate"]["args"]


def test_act_answers_with_the_new_state(browser: Browser, table_id: int, players: list[int]) -> None:
    for i, p in enumerate(players):
        r = browser.act(table_id, p, "pick", number=i + 1)
        assert r.status_code == 200 and r.get_json()["ok"] is True
    assert r.get_json()["state"] == "bonus"


@pytest.mark.parametrize(("url", "body", "status", "code"), [
    ("/table/999/act/pick?as=1", {"number": 1}, 404, "unknown_table"),
    ("/table/{t}/act/fly?as={p}", {}, 404, "unknown_action"),
    ("/table/{t}/act/bump?as={p}", {}, 400, "not_allowed_in_state"),
    ("/table/{t}/act/pick?as=424242", {"number": 1}, 403, "not_a_player"),
    ("/table/{t}/act/pick", {"number": 1}, 403, "not_signed_in"),
    ("/table/{t}/act/pick?as={p}", {"number": 9}, 400, "bad_pick"),
    ("/table/{t}/act/pick?as={p}", {"number": "many"}, 400, None),
    ("/table/{t}/act/pick?as={p}", {}, 400, None),
    ("/table/{t}/act/pick?as={p}", {"number": 1, "extra": 2}, 400, None),
    ("/table/{t}/act/pick?as={p}", [1, 2], 400, "bad_request"),
    ("/table/{t}/act/pick?as=abc", {"number": 1}, 400, "bad_request"),
    ("/table/{t}/act/__init__?as={p}", {}, 404, "unknown_action"),
])
def test_refused_actions_are_json_errors_and_change_nothing(
    browser: Browser, table_id: int, players: list[int], url: str, body: object, status: int, code: str | None,
) -> None:
    before = browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()
    r = browser.post(url.format(t=table_id, p=players[0]), json=body)
    assert r.status_code == status, r.data
    error = r.get_json()["error"]
    assert error["message"]
    if code:
        assert error["code"] == code
    after = browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()
    assert after == before


def test_malformed_bodies_never_give_a_500(browser: Browser, table_id: int, players: list[int]) -> None:
    headers = {"X-CSRF-Token": browser.token, "Content-Type": "application/json"}
    for raw in (b"{", b"\xff\xfe", b"null", b'"text"', b"[]", b'{"number": 1e999}', b'{"number": null}'):
        r = browser.client.post(f"/table/{table_id}/act/pick?as={players[0]}", data=raw, headers=headers)
        assert 400 <= r.status_code < 500, (raw, r.status_code)
        assert r.get_json()["error"]["message"]
    r = browser.client.post(f"/table/{table_id}/act/pick?as={players[0]}", data=b"x" * 70000, headers=headers)
    assert r.status_code == 400


def test_game_code_errors_are_logged_for_the_developer(browser: Browser, table_id: int, players: list[int]) -> None:
    r = browser.act(table_id, players[0], "crash")
    assert r.status_code == 500 and r.get_json()["error"]["code"] == "game_error"
    errors = browser.get(f"/table/{table_id}/studio/errors").get_json()["errors"]
    assert len(errors) == 1 and "ZeroDivisionError" in errors[0]["traceback"]


def test_blocked_game_answers_503_with_retry_after(app: Flask, browser: Browser, table_id: int,
                                                   players: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    from framework.core.errors import BlockedError

    rt = app.extensions["arena"].runtime

    def blocked(*a: object, **k: object) -> None:
        raise BlockedError("${game} is being updated; your move was not sent. Try again in a minute.",
                           "game_blocked", game="Lab Game")

    monkeypatch.setattr(rt, "act", blocked)
    r = browser.act(table_id, players[0], "pick", number=1)
    assert r.status_code == 503 and r.headers["Retry-After"] == "30"
    assert r.get_json()["error"]["code"] == "game_blocked"


def test_unknown_tables_and_pages(browser: Browser) -> None:
    for url in ("/table/999", "/table/999/data", "/table/999/log", "/table/999/events", "/table/999/players"):
        r = browser.get(url)
        assert r.status_code == 404, url
    assert browser.get("/table/999/data").get_json()["error"]["code"] == "unknown_table"
    assert b"There is no table 999" in browser.get("/table/999").data
    assert browser.get("/table/abc").status_code == 404
    assert browser.get("/no/such/page").status_code == 404
    assert browser.client.put("/table/1/data", headers={"X-CSRF-Token": browser.token}).status_code == 405


def test_log_is_the_players_notifications(browser: Browser, table_id: int, players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=2)
    mine = browser.get(f"/table/{table_id}/log?as={players[0]}&after=0").get_json()["events"]
    theirs = browser.get(f"/table/{table_id}/log?as={players[1]}&after=0").get_json()["events"]
    assert any(e["type"] == "myPick" and e["log"] == "You picked 2" for e in mine)
    assert not any(e["type"] == "myPick" for e in theirs)
    ids = [e["id"] for e in mine]
    assert ids == sorted(ids)
    later = browser.get(f"/table/{table_id}/log?as={players[0]}&after={ids[-2]}").get_json()["events"]
    assert [e["id"] for e in later] == ids[-1:]
    assert browser.get(f"/table/{table_id}/log?after=x").status_code == 400
    assert browser.get(f"/table/{table_id}/log?limit=0").status_code == 200


def test_game_static_files_are_served_from_the_game(browser: Browser, table_id: int) -> None:
    assert browser.get(f"/table/{table_id}/static/nothing.js").status_code == 404
    assert browser.get(f"/table/{table_id}/static/../game.py").status_code == 404


def test_players_and_leaving(browser: Browser, table_id: int, players: list[int]) -> None:
    seats = browser.get(f"/table/{table_id}/players").get_json()["players"]
    assert [s["id"] for s in seats] == players
    assert browser.post(f"/table/{table_id}/leave", json={}).status_code == 403
    assert browser.post(f"/table/{table_id}/leave?as={players[2]}", json={}).status_code == 200
    data = browser.get(f"/table/{table_id}/data").get_json()
    assert data["players"][str(players[2])]["zombie"] == 1
