"""A new table's database as table creation makes it, on every backend: the framework's
tables and their ``zz_`` copies first, so a dbmodel.sql may change those copies as on BGA;
every copy in step with its live table afterwards (what an upgrade checks); a statement the
database refuses named by its file, line and text."""

from __future__ import annotations

import dataclasses

import pytest

from framework.core.errors import ConfigError
from framework.engine.copies import copy_tables
from framework.engine.creation import create_schema, create_tables
from framework.releases import schema as schema_mod
from framework.releases.builds import fresh_schema
from framework.releases.migrate import sync_copies
from framework.site import Site
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.catalog import copy_signature, read_catalog
from framework.storage.sql.errors import SchemaError
from framework.storage.sql.translate import translate_query
from tests.conftest import lab_definition

pytestmark = pytest.mark.all_backends

UNDO_DBMODEL = """
-- undo support, as a real game writes it
ALTER TABLE `gamelog` ADD `cancel` TINYINT(1) NOT NULL DEFAULT 0;
ALTER TABLE `zz_savepoint_gamelog` ADD `cancel` TINYINT(1) NOT NULL DEFAULT 0;
ALTER TABLE `player` ADD `player_luck` INT(10) UNSIGNED NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS `card` (
  `card_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `card_type` VARCHAR(16) NOT NULL,
  PRIMARY KEY (`card_id`)
);
CREATE TABLE `card_undo` AS SELECT * FROM `card` WHERE FALSE IS TRUE;
"""


def run(db: TableConnection, sql: str, params: tuple[object, ...] = ()) -> list[dict[str, object]]:
    return db.execute(translate_query(sql, db.dialect), params).rows


def test_a_dbmodel_may_change_the_frameworks_copies_and_every_copy_follows(site: Site) -> None:
    with site.store.create(1) as db:
        create_tables(db, UNDO_DBMODEL, "games/demo/dbmodel.sql")
        tables = read_catalog(db)
        live = sorted(t for t in tables if not t.startswith(COPY_PREFIXES))
        assert live == ["arena_meta", "card", "card_undo", "gamelog", "global", "player", "stats"]
        for table in live:
            for prefix in COPY_PREFIXES:
                assert copy_signature(db.dialect, tables[prefix + table]) == copy_signature(
                    db.dialect, tables[table]), prefix + table
        assert "cancel" in db.column_names("zz_replay2_gamelog")
        assert "player_luck" in db.column_names("zz_savepoint_player")
        # an upgrade finds nothing out of step
        assert sync_copies(db) == []
    with site.store.connect(1) as db:
        run(db, "INSERT INTO gamelog (gamelog_move_id, gamelog_time, gamelog_type, gamelog_log, "
                "gamelog_args, cancel) VALUES (1, '2024-01-01 10:00:00', 'move', '', '{}', 1)")
        copy_tables(db, "zz_savepoint_", to_copy=True)  # the undo save point
        run(db, "UPDATE gamelog SET cancel = 0")
        copy_tables(db, "zz_savepoint_", to_copy=False)  # undo
        assert run(db, "SELECT gamelog_move_id, cancel FROM gamelog") == [
            {"gamelog_move_id": 1, "cancel": 1}]


def test_the_release_schema_of_such_a_game_is_a_new_tables(site: Site) -> None:
    gdef = dataclasses.replace(lab_definition(), dbmodel=UNDO_DBMODEL)
    with site.store.create(1) as db:
        create_schema(gdef, db)
        created = schema_mod.reflect(db)
    expected = fresh_schema(gdef, site.store)
    assert schema_mod.diff(expected, created) == []
    assert "cancel" in {c[0] for c in expected["gamelog"]["columns"]}


def test_a_refusal_of_the_database_names_the_file_line_and_statement(site: Site) -> None:
    dbmodel = ("CREATE TABLE `region` (\n  `region_id` INT NOT NULL,\n  PRIMARY KEY (`region_id`)\n);\n"
               "\n"
               "INSERT INTO `region` (`region_id`)\n  VALUES (1), (1);\n")
    with pytest.raises(SchemaError) as caught:
        with site.store.create(1) as db:
            create_tables(db, dbmodel, "games/demo/dbmodel.sql")
    error = caught.value
    assert (error.filename, error.line) == ("games/demo/dbmodel.sql", 6)
    assert error.statement == "INSERT INTO `region` (`region_id`)\n  VALUES (1), (1)"
    assert error.reason.startswith("the database refused it: ")
    assert str(error).startswith("games/demo/dbmodel.sql line 6: the database refused it: ")
    assert str(error).endswith("\n  INSERT INTO `region` (`region_id`) ...")
    assert not site.store.exists(1)  # nothing of the table is left
    gdef = dataclasses.replace(lab_definition(), dbmodel=dbmodel)
    with pytest.raises(ConfigError, match=r"dbmodel\.sql line 6: the database refused it"):
        with site.store.create(2) as db:
            create_schema(gdef, db)
