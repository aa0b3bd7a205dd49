"""`arena new-game NAME` (the states style, today's BGA style, by default) makes a game of
state classes that loads, plays to its end and passes its own generated test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from framework.cli import main
from framework.core.errors import UserError
from framework.game.modern.dispatch import state_classes_of
from framework.game.registry import load_game_from_directory
from framework.scaffold import ScaffoldStyle, new_game
from framework.testing import GameHarness

REPO = Path(__file__).resolve().parents[2]


def test_the_states_scaffold_has_a_states_package(tmp_path: Path) -> None:
    folder = new_game("dice_race", tmp_path, ScaffoldStyle.STATES)
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"__init__.py", "game.py", "states/__init__.py", "states/player_turn.py",
            "states/next_player.py", "stats.py", "options.py", "dbmodel.sql",
            "tests/test_dice_race.py"} <= names
    assert "states.py" not in names  # the package replaces the classic module
    assert "class PlayerTurn(GameState)" in (folder / "states" / "player_turn.py").read_text()
    gdef = load_game_from_directory(folder, "arena_scaffold_states_dice_race")
    assert [s.id for s in gdef.states] == [1, 2, 3, 99]
    assert {sid: c.__name__ for sid, c in state_classes_of(gdef.table_class).items()} == {
        2: "PlayerTurn", 3: "NextPlayer"}
    assert gdef.states.by_name["playerTurn"].possible_actions == ["bank", "draw"]


def test_a_states_game_plays_to_its_end_with_zombies_too(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    folder = new_game("pigstates", games, "states")
    with GameHarness.for_folder(folder, tmp_path) as h:
        table = h.create_table(players=3, options={"target": 1}, seed=11)
        a, b, c = table.players
        table.zombie(c)
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
        assert table.stat("cards_drawn", a) > 0 and table.stat("turns_number") > 0


def test_the_generated_states_test_passes(tmp_path: Path) -> None:
    folder = new_game("selfstates", tmp_path, "states")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder / "tests")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout


def test_the_cli_defaults_to_the_states_style(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["new-game", "bystate", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "bystate" / "states" / "__init__.py").exists()
    result = runner.invoke(main, ["new-game", "byrow", "--dir", str(tmp_path), "--style", "classic"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "byrow" / "states.py").exists()
    assert not (tmp_path / "byrow" / "states").exists()
    result = runner.invoke(main, ["new-game", "odd", "--dir", str(tmp_path), "--style", "modern"])
    assert result.exit_code != 0 and "modern" in result.output
    with pytest.raises(UserError, match="Unknown style modern"):
        new_game("odd", tmp_path, "modern")


@pytest.mark.parametrize("style", [ScaffoldStyle.STATES, ScaffoldStyle.CLASSIC])
def test_every_draw_tells_the_deck_count_through_a_reshuffle(tmp_path: Path, style: ScaffoldStyle) -> None:
    """The page's deck counter follows the draws' ``deck_count``; without it the client counts
    down from the deal and stays at 0 after the discard pile is shuffled back (CI saw 0
    where the table had 23)."""
    games = tmp_path / "games"
    games.mkdir()
    folder = new_game(f"pig{style}", games, style)
    with GameHarness.for_folder(folder, tmp_path) as h:
        table = h.create_table(players=2, seed=5)
        last_id, counts = 0, list[int]()
        while not table.is_over and len(counts) < 200:
            player = table.active_player
            table.act(player, "draw")
            told = table.notifications(None, last_id)
            drawn = [n for n in told if n["type"] in ("draw", "bust")]
            assert drawn, "a draw is told"
            last_id = int(told[-1]["id"])
            assert drawn[-1]["args"]["deck_count"] == table.data(None)["deck_count"]
            counts.append(int(drawn[-1]["args"]["deck_count"]))
        assert any(later > earlier for earlier, later in zip(counts, counts[1:], strict=False)), \
            f"the deck must have been shuffled back at least once: {counts}"
