"""``arena serve`` as a developer runs it: a game made and a table created from another
terminal open at once, an edit that breaks a game is reported with its file and line (in the
studio's output, on the page, by the CLI), and ``--debug`` says what it does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.cli.studio import DEBUG_NOTE, LIVE_RELOAD_NOTE
from tests.livegame import edit
from tests.studio_process import StudioProcess, arena


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder standing for a checkout: its ``games`` package (first on PYTHONPATH) holds the games."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    return tmp_path


@pytest.fixture
def studio(work: Path) -> Iterator[StudioProcess]:
    server = StudioProcess(work)
    yield server
    server.stop()


def wait_for_status(studio: StudioProcess, path: str, status: int, timeout: float = 30) -> str:
    """The page at ``path`` once it answers ``status`` (the studio looks at a game's files at
    most once a second)."""
    deadline = time.monotonic() + timeout
    while True:
        got, body = studio.get(path)
        if got == status:
            return body
        assert time.monotonic() < deadline, f"{path} answered {got}, not {status}:\n{body[:2000]}"
        time.sleep(0.2)


def test_new_game_then_table_create_while_the_studio_runs_opens_the_table(work: Path, studio: StudioProcess) -> None:
    made = arena(work, "new-game", "mygame")
    assert made.returncode == 0, made.stderr
    assert "play it: arena table create mygame --players 2" in made.stdout  # no variable needed here
    created = arena(work, "table", "create", "mygame", "--players", "2")
    assert created.returncode == 0, created.stderr
    table_id = created.stdout.strip()
    assert table_id.isdigit()
    status, html = studio.get(f"/table/{table_id}")
    assert status == 200, html[:2000]
    assert "Mygame" in html and "No game named" not in html
    studio.wait_for_log("new game found: mygame")
    assert LIVE_RELOAD_NOTE in studio.log()


def test_a_broken_game_is_reported_with_file_and_line_and_the_others_are_served(
    work: Path, studio: StudioProcess
) -> None:
    for name in ("brokengame", "goodgame"):
        assert arena(work, "new-game", name).returncode == 0
    broken = arena(work, "table", "create", "brokengame", "--players", "2").stdout.strip()
    good = arena(work, "table", "create", "goodgame", "--players", "2").stdout.strip()
    assert studio.get(f"/table/{broken}")[0] == 200
    game_py = work / "games" / "brokengame" / "game.py"
    text = game_py.read_text()
    edit(game_py, "\nclass ", "\n1 / 0\n\n\nclass ")
    line = game_py.read_text().splitlines().index("1 / 0") + 1
    assert text != game_py.read_text()

    page = wait_for_status(studio, f"/table/{broken}", 500)
    assert "ZeroDivisionError: division by zero" in page
    assert '<code class="error-file">games/brokengame/game.py</code>' in page
    assert f'<code class="error-line">{line}</code>' in page
    studio.wait_for_log(f"studio: game brokengame does not load: game 'brokengame': cannot import its "
                        f"modules: ZeroDivisionError: division by zero (games/brokengame/game.py, line {line})")
    assert studio.get(f"/table/{good}")[0] == 200  # the other game is served

    listed = arena(work, "games")
    assert "brokengame\tBROKEN: game 'brokengame': cannot import its modules: ZeroDivisionError" in listed.stdout
    assert f"(games/brokengame/game.py, line {line})" in listed.stdout
    refused = arena(work, "table", "create", "brokengame", "--players", "2")
    assert refused.returncode == 1
    assert f"games/brokengame/game.py, line {line})" in refused.stderr
    assert "Traceback" not in refused.stderr + refused.stdout

    game_py.write_text(text)  # fixed: the table opens again, without a restart
    edit(game_py, "\nclass ", "\nclass ")
    wait_for_status(studio, f"/table/{broken}", 200)
    studio.wait_for_log("studio: game brokengame reloaded (game.py changed)")


def test_serve_debug_says_what_it_does(work: Path) -> None:
    studio = StudioProcess(work, args=("--debug",))
    try:
        studio.wait_for_log(DEBUG_NOTE)
        assert LIVE_RELOAD_NOTE in studio.log()
    finally:
        studio.stop()
