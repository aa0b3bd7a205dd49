"""A small game written into a folder by the live-reload tests, and edits to its files that
a live studio must pick up (each edit moves the file's time forward, as a later save would)."""

from __future__ import annotations

import os
from pathlib import Path

INIT = '''from framework.game.registry import GameInfo

GAME_INFO = GameInfo(name="{name}", display_name="{title}", min_players=2, max_players=2)
'''

STATES = '''from framework.game.states import State, StateType, end_state, setup_state
from framework.i18n import clienttranslate

STATES = [
    setup_state(2),
    State(2, "playerTurn", StateType.ACTIVE_PLAYER,
          description=clienttranslate("${{actplayer}} must push"),
          description_my_turn=clienttranslate("${{you}} must push"),
          possible_actions=["push"], transitions={{"next": 3}}),
    State(3, "nextPlayer", StateType.GAME, action="st_next_player", transitions={{"next": 2, "end": 99}}),
    end_state(),
]
'''

GAME = '''from __future__ import annotations

from typing import Any

from framework.game.table import Table
from framework.i18n import clienttranslate

STEP = 1


class {cls}(Table):
    def setup_new_game(self, players: dict[int, Any], options: dict[int, int]) -> None:
        self.gamestate.change_active_player(next(iter(players)))

    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        return {{"step": STEP}}

    def act_push(self) -> None:
        player_id = self.get_active_player_id()
        self.db_query("UPDATE player SET player_score = player_score + %s WHERE player_id = %s",
                      (STEP, player_id))
        self.notify_all_players("pushed", clienttranslate("${{player_name}} pushes ${{step}}"),
                                player_name=self.get_player_name_by_id(player_id), step=STEP)
        self.gamestate.next_state("next")

    def st_next_player(self) -> None:
        self.active_next_player()
        self.gamestate.next_state("next")
'''

TEMPLATE = '<div id="livegame-board">board version 1</div>\n'
SCRIPT = "window.livegameScript = 1;\n"


def write_game(games_dir: Path, name: str) -> Path:
    """``games_dir/name/``: a two-player game whose one action ``push`` adds ``STEP`` (1) to
    the player's score and notifies it; a template and a script the page loads."""
    folder = games_dir / name
    (folder / "templates").mkdir(parents=True)
    (folder / "static").mkdir()
    cls = "".join(part.capitalize() for part in name.split("_"))
    (folder / "__init__.py").write_text(INIT.format(name=name, title=name.capitalize()))
    (folder / "states.py").write_text(STATES.format())
    (folder / "game.py").write_text(GAME.format(cls=cls))
    (folder / "templates" / f"{name}.html").write_text(TEMPLATE)
    (folder / "static" / f"{name}.js").write_text(SCRIPT)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in ``path`` and move its time a second past any earlier
    save (two saves within the file system's clock tick would look alike)."""
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path}"
    before = path.stat().st_mtime_ns
    path.write_text(text.replace(old, new, 1))
    later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
    os.utime(path, ns=(later, later))
