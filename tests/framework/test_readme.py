"""The README's "Start a game of your own" works as written: its commands, run in order by
bash in an empty folder, as a new user would paste them (table ids included)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.studio_process import user_env

README = Path(__file__).resolve().parents[2] / "README.md"


def start_a_game_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Start a game of your own", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found, "the section has no sh block"
    return found.group(1)


def test_start_a_game_of_your_own_runs_as_written(tmp_path: Path) -> None:
    block = start_a_game_block()
    assert "arena new-game mygame" in block and "$table" in block
    # Run as pasted, stopping at the first failure; the last line only reports what was made.
    script = "set -euo pipefail\n" + block + 'echo "made table $table"\n'
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=user_env(tmp_path), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    made = re.search(r"^made table (\d+)$", done.stdout, re.M)
    assert made, done.stdout
    table_id = made.group(1)
    assert f"table {table_id} (mygame), state 2 playerTurn" in done.stdout  # arena table show
    assert "ok: state" in done.stdout  # arena table act
    assert '{"game": "mygame", "games": 20,' in done.stdout  # arena simulate --json
    assert (tmp_path / "mygames" / "mygame" / "game.py").exists()
    assert " passed" in done.stdout  # the game's own test
