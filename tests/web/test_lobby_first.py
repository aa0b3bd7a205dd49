"""The first lobby: games and tables listed, a table created from the form."""

from __future__ import annotations

from pathlib import Path

from framework.web import create_app


def test_lobby_lists_games_and_creates_tables(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance")})
    client = app.test_client()
    page = client.get("/")
    assert page.status_code == 200
    assert b"belote" in page.data
    assert b"No table yet" in page.data
    bad = client.post("/tables", data={"game": "chess", "players": "2"})
    assert bad.status_code == 400
    assert b"No game named chess" in client.get("/").data
    bad_count = client.post("/tables", data={"game": "belote", "players": "two"})
    assert bad_count.status_code == 400
    app.extensions["arena"].close()
