"""A scaffolded game in its own git repository, and a site whose registry points at it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.scaffold import new_game
from framework.site import Site
from tests.backends import PlatformTemplate

GAME = "relgame"


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return proc.stdout


@dataclass
class Workspace:
    repo: Path
    folder: Path
    site: Site

    def commit(self, message: str) -> None:
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", message)

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.folder / name
        text = path.read_text()
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1))

    def append(self, name: str, text: str) -> None:
        path = self.folder / name
        path.write_text(path.read_text() + text)


@pytest.fixture(scope="session")
def scaffolded_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository whose one commit is the scaffolded game (made once; tests get a copy)."""
    repo = tmp_path_factory.mktemp("scaffolded") / "repo"
    (repo / "games").mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.invalid")
    git(repo, "config", "user.name", "Dev")
    new_game(GAME, repo / "games")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a new game")
    return repo


@pytest.fixture
def workspace(tmp_path: Path, database_url: str | None, platform_template: PlatformTemplate,
              scaffolded_repo: Path) -> Iterator[Workspace]:
    repo = tmp_path / "repo"
    shutil.copytree(scaffolded_repo, repo, symlinks=True)  # the test's own repository
    folder = repo / "games" / GAME
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(folder, f"arena_ws_{tmp_path.name}"))
    platform_template.seed(tmp_path / "instance", database_url)
    site = Site.open(tmp_path / "instance", database_url=database_url, registry=registry, migrate=False)
    yield Workspace(repo, folder, site)
    site.close()


# What release B changes, with a proper upgrade_table_db: a new player column, a new game
# table, an altered column, a new statistic and a new state.
B_DBMODEL = """
ALTER TABLE `player` ADD `player_luck` INT NOT NULL DEFAULT '0';
CREATE TABLE IF NOT EXISTS `roll_log` (
  `roll_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `roll_player` int(10) unsigned NOT NULL,
  `roll_value` tinyint(3) NOT NULL,
  PRIMARY KEY (`roll_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
"""

B_UPGRADE = '''

    def upgrade_table_db(self, from_version: int) -> None:
        import sqlalchemy as sa

        if from_version < 9999999999:
            self.migrate.add_column(
                "player", sa.Column("player_luck", sa.Integer, nullable=False, server_default="0"))
            self.db_query(
                "CREATE TABLE IF NOT EXISTS `roll_log` (`roll_id` int(10) unsigned NOT NULL AUTO_INCREMENT, "
                "`roll_player` int(10) unsigned NOT NULL, `roll_value` tinyint(3) NOT NULL, "
                "PRIMARY KEY (`roll_id`))")
            self.migrate.alter_column("card", "card_location_arg", existing_type=sa.Integer,
                                      existing_nullable=False, server_default="0")

    def st_last_chance(self) -> None:
        self.notify_all_players("lastChance", clienttranslate("Last chance is over"))
        self.gamestate.next_state("")
'''


BUST_LINE = '            self.db_query("UPDATE player SET player_turn_total = 0 WHERE player_id = %s", (player_id,))\n'
LUCK_LINE = ('            self.db_query("UPDATE player SET player_luck = player_luck + 1 WHERE player_id = %s", '
             '(player_id,))\n')


def make_release_b(ws: Workspace, with_upgrade: bool = True) -> None:
    """Release B's changes in the working tree (the game code uses the new column)."""
    ws.append("dbmodel.sql", B_DBMODEL)
    ws.edit("dbmodel.sql", "`card_location_arg` int(11) NOT NULL,",
            "`card_location_arg` int(11) NOT NULL DEFAULT '0',")
    upgrade = B_UPGRADE if with_upgrade else B_UPGRADE.replace(
        "if from_version < 9999999999:", "if from_version < 0:")
    ws.append("game.py", upgrade)
    ws.edit("game.py", BUST_LINE, BUST_LINE + LUCK_LINE)
    ws.edit("stats.py", "]\n", '    Stat(13, "lucky_draws", clienttranslate("Lucky draws"), "int", "player"),\n]\n')
    ws.edit("states.py", 'transitions={"next": 2, "end": 99}', 'transitions={"next": 2, "end": 4}')
    ws.edit("states.py", "    end_state(),",
            '    State(4, "lastChance", StateType.GAME, action="st_last_chance", transitions={"": 99}),\n'
            "    end_state(),")


# A "dice" v2: a bust now leads to a second chance (active state 4, where only a draw is
# allowed), counted by a new statistic; and a data step (every player's score_aux + 100).
SECOND_CHANCE_STATE = (
    '    State(4, "secondChance", StateType.ACTIVE_PLAYER,\n'
    '          description=clienttranslate("${actplayer} may draw once more"),\n'
    '          description_my_turn=clienttranslate("${you} may draw once more"),\n'
    '          possible_actions=["draw"], transitions={"draw": 2, "bust": 3, "bank": 3}),\n'
)
SECOND_CHANCE_COUNT = (
    "        if self.gamestate.state().id == 4:\n"
    '            self.inc_stat(1, "second_chances", self.get_active_player_id())\n'
)
DATA_STEP = '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version <= {v1}:
            self.db_query("UPDATE player SET player_score_aux = player_score_aux + 100")
'''


def make_second_chance(ws: Workspace, v1: int) -> None:
    """The working tree becomes the dice v2 above (``v1``: the release it upgrades from)."""
    ws.edit("states.py", 'transitions={"draw": 2, "bust": 3, "bank": 3}',
            'transitions={"draw": 2, "bust": 4, "bank": 3}')
    ws.edit("states.py", "    State(\n        3,", SECOND_CHANCE_STATE + "    State(\n        3,")
    ws.edit("stats.py", "]\n", '    Stat(13, "second_chances", clienttranslate("Second chances"), "int", "player"),\n]\n')
    ws.edit("game.py", '        self.check_action("draw")\n', '        self.check_action("draw")\n' + SECOND_CHANCE_COUNT)
    ws.append("game.py", DATA_STEP.format(v1=v1))


#: the ``arena`` command with the games of ARENA_EXTRA_GAMES, as the server has them (the
#: CLI's own support for that variable is another change's; this gives it the same registry)
CLI = """
import framework.web as web
from framework.web.server import registry_from_env
make = web.create_app
web.create_app = lambda config=None: make({**(config or {}), "ARENA_REGISTRY": registry_from_env()})
from framework.cli import main
main()
"""


def arena(workspace: Workspace, *args: str) -> str:
    """An ``arena`` command in a process of its own, on the site's folder and databases."""
    env = {**os.environ, "ARENA_INSTANCE": str(workspace.site.instance_path),
           "ARENA_EXTRA_GAMES": str(workspace.folder.parent)}
    env.pop("ARENA_DATABASE_URL", None)
    if not workspace.site.database_url.startswith("sqlite"):
        env["ARENA_DATABASE_URL"] = workspace.site.database_url
    proc = subprocess.run([sys.executable, "-c", CLI, *args],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout
