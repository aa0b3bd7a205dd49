"""Live reload seen from the browser's side: a studio table page is watched
(``static/live_reload.js`` polls ``/table/<id>/live``), an edit changes what the page and the
next action get, and a game that does not load shows its file and line on its page while
the other games' pages keep working."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from flask import Flask

from framework.game.reloading import ReloadingRegistry
from framework.scaffold import new_game
from tests.livegame import edit, write_game
from tests.web.conftest import Browser

_names = itertools.count()
CONFIG = re.compile(r'<script id="arena-config" type="application/json">(.*?)</script>', re.S)


@pytest.fixture
def games(tmp_path: Path) -> tuple[Path, str, str]:
    folder = tmp_path / "games"
    folder.mkdir()
    suffix = f"{next(_names)}_{tmp_path.name[-6:].lower().replace('-', '_')}"
    name, other = f"webgame{suffix}", f"othergame{suffix}"
    write_game(folder, name)
    write_game(folder, other)
    return folder, name, other


@pytest.fixture
def registry(games: tuple[Path, str, str]) -> ReloadingRegistry:  # the app fixture's registry
    return ReloadingRegistry(packages={}, extra_folders=[games[0]], recheck_s=0)


def page_config(html: str) -> dict:  # type: ignore[type-arg]
    found = CONFIG.search(html)
    assert found, "the page has no arena-config"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def live(browser: Browser, table_id: int) -> dict:  # type: ignore[type-arg]
    answer = browser.get(f"/table/{table_id}/live")
    assert answer.status_code == 200
    return answer.get_json()  # type: ignore[no-any-return]


def test_a_table_page_is_watched_and_learns_of_each_edit(app: Flask, browser: Browser, games) -> None:  # type: ignore[no-untyped-def]
    folder, name, _ = games
    runtime = app.extensions["arena"].runtime
    table_id = runtime.create_table(name, 2, {})
    page = browser.get(f"/table/{table_id}").get_data(as_text=True)
    assert "/static/arena/live_reload.js" in page
    assert "board version 1" in page
    config = page_config(page)["live"]
    assert config["url"] == f"/table/{table_id}/live"
    assert live(browser, table_id) == {"live": True, "version": config["version"], "error": None}

    edit(folder / name / "templates" / f"{name}.html", "board version 1", "board version 2")
    changed = live(browser, table_id)
    assert changed["version"] != config["version"] and changed["error"] is None
    assert "board version 2" in browser.get(f"/table/{table_id}").get_data(as_text=True)

    edit(folder / name / "static" / f"{name}.js", "= 1", "= 2")
    assert live(browser, table_id)["version"] != changed["version"]
    script = browser.get(f"/table/{table_id}/static/{name}.js").get_data(as_text=True)
    assert script == "window.livegameScript = 2;\n"

    player = runtime.get_data(table_id, None)["gamestate"]["active_player"]
    edit(folder / name / "game.py", "STEP = 1", "STEP = 7")
    assert browser.act(table_id, player, "push").status_code == 200
    scores = [p["score"] for p in runtime.get_data(table_id, None)["players"].values()]
    assert sorted(scores) == [0, 7]


def test_a_broken_game_shows_file_and_line_and_the_other_game_is_served(
    app: Flask, browser: Browser, games  # type: ignore[no-untyped-def]
) -> None:
    folder, name, other = games
    runtime = app.extensions["arena"].runtime
    table_id = runtime.create_table(name, 2, {})
    other_id = runtime.create_table(other, 2, {})
    player = runtime.get_data(table_id, None)["gamestate"]["active_player"]
    edit(folder / name / "game.py", "STEP = 1", "STEP = 1 / 0")
    line = (folder / name / "game.py").read_text().splitlines().index("STEP = 1 / 0") + 1
    shown = f"{folder / name / 'game.py'}"

    page = browser.get(f"/table/{table_id}")
    html = page.get_data(as_text=True)
    assert page.status_code == 500
    assert "ZeroDivisionError: division by zero" in html
    assert f'<code class="error-file">{shown}</code>' in html and f'<code class="error-line">{line}</code>' in html
    assert "/static/arena/live_reload.js" in html  # the page loads the table again once fixed
    status = live(browser, table_id)
    assert status["error"]["file"] == shown and status["error"]["line"] == line
    assert status["error"]["title"] == "This game does not load"

    acted = browser.act(table_id, player, "push")
    assert acted.status_code == 500
    assert f"game.py, line {line})" in acted.get_json()["error"]["message"]

    assert browser.get(f"/table/{other_id}").status_code == 200  # the other game keeps working
    lobby = browser.get("/").get_data(as_text=True)
    assert "ZeroDivisionError" in lobby and other in lobby

    edit(folder / name / "game.py", "STEP = 1 / 0", "STEP = 1")
    fixed = live(browser, table_id)
    assert fixed["error"] is None and fixed["version"] != status["version"]
    assert browser.get(f"/table/{table_id}").status_code == 200
    assert browser.act(table_id, player, "push").status_code == 200


def test_a_new_game_is_in_the_lobby_and_its_table_opens(app: Flask, browser: Browser, games) -> None:  # type: ignore[no-untyped-def]
    folder, name, _ = games
    fresh = f"{name}_new"
    assert fresh not in browser.get("/").get_data(as_text=True)
    new_game(fresh, folder)
    assert fresh in browser.get("/").get_data(as_text=True)
    table_id = app.extensions["arena"].runtime.create_table(fresh, 2, {})
    assert browser.get(f"/table/{table_id}").status_code == 200


def test_nothing_is_watched_without_a_reloading_registry(tmp_path: Path, platform_template) -> None:  # type: ignore[no-untyped-def]
    from framework.game.registry import GameRegistry
    from framework.web import create_app

    folder = tmp_path / "games"
    folder.mkdir()
    name = f"plain{next(_names)}"
    write_game(folder, name)
    platform_template.seed(tmp_path / "instance", None)
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "t",
                      "ARENA_REGISTRY": GameRegistry(packages={}, extra_folders=[folder])})
    try:
        table_id = app.extensions["arena"].runtime.create_table(name, 2, {})
        client = app.test_client()
        assert page_config(client.get(f"/table/{table_id}").get_data(as_text=True))["live"] is None
        assert client.get(f"/table/{table_id}/live").get_json() == {"live": False}
    finally:
        app.extensions["arena"].close()


FR_PO = '''msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "${you} must push"
msgstr "${you} dois pousser (%s)"
'''


def test_an_edited_catalog_is_compiled_again_for_the_next_page(
    app: Flask, browser: Browser, games, monkeypatch  # type: ignore[no-untyped-def]
) -> None:
    import framework.i18n.catalogs as catalogs

    monkeypatch.setattr(catalogs, "RECHECK_S", 0.0)  # the translator looks at its .po on every ask
    folder, name, _ = games
    po = folder / name / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(FR_PO % "un")
    table_id = app.extensions["arena"].runtime.create_table(name, 2, {})

    def french_description() -> str:
        page = browser.get(f"/table/{table_id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
        return str(page_config(page)["i18n"].get("${you} must push"))

    assert french_description() == "${you} dois pousser (un)"
    version = live(browser, table_id)["version"]
    edit(po, "(un)", "(deux)")
    assert live(browser, table_id)["version"] != version  # the open page reloads
    assert french_description() == "${you} dois pousser (deux)"
