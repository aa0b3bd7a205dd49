"""Lobby: games with option labels, studio tables with bots, production tables to join."""

from __future__ import annotations

from flask import Flask

from tests.web.conftest import Browser, fake_production


def test_lobby_shows_options_with_labels_and_descriptions(browser: Browser) -> None:
    page = browser.get("/").data.decode()
    assert "Lab Game" in page
    assert "Rounds" in page and "Three rounds" in page
    assert 'href="/studio/labgame"' in page  # the lead's studio page of the game


def test_studio_table_is_created_and_opened_as_the_first_test_player(browser: Browser, app: Flask) -> None:
    r = browser.post("/tables", data={"game": "labgame", "players": "3", "mode": "studio", "option_100": "1"})
    assert r.status_code == 302
    assert "/table/1?as=" in r.headers["Location"]
    lobby = browser.get("/").data.decode()
    assert "player1" in lobby and "/table/1?as=" in lobby
    data = app.extensions["arena"].runtime.get_data(1, None)
    assert len(data["playerorder"]) == 3


def test_bad_forms_are_refused_with_a_message(browser: Browser) -> None:
    r = browser.post("/tables", data={"game": "labgame", "players": "9"})
    assert r.status_code == 400 and "played by 2 to 4 players" in r.data.decode()  # the lobby, with why
    r = browser.post("/tables", data={"game": "labgame", "players": "2", "option_100": "7"})
    assert r.status_code == 400 and "has no value 7" in r.data.decode()
    assert browser.post("/tables", data={"game": "labgame", "players": "2", "option_999": "1"}).status_code == 400
    assert browser.post("/tables", data={"game": "labgame", "players": "2", "mode": "tournament"}).status_code == 400
    assert browser.post("/tables", data={"game": "labgame", "players": "2", "bot_0": "skynet"}).status_code == 400
    assert browser.post("/tables", data={}).status_code == 400


def test_csrf_is_required_on_every_form(app: Flask) -> None:
    client = app.test_client()
    r = client.post("/tables", data={"game": "labgame", "players": "2"})
    assert r.status_code == 400
    assert b"did not come from Arena" in r.data
    r = client.post("/tables", data={"game": "labgame", "players": "2", "csrf_token": "forged"})
    assert r.status_code == 400
    for url in ("/login", "/register", "/logout", "/lang", "/open/1/join"):
        assert client.post(url, data={}).status_code == 400, url


def _sign_up(app: Flask, name: str) -> Browser:
    b = Browser(app.test_client())
    r = b.post("/register", data={"name": name, "password": "secret-" + name})
    assert r.status_code == 302, r.data
    b.refresh_token()
    return b


def test_production_tables_need_accounts_and_start_when_full(app: Flask, browser: Browser) -> None:
    fake_production(app)
    r = browser.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"})
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    ann, bob = _sign_up(app, "ann"), _sign_up(app, "bob")
    r = ann.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"})
    assert r.status_code == 302
    lobby = bob.get("/").data.decode()
    assert "Open tables" in lobby and "ann (1/2)" in lobby
    assert ann.post("/open/1/join").status_code == 302  # already seated: nothing changes
    r = bob.post("/open/1/join")
    assert r.status_code == 302 and r.headers["Location"].endswith("/table/1")
    assert bob.post("/open/1/join").status_code == 404  # started: no longer open
    data = bob.get("/table/1/data").get_json()
    assert data["mode"] == "production"
    assert {p["name"] for p in data["players"].values()} == {"ann", "bob"}
    assert data["current_player_id"] is not None
    # Nobody can speak for another player at a production table.
    other = next(p["id"] for p in data["players"].values() if p["name"] == "ann")
    r = bob.get(f"/table/1/data?as={other}")
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "wrong_player"
    anon = Browser(app.test_client())
    r = anon.act(1, other, "pick", number=2)
    assert r.status_code == 403
    assert anon.post("/table/1/act/pick", json={"number": 2}).get_json()["error"]["code"] == "not_signed_in"


def test_leaving_an_open_table(app: Flask) -> None:
    ann = _sign_up(app, "ann")
    ann.post("/tables", data={"game": "labgame", "players": "3", "mode": "production"})
    assert ann.post("/open/1/leave").status_code == 302
    assert "Open tables" not in ann.get("/").data.decode()
    assert ann.post("/open/1/leave").status_code == 404


def test_leaving_an_open_table_and_joining_one_that_started_say_why(app: Flask) -> None:
    fake_production(app)
    ann, bob, cid = _sign_up(app, "ann"), _sign_up(app, "bob"), _sign_up(app, "cid")
    assert cid.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"}).status_code == 302
    assert ann.post("/tables", data={"game": "labgame", "players": "2", "mode": "production"}).status_code == 302
    assert ann.post("/open/2/leave").status_code == 302  # the last one out: the table goes
    assert "ann (1/2)" not in bob.get("/").data.decode()
    r = bob.post("/open/2/join")
    assert r.status_code == 404 and "This table is no longer open" in r.data.decode()
    assert bob.post("/open/2/leave").status_code == 404
    r = bob.post("/open/1/join")  # full: it starts
    assert r.status_code == 302 and "/table/" in r.headers["Location"]
    r = ann.post("/open/1/join")
    assert r.status_code == 404 and "This table is no longer open" in r.data.decode()
