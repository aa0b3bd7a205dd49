"""The lobby with the real games folder: games listed, a bad form refused with a message."""

from __future__ import annotations

from pathlib import Path

from framework.web import create_app
from tests.web.conftest import Browser


def test_lobby_lists_games_and_refuses_bad_forms(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance")})
    b = Browser(app.test_client())
    page = b.get("/")
    assert page.status_code == 200
    assert b"belote" in page.data
    assert b"No table yet" in page.data
    bad = b.post("/tables", data={"game": "chess", "players": "2"})
    assert bad.status_code == 400
    assert b"No game named chess" in bad.data  # the lobby again, saying why
    bad_count = b.post("/tables", data={"game": "belote", "players": "two"})
    assert bad_count.status_code == 400
    app.extensions["arena"].close()


def test_belote_table_page_loads_its_client(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance")})
    b = Browser(app.test_client())
    r = b.post("/tables", data={"game": "belote", "players": "4", "mode": "studio", "option_100": "2",
                                "bot_1": "beginner"})
    assert r.status_code == 302
    page = b.get(r.headers["Location"]).data.decode()
    assert 'id="bt-root"' in page and "/table/1/static/belote.js" in page and "belote.css" in page
    assert b.get("/table/1/static/belote.js").status_code == 200
    assert b.get("/table/1/static/belote.css").status_code == 200
    data = b.get("/table/1/data?as=1").get_json()
    assert data["rules"]["variant"] == "contree" and len(data["hand"]) == 8
    assert data["players"]["2"]["bot"] == 1
    others = b.get("/table/1/data?as=2").get_json()["hand"]
    assert not set(others) & set(data["hand"])
    help_fr = b.get("/gamehelp/belote", headers={"Accept-Language": "fr"})
    assert help_fr.status_code == 200 and b"<h1" in help_fr.data
    app.extensions["arena"].close()
