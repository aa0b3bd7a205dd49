"""Live reload in the studio (``ReloadingRegistry``): edits to a game's files and new games
apply without a restart, tables in play keep going on the new code, and a game that no
longer loads says why (file and line) while the other games keep working."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from framework.core.errors import ConfigError
from framework.game.registry import GameLoadError
from framework.game.reloading import ReloadingRegistry
from framework.scaffold import new_game
from framework.site import Site
from tests.livegame import edit, write_game

_names = itertools.count()


@pytest.fixture
def studio(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A site whose registry reloads the games of ``tmp_path/games`` (looked at on every ask)."""
    games = tmp_path / "games"
    games.mkdir()
    name = f"live{next(_names)}_{tmp_path.name[-6:].lower().replace('-', '_')}"
    folder = write_game(games, name)
    lines: list[str] = []
    registry = ReloadingRegistry(extra_folders=[games], recheck_s=0, report=lines.append)
    site = Site.open(tmp_path / "instance", registry=registry)
    yield site, name, folder, lines
    site.close()


def scores(site: Site, table_id: int) -> list[int]:
    return sorted(p["score"] for p in site.runtime.get_data(table_id, None)["players"].values())


def push(site: Site, table_id: int) -> None:
    active = site.runtime.get_data(table_id, None)["gamestate"]["active_player"]
    site.runtime.act(table_id, active, "push", {})


def test_an_edit_to_an_action_runs_at_the_next_action_of_a_table_in_play(studio) -> None:  # type: ignore[no-untyped-def]
    site, name, folder, lines = studio
    table_id = site.runtime.create_table(name, 2, {})
    push(site, table_id)
    assert scores(site, table_id) == [0, 1]
    edit(folder / "game.py", "STEP = 1", "STEP = 10")
    push(site, table_id)  # the table made before the edit, the edited code
    assert scores(site, table_id) == [1, 10]
    assert site.registry.get(name).info.name == name
    assert any(f"game {name} reloaded (game.py changed)" in line for line in lines), lines
    log = site.runtime.events(table_id, None, 0, None)
    assert [e["args"]["step"] for e in log if e["type"] == "pushed"] == [1, 10]


def test_templates_scripts_and_catalogs_change_the_version_without_reimporting(studio) -> None:  # type: ignore[no-untyped-def]
    site, name, folder, lines = studio
    registry: ReloadingRegistry = site.registry  # type: ignore[assignment]
    first = registry.status(name)
    table_class = registry.get(name).table_class
    edit(folder / "templates" / f"{name}.html", "board version 1", "board version 2")
    second = registry.status(name)
    assert second.version == first.version + 1
    edit(folder / "static" / f"{name}.js", "= 1", "= 2")
    po = folder / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n')
    third = registry.status(name)
    assert third.version == second.version + 1 and third.error is None
    assert registry.get(name).table_class is table_class  # no Python changed: not imported again
    assert any(f"templates/{name}.html changed" in line for line in lines), lines


@pytest.mark.parametrize(
    ("old", "new", "error", "line_text"),
    [
        ("STEP = 1", "STEP = 1 / 0", "ZeroDivisionError: division by zero", "STEP = 1 / 0"),
        ("def act_push(self) -> None:", "def act_push(self) -> None", "SyntaxError", ""),
    ],
)
def test_a_broken_game_names_file_and_line_and_the_others_keep_working(
    studio, old: str, new: str, error: str, line_text: str  # type: ignore[no-untyped-def]
) -> None:
    site, name, folder, lines = studio
    table_id = site.runtime.create_table(name, 2, {})
    belote = site.runtime.create_table("belote", 4, {})
    edit(folder / "game.py", old, new)
    line = next(i for i, text in enumerate((folder / "game.py").read_text().splitlines(), 1) if new in text)
    with pytest.raises(GameLoadError) as err:
        push(site, table_id)
    assert err.value.line == line
    assert Path(err.value.file).resolve() == (folder / "game.py").resolve()
    assert error in str(err.value) and f"game.py, line {line})" in str(err.value)
    assert err.value.source == line_text or not line_text
    assert site.registry.get("belote").name == "belote"  # the other games are served
    assert site.runtime.get_data(belote, None)["game"] == "belote"
    status = site.registry.status(name)  # type: ignore[attr-defined]
    assert status.error is err.value
    assert any(f"game {name} does not load" in x and f"line {line}" in x for x in lines), lines

    edit(folder / "game.py", new, old)  # fixed: it loads again, the table goes on
    push(site, table_id)
    assert scores(site, table_id) == [0, 1]
    assert site.registry.status(name).error is None  # type: ignore[attr-defined]


def test_a_bad_declaration_is_reported_until_fixed(studio) -> None:  # type: ignore[no-untyped-def]
    site, name, folder, _ = studio
    edit(folder / "states.py", '"end": 99', '"end": 42')
    with pytest.raises(ConfigError, match="transition 'end' leads to unknown state 42"):
        site.registry.get(name)
    edit(folder / "states.py", '"end": 42', '"end": 99')
    assert site.registry.get(name).states[3].transitions["end"] == 99


def test_a_game_made_while_the_studio_runs_is_found(studio, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    site, name, _, lines = studio
    assert site.registry.names().count(name) == 1
    fresh = f"{name}_new"
    new_game(fresh, tmp_path / "games")
    assert fresh in site.registry.names()
    table_id = site.runtime.create_table(fresh, 2, {})
    assert site.runtime.get_data(table_id, None)["game"] == fresh
    assert f"new game found: {fresh}" in lines
