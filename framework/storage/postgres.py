"""PostgreSQL backend: one schema ``t<id>`` per game table, connections from a ``psycopg_pool``
per process.

An action's transaction starts with ``BEGIN; SET LOCAL search_path TO "t<id>"; SET LOCAL
lock_timeout ...; SELECT 't<id>'::regnamespace, pg_advisory_xact_lock(<site>, <id>)`` in one
round trip (the simple query protocol: psycopg's pipeline mode costs more client CPU than the
round trip it saves, measured): the advisory lock serialises the writers of one table (and
only of that table) and goes away with the transaction, even when the connection drops.

Prepared statements: psycopg prepares a statement on a connection once it has run it
``PREPARE_THRESHOLD`` times, for the statements that return no rows (UPDATE, DELETE, INSERT
without RETURNING). Names stay unqualified under the transaction's ``search_path``: a plan is
per relation, so no two tables can share one anyway, and qualified names would make every
statement's text differ per table (thousands of texts per connection instead of tens, past
psycopg's per-connection cache). PostgreSQL checks a prepared statement's ``search_path``
when it runs and analyses it again for another schema, which is always right for a statement
without a result; one that returns rows is never prepared, since another table's (another
game's, or the same after an upgrade) columns may differ and PostgreSQL then refuses to run
it ("cached plan must not change result type") instead of planning it again. The one
exception is the catalog read (``execute_planned``), whose columns never change: psycopg
prepares it at its first run, and again after a rollback (psycopg then lets its plans go).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import psycopg
from psycopg.adapt import Loader
from psycopg_pool import ConnectionPool, PoolTimeout

from framework.core.errors import StorageUnavailableError
from framework.storage.base import Result, Target
from framework.storage.pool import lock_namespace
from framework.storage.postgres_functions import FUNCTIONS
from framework.storage.sql.ddl import copy_table_sql
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import SchemaShapes

log = logging.getLogger(__name__)

_INSERT = re.compile(r'\s*INSERT\s+(?:INTO\s+)?(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*))', re.IGNORECASE)
_ADD_COLUMN = re.compile(r'\s*ALTER\s+TABLE\s+(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*))\s+ADD\s+COLUMN\s',
                         re.IGNORECASE)
_DDL = ("CREATE", "ALTER", "DROP", "TRUNC")
_ROWLESS = ("UPDATE", "DELETE", "INSERT")  # the statements that may be prepared (module doc)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
#: a statement runs this many times on a connection before psycopg prepares it there
PREPARE_THRESHOLD = 2


class _NumericLoader(Loader):
    """NUMERIC as int or float, like the other backends (a DECIMAL is not a PHP type)."""

    def load(self, data: Any) -> int | float:
        value = Decimal(bytes(data).decode())
        return int(value) if value == value.to_integral_value() else float(value)


def quote(name: str) -> str:
    """A schema, table or column name spelled as the catalog has it."""
    return quote_identifier(name, "postgresql", keep_case=True)


def unavailable(exc: BaseException) -> StorageUnavailableError:
    log.error("PostgreSQL connection failed: %s", exc)
    err = StorageUnavailableError(
        "The game server lost its database connection; your move was not applied. Try again.",
        "storage_unavailable",
    )
    err.__cause__ = exc
    return err


class PostgresTableConnection:
    """One pooled connection, inside one game table's transaction (search_path = its schema)."""

    dialect: Target = "postgresql"

    def __init__(self, store: PostgresStore, raw: psycopg.Connection[Any]) -> None:
        self.store = store
        self.raw = raw
        self.table_id = 0
        self.schema = ""
        self.broken = False
        self._cur = raw.cursor()
        self._first: tuple[str, list[dict[str, Any]]] | None = None  # first_read and its rows

    @property
    def schema_shapes(self) -> SchemaShapes | None:
        return self.store.shapes.get(self.schema)

    @schema_shapes.setter
    def schema_shapes(self, shapes: SchemaShapes | None) -> None:
        if shapes is None:
            self.store.shapes.pop(self.schema, None)
        else:
            self.store.shapes[self.schema] = shapes

    # ------------------------------------------------------------------ statements
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Run one statement (``%s`` parameters; a literal ``%`` is written ``%%``)."""
        lastrowid: int | None = None
        identity = None
        head = sql.lstrip()[:6].upper()
        prepare = head in _ROWLESS and _RETURNING.search(sql) is None
        if head == "INSERT" and prepare:
            identity = self._identity_column(sql)
            if identity is not None:
                sql = sql.rstrip().rstrip(";") + f" RETURNING {quote(identity)}"
                prepare = False
        cur = self._run(sql, params, prepare)
        if head.startswith(_DDL):
            added = _ADD_COLUMN.match(sql)
            if added is not None:  # one table's columns: the others' identities still hold
                self.store.forget_identities(self.schema, added.group(1) or added.group(2).lower())
            else:
                self.store.forget_identities(self.schema)
        if identity is not None:
            returned = cur.fetchall()
            lastrowid = int(returned[0][0]) if returned and returned[0][0] is not None else None
            return Result([], cur.rowcount, lastrowid)
        result = cur.pgresult
        if result is None or not result.nfields:
            return Result([], cur.rowcount, None)
        names = [result.fname(i).decode() for i in range(result.nfields)]  # type: ignore[union-attr]
        rows = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        return Result(rows, cur.rowcount, None)

    def _run(self, sql: str, params: Sequence[Any] | None, prepare: bool = False,
             planned: bool = False) -> psycopg.Cursor[Any]:
        """Send ``sql``; ``prepare``: psycopg may prepare it (it returns no rows); ``planned``:
        psycopg prepares it now (``execute_planned``)."""
        try:
            self._cur.execute(sql, tuple(params) if params is not None else None,
                              prepare=True if planned else None if prepare else False)
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            if self.raw.closed or self.raw.info.status != psycopg.pq.ConnStatus.OK:
                self.broken = True
                raise unavailable(exc) from exc
            raise
        return self._cur

    def _identity_column(self, sql: str) -> str | None:
        match = _INSERT.match(sql)
        if match is None:
            return None
        table = match.group(1) or match.group(2).lower()
        cache = self.store.identities.get(self.schema)
        if cache is None:
            if len(self.store.identities) > 10_000:
                self.store.identities.clear()
            cache = self.store.identities[self.schema] = {}
        if table not in cache:
            cur = self._run(
                "SELECT a.attname FROM pg_attribute AS a WHERE a.attrelid = to_regclass(%s) "
                "AND a.attidentity <> '' AND NOT a.attisdropped", (f"{quote(self.schema)}.{quote(table)}",),
            )
            row = cur.fetchone()
            cache[table] = row[0] if row else None
        return cache[table]

    # ------------------------------------------------------------------ introspection
    def table_names(self) -> list[str]:
        rows = self.execute(
            "SELECT c.relname AS name FROM pg_class AS c WHERE c.relnamespace = to_regnamespace(%s) "
            "AND c.relkind IN ('r', 'p') ORDER BY c.relname", (self.schema,)
        ).rows
        return sorted(r["name"] for r in rows)

    def column_names(self, table: str) -> list[str]:
        rows = self.execute(
            "SELECT a.attname AS name FROM pg_attribute AS a WHERE a.attrelid = to_regclass(%s) "
            "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            (f"{quote(self.schema)}.{quote(table)}",),
        ).rows
        return [r["name"] for r in rows]

    def all_columns(self) -> dict[str, list[str]]:
        """Every table's columns in one statement."""
        rows = self.execute(
            "SELECT c.relname AS tbl, a.attname AS col FROM pg_class AS c "
            "JOIN pg_attribute AS a ON a.attrelid = c.oid "
            "WHERE c.relnamespace = to_regnamespace(%s) AND c.relkind IN ('r', 'p') "
            "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum", (self.schema,)
        ).rows
        out: dict[str, list[str]] = {}
        for r in rows:
            out.setdefault(r["tbl"], []).append(r["col"])
        return out

    def execute_planned(self, name: str, sql: str) -> Result:
        """``sql`` (no parameters, a result that never changes shape: the catalog read of
        upgrades and new tables, whose plan costs as much as its run) prepared by psycopg on
        this connection at its first run and executed from that plan after, until psycopg
        lets its plans go (after a rollback). ``name`` says which statement it is (for
        traces)."""
        cur = self._run(sql, None, False, True)
        assert cur.description is not None, name
        columns = [d.name for d in cur.description]
        return Result([dict(zip(columns, row, strict=True)) for row in cur.fetchall()], cur.rowcount, None)

    def copy_structure(self, source: str, target: str) -> None:
        self.execute(copy_table_sql(source, target, "postgresql"))

    def dbapi_connection(self) -> Any:
        self.store.forget_identities(self.schema)  # Alembic's operations change the schema
        return self.raw

    def written_elsewhere(self) -> bool | None:
        """The server does not say without a statement: unknown."""
        return None

    def first_rows(self, sql: str) -> list[dict[str, Any]] | None:
        first, self._first = self._first, None
        return first[1] if first is not None and first[0] == sql else None

    # ------------------------------------------------------------------ transactions

    def begin(self, table_id: int, schema: str, write: bool, check: bool = True,
              first_read: str | None = None) -> None:
        self.table_id, self.schema = table_id, schema
        self._first = None
        parts = ["BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                 f"SET LOCAL search_path TO {quote(schema)}"]
        selected = []
        if check:
            # Fails (in the same round trip, before the lock is taken: a constant) when the
            # table has no schema.
            selected.append(f"{_literal(schema)}::regnamespace")
        if write:
            parts.append(f"SET LOCAL lock_timeout = '{int(self.store.lock_wait_s * 1000)}ms'")
            selected.append(f"pg_advisory_xact_lock({self.store.lock_space}, {int(table_id)})")
        if selected:
            parts.append("SELECT " + ", ".join(selected))
        if first_read is not None:  # its own statement: a snapshot taken once the lock is held
            parts.append(first_read)
        try:
            cur = self._run("; ".join(parts), None)
            if first_read is not None:
                while cur.nextset():
                    pass
                names = [d.name for d in cur.description or ()]
                self._first = (first_read, [dict(zip(names, row, strict=True)) for row in cur.fetchall()])
        except psycopg.errors.InvalidSchemaName as exc:
            self._rollback_quietly()
            raise FileNotFoundError(f"no database for table {table_id}") from exc
        except psycopg.errors.LockNotAvailable as exc:
            self._rollback_quietly()
            raise StorageUnavailableError(
                "The table is busy; your move was not applied. Try again.", "table_busy") from exc

    def commit(self) -> None:
        try:
            self._run("COMMIT", None)
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            self.broken = True
            raise unavailable(exc) from exc

    def rollback(self) -> None:
        self.store.forget_identities(self.schema)  # DDL of the transaction may be undone
        self._rollback_quietly()

    def _rollback_quietly(self) -> None:
        if self.broken or self.raw.closed:
            self.broken = True
            return
        try:
            if self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                self._cur.execute("ROLLBACK", prepare=False)
        except psycopg.Error as exc:
            log.warning("rollback failed, dropping the connection: %s", exc)
            self.broken = True

    def close(self) -> None:
        self.raw.close()


def _configure(raw: psycopg.Connection[Any]) -> None:
    """Every new connection: NUMERIC as int or float, times in UTC."""
    raw.adapters.register_loader("numeric", _NumericLoader)
    raw.execute("SET TIME ZONE 'UTC'", prepare=False)
    raw.execute(FUNCTIONS, prepare=False)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class PostgresStore:
    """Schemas ``<prefix>t<id>`` in one PostgreSQL database.

    ``prefix`` keeps several sites (or test runs) apart in one database; the advisory-lock
    space is derived from it and the database name.
    """

    dialect: Target = "postgresql"
    #: how often the log poll looks (only with ``ARENA_BUS_URL=memory:``: LISTEN/NOTIFY on
    #: ``notify_conninfo`` reaches every process otherwise)
    poll_interval_s = 0.05

    def __init__(self, conninfo: str, prefix: str = "", pool_size: int = 8,
                 lock_wait_s: float = 30.0) -> None:
        self.conninfo = conninfo
        self.notify_conninfo: str | None = conninfo  # the site's bus: LISTEN/NOTIFY here
        self.lock_wait_s = lock_wait_s
        self.prefix = prefix
        dbname = psycopg.conninfo.conninfo_to_dict(conninfo).get("dbname") or ""
        self.lock_space = lock_namespace(f"{dbname}/{prefix}")
        # schema -> table -> its identity column (for lastrowid), forgotten after DDL.
        self.identities: dict[str, dict[str, str | None]] = {}
        # schema -> its tables' shapes (framework.storage.table_shapes), forgotten after DDL.
        self.shapes: dict[str, SchemaShapes] = {}
        self.pool_size = pool_size
        self._pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._pool_pid = 0
        self._pool_lock = threading.Lock()
        self._inherited: list[ConnectionPool[psycopg.Connection[Any]]] = []

    def schema(self, table_id: int) -> str:
        return f"{self.prefix}t{int(table_id)}"

    def _process_pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        """This process's pool, opened on first use: a forked worker opens its own and never
        touches its parent's (whose sockets it shares; psycopg closes none of them in a child)."""
        pool = self._pool
        if pool is not None and self._pool_pid == os.getpid():
            return pool
        with self._pool_lock:
            if self._pool is None or self._pool_pid != os.getpid():
                if self._pool is not None:
                    self._inherited.append(self._pool)  # kept: never closed nor collected here
                self._pool = ConnectionPool(
                    self.conninfo, min_size=0, max_size=self.pool_size, open=True,
                    kwargs={"autocommit": True, "prepare_threshold": PREPARE_THRESHOLD,
                            "connect_timeout": 10},
                    configure=_configure, timeout=self.lock_wait_s,
                    name=f"arena-{self.prefix or 'site'}",
                )
                self._pool_pid = os.getpid()
            return self._pool

    @contextmanager
    def _checkout(self) -> Iterator[PostgresTableConnection]:
        """A connection for the block. One that failed (``broken``) is closed, so the pool
        drops it; one returned inside a transaction is rolled back by the pool.

        Raises:
            StorageUnavailableError: no connection within ``lock_wait_s`` seconds (every one
                busy, or the server cannot be reached).
        """
        pool = self._process_pool()
        errors = pool.get_stats().get("connections_errors", 0)
        try:
            raw = pool.getconn()
        except PoolTimeout as exc:
            if pool.get_stats().get("connections_errors", 0) > errors:
                raise unavailable(exc) from exc
            raise StorageUnavailableError(
                "The server is too busy to take your move; it was not applied. Try again.",
                "storage_busy",
            ) from exc
        conn = PostgresTableConnection(self, raw)
        try:
            yield conn
        finally:
            if conn.broken and not raw.closed:
                try:
                    raw.close()
                except psycopg.Error as exc:  # a dead socket may refuse to close cleanly
                    log.debug("closing a broken connection: %s", exc)
            pool.putconn(raw)

    def forget_identities(self, schema: str, table: str | None = None) -> None:
        """Forget what was learnt of ``schema``'s tables (after DDL): their shapes, and the
        identity columns of all of them, or only of ``table`` (a column added to it)."""
        if table is None:
            self.identities.pop(schema, None)
        else:
            self.identities.get(schema, {}).pop(table, None)
        self.shapes.pop(schema, None)

    def _admin(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        """One statement in its own transaction (schemas are created and dropped one by one)."""
        with self._checkout() as conn:
            cur = conn._run(sql, params)
            return cur.fetchall() if cur.description is not None else []

    def exists(self, table_id: int) -> bool:
        return bool(self._admin("SELECT 1 FROM pg_namespace WHERE nspname = %s", (self.schema(table_id),)))

    @contextmanager
    def connect(self, table_id: int, write: bool = True,
                first_read: str | None = None) -> Iterator[PostgresTableConnection]:
        schema = self.schema(table_id)
        with self._checkout() as conn:
            conn.begin(table_id, schema, write, first_read=first_read)
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            else:
                conn.commit()

    @contextmanager
    def create(self, table_id: int) -> Iterator[PostgresTableConnection]:
        schema = self.schema(table_id)
        if self.exists(table_id):
            raise FileExistsError(f"table {table_id} already has a database")
        self._admin(f"CREATE SCHEMA {quote(schema)}")
        try:
            with self.connect(table_id) as conn:
                yield conn
        except BaseException:
            self.drop(table_id)
            raise

    @contextmanager
    def upgrading(self, table_id: int, ddl: bool = True) -> Iterator[PostgresTableConnection]:
        """DDL is transactional here: an upgrade is one ordinary write transaction."""
        with self.connect(table_id) as conn:
            yield conn

    @contextmanager
    def rehearsal(self, table_id: int) -> Iterator[PostgresTableConnection]:
        """The table itself, in a write transaction that is always rolled back (DDL is
        transactional): for upgrade rehearsals. Holds the table's lock meanwhile."""
        schema = self.schema(table_id)
        with self._checkout() as conn:
            conn.begin(table_id, schema, True)
            try:
                yield conn
            finally:
                conn.rollback()

    def drop(self, table_id: int) -> None:
        schema = self.schema(table_id)
        self._admin(f"DROP SCHEMA IF EXISTS {quote(schema)} CASCADE")
        self.forget_identities(schema)

    def latest_packets(self, table_ids: list[int]) -> dict[int, int]:
        """The last gamelog id of each table, a hundred tables per statement."""
        out: dict[int, int] = {}
        for start in range(0, len(table_ids), 100):
            chunk = table_ids[start:start + 100]
            sql = " UNION ALL ".join(
                f"SELECT {int(t)} AS t, (SELECT MAX(gamelog_packet_id) FROM "
                f"{quote(self.schema(t))}.{quote('gamelog')}) AS m" for t in chunk)
            try:
                rows = self._admin(sql)
            except psycopg.Error:
                rows = []
                for t in chunk:
                    try:
                        rows += self._admin(f"SELECT {int(t)}, (SELECT MAX(gamelog_packet_id) FROM "
                                            f"{quote(self.schema(t))}.{quote('gamelog')})")
                    except psycopg.Error:
                        continue
            out.update({int(r[0]): int(r[1] or 0) for r in rows})
        return out

    def table_ids(self) -> list[int]:
        """Every table that has a schema under this store's prefix."""
        pattern = "^" + re.escape(self.prefix) + "t[0-9]+$"
        rows = self._admin("SELECT nspname FROM pg_namespace WHERE nspname ~ %s", (pattern,))
        return sorted(int(r[0][len(self.prefix) + 1:]) for r in rows)

    def scratch(self, tag: str) -> PostgresStore:
        """A store for throw-away tables (rehearsals) in the same database."""
        return PostgresStore(self.conninfo, f"{self.prefix}zz{tag}_", pool_size=2)

    def drop_all(self) -> None:
        """Drop every table of this store (scratch stores and tests)."""
        for table_id in self.table_ids():
            self.drop(table_id)

    def close(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None and self._pool_pid == os.getpid():
            pool.close()
