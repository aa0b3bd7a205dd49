"""Game help (markdown, safe, in the player's language) and the player page with charts."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from framework.web.gamehelp import help_file, render_markdown
from tests.web.conftest import Browser


def test_markdown_is_rendered_safely() -> None:
    html = render_markdown("# Rules\n\n*Trumps* win.\n\n<script>alert(1)</script>\n\n"
                           "[bad](javascript:alert(1)) [good](https://example.org) <img src=x onerror=alert(1)>\n\n"
                           "| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert "<h1" in html and "<em>Trumps</em>" in html and "<table>" in html
    assert "<script>" not in html and "<img" not in html and "javascript:" not in html
    assert 'href="https://example.org"' in html


def test_help_falls_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "en.md").write_text("# Help")
    (tmp_path / "help" / "fr.md").write_text("# Aide")
    assert help_file(tmp_path, "fr") == (tmp_path / "help" / "fr.md", "fr")
    assert help_file(tmp_path, "it") == (tmp_path / "help" / "en.md", "en")
    assert help_file(tmp_path / "nothing", "it") == (None, "")


def test_help_pages(browser: Browser) -> None:
    index = browser.get("/gamehelp").data.decode()
    assert "Lab Game" in index and "no help yet" in index
    assert "has no help yet" in browser.get("/gamehelp/labgame").data.decode()
    assert browser.get("/gamehelp/chess").status_code == 404


def test_real_games_help_in_the_players_language(tmp_path: Path) -> None:
    from framework.web import create_app

    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "i")})
    client = app.test_client()
    for name in app.extensions["arena"].registry.names():
        r = client.get(f"/gamehelp/{name}", headers={"Accept-Language": "fr"})
        assert r.status_code == 200
    app.extensions["arena"].close()


def test_player_page_shows_finished_games_and_stat_charts(app: Flask, browser: Browser) -> None:
    rt = app.extensions["arena"].runtime
    for seed in (1, 2):
        tid = rt.create_table("labgame", 2, options={"rounds": 1, "bonus": 0}, seed=seed)
        ids = [int(p) for p in rt.get_data(tid, None)["playerorder"]]
        rt.act(tid, ids[0], "pick", {"number": 5})
        rt.act(tid, ids[1], "pick", {"number": 2})
    page = browser.get(f"/player/{ids[0]}")
    assert page.status_code == 200
    html = page.data.decode()
    assert "Rounds won" in html and "<svg" in html and "polyline" in html
    assert html.count('href="/table/') >= 2
    assert browser.get("/player/999").status_code == 404
    assert browser.get("/me").status_code == 302
