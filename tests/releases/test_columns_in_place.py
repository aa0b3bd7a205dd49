"""MariaDB adds columns in place (issue 17, finding 12; ``storage/mysql_columns.py``): an
upgrade whose only DDL adds columns before it writes runs on the live tables, and stays
all-or-nothing: undone on failure, and after a crash by the next upgrade of that table; any
other DDL goes to a copy."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import pytest

from framework.releases.builds import build
from framework.releases.deploy import deploy
from framework.releases.upgrade import upgrade_table
from framework.site import Site
from framework.storage.mysql import MySQLStore, MySQLTableConnection
from framework.storage.mysql_columns import UNDO_KEY, InPlaceColumns
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some, snapshot
from tests.releases.test_upgrade_in_place import innodb_id
from tests.releases.test_upgrade_statements import production

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 12, 1, 15, 0)
LUCK = "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n"


def schema_text(site: Site, table_id: int) -> dict[str, str]:
    """SHOW CREATE TABLE of every table: columns, keys, defaults exactly."""
    with site.store.connect(table_id, write=False) as db:
        return {t: str(db.execute(f"SHOW CREATE TABLE `{t}`", None).rows[0]["Create Table"])
                for t in db.table_names()}


def mariadb_table(workspace: Workspace, seed: int) -> int:
    site = workspace.site
    if site.store.dialect != "mysql":
        pytest.skip("DDL is transactional on SQLite and PostgreSQL")
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=seed, mode="production")
    play_some(site, tid, 3, random.Random(seed))
    return tid


def release(workspace: Workspace, step: str, hour: int, dbmodel: str = LUCK) -> str:
    workspace.append("dbmodel.sql", dbmodel)
    workspace.append("game.py", f'''

    def upgrade_table_db(self, from_version: int) -> None:
{step}
''')
    workspace.commit(f"release at {hour}")
    version = build(workspace.site, GAME, now=T0.replace(hour=hour))["version"]
    production(workspace.site, version)
    return version


ADD_LUCK = '        self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")'


def test_columns_left_by_a_crash_are_dropped_by_the_next_upgrade(workspace: Workspace,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tid = mariadb_table(workspace, 1)
    site = workspace.site
    before, shape = snapshot(site, tid), schema_text(site, tid)
    release(workspace, ADD_LUCK + '\n        self.db_query("UPDATE player SET player_score = 7")\n'
            '        raise RuntimeError("the process dies here")', 16)

    def dies(conn: MySQLTableConnection, columns: InPlaceColumns) -> None:
        conn.broken = True  # as a process killed after the ALTERs: nothing undone, no unlock sent
        conn.lock_name = None

    with monkeypatch.context() as m:
        m.setattr(MySQLStore, "_undo_columns", staticmethod(dies))
        assert upgrade_table(site, tid).status == "failed"
    left = snapshot(site, tid)
    assert all("player_luck" in row for row in left["zz_savepoint_player"])  # the crash's leftovers
    assert any(row["meta_key"] == UNDO_KEY for row in left["arena_meta"])  # and its journal
    assert [r["player_score"] for r in left["player"]] == [r["player_score"] for r in before["player"]]

    # The next upgrade (a fixed release) drops them under the lock first, then adds its own.
    release(workspace, ADD_LUCK, 17, dbmodel="")
    ids = innodb_id(site, tid, "player")
    outcome = upgrade_table(site, tid)
    assert outcome.status == "upgraded", outcome
    after = snapshot(site, tid)
    assert not any(row["meta_key"] == UNDO_KEY for row in after["arena_meta"])
    assert all("player_luck" in row for t in ("player", "zz_replay3_player") for row in after[t])
    assert innodb_id(site, tid, "player") == ids  # in place
    assert set(schema_text(site, tid)) == set(shape)


def test_a_failure_after_columns_added_in_place_leaves_the_schema_exactly(workspace: Workspace) -> None:
    tid = mariadb_table(workspace, 2)
    site = workspace.site
    before, shape = snapshot(site, tid), schema_text(site, tid)
    release(workspace, ADD_LUCK + '\n        self.db_query("UPDATE player SET player_score = 7")\n'
            '        raise RuntimeError("stop")', 16)
    outcome = upgrade_table(site, tid)
    assert outcome.status == "failed" and "stop" in str(outcome.error)
    assert schema_text(site, tid) == shape
    assert snapshot(site, tid) == before  # rows, and no journal left
    assert site.store.table_ids() == [tid]  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", ["column_exists", "ddl_after_write"])
def test_what_cannot_be_added_in_place_goes_to_a_copy(workspace: Workspace, case: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tid = mariadb_table(workspace, 3)
    site = workspace.site
    before, shape = snapshot(site, tid), schema_text(site, tid)
    attempts: list[str] = []
    original = MySQLStore.upgrading

    def upgrading(self: MySQLStore, table_id: int, ddl: bool = True) -> Any:
        attempts.append(f"copy={ddl}")
        return original(self, table_id, ddl)

    monkeypatch.setattr(MySQLStore, "upgrading", upgrading)
    if case == "column_exists":  # a column of that name already there: MariaDB's own error
        with site.store.connect(tid) as db:
            db.execute("ALTER TABLE player ADD player_luck INT NOT NULL DEFAULT 0", None)
        before, shape = snapshot(site, tid), schema_text(site, tid)
        release(workspace, ADD_LUCK, 16)
        outcome = upgrade_table(site, tid)
        assert outcome.status == "failed" and "player_luck" in str(outcome.error)
        assert attempts == ["copy=True"]  # refused in place, then failed on the copy
        assert snapshot(site, tid) == before and schema_text(site, tid) == shape
        return
    ids = innodb_id(site, tid, "player")
    release(workspace, '        self.db_query("UPDATE player SET player_score = player_score + 5")\n'
            + ADD_LUCK, 16)
    outcome = upgrade_table(site, tid)
    assert outcome.status == "upgraded", outcome
    assert attempts == ["copy=True"]  # the ALTER would commit the UPDATE: on a copy
    assert innodb_id(site, tid, "player") != ids
    after = snapshot(site, tid)
    assert [r["player_score"] for r in after["player"]] == [int(str(r["player_score"])) + 5
                                                            for r in before["player"]]
    assert schema_text(site, tid) != shape
