"""Schemas compared with full types on every backend (issue 17, findings 2 and 3): a column
widened, made unsigned, nullable or given another default, or an index changed, is a
difference; ``self.migrate`` makes exactly what ``dbmodel.sql`` makes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from framework.engine.runtime import default_tables_sql
from framework.releases import schema as schema_mod
from framework.releases.builds import build, version_int
from framework.releases.check import check
from framework.releases.deploy import deploy
from framework.releases.migrate import TableMigrator, sync_copies
from framework.site import Site
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.catalog import read_catalog
from framework.storage.sql.translate import translate_dbmodel, translate_query
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some, play_to_end

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 30, 10, 0)

HAND = """
CREATE TABLE IF NOT EXISTS `hand` (
  `hand_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `hand_contract` varchar(64) NOT NULL DEFAULT '',
  `hand_points` int(11) NOT NULL DEFAULT '0',
  `hand_bonus` decimal(6,2) NOT NULL DEFAULT '0',
  `hand_player` int(10) unsigned NOT NULL,
  PRIMARY KEY (`hand_id`),
  KEY `by_player` (`hand_player`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
"""


def make_database(site: Site, table_id: int, dbmodel: str) -> None:
    with site.store.create(table_id) as db:
        for sql in translate_dbmodel(default_tables_sql(), db.dialect, reserved=frozenset()):
            db.execute(sql)
        for sql in translate_dbmodel(dbmodel, db.dialect):
            db.execute(sql)
        for name in db.table_names():
            for prefix in COPY_PREFIXES:
                db.copy_structure(name, prefix + name)


def reflected(site: Site, table_id: int) -> schema_mod.Schema:
    with site.store.connect(table_id, write=False) as db:
        return schema_mod.reflect(db)


@pytest.fixture
def tables(site: Site) -> Iterator[Site]:
    yield site
    for table_id in site.store.table_ids():  # type: ignore[attr-defined]
        site.store.drop(table_id)


CHANGES = [
    ("widened", "`hand_contract` varchar(64)", "`hand_contract` varchar(255)", "hand_contract"),
    ("precision", "decimal(6,2)", "decimal(8,2)", "hand_bonus"),
    ("nullable", "`hand_points` int(11) NOT NULL DEFAULT '0'", "`hand_points` int(11) NULL DEFAULT '0'",
     "hand_points"),
    ("default", "`hand_points` int(11) NOT NULL DEFAULT '0'", "`hand_points` int(11) NOT NULL DEFAULT '1'",
     "hand_points"),
    ("index", "KEY `by_player` (`hand_player`)", "UNIQUE KEY `by_player` (`hand_player`)", "indexes"),
    ("key", "PRIMARY KEY (`hand_id`),", "PRIMARY KEY (`hand_id`, `hand_player`),", "hand_player"),
    ("signed", "`hand_player` int(10) unsigned", "`hand_player` int(10)", "hand_player"),
]


@pytest.mark.parametrize(("what", "old", "new", "named"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_column_or_index_is_a_difference(tables: Site, what: str, old: str, new: str,
                                                   named: str) -> None:
    site = tables
    if what == "signed" and site.store.dialect == "sqlite":
        pytest.skip("SQLite has no unsigned integers: dbmodel.sql's INT UNSIGNED is INTEGER there")
    assert old in HAND
    make_database(site, 1, HAND)
    make_database(site, 2, HAND.replace(old, new))
    make_database(site, 3, HAND)
    assert schema_mod.diff(reflected(site, 1), reflected(site, 3)) == []
    problems = schema_mod.diff(reflected(site, 1), reflected(site, 2))
    assert len(problems) == 1 and named in problems[0], problems


def test_the_widened_column_is_seen_in_the_type_and_the_copies_follow(tables: Site) -> None:
    site = tables
    make_database(site, 1, HAND)
    with site.store.connect(1, write=False) as db:
        column = next(c for c in read_catalog(db)["hand"].columns if c.name == "hand_contract")
    assert column.type == {"sqlite": "VARCHAR(64)", "postgresql": "character varying(64)",
                           "mysql": "varchar(64)"}[site.store.dialect]
    # Raw SQL widens the live column only: the copies are rebuilt with the live type.
    widen = "ALTER TABLE `hand` MODIFY `hand_contract` varchar(255) NOT NULL DEFAULT ''"
    with site.store.upgrading(1) as db:  # type: ignore[attr-defined]
        if db.dialect == "sqlite":
            TableMigrator(db).alter_column("hand", "hand_contract", "varchar(255) NOT NULL DEFAULT ''")
        else:
            db.execute(translate_query(widen, db.dialect) if db.dialect == "mysql" else
                       'ALTER TABLE "hand" ALTER COLUMN "hand_contract" TYPE VARCHAR(255)')
        synced = sync_copies(db)
        if db.dialect != "sqlite":  # SQLite copies hold affinities only: TEXT either way
            assert sorted(synced) == sorted(f"rebuilt {p}hand" for p in COPY_PREFIXES)
        run_long_insert(db)


def run_long_insert(db: TableConnection) -> None:
    """A 200-character contract fits the live table and every copy."""
    for name in ("hand", *(p + "hand" for p in COPY_PREFIXES)):  # copies count no ids: give one
        sql = f"INSERT INTO `{name}` (hand_id, hand_contract, hand_player) VALUES (900, %s, %s)"
        db.execute(translate_query(sql, db.dialect), ("x" * 200, 7))


HELPER_DBMODEL = """
ALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';
ALTER TABLE `player` ADD `player_title` VARCHAR(40) NOT NULL DEFAULT '';
ALTER TABLE `player` ADD `player_signed` INT NOT NULL DEFAULT '0';
ALTER TABLE `player` ADD `player_ratio` DECIMAL(6,2) NULL;
""" + HAND.replace("varchar(64)", "varchar(255)")


def test_the_helpers_make_what_dbmodel_sql_makes(tables: Site) -> None:
    """``self.migrate`` from MySQL text, and from SQLAlchemy columns, equals ``dbmodel.sql``
    under the full comparison, copies included (finding 3: sa.Integer for an INT UNSIGNED was
    signed int(11) on MariaDB and INTEGER against BIGINT on PostgreSQL)."""
    site = tables
    make_database(site, 1, HELPER_DBMODEL)
    make_database(site, 2, HAND)
    with site.store.upgrading(2) as db:  # type: ignore[attr-defined]
        migrate = TableMigrator(db)
        migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT '0'")
        migrate.add_column("player", sa.Column("player_title", sa.String(40), nullable=False, server_default=""))
        migrate.add_column("player", sa.Column("player_signed", sa.Integer, nullable=False, server_default="0"))
        migrate.add_column("player", sa.Column("player_ratio", mysql.DECIMAL(6, 2), nullable=True))
        migrate.alter_column("hand", "hand_contract", "varchar(255) NOT NULL DEFAULT ''")
        migrate.close()
        assert sync_copies(db) == []  # the helpers reached every copy
    assert schema_mod.diff(reflected(site, 1), reflected(site, 2)) == []
    with site.store.connect(2) as db:
        run_long_insert(db)


def test_an_unsigned_column_from_sqlalchemy_types_and_a_new_table(tables: Site) -> None:
    site = tables
    created = HAND.replace("varchar(64)", "varchar(255)")
    make_database(site, 1, created + "ALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';")
    make_database(site, 2, "")
    with site.store.upgrading(2) as db:  # type: ignore[attr-defined]
        migrate = TableMigrator(db)
        migrate.add_column("player", sa.Column("player_luck", mysql.INTEGER(unsigned=True), nullable=False,
                                               server_default="0"))
        migrate.create_table(
            "hand", "`hand_id` int(10) unsigned NOT NULL AUTO_INCREMENT",
            "`hand_contract` varchar(255) NOT NULL DEFAULT ''", "`hand_points` int(11) NOT NULL DEFAULT '0'",
            "`hand_bonus` decimal(6,2) NOT NULL DEFAULT '0'", "`hand_player` int(10) unsigned NOT NULL",
            "PRIMARY KEY (`hand_id`)", "KEY `by_player` (`hand_player`)")
        migrate.close()
        assert sync_copies(db) == []
    assert schema_mod.diff(reflected(site, 1), reflected(site, 2)) == []


# ------------------------------------------------------------------ through a release
WIDE_STEP = '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < VERSION:
            self.migrate.alter_column("card", "card_type", "varchar(255) NOT NULL")
            self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")
'''


def test_a_widened_column_needs_its_step(workspace: Workspace) -> None:
    """Finding 2: widening card_type varchar(16) to varchar(255) with no step is a finding on
    every backend (it gave "no findings", and the tables later failed with "value too long");
    with the step, none, and the upgraded tables take long values, in their copies too."""
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tables = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(2)]
    rng = random.Random(4)
    for tid in tables:
        play_some(site, tid, 4, rng)
    site.runtime.save_slot(tables[0], 1)

    workspace.edit("dbmodel.sql", "`card_type` varchar(16) NOT NULL,", "`card_type` varchar(255) NOT NULL,")
    workspace.append("dbmodel.sql", "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n")
    workspace.commit("B: a wider card_type, a luck column, no step")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    report = check(site, GAME, b)
    schema = [f for f in report.findings if f.kind == "schema"]
    assert schema and "card_type" in schema[0].message and schema[0].severity == "breaking", report.findings
    rehearsal = " ".join(f.message for f in report.errors if f.kind == "rehearsal")
    assert "card_type" in rehearsal and "player_luck" in rehearsal, report.findings

    workspace.append("game.py", WIDE_STEP.replace("VERSION", "9999999999"))
    workspace.commit("C: the step")
    c = build(site, GAME, now=T0.replace(hour=12))["version"]
    report = check(site, GAME, c)
    assert not report.errors, [f.message for f in report.errors]
    assert deploy(site, GAME, c, block=True)["upgrade"]["upgraded"] == 2
    fresh = site.runtime.create_table(GAME, 2, {"target": 2}, seed=9, mode="production")
    assert schema_mod.diff(reflected(site, fresh), reflected(site, tables[0])) == []
    for tid in tables:
        with site.store.connect(tid) as db:
            for name in ("card", *(p + "card" for p in COPY_PREFIXES)):
                db.execute(translate_query(
                    f"INSERT INTO `{name}` (card_id, card_type, card_type_arg, card_location, "
                    "card_location_arg) VALUES (900, %s, 1, 'nowhere', 0)", db.dialect), ("t" * 200,))
            db.execute(translate_query("DELETE FROM card WHERE card_location = 'nowhere'", db.dialect))
        play_to_end(site, tid)
    assert version_int(c) > version_int(b)
