"""Live reload in the browser: ``arena serve`` runs as a real process; a game scaffolded
beside it appears in the lobby and its table opens, and edits to a game's Python, template
and JS are live without a restart (the open page reloads; the next action runs the edited
code); a game broken by an edit tells the open page why, with file and line, and comes back
once fixed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, _skip_reason
from tests.livegame import edit, write_game
from tests.studio_process import StudioProcess, arena, user_env

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]

RELOADED = ("() => window.beforeEdit === undefined"
            " && document.documentElement.dataset.liveReload === 'watching'")
ACT = """async (action) => {
  const config = JSON.parse(document.getElementById('arena-config').textContent);
  const answer = await fetch(`/table/${config.table_id}/act/${action}?as=${config.player_id}`, {
    method: 'POST', body: '{}',
    headers: {'Content-Type': 'application/json', 'X-CSRF-Token': config.csrf}});
  return {status: answer.status, body: await answer.json()};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield launched
        launched.close()


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A checkout's stand-in (a ``games`` package, first on PYTHONPATH) with a folder of
    ``ARENA_EXTRA_GAMES`` holding the game ``livegame``."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    (tmp_path / "extra").mkdir()
    write_game(tmp_path / "extra", "livegame")
    return tmp_path


def table_json(work: Path, env: dict[str, str], table_id: str) -> dict[str, Any]:
    shown = arena(work, "table", "show", table_id, "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)  # type: ignore[no-any-return]


def expect_reload_after(page: Page, change: Any) -> None:
    page.evaluate("window.beforeEdit = true")
    change()
    page.wait_for_function(RELOADED, timeout=30_000)


def test_edits_and_a_new_game_are_live_in_the_browser(work: Path, browser: Browser, shots: Path) -> None:
    env = user_env(work, ARENA_EXTRA_GAMES=str(work / "extra"))
    studio = StudioProcess(work, env)
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    try:
        # A game scaffolded while the studio runs: in the lobby, and its table opens, watched.
        page.goto(f"{studio.url}/")
        expect(page.locator("main")).to_contain_text("Livegame")
        expect(page.locator("main")).not_to_contain_text("Mygame")
        assert arena(work, "new-game", "mygame", env=env).returncode == 0
        page.reload()
        expect(page.locator("main")).to_contain_text("Mygame")
        new_table = arena(work, "table", "create", "mygame", "--players", "2", env=env).stdout.strip()
        page.goto(f"{studio.url}/table/{new_table}")
        expect(page.locator("html")).to_have_attribute("data-live-reload", "watching")
        expect(page.locator("body")).not_to_contain_text("No game named")

        # A table of livegame, open as its first player.
        table_id = arena(work, "table", "create", "livegame", "--players", "2", env=env).stdout.strip()
        first = table_json(work, env, table_id)["gamestate"]["active_player"]
        page.goto(f"{studio.url}/table/{table_id}?as={first}")
        expect(page.locator("#livegame-board")).to_have_text("board version 1")
        assert page.evaluate("window.livegameScript") == 1
        game_py = work / "extra" / "livegame" / "game.py"

        # Python: the action's effect changes; the open page reloads, the next action runs it.
        expect_reload_after(page, lambda: edit(game_py, "STEP = 1", "STEP = 10"))
        acted = page.evaluate(ACT, "push")
        assert acted["status"] == 200, acted
        scores = {p["id"]: p["score"] for p in table_json(work, env, table_id)["players"].values()}
        assert scores[first] == 10

        # A template and a script: the reloaded page has both.
        def edit_template_and_script() -> None:
            edit(work / "extra" / "livegame" / "templates" / "livegame.html", "board version 1", "board version 2")
            edit(work / "extra" / "livegame" / "static" / "livegame.js", "= 1", "= 2")

        expect_reload_after(page, edit_template_and_script)
        expect(page.locator("#livegame-board")).to_have_text("board version 2")
        page.wait_for_function("() => window.livegameScript === 2")

        # Broken: the open page is told (file and line) and stays; the other game is served.
        page.evaluate("window.beforeEdit = true")
        edit(game_py, "STEP = 10", "STEP = 10 / 0")
        line = game_py.read_text().splitlines().index("STEP = 10 / 0") + 1
        banner = page.locator("#live-reload-error")
        expect(banner).to_contain_text("ZeroDivisionError: division by zero", timeout=30_000)
        expect(banner).to_contain_text(f"extra/livegame/game.py:{line}")
        expect(page.locator("html")).to_have_attribute("data-live-reload", "broken")
        page.screenshot(path=str(shots / "live-reload-broken.png"))
        assert page.evaluate("window.beforeEdit") is True  # told, not reloaded
        assert studio.get(f"/table/{new_table}")[0] == 200
        studio.wait_for_log(f"livegame/game.py, line {line})")

        # Fixed: the page reloads by itself and the next action runs the fixed code.
        expect_reload_after(page, lambda: edit(game_py, "STEP = 10 / 0", "STEP = 2"))
        second = table_json(work, env, table_id)["gamestate"]["active_player"]
        page.goto(f"{studio.url}/table/{table_id}?as={second}")
        assert page.evaluate(ACT, "push")["status"] == 200
        scores = {p["id"]: p["score"] for p in table_json(work, env, table_id)["players"].values()}
        assert scores == {first: 10, second: 2}
        studio.wait_for_log("studio: game livegame reloaded (game.py changed)")
        assert studio.proc.poll() is None  # one process all along: no restart
    finally:
        page.close()
        studio.stop()
