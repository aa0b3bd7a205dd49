"""docs/porting-from-bga.md stays true: it lists every classic BGA name of the name lists, and
its example of a game outside ``games/`` (an ``arena.games`` entry point) loads."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.game.registry import ENTRY_POINT_GROUP, GameRegistry, discover

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "porting-from-bga.md"
LISTS = Path(__file__).resolve().parent / "bga_names"


def test_the_guide_lists_every_classic_name() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for path in sorted(LISTS.glob("classic_*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            bga = line.split("\t")[0]
            assert f"| `{bga}` |" in text, f"docs/porting-from-bga.md does not list {bga} ({path.name})"


@pytest.fixture
def installed_game(tmp_path: Path) -> Iterator[str]:
    """The guide's example installed the way pip does it: the package on ``sys.path`` with a
    ``.dist-info`` naming its ``arena.games`` entry point."""
    site = tmp_path / "site-packages"
    package = site / "portedgame"
    shutil.copytree(ROOT / "tests" / "fixtures" / "labgame", package)
    init = package / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace('name="labgame"', 'name="portedgame"'),
                    encoding="utf-8")
    info = site / "portedgame-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: portedgame\nVersion: 0.1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nportedgame = portedgame\n",
                                           encoding="utf-8")
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    try:
        yield "portedgame"
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == "portedgame" or m.startswith("portedgame.")]:
            del sys.modules[name]
        importlib.invalidate_caches()


def test_an_installed_game_is_found_by_its_entry_point(installed_game: str) -> None:
    assert discover()[installed_game] == installed_game
    definition = GameRegistry().get(installed_game)
    assert definition.name == installed_game
    assert definition.directory.name == installed_game
    assert definition.dbmodel.strip()  # its dbmodel.sql came with the package
