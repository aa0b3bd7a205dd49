"""``arena bench upgrade``: upgrading N in-progress SQLite tables to a new release."""

from __future__ import annotations

import subprocess
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.platform.models import GameRecord
from framework.scaffold import new_game

GAME = "upgradebench"
NEW_COLUMN = "\nALTER TABLE `player` ADD `player_luck` INT NOT NULL DEFAULT '0';\n"
UPGRADE = '''

    def upgrade_table_db(self, from_version: int) -> None:
        import sqlalchemy as sa

        self.migrate.add_column(
            "player", sa.Column("player_luck", sa.Integer, nullable=False, server_default="0"))
'''


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def bench_upgrade(tables: int) -> dict[str, Any]:
    """Create ``tables`` production tables at release A (one move each, not timed), then
    time the upgrade of all of them to release B (a new ``player`` column, reaching every
    copy; one transaction per table)."""
    from framework.releases.builds import build
    from framework.releases.deploy import deploy
    from framework.releases.upgrade import upgrade_all
    from framework.site import Site

    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        (repo / "games").mkdir(parents=True)
        _git(repo, "init", "-q")
        _git(repo, "config", "user.email", "bench@example.invalid")
        _git(repo, "config", "user.name", "Bench")
        folder = new_game(GAME, repo / "games")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "A")
        registry = GameRegistry(packages={})
        registry.add_definition(load_game_from_directory(folder, f"arena_bench_{Path(tmp).name}"))
        site = Site.open(Path(tmp) / "instance", registry=registry)
        a = build(site, GAME, now=datetime(2026, 1, 1, 10, 0))["version"]
        deploy(site, GAME, a)
        created_start = time.perf_counter()
        for i in range(tables):
            site.runtime.create_table(GAME, 2, {}, seed=i, mode="production")
        created = time.perf_counter() - created_start
        (folder / "dbmodel.sql").write_text((folder / "dbmodel.sql").read_text() + NEW_COLUMN)
        (folder / "game.py").write_text((folder / "game.py").read_text() + UPGRADE)
        _git(repo, "commit", "-q", "-am", "B")
        b = build(site, GAME, now=datetime(2026, 1, 1, 11, 0))["version"]
        # Make B production without deploy's own upgrade run: only the upgrade is timed.
        with Session(site.platform) as s, s.begin():
            record = s.get(GameRecord, GAME)
            assert record is not None
            record.production_version = b
        start = time.perf_counter()
        summary = upgrade_all(site, GAME)
        seconds = time.perf_counter() - start
        site.close()
    return {
        "tables": tables,
        "upgraded": summary["upgraded"],
        "failed": summary["failed"],
        "seconds": round(seconds, 3),
        "ms_per_table": round(seconds * 1000 / max(tables, 1), 3),
        "setup_seconds_not_timed": round(created, 1),
    }
