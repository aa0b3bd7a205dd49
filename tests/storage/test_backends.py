"""The table stores on SQLite, PostgreSQL and MariaDB: one database per game table, per-table
write locks, upgrades that are all-or-nothing, rehearsals that never touch the table, and
dropped connections that apply nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from framework.core.errors import StorageUnavailableError
from framework.engine.runtime import default_tables_sql
from framework.site import Site
from framework.storage.base import TableConnection
from framework.storage.sql.translate import translate_dbmodel, translate_query

pytestmark = pytest.mark.all_backends

CARDS = """
CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_value` decimal(6,2) NOT NULL DEFAULT '0',
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
"""


def run(db: TableConnection, mysql_sql: str, params: tuple[object, ...] = ()) -> list[dict[str, object]]:
    return db.execute(translate_query(mysql_sql, db.dialect), params).rows


def make_table(site: Site, table_id: int) -> None:
    with site.store.create(table_id) as db:
        for sql in translate_dbmodel(default_tables_sql(), db.dialect, reserved=frozenset()):
            db.execute(sql)
        for sql in translate_dbmodel(CARDS, db.dialect):
            db.execute(sql)
        for name in ("card", "player"):
            db.copy_structure(name, f"zz_savepoint_{name}")


@pytest.fixture
def store_site(site: Site) -> Iterator[Site]:
    make_table(site, 1)
    make_table(site, 2)
    yield site


def test_each_table_has_its_own_database(store_site: Site) -> None:
    store = store_site.store
    assert store.exists(1) and store.exists(2) and not store.exists(3)
    assert store.table_ids() == [1, 2]  # type: ignore[attr-defined]
    with store.connect(1) as db:
        names = db.table_names()
        assert {"global", "stats", "gamelog", "player", "arena_meta", "card", "zz_savepoint_card"} <= set(names)
        assert names == sorted(names)
        assert db.column_names("card") == ["card_id", "card_type", "card_value"]
        assert db.column_names("zz_savepoint_card") == ["card_id", "card_type", "card_value"]
        first = db.execute(translate_query("INSERT INTO card (card_type) VALUES (%s)", db.dialect), ("a",))
        second = db.execute(translate_query("INSERT INTO card (card_type, card_value) VALUES (%s, %s)",
                                            db.dialect), ("b", 2.5))
        assert (first.lastrowid, second.lastrowid) == (1, 2)
        rows = run(db, "SELECT card_id, card_type, card_value, SUM(card_id) AS total FROM card "
                   "GROUP BY card_id, card_type, card_value ORDER BY card_id")
        # DECIMAL and SUM come back as plain numbers on every backend
        assert rows == [{"card_id": 1, "card_type": "a", "card_value": 0, "total": 1},
                        {"card_id": 2, "card_type": "b", "card_value": 2.5, "total": 2}]
        updated = db.execute(translate_query("UPDATE card SET card_type = card_type", db.dialect), ())
        assert updated.rowcount == 2  # matched rows, even where nothing changed (MariaDB too)
    with store.connect(2, write=False) as db:
        assert run(db, "SELECT COUNT(*) AS n FROM card") == [{"n": 0}]  # another table's rows
    with pytest.raises(FileNotFoundError):
        with store.connect(3):
            pass
    store.drop(2)
    assert not store.exists(2) and store.table_ids() == [1]  # type: ignore[attr-defined]


def test_a_failed_creation_leaves_nothing(store_site: Site) -> None:
    store = store_site.store
    with pytest.raises(RuntimeError):
        with store.create(5) as db:
            db.execute(translate_dbmodel(CARDS, db.dialect)[0])
            raise RuntimeError("setup failed")
    assert not store.exists(5)
    make_table(store_site, 5)  # the id can be used again
    assert store.exists(5)


def test_a_rolled_back_action_writes_nothing(store_site: Site) -> None:
    with pytest.raises(ValueError):
        with store_site.store.connect(1) as db:
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("lost",))
            raise ValueError("the game refused")
    with store_site.store.connect(1, write=False) as db:
        assert run(db, "SELECT COUNT(*) AS n FROM card") == [{"n": 0}]


def test_writers_of_one_table_wait_and_other_tables_do_not(store_site: Site) -> None:
    """Per-table locks: the second writer of table 1 enters only after the first leaves,
    while a writer of table 2 goes through meanwhile."""
    store = store_site.store
    events: list[str] = []
    lock = threading.Lock()
    first_in, other_done = threading.Event(), threading.Event()

    def note(what: str) -> None:
        with lock:
            events.append(what)

    def first() -> None:
        with store.connect(1) as db:
            note("first in")
            first_in.set()
            other_done.wait(10)
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("first",))
            threading.Event().wait(0.3)  # room for the second writer to (wrongly) get in
            note("first out")

    def second() -> None:
        first_in.wait(10)
        with store.connect(1) as db:
            note("second in")
            # it sees the first writer's row: the writes were serialised, not interleaved
            assert [r["card_type"] for r in run(db, "SELECT card_type FROM card")] == ["first"]
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("second",))

    def other() -> None:
        first_in.wait(10)
        with store.connect(2) as db:
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("other",))
            note("other table done")
        other_done.set()

    threads = [threading.Thread(target=f) for f in (first, second, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert events[0] == "first in"
    assert events.index("other table done") < events.index("first out") < events.index("second in")
    with store.connect(1, write=False) as db:
        assert [r["card_type"] for r in run(db, "SELECT card_type FROM card ORDER BY card_id")] == [
            "first", "second"]


def _add_column_then(db: TableConnection, fail: bool) -> None:
    q = '"' if db.dialect == "postgresql" else "`"
    for name in ("card", "zz_savepoint_card"):
        db.execute(f"ALTER TABLE {q}{name}{q} ADD COLUMN {q}card_owner{q} INT NOT NULL DEFAULT 7")
    run(db, "UPDATE card SET card_type = %s", ("upgraded",))
    if fail:
        raise RuntimeError("upgrade_table_db failed half-way")


def test_an_upgrade_is_all_or_nothing(store_site: Site) -> None:
    """DDL and data of an upgrade land together or not at all; on MariaDB, whose DDL commits
    at once, the store upgrades a copy and swaps it in."""
    store = store_site.store
    with store.connect(1) as db:
        run(db, "INSERT INTO card (card_type) VALUES (%s)", ("old",))
        run(db, "INSERT INTO zz_savepoint_card (card_id, card_type) VALUES (%s, %s)", (9, "saved"))
    with pytest.raises(RuntimeError, match="half-way"):
        with store.upgrading(1) as db:  # type: ignore[attr-defined]
            _add_column_then(db, fail=True)
    with store.connect(1, write=False) as db:
        assert db.column_names("card") == ["card_id", "card_type", "card_value"]
        assert [r["card_type"] for r in run(db, "SELECT card_type FROM card")] == ["old"]
    with store.upgrading(1) as db:  # type: ignore[attr-defined]
        _add_column_then(db, fail=False)
    with store.connect(1) as db:
        assert db.column_names("card") == ["card_id", "card_type", "card_value", "card_owner"]
        assert run(db, "SELECT card_type, card_owner FROM card") == [{"card_type": "upgraded", "card_owner": 7}]
        assert run(db, "SELECT card_id, card_owner FROM zz_savepoint_card") == [{"card_id": 9, "card_owner": 7}]
        # the AUTO_INCREMENT counter came along with the rows
        assert db.execute(translate_query("INSERT INTO card (card_type) VALUES (%s)", db.dialect),
                          ("new",)).lastrowid == 2
    assert store.table_ids() == [1, 2]  # type: ignore[attr-defined]  # no copy left behind


def test_a_rehearsal_never_reaches_the_table(store_site: Site) -> None:
    store = store_site.store
    with store.connect(1) as db:
        run(db, "INSERT INTO card (card_type) VALUES (%s)", ("live",))
    with store.rehearsal(1) as db:  # type: ignore[attr-defined]
        _add_column_then(db, fail=False)
        assert "card_owner" in db.column_names("card")
    with store.connect(1, write=False) as db:
        assert db.column_names("card") == ["card_id", "card_type", "card_value"]
        assert run(db, "SELECT card_type FROM card") == [{"card_type": "live"}]
    assert store.table_ids() == [1, 2]  # type: ignore[attr-defined]


def _kill_session(site: Site, db: TableConnection) -> None:
    """End ``db``'s server session from another connection, as a crash or a network cut does."""
    if db.dialect == "postgresql":
        pid = db.dbapi_connection().info.backend_pid
        with site.store.connect(2, write=False) as other:  # another pooled connection
            other.execute("SELECT pg_terminate_backend(%s)", (pid,))
    else:
        thread_id = db.dbapi_connection().thread_id()
        with site.store.connect(2, write=False) as other:
            other.execute(f"KILL {int(thread_id)}", None)  # type: ignore[arg-type]


def test_a_connection_dropped_mid_transaction_applies_nothing(store_site: Site) -> None:
    if store_site.store.dialect == "sqlite":
        pytest.skip("an SQLite table has no connection to drop")
    store = store_site.store
    with pytest.raises(StorageUnavailableError) as caught:
        with store.connect(1) as db:
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("half",))
            _kill_session(store_site, db)
            run(db, "INSERT INTO card (card_type) VALUES (%s)", ("other half",))
    assert caught.value.http_status == 503 and caught.value.retry_after > 0
    # nothing was applied, the lock went with the session, the pool hands out a live connection
    with store.connect(1) as db:
        assert run(db, "SELECT COUNT(*) AS n FROM card") == [{"n": 0}]
        run(db, "INSERT INTO card (card_type) VALUES (%s)", ("retried",))
    with store.connect(1, write=False) as db:
        assert run(db, "SELECT card_type FROM card") == [{"card_type": "retried"}]
