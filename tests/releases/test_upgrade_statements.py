"""How much an upgrade costs the database (issue 17, finding 12): the statements one no-DDL
table upgrade sends, per backend, stay under a bound; on MariaDB an upgrade with DDL copies
only the tables it writes, and stays all-or-nothing."""

from __future__ import annotations

import doctest
import importlib
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session

from framework.platform.models import GameRecord
from framework.releases.builds import build
from framework.releases.deploy import deploy
from framework.releases.upgrade import upgrade_table
from framework.site import Site
from framework.storage.mysql import MySQLTableConnection
from framework.storage.postgres import PostgresTableConnection
from framework.storage.sqlite import SQLiteTableConnection
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some, snapshot
from tests.releases.test_upgrade_in_place import innodb_id

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 12, 1, 9, 0)
NEW_STAT = '    Stat(14, "patience", clienttranslate("Patience"), "int", "player"),\n]\n'
# Statements sent for one table upgraded to a release without DDL, once the release is
# loaded: the transaction (PostgreSQL: BEGIN, search_path and lock in one round trip;
# MariaDB: GET_LOCK, USE, START, COMMIT, RELEASE_LOCK), the bookkeeping rows, globals,
# players, the new statistic, the catalog, the log line and the meta values. Before this
# change SQLite sent 21, PostgreSQL 22, MariaDB 25.
BOUNDS = {"sqlite": 9, "postgresql": 9, "mysql": 12}


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch, dialect: str) -> Iterator[list[str]]:
    """Every statement the table connections of ``dialect`` send inside the block."""
    sent: list[str] = []

    def counting(method: Callable[..., Any], text: Callable[..., str]) -> Callable[..., Any]:
        def run(self: Any, *args: Any) -> Any:
            sent.append(text(*args))
            return method(self, *args)
        return run

    with monkeypatch.context() as m:
        if dialect == "sqlite":
            m.setattr(SQLiteTableConnection, "execute",
                      counting(SQLiteTableConnection.execute, lambda sql, *_: sql))
            m.setattr(SQLiteTableConnection, "begin", counting(SQLiteTableConnection.begin, lambda *_: "BEGIN"))
            m.setattr(SQLiteTableConnection, "commit", counting(SQLiteTableConnection.commit, lambda: "COMMIT"))
        else:
            cls: Any = PostgresTableConnection if dialect == "postgresql" else MySQLTableConnection
            m.setattr(cls, "_run", counting(cls._run, lambda sql, *_: sql))
        yield sent


def production(site: Site, version: str) -> None:
    """``version`` becomes production without deploy's own upgrade run."""
    with Session(site.platform) as s, s.begin():
        record = s.get(GameRecord, GAME)
        assert record is not None
        record.production_version = version


def test_a_no_ddl_upgrade_sends_few_statements(workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tables = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(2)]
    for tid in tables:
        play_some(site, tid, 3, random.Random(tid))
    workspace.edit("stats.py", "]\n", NEW_STAT)
    workspace.commit("B: a statistic, no DDL")
    b = build(site, GAME, now=T0.replace(hour=10))["version"]
    production(site, b)
    # The first table loads the release (and, on the servers, makes its schema on a fresh
    # table): once a run; the second is what every further table costs.
    assert upgrade_table(site, tables[0]).status == "upgraded"
    # As in a fresh process (``arena upgrade``): no table's shapes known yet.
    getattr(site.store, "shapes", {}).clear()
    with counted(monkeypatch, site.store.dialect) as sent:
        outcome = upgrade_table(site, tables[1])
    assert outcome.status == "upgraded", outcome
    assert len(sent) <= BOUNDS[site.store.dialect], "\n".join(sent)
    assert not any(s.lstrip().upper().startswith(("CREATE", "ALTER", "DROP", "RENAME")) for s in sent)
    # The catalog once: the game statements' shapes come from the upgrade's own read.
    assert sum(("information_schema.COLUMNS" in s or "pg_attribute" in s) for s in sent) <= 1, "\n".join(sent)
    with site.store.connect(tables[1], write=False) as db:
        rows = db.execute("SELECT stats_player_id FROM stats WHERE stats_type = 14").rows
        assert len(rows) == 2  # the new statistic, for each player


STEP = '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")
            self.db_query("UPDATE card SET card_location_arg = card_location_arg + 100")
            FAIL
'''


def card_args(site: Site, table_id: int) -> list[int]:
    with site.store.connect(table_id, write=False) as db:
        return [int(r["card_location_arg"]) for r in
                db.execute("SELECT card_location_arg FROM card ORDER BY card_id").rows]


@pytest.mark.parametrize("fails", [True, False], ids=["failing", "passing"])
def test_mariadb_adds_columns_in_place_all_or_nothing(workspace: Workspace, fails: bool,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    site = workspace.site
    if site.store.dialect != "mysql":
        pytest.skip("DDL is transactional on SQLite and PostgreSQL: no copy at all")
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=3, mode="production")
    play_some(site, tid, 4, random.Random(3))
    with site.store.connect(tid) as db:  # cards to move, whatever the scaffold dealt
        db.execute("INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) "
                   "VALUES ('x', 1, 'deck', 1), ('y', 2, 'deck', 2)")
    before, args = snapshot(site, tid), card_args(site, tid)
    ids = {t: innodb_id(site, tid, t) for t in ("player", "card", "global", "zz_savepoint_card")}
    workspace.append("dbmodel.sql", "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n")
    workspace.append("game.py", STEP.replace("FAIL", 'raise RuntimeError("stop")' if fails else "pass"))
    workspace.commit("B: a column and a data step")
    b = build(site, GAME, now=T0.replace(hour=10))["version"]
    production(site, b)
    with counted(monkeypatch, "mysql") as sent:
        outcome = upgrade_table(site, tid)
    # The manifests' schemas differ: one attempt, adding the column in place (no attempt without DDL).
    assert sum(s.startswith("SELECT GET_LOCK") for s in sent) == 1, "\n".join(sent)
    assert site.store.table_ids() == [tid]  # type: ignore[attr-defined]  # no work database left
    if fails:
        assert outcome.status == "failed"
        assert snapshot(site, tid) == before  # every row and column as before, copies too
        assert {t: innodb_id(site, tid, t) for t in ids} == ids
        return
    assert outcome.status == "upgraded", outcome
    assert card_args(site, tid) == [a + 100 for a in args]
    with site.store.connect(tid, write=False) as db:
        assert "player_luck" in db.column_names("zz_replay1_player")
    # Only columns added, before any write: in place (mysql_columns), no table copied.
    assert {t: innodb_id(site, tid, t) for t in ids} == ids
    assert not any(s.startswith(("CREATE DATABASE", "RENAME")) for s in sent), "\n".join(sent)


@pytest.mark.parametrize("module", ["framework.storage.mysql_overlay", "framework.storage.catalog",
                                    "framework.storage.mysql_columns"])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_postgres_plans_the_catalog_once_per_connection(workspace: Workspace,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from framework.storage import catalog as catalog_mod

    site = workspace.site
    if site.store.dialect != "postgresql":
        pytest.skip("a PostgreSQL statement prepared per connection")
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=5, mode="production")
    store: Any = site.store
    with store._checkout() as db:  # one connection throughout
        db.begin(tid, store.schema(tid), True)
        first = catalog_mod.read_catalog_rows(db)
        db.rollback()
        db.begin(tid, store.schema(tid), False)
        again = catalog_mod.read_catalog_rows(db)
        prepared = db.execute("SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE statement = %s",
                              (catalog_mod._PG_CATALOG,)).rows[0]["n"]
        plain = tuple(tuple(r.values()) for r in db.execute(catalog_mod._PG_CATALOG).rows)
        db.rollback()
    assert first == again == plain and any(r[0] == "i" for r in first)
    assert prepared == 1, "the catalog read runs from a plan of the connection's"


def test_the_servers_catalog_digest_follows_every_declared_change(workspace: Workspace) -> None:
    from framework.storage.catalog import read_catalog_print

    site = workspace.site
    if site.store.dialect == "sqlite":
        pytest.skip("SQLite's definition is its sqlite_master text: no digest")
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=6, mode="production")
    if site.store.dialect == "mysql":
        changes = ["ALTER TABLE card MODIFY card_type VARCHAR(17) NOT NULL",  # a length
                   "ALTER TABLE card MODIFY card_type VARCHAR(17) NULL",  # nullability
                   "ALTER TABLE card ALTER card_type SET DEFAULT ''",  # '' after NULL
                   "ALTER TABLE card ADD INDEX (card_type)"]
    else:  # the same on PostgreSQL, and a default that only pg_get_expr's text would show
        changes = ["ALTER TABLE card ALTER card_type TYPE VARCHAR(17)",
                   "ALTER TABLE card ALTER card_type DROP NOT NULL",
                   "ALTER TABLE card ALTER card_type SET DEFAULT ''",
                   "ALTER TABLE card ALTER card_type SET DEFAULT 'x'",
                   "CREATE INDEX ON card (card_type)",
                   "ALTER TABLE card RENAME card_type TO card_kind"]
    seen = []
    for change in [None, *changes]:
        with site.store.connect(tid) as db:
            if change is not None:
                db.execute(change, None)
            printed = read_catalog_print(db)
            assert printed is not None and printed[1] > 0
            seen.append(printed)
    assert len(set(seen)) == len(seen), seen
    with site.store.connect(tid) as db:  # the same catalog, the same digest
        assert read_catalog_print(db) == seen[-1]
    if site.store.dialect == "postgresql":  # another table of the same definition: the same digest
        other = site.runtime.create_table(GAME, 2, {"target": 2}, seed=7, mode="production")
        with site.store.connect(other) as db:
            for change in changes:
                db.execute(change, None)
            assert read_catalog_print(db) == seen[-1]


def test_postgres_keeps_the_other_tables_identities_after_a_column_added(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    site = workspace.site
    if site.store.dialect != "postgresql":
        pytest.skip("PostgreSQL's store looks identity columns up for lastrowid")
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=8, mode="production")
    insert = "INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) VALUES ('x', 1, 'deck', 1)"
    with site.store.connect(tid) as db:
        db.execute(insert)  # card's identity now known
    with counted(monkeypatch, "postgresql") as sent, site.store.connect(tid) as db:
        db.execute("ALTER TABLE player ADD COLUMN player_luck INTEGER NOT NULL DEFAULT 0")
        assert db.execute(insert).lastrowid is not None
        db.execute('ALTER TABLE card ADD COLUMN card_serial INTEGER GENERATED BY DEFAULT AS IDENTITY')
        db.execute(insert)
    lookups = [s for s in sent if "attidentity" in s]
    assert len(lookups) == 1, "\n".join(sent)  # card again, after a column was added to it
