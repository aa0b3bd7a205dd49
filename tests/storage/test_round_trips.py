"""What a table transaction costs on the wire (issue 20): the round trips and statements of an
empty write transaction per backend stay at their bound, MariaDB's lock and transaction travel
together yet keep their semantics (a failure holds nothing), and PostgreSQL's prepared
statements stay right across schemas whose tables differ."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from framework.core.errors import StorageUnavailableError
from framework.site import Site
from framework.storage.base import TableConnection
from framework.storage.mysql import MySQLStore
from framework.storage.postgres import PostgresStore
from framework.storage.sql.translate import translate_query
from tests.storage.test_backends import make_table
from tests.storage.wire import WireTrace, traced

pytestmark = pytest.mark.all_backends

# (round trips, statements) of an empty write transaction. PostgreSQL: BEGIN, search_path,
# lock_timeout and one SELECT of the schema check and the lock; COMMIT. MariaDB: GET_LOCK,
# USE, START TRANSACTION; COMMIT, RELEASE_LOCK. Before issue 20: PostgreSQL 2 and 6,
# MariaDB 4 and 4 (5 and 5 when the connection had another database selected).
EMPTY_WRITE = {"sqlite": (0, 2), "postgresql": (2, 5), "mysql": (2, 5)}


@pytest.fixture
def one_connection(site: Site) -> Iterator[Any]:
    """Tables 1 and 2 of the test's site, through a store holding a single connection (the
    one traced); SQLite's store as it is (one connection per table)."""
    make_table(site, 1)
    make_table(site, 2)
    big = site.store
    if isinstance(big, PostgresStore):
        store: Any = PostgresStore(big.conninfo, big.prefix, pool_size=1, lock_wait_s=0.5)
    elif isinstance(big, MySQLStore):
        store = MySQLStore(big.connect_args, big.base, pool_size=1, lock_wait_s=0.5)
    else:
        yield big
        return
    yield store
    store.close()


def _raw(store: Any, table_id: int) -> Any:
    with store.connect(table_id, write=False) as db:
        return db.raw


def _insert(db: TableConnection, card_type: str) -> None:
    db.execute(translate_query("INSERT INTO card (card_type) VALUES (%s)", db.dialect), (card_type,))


def test_an_empty_write_transaction_stays_at_its_bound(one_connection: Any) -> None:
    store = one_connection
    rounds, statements = EMPTY_WRITE[store.dialect]
    for table_id in (1, 2, 2):  # a table the connection served last, and another one
        raw = _raw(store, table_id)
        with traced(raw, store.dialect) as trace:
            with store.connect(table_id):
                pass
        assert trace.round_trips <= rounds, trace.sent
        assert trace.statements <= statements, trace.sent
    with store.connect(1) as db:
        _insert(db, "a")  # PostgreSQL looks up the table's identity column once
    raw = _raw(store, 1)
    with traced(raw, store.dialect) as one:  # each statement of the body: one more round trip
        with store.connect(1) as db:
            _insert(db, "b")
    assert one.round_trips <= rounds + 1 and one.statements <= statements + 1, one.sent
    with store.connect(1, write=False) as db:
        assert [r["card_type"] for r in db.execute(translate_query(
            "SELECT card_type FROM card ORDER BY card_id", db.dialect)).rows] == ["a", "b"]


def test_the_tracer_counts_what_it_sees(one_connection: Any) -> None:
    """The bound above can fail: the tracer sees every statement and round trip."""
    store = one_connection
    raw = _raw(store, 1)
    with store.connect(1) as db:
        _insert(db, "first")  # PostgreSQL looks up the table's identity column once
        with traced(raw, store.dialect) as trace:
            for n in range(3):
                _insert(db, f"c{n}")
    assert trace.statements == 3
    assert trace.round_trips == (0 if store.dialect == "sqlite" else 3)
    assert isinstance(trace, WireTrace) and len(trace.sent) >= 3


# ---------------------------------------------------------------- MariaDB's lock, exactly
def _mysql_store(one_connection: Any) -> MySQLStore:
    if not isinstance(one_connection, MySQLStore):
        pytest.skip("MariaDB's GET_LOCK")
    return one_connection


def _other_session(store: MySQLStore) -> Any:
    return pymysql.connect(**store.connect_args, autocommit=True)


def _lock_holder(other: Any, name: str) -> Any:
    with other.cursor() as cur:
        cur.execute("SELECT IS_USED_LOCK(%s)", (name,))
        return cur.fetchone()[0]


def _pooled_state(store: MySQLStore, table_id: int) -> tuple[int, int]:
    """Whether the pooled connection has a transaction open, and holds the table's lock."""
    with store.pool.checkout() as conn:
        with conn.raw.cursor() as cur:
            cur.execute("SELECT @@in_transaction, COALESCE(IS_USED_LOCK(%s) = CONNECTION_ID(), 0)",
                        (store.database(table_id),))
            row = cur.fetchone()
            return int(row[0]), int(row[1])


def test_a_busy_mariadb_lock_leaves_no_transaction(one_connection: Any) -> None:
    store = _mysql_store(one_connection)
    other = _other_session(store)
    try:
        with other.cursor() as cur:
            cur.execute("SELECT GET_LOCK(%s, 1)", (store.database(1),))
            assert cur.fetchone()[0] == 1
        with pytest.raises(StorageUnavailableError) as caught:
            with store.connect(1) as db:
                _insert(db, "never")
        assert caught.value.code == "table_busy"
        assert _pooled_state(store, 1) == (0, 0)  # START ran without the lock: rolled back
        with other.cursor() as cur:
            cur.execute("DO RELEASE_LOCK(%s)", (store.database(1),))
    finally:
        other.close()
    with store.connect(1) as db:  # the same connection works, the table is free
        _insert(db, "after")
    with store.connect(1, write=False) as db:
        assert db.execute("SELECT card_type FROM card", None).rows == [{"card_type": "after"}]


def test_an_unknown_mariadb_database_releases_the_lock(one_connection: Any) -> None:
    store = _mysql_store(one_connection)
    with pytest.raises(FileNotFoundError):
        with store.connect(9):
            pass
    other = _other_session(store)
    try:
        assert _lock_holder(other, store.database(9)) is None
    finally:
        other.close()
    assert _pooled_state(store, 9) == (0, 0)
    with store.connect(1) as db:  # the connection is handed out again, on the right database
        assert db.execute("SELECT DATABASE() AS d", None).rows == [{"d": store.database(1)}]


def test_a_failed_body_rolls_back_and_releases_in_one_go(one_connection: Any) -> None:
    store = _mysql_store(one_connection)
    raw = _raw(store, 1)
    with traced(raw, "mysql") as trace:
        with pytest.raises(ValueError):
            with store.connect(1) as db:
                _insert(db, "lost")
                raise ValueError("the game refused")
    assert trace.round_trips == 3, trace.sent  # lock and begin; the insert; rollback and release
    assert _pooled_state(store, 1) == (0, 0)
    assert _raw(store, 1) is raw  # a refused move costs no new connection
    with store.connect(1, write=False) as db:
        assert db.execute("SELECT COUNT(*) AS n FROM card", None).rows == [{"n": 0}]


@pytest.mark.parametrize("text", [
    "SELECT 1; DROP DATABASE {db}",
    "SELECT ';' ; DROP DATABASE {db}",
    "SELECT 1; /*! DROP DATABASE {db} */",
])
def test_a_second_statement_is_refused_and_runs_nothing(one_connection: Any, text: str) -> None:
    store = _mysql_store(one_connection)
    with pytest.raises(pymysql.err.ProgrammingError) as caught:
        with store.connect(1) as db:
            db.execute(text.format(db=f"`{store.database(2)}`"), None)
    assert caught.value.args[0] == 1064
    assert store.exists(2)
    with store.connect(1) as db:  # one statement with separators in strings and comments is fine
        assert db.execute("SELECT ';' AS s; -- done", None).rows == [{"s": ";"}]


# ---------------------------------------------------------------- PostgreSQL's prepared statements
def _postgres_store(one_connection: Any) -> PostgresStore:
    if not isinstance(one_connection, PostgresStore):
        pytest.skip("PostgreSQL's prepared statements")
    return one_connection


def _prepared(db: TableConnection) -> list[str]:
    return [r["s"] for r in db.execute("SELECT statement AS s FROM pg_prepared_statements").rows]


def test_prepared_statements_are_right_across_schemas_that_differ(one_connection: Any) -> None:
    """Tables 1 and 2 share one connection; table 2's card gets another column and another
    type: the prepared UPDATE and INSERT follow each schema, and a SELECT * (never prepared)
    gives each table's own columns, before and after the change."""
    store = _postgres_store(one_connection)
    update = 'UPDATE "card" SET "card_type" = %s WHERE "card_id" = %s'
    for round_ in range(4):
        for table_id in (1, 2):
            with store.connect(table_id) as db:
                _insert(db, f"t{table_id}")
                db.execute(update, (f"r{round_}", 1))
                if round_ == 1 and table_id == 2:
                    db.execute('ALTER TABLE "card" ADD COLUMN "card_extra" integer NOT NULL DEFAULT 7')
                    db.execute('ALTER TABLE "card" ALTER COLUMN "card_type" TYPE text')
                rows = db.execute('SELECT * FROM "card" ORDER BY "card_id" LIMIT 1').rows
                extra = {"card_extra": 7} if table_id == 2 and round_ >= 1 else {}
                assert rows == [{"card_id": 1, "card_type": f"r{round_}", "card_value": 0, **extra}]
    with store.connect(1, write=False) as db:
        prepared = _prepared(db)
        assert any(s.startswith("UPDATE") for s in prepared), prepared
        assert not any(s.lstrip().upper().startswith("SELECT") for s in prepared), prepared
        assert db.execute('SELECT COUNT(*) AS n FROM "card"').rows == [{"n": 4}]


class _Interrupted(BaseException):
    """As a greenlet's kill or a timeout lands: not an error of the block."""


def test_an_interrupted_block_never_hands_its_connection_out_again(one_connection: Any) -> None:
    store = _mysql_store(one_connection)
    raw = _raw(store, 1)
    with pytest.raises(_Interrupted):
        with store.connect(1) as db:
            _insert(db, "half")
            raise _Interrupted
    assert _raw(store, 1) is not raw
    with store.connect(1, write=False) as db:
        assert db.execute("SELECT COUNT(*) AS n FROM card", None).rows == [{"n": 0}]


def test_a_first_read_travels_with_the_lock(one_connection: Any) -> None:
    """``first_read`` (an action's globals): on the servers its rows come in the lock's round
    trip, once; SQLite leaves it to the caller. A first read that fails holds nothing."""
    store = one_connection
    rounds, statements = EMPTY_WRITE[store.dialect]
    with store.connect(1) as db:
        _insert(db, "x")
    sql = translate_query("SELECT card_type FROM card ORDER BY card_id", store.dialect)
    raw = _raw(store, 1)
    with traced(raw, store.dialect) as trace:
        with store.connect(1, first_read=sql) as db:
            rows = db.first_rows(sql)
            again = db.first_rows(sql)
    if store.dialect == "sqlite":
        assert rows is None and trace.statements == statements
        return
    assert rows == [{"card_type": "x"}] and again is None, "its rows, once"
    assert trace.round_trips == rounds and trace.statements == statements + 1, trace.sent
    with store.connect(1, first_read=sql) as db:
        assert db.first_rows("SELECT 1") is None, "only for the statement it was opened with"
    missing = translate_query("SELECT nothing FROM no_such_table", store.dialect)
    with pytest.raises(Exception):  # noqa: B017 (the backend's own error)
        with store.connect(1, first_read=missing):
            pass
    with store.connect(1) as db:  # the lock was released, the transaction ended
        assert [r["card_type"] for r in db.execute(sql).rows] == ["x"]
    if isinstance(store, MySQLStore):
        assert _pooled_state(store, 1) == (0, 0)
