"""A broken game fails where the developer can see why, and leaves nothing half-made."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from framework.core.errors import ConfigError
from framework.game.registry import GameRegistry, load_game_from_directory
from framework.platform.models import GameTableRecord
from framework.scaffold import new_game
from framework.site import Site


def broken(tmp_path: Path, name: str, file: str, old: str, new: str) -> Path:
    folder = new_game(name, tmp_path / "games")
    text = (folder / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    return folder


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    (tmp_path / "games").mkdir()
    return tmp_path


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        ("syntaxgame", "`card_type_arg` int(11) NOT NULL,", "`card_type_arg` int(11 NOT NULL,",
         "games/syntaxgame/dbmodel.sql line 2"),
        ("redefgame", "ALTER TABLE `player` ADD", "CREATE TABLE `global` (`x` INT);\nALTER TABLE `player` ADD",
         "redefines the framework table `global`"),
        ("refusedgame", "ALTER TABLE `player` ADD `player_turn_total`",
         "ALTER TABLE `nowhere` ADD `player_turn_total`", "the database refused"),
    ],
)
def test_a_broken_dbmodel_fails_table_creation_and_leaves_nothing(
    games_dir: Path, name: str, old: str, new: str, message: str
) -> None:
    folder = broken(games_dir, name, "dbmodel.sql", old, new)
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(folder, f"arena_broken_{name}"))
    site = Site.open(games_dir / "instance", registry=registry)
    try:
        with pytest.raises(ConfigError) as err:
            site.runtime.create_table(name, 2)
        assert message in str(err.value)
        assert f"game {name!r}" in str(err.value)
        with Session(site.platform) as s:
            assert s.scalar(select(func.count()).select_from(GameTableRecord)) == 0
        assert list((games_dir / "instance" / "tables").glob("*.sqlite")) == []
    finally:
        site.close()


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("states.py", 'transitions={"next": 2, "end": 99}', 'transitions={"next": 2, "end": 42}',
         "state 3 ('nextPlayer'), field 'transitions': transition 'end' leads to unknown state 42"),
        ("states.py", 'possible_actions=["draw", "bank"]', 'possible_actions=["draw", "bank", "fly"]',
         "has no method 'act_fly'"),
        ("stats.py", 'Stat(11, "busts"', 'Stat(10, "busts"', "field 'id': id 10 is already used by 'cards_drawn'"),
        ("stats.py", 'Stat(12, "best_bank"', 'Stat(3, "best_bank"', "ids below 10 are reserved (got 3)"),
        ("options.py", "default=2,", "default=7,", "field 'default': 7 is not a value"),
        ("game.py", "class ", "import nonexistent_module\n\n\nclass ", "cannot import its modules"),
    ],
)
def test_a_broken_declaration_fails_at_load_naming_it(games_dir: Path, file: str, old: str, new: str,
                                                      message: str) -> None:
    name = f"bad_{abs(hash((file, old))) % 10**8}"
    folder = broken(games_dir, name, file, old, new)
    with pytest.raises(ConfigError) as err:
        load_game_from_directory(folder, f"arena_broken_{name}")
    assert message in str(err.value)
    assert name in str(err.value)


def test_two_games_with_one_name_are_refused() -> None:
    registry = GameRegistry(packages={"dup": "games.one"})
    with pytest.raises(ConfigError, match="two games are named 'dup': games.one and games.two"):
        registry.add("dup", "games.two")
