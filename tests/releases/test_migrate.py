"""Copies and schema checks of many SQLite tables in one process: what one table taught the
process (its schema, its copies in step) never hides another table's difference."""

from __future__ import annotations

from pathlib import Path

from framework.releases import schema as schema_mod
from framework.releases.migrate import sync_copies
from framework.storage.base import COPY_PREFIXES
from framework.storage.sqlite import SQLiteStore

LIVE = ("CREATE TABLE `player` (`player_id` INTEGER NOT NULL PRIMARY KEY, "
        "`player_score` INTEGER NOT NULL DEFAULT 0)")


def make_tables(store: SQLiteStore, count: int) -> None:
    for table_id in range(1, count + 1):
        with store.create(table_id) as db:
            db.execute(LIVE)
            db.execute("INSERT INTO `player` VALUES (7, 3)")
            for prefix in COPY_PREFIXES:
                db.copy_structure("player", prefix + "player")
                db.execute(f"INSERT INTO `{prefix}player` SELECT * FROM `player`")


def test_a_table_changed_by_raw_sql_is_synced_and_reflected_after_tables_in_step(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    make_tables(store, 3)
    try:
        for table_id in (1, 2):  # in step: nothing to do, twice
            with store.upgrading(table_id) as db:
                assert sync_copies(db) == []
                assert [c[0] for c in schema_mod.reflect(db)["player"]["columns"]] == [
                    "player_id", "player_score"]
        with store.upgrading(3) as db:
            db.execute("ALTER TABLE `player` ADD COLUMN `player_luck` INTEGER NOT NULL DEFAULT 5")
            assert sorted(sync_copies(db)) == sorted(f"rebuilt {p}player" for p in COPY_PREFIXES)
            assert sync_copies(db) == []  # running again changes nothing
            columns = schema_mod.reflect(db)["player"]["columns"]
            assert ("player_luck", "INTEGER", True, "5", 0) in columns
            for prefix in COPY_PREFIXES:
                assert db.execute(f"SELECT * FROM `{prefix}player`").rows == [
                    {"player_id": 7, "player_score": 3, "player_luck": 5}]
        with store.connect(1, write=False) as db:
            assert "player_luck" not in db.column_names("zz_savepoint_player")
            assert "player_luck" not in {c[0] for c in schema_mod.reflect(db)["player"]["columns"]}
    finally:
        store.close()


def test_a_reflected_schema_is_the_callers_own(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    make_tables(store, 1)
    try:
        with store.connect(1, write=False) as db:
            first = schema_mod.reflect(db)
            first["player"]["columns"].clear()
            first.pop("player")
            again = schema_mod.reflect(db)
        assert [c[0] for c in again["player"]["columns"]] == ["player_id", "player_score"]
        assert schema_mod.diff(again, again) == []
    finally:
        store.close()


def test_a_rebuild_is_replayed_on_tables_of_the_same_schema_only(tmp_path: Path) -> None:
    """SQLite rebuilds (alter_column) recorded on the first table are replayed on the next
    ones with the same definition; a table whose definition differs gets its own rebuild."""
    import sqlalchemy as sa

    from framework.releases import migrate

    store = SQLiteStore(tmp_path)
    make_tables(store, 3)
    migrate._REBUILDS.clear()
    try:
        with store.upgrading(3) as db:  # table 3 differs: a column more
            for prefix in ("", *COPY_PREFIXES):
                db.execute(f"ALTER TABLE `{prefix}player` ADD COLUMN `player_luck` INTEGER NOT NULL DEFAULT 5")
        schemas, rows, masters = {}, {}, {}
        for table_id in (1, 2, 3):
            with store.upgrading(table_id) as db:
                migrate.TableMigrator(db).alter_column(
                    "player", "player_score", existing_type=sa.Integer, type_=sa.Float,
                    server_default="1")
                schemas[table_id] = schema_mod.reflect(db)
                masters[table_id] = db.execute(
                    "SELECT sql FROM sqlite_master WHERE name = 'player'").rows[0]["sql"]
                rows[table_id] = {name: db.execute(f"SELECT * FROM `{name}`").rows
                                  for name in db.table_names()}
            if table_id == 1:
                assert len(migrate._REBUILDS) == 1 + len(COPY_PREFIXES)  # recorded
            else:  # replayed for table 2, recorded anew for table 3
                assert len(migrate._REBUILDS) == (1 + len(COPY_PREFIXES)) * (table_id - 1)
        assert schemas[1] == schemas[2] and rows[1] == rows[2]
        for table_id in (1, 3):
            score = next(c for c in schemas[table_id]["player"]["columns"] if c[0] == "player_score")
            assert score[3] == "1" and "REAL" in masters[table_id], (score, masters[table_id])
        assert {c[0] for c in schemas[3]["player"]["columns"]} == {"player_id", "player_score", "player_luck"}
        assert rows[3]["zz_savepoint_player"] == [{"player_id": 7, "player_score": 3, "player_luck": 5}]
    finally:
        store.close()


def test_what_a_recorded_rebuild_may_hold() -> None:
    """Only rebuilds SQLite would receive the same way again are recorded."""
    import sqlalchemy as sa

    from framework.releases.migrate import _operation_key, _replayable

    assert _operation_key("alter_column", "c", {"type_": sa.BigInteger, "nullable": False}) == \
        _operation_key("alter_column", "c", {"nullable": False, "type_": sa.BigInteger()})
    assert _operation_key("alter_column", "c", {"server_default": sa.func.now()}) is None
    assert _operation_key("alter_column", "c", {"server_default": sa.text("1")}) == \
        _operation_key("alter_column", "c", {"server_default": sa.text("1")})
    plain = ["PRAGMA main.table_info(\"t\")", "SELECT sql FROM sqlite_master", "CREATE TABLE _tmp (a INTEGER)",
             "INSERT INTO _tmp (a) SELECT a FROM t", "DROP TABLE t", "ALTER TABLE _tmp RENAME TO t"]
    assert _replayable(plain)
    assert not _replayable([*plain, "INSERT INTO _tmp (a) SELECT a FROM t"])  # a trigger ran it again
    assert not _replayable(["PRAGMA foreign_keys=OFF", *plain])  # a setting the replay would skip
    assert not _replayable([*plain, "VACUUM"])
