"""``ARENA_EXTRA_GAMES`` for every command (the CLI, the studio's app, production's worker
app), and ``arena new-game --dir``, whose printed follow-up command works as printed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from framework.cli import main
from framework.scaffold import new_game
from tests.studio_process import arena, user_env


@pytest.fixture
def extra(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    new_game("extgame", folder)
    return folder


def test_every_cli_command_finds_the_extra_games(tmp_path: Path, extra: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ARENA_EXTRA_GAMES", str(extra))
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--instance", str(tmp_path / "instance"), *args])
        assert result.exit_code == 0, result.output
        return result.output

    assert re.search(r"^extgame\tExtgame\t2-4 players$", run("games"), re.M)
    table_id = run("table", "create", "extgame", "--players", "2", "--seed", "3").strip()
    assert "(extgame), state 2 playerTurn" in run("table", "show", table_id)
    assert run("table", "act", table_id, "player1", "draw").startswith("ok: state")
    assert '"game": "extgame", "games": 2' in run("simulate", "extgame", "--games", "2", "--json")
    assert "messages.pot" in run("i18n", "extract", "extgame")
    assert (extra / "extgame" / "translations" / "messages.pot").exists()

    monkeypatch.delenv("ARENA_EXTRA_GAMES")  # without it the game is unknown again
    result = runner.invoke(main, ["--instance", str(tmp_path / "instance"), "table", "show", table_id])
    assert result.exit_code == 1 and "No game named extgame" in result.output


def test_the_studio_and_production_apps_find_the_extra_games(tmp_path: Path, extra: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from framework.web import create_app
    from framework.web.server import create_worker_app

    monkeypatch.setenv("ARENA_EXTRA_GAMES", str(extra))
    monkeypatch.setenv("ARENA_INSTANCE", str(tmp_path / "instance"))
    for app in (create_app({"SECRET_KEY": "t"}), create_worker_app()):
        try:
            site = app.extensions["arena"]
            table_id = site.runtime.create_table("extgame", 2, {})
            page = app.test_client().get(f"/table/{table_id}")
            assert page.status_code == 200, page.get_data(as_text=True)[:500]
            assert "extgame" in app.test_client().get("/").get_data(as_text=True)
        finally:
            app.extensions["arena"].close()


def test_two_extra_games_of_one_name_are_refused(tmp_path: Path, extra: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "other"
    other.mkdir()
    new_game("extgame", other)
    monkeypatch.setenv("ARENA_EXTRA_GAMES", f"{extra}:{other}")
    result = CliRunner().invoke(main, ["--instance", str(tmp_path / "instance"), "games"])
    assert result.exit_code == 1
    assert "two games are named 'extgame'" in result.output and "Traceback" not in result.output


def test_new_game_dir_prints_a_follow_up_command_that_works(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (tmp_path / "elsewhere").mkdir()
    work.mkdir()
    made = arena(work, "new-game", "dirgame", "--dir", str(tmp_path / "elsewhere"))
    assert made.returncode == 0, made.stderr
    play = re.search(r"^play it: (.+)$", made.stdout, re.M)
    export = re.search(r"\(export (ARENA_EXTRA_GAMES=\S+):", made.stdout)
    test = re.search(r"^test it: (.+)$", made.stdout, re.M)
    assert play and export and test, made.stdout
    assert play.group(1).startswith("ARENA_EXTRA_GAMES=")

    created = subprocess.run(["bash", "-c", play.group(1)], cwd=work, env=user_env(work), capture_output=True,
                             text=True, timeout=120)
    assert created.returncode == 0, created.stderr
    table_id = created.stdout.strip()
    assert table_id.isdigit()
    shown = subprocess.run(["bash", "-c", f"export {export.group(1)}; arena table show {table_id}"], cwd=work,
                           env=user_env(work), capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and f"table {table_id} (dirgame)" in shown.stdout, shown.stderr
    tested = subprocess.run(["bash", "-c", test.group(1) + " -q -p no:cacheprovider"], cwd=work,
                            env=user_env(work), capture_output=True, text=True, timeout=300)
    assert tested.returncode == 0 and " passed" in tested.stdout, tested.stdout + tested.stderr


def test_new_game_in_the_games_package_needs_no_variable(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    made = arena(tmp_path, "new-game", "pkggame")
    assert made.returncode == 0, made.stderr
    assert "play it: arena table create pkggame --players 2\n" in made.stdout
    assert arena(tmp_path, "table", "create", "pkggame", "--players", "2").stdout.strip().isdigit()
