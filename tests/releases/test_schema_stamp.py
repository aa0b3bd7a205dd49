"""The schema stamp (issue 17, "fast on the server databases"): a table made by a release,
or checked after an upgrade, records that release's name; an upgrade to a release with the
same schema whose step sends nothing then reads no catalog at all. Any DDL a game sends in
play, and a rollback, take the stamp away, so the next upgrade checks the schema again and
still catches what changed."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from framework.game.table_database import SCHEMA_STAMP_KEY
from framework.releases.builds import build, load_release
from framework.releases.deploy import deploy, rollback
from framework.releases.notice import table_of
from framework.releases.upgrade import upgrade_table
from framework.site import Site
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some
from tests.releases.test_upgrade_statements import counted, production

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 12, 2, 9, 0)
NEW_STAT = '    Stat(14, "patience", clienttranslate("Patience"), "int", "player"),\n]\n'
CATALOG_MARKS = ("information_schema", "pg_attribute", "pg_class", "sqlite_master")


def stamp(site: Site, table_id: int) -> str | None:
    with site.store.connect(table_id, write=False) as db:
        rows = db.execute(f"SELECT meta_value FROM arena_meta WHERE meta_key = '{SCHEMA_STAMP_KEY}'").rows
    return None if not rows else str(rows[0]["meta_value"])


def catalog_reads(sent: list[str]) -> list[str]:
    return [s for s in sent if any(mark in s for mark in CATALOG_MARKS)]


def release_b_without_ddl(workspace: Workspace) -> str:
    workspace.edit("stats.py", "]\n", NEW_STAT)
    workspace.commit("B: a statistic, no DDL")
    return str(build(workspace.site, GAME, now=T0.replace(hour=10))["version"])


def release_a_in_play(site: Site, tables: int, moves: int) -> tuple[str, list[int]]:
    """Release A built and deployed, and ``tables`` production tables ``moves`` moves in."""
    a = str(build(site, GAME, now=T0)["version"])
    deploy(site, GAME, a)
    ids = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(tables)]
    for tid in ids:
        play_some(site, tid, moves, random.Random(tid))
    return a, ids


def test_a_stamped_table_upgrades_without_reading_its_catalog(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    site = workspace.site
    a, tables = release_a_in_play(site, 3, 3)
    for tid in tables:
        assert stamp(site, tid) == a  # made by A's dbmodel.sql
    b = release_b_without_ddl(workspace)
    production(site, b)
    assert upgrade_table(site, tables[0]).status == "upgraded"  # loads B, learns A's shapes
    getattr(site.store, "shapes", {}).clear()  # as in a fresh process: no shapes kept
    with counted(monkeypatch, site.store.dialect) as sent:
        outcome = upgrade_table(site, tables[1])
    assert outcome.status == "upgraded", outcome
    assert catalog_reads(sent) == [], "\n".join(sent)
    assert stamp(site, tables[1]) == b
    with site.store.connect(tables[1], write=False) as db:  # the statistic, for each player
        assert len(db.execute("SELECT stats_player_id FROM stats WHERE stats_type = 14").rows) == 2
    # A table without a stamp (made before stamps, or unchecked) is checked as before.
    with site.store.connect(tables[2]) as db:
        db.execute(f"DELETE FROM arena_meta WHERE meta_key = '{SCHEMA_STAMP_KEY}'")
    with counted(monkeypatch, site.store.dialect) as sent:
        assert upgrade_table(site, tables[2]).status == "upgraded"
    assert catalog_reads(sent), "\n".join(sent)
    assert stamp(site, tables[2]) == b
    play_some(site, tables[1], 2, random.Random(5))  # and the game goes on


def test_ddl_in_play_takes_the_stamp_and_the_upgrade_still_checks(workspace: Workspace) -> None:
    site = workspace.site
    a, (tid,) = release_a_in_play(site, 1, 2)
    gdef = load_release(site, GAME, a)
    with site.store.connect(tid) as db:  # what a game's DbQuery of an ALTER sends in play
        table_of(gdef, db).db_query("ALTER TABLE player ADD player_extra INT NOT NULL DEFAULT 0")
    assert stamp(site, tid) is None
    production(site, release_b_without_ddl(workspace))
    outcome = upgrade_table(site, tid)
    # The manifests' schemas are equal, but the table's is not: the check finds the column.
    assert outcome.status == "failed", outcome
    assert "player_extra" in str(outcome.error)
    assert stamp(site, tid) is None  # the failed upgrade changed nothing


def test_a_rollback_takes_the_stamp(workspace: Workspace) -> None:
    site = workspace.site
    _, (tid,) = release_a_in_play(site, 1, 2)
    b = release_b_without_ddl(workspace)
    deploy(site, GAME, b, block=True)  # every table upgraded now
    assert stamp(site, tid) == b
    rollback(site, GAME)
    assert stamp(site, tid) == ""  # A's name would claim a schema never checked
    deploy(site, GAME, b, block=True)
    assert stamp(site, tid) == b  # checked again on the way up


NEW_COLUMN = "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n"
STEP = '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            self.migrate.add_column("player", "COLUMN", "INT UNSIGNED NOT NULL DEFAULT 0")
'''


def release_b_with_a_column(workspace: Workspace, added: str = "player_luck") -> str:
    workspace.append("dbmodel.sql", NEW_COLUMN)
    workspace.append("game.py", STEP.replace("COLUMN", added))
    workspace.commit("B: a column")
    return str(build(workspace.site, GAME, now=T0.replace(hour=10))["version"])


def columns(site: Site, table_id: int, table: str) -> list[str]:
    with site.store.connect(table_id, write=False) as db:
        return db.column_names(table)


def test_a_step_seen_on_an_equal_schema_is_not_checked_again(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    site = workspace.site
    _, tables = release_a_in_play(site, 3, 2)
    b = release_b_with_a_column(workspace)
    production(site, b)
    with counted(monkeypatch, site.store.dialect) as first:
        assert upgrade_table(site, tables[0]).status == "upgraded"
    assert catalog_reads(first), "\n".join(first)  # checked: the first table with that step
    for tid in tables[1:]:
        getattr(site.store, "shapes", {}).clear()
        with counted(monkeypatch, site.store.dialect) as sent:
            outcome = upgrade_table(site, tid)
        assert outcome.status == "upgraded", outcome
        # The same ALTERs on the same stamped schema: the same result, not read again.
        assert catalog_reads(sent) == [], "\n".join(sent)
        assert stamp(site, tid) == b
        for name in ("player", "zz_replay1_player", "zz_savepoint_player"):
            assert "player_luck" in columns(site, tid, name)
        play_some(site, tid, 2, random.Random(tid))  # the game goes on with the new shapes


def test_a_step_that_misses_the_schema_fails_every_table(workspace: Workspace) -> None:
    site = workspace.site
    _, tables = release_a_in_play(site, 2, 0)
    production(site, release_b_with_a_column(workspace, added="player_lucky"))  # a typo in the step
    for tid in tables:
        outcome = upgrade_table(site, tid)
        assert outcome.status == "failed", outcome  # a failed check is never taken as seen
        assert "player_luck" in str(outcome.error)
        assert "player_lucky" not in columns(site, tid, "player")
