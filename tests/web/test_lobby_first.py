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
    assert b"No game named chess" in b.get("/").data
    bad_count = b.post("/tables", data={"game": "belote", "players": "two"})
    assert bad_count.status_code == 400
    app.extensions["arena"].close()
