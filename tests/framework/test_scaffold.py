"""`arena new-game` makes a complete game that passes its own generated test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from framework.core.errors import UserError
from framework.game.registry import load_game_from_directory
from framework.scaffold import new_game
from framework.testing import GameHarness

REPO = Path(__file__).resolve().parents[2]


def test_the_scaffold_has_every_part(tmp_path: Path) -> None:
    folder = new_game("dice_duel", tmp_path)
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"__init__.py", "game.py", "states.py", "stats.py", "options.py", "dbmodel.sql",
            "help/en.md", "tests/__init__.py", "tests/test_dice_duel.py",
            "static/dice_duel.js", "static/dice_duel.css", "templates/dice_duel.html"} <= names
    assert 'Arena.defineGame("dice_duel", DiceDuelGui)' in (folder / "static" / "dice_duel.js").read_text()
    assert "class DiceDuel(Table)" in (folder / "game.py").read_text()
    gdef = load_game_from_directory(folder, "arena_scaffold_check_dice_duel")
    assert gdef.info.display_name == "Dice Duel"
    assert len(gdef.states) == 4 and gdef.stats.stats and gdef.options.options


def test_a_scaffolded_game_plays_to_its_end(tmp_path: Path) -> None:
    games_dir = tmp_path / "games_dir"
    games_dir.mkdir()
    folder = new_game("pressluck", games_dir)
    with GameHarness.for_folder(folder, tmp_path) as h:
        table = h.create_table(players=3, options={"target": 1}, seed=11)
        moves = 0
        while not table.is_over:
            player = table.active_player
            with table.read() as t:
                total = t.turn_total(player)
            table.act(player, "bank" if total >= 7 else "draw")
            moves += 1
            assert moves < 3000
        ranking = table.ranking()
        assert ranking[0]["rank"] == 1 and ranking[0]["score"] >= 30
        assert table.data(None)["progression"] == 100


def test_the_generated_test_passes(tmp_path: Path) -> None:
    folder = new_game("selftest", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder / "tests")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout


@pytest.mark.parametrize("name", ["Bad", "9lives", "with-dash", "framework", "_private"])
def test_bad_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UserError):
        new_game(name, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    new_game("twice", tmp_path)
    with pytest.raises(UserError, match="already exists"):
        new_game("twice", tmp_path)
