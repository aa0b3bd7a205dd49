"""MariaDB backend: one database ``<site>_t<id>`` per game table, pooled connections per process.

Game SQL runs as written (BGA's own dialect). The writers of one table are serialised by a
named lock (``GET_LOCK('<site>_t<id>')``), taken before the transaction starts and released
after it ends; the server releases it too when a connection dies. An action costs two round
trips beside its own statements: ``GET_LOCK; USE; START TRANSACTION`` in one, ``COMMIT; DO
RELEASE_LOCK`` in the other (the connection allows several statements per command for these
two only: ``execute`` refuses a text holding a second statement, as MariaDB did before). MariaDB commits DDL
implicitly, so an upgrade that only adds columns does so in place and undoes them on failure
(``MySQLStore.adding_columns``, ``mysql_columns``), and one with other DDL works on copies of
the tables it writes and swaps them in with one atomic ``RENAME TABLE`` (``MySQLStore.upgrading``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import pymysql
import pymysql.converters
from pymysql.constants import CLIENT, FIELD_TYPE

from framework.core.errors import StorageUnavailableError
from framework.storage.base import DDLNeededError, Result, Target
from framework.storage.mysql_columns import (
    DELETE_UNDO,
    UNDO_KEY,
    UNDO_PROBE,
    InPlaceColumns,
    read_undo,
    undo_statements,
)
from framework.storage.mysql_overlay import Overlay
from framework.storage.pool import ConnectionPool
from framework.storage.sql.ddl import copy_table_sql
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import SchemaShapes

log = logging.getLogger(__name__)

# Client-side "connection lost" errors, and the server's own ends of a session.
LOST_CONNECTION = {2003, 2006, 2013, 2014, 2045, 2055, 1053, 1927}
RETRYABLE = {1205, 1213}  # lock wait timeout, deadlock: the statement may simply be sent again
# The framework's tables every upgrade writes (its release and the players' notice): an
# upgrade with DDL copies them at once rather than reading them through views first.
UPGRADE_WRITES = ("arena_meta", "gamelog")


def _decimal(text: str | bytes) -> int | float:
    value = Decimal(text.decode() if isinstance(text, bytes) else text)
    return int(value) if value == value.to_integral_value() else float(value)


CONVERSIONS = dict(pymysql.converters.conversions)
CONVERSIONS[FIELD_TYPE.NEWDECIMAL] = _decimal
CONVERSIONS[FIELD_TYPE.DECIMAL] = _decimal


def quote(name: str) -> str:
    return quote_identifier(name, "mysql")


def _unavailable(exc: BaseException, code: str = "storage_unavailable") -> StorageUnavailableError:
    log.error("MariaDB: %s", exc)
    message = ("The table is busy; your move was not applied. Try again." if code == "table_busy" else
               "The game server lost its database connection; your move was not applied. Try again.")
    err = StorageUnavailableError(message, code)
    err.__cause__ = exc
    return err


_DDL = re.compile(r"^\s*(CREATE|ALTER|DROP|RENAME|TRUNCATE)\b", re.IGNORECASE)


_ROWS_MATCHED = re.compile(rb"Rows matched: (\d+)")


# What may hide a statement separator: strings, quoted names and comments (``/*!`` ones are
# run by MariaDB, so they count as code after a separator).
_TOKENS = re.compile(r"""'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`(?:[^`]|``)*`"""
                     r"|--(?:[ \t][^\n]*)?$|--[ \t][^\n]*|#[^\n]*|/\*.*?\*/|;", re.DOTALL | re.MULTILINE)


def has_second_statement(sql: str) -> bool:
    """Whether ``sql`` holds more than one statement (a separator with code after it).

    >>> has_second_statement("SELECT 1;"), has_second_statement("SELECT ';' -- x; y")
    (False, False)
    >>> has_second_statement("SELECT 1; DROP TABLE x"), has_second_statement("SELECT 1; /*! DO 1 */")
    (True, True)
    >>> has_second_statement("UPDATE t SET a = 'it''s; \\' ok' WHERE b = `c;d`;  -- done")
    False
    """
    if ";" not in sql:
        return False
    ended = False
    pos = 0
    for match in _TOKENS.finditer(sql):
        token = match.group()
        if ended and (sql[pos:match.start()].strip() or token[0] in "'\"`"
                      or token.startswith(("/*!", "/*M!"))):
            return True
        ended = ended or token == ";"
        pos = match.end()
    return ended and bool(sql[pos:].strip())


def _is_ddl(sql: str) -> bool:
    """Whether MariaDB would commit the transaction for ``sql`` (the statements
    ``dbmodel.sql``, ``self.migrate`` and the framework's copies send)."""
    return _DDL.match(sql) is not None


class MySQLTableConnection:
    """One pooled connection, inside one game table's transaction (its database selected)."""

    dialect: Target = "mysql"

    def __init__(self, raw: pymysql.connections.Connection[Any],
                 shapes: dict[str, SchemaShapes] | None = None) -> None:
        self.raw = raw
        self._shapes: dict[str, SchemaShapes] = {} if shapes is None else shapes
        self.table_id = 0
        self.database = ""
        self.namespace: str | None = None  # the database selected with USE
        self.broken = False
        self.lock_name: str | None = None
        # In an upgrade run in place (``MySQLStore.upgrading(ddl=False)``): DDL is refused,
        # as MariaDB would commit the transaction before it, and the refusal is remembered.
        self.refuse_ddl = False
        self.ddl_refused = False
        # In an upgrade with DDL: the work database over the live one (mysql_overlay).
        self.overlay: Overlay | None = None
        # In an upgrade that adds columns in place (``MySQLStore.adding_columns``).
        self.columns: InPlaceColumns | None = None
        self._cur = raw.cursor()
        self._first: tuple[str, list[dict[str, Any]]] | None = None  # first_read and its rows

    @property
    def schema_shapes(self) -> SchemaShapes | None:
        return self._shapes.get(self.database)

    @schema_shapes.setter
    def schema_shapes(self, shapes: SchemaShapes | None) -> None:
        if shapes is None:
            self._shapes.pop(self.database, None)
        else:
            self._shapes[self.database] = shapes

    def execute(self, sql: str, params: Sequence[Any] | None = ()) -> Result:
        """Run one statement (``%s`` parameters; a literal ``%`` is written ``%%``). With
        ``params`` None the text is sent as it is (no ``%`` processing).

        ``rowcount`` of an UPDATE is the rows it matched (read from the server's info
        message), as on the other backends; ``affected`` is the rows it changed, as mysqli
        counts them on BGA."""
        if self.columns is not None:
            if _is_ddl(sql):
                self.columns.add(self, sql, params)  # sent with the body's next statement
                return Result([], 0, None, 0, 0)
            self.columns.flush(self)
            self.columns.note(sql)
        cur = self._run(sql, params) if self.overlay is None else self.overlay.run(self, sql, params)
        if cur.description is None:
            affected = cur.rowcount
            rowcount = affected
            message = getattr(getattr(cur, "_result", None), "message", None)
            if message:
                matched = _ROWS_MATCHED.search(message)
                if matched is not None:
                    rowcount = int(matched.group(1))
            return Result([], rowcount, cur.lastrowid or None, affected, cur.lastrowid or 0)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        return Result(rows, cur.rowcount, None)

    def run_statement(self, sql: str, params: Sequence[Any] | None) -> Any:
        """One statement as it is (no overlay), its cursor returned (for the overlay)."""
        return self._run(sql, params)

    def run_several(self, sql: str) -> None:
        """Statements of the framework's own sent as they are in one round trip, every
        answer read (raises the first failure)."""
        self._drain(self._run(sql, None, True))

    def send_held(self) -> None:
        """Send the ``ALTER``s an upgrade in place holds (``mysql_columns``) now, not with the
        next statement."""
        if self.columns is not None:
            self.columns.flush(self)

    def forget_shapes(self) -> None:
        """Before DDL the connection does not see as such: no table's shapes are known."""
        self._shapes.clear()

    def _run(self, sql: str, params: Sequence[Any] | None, several: bool = False) -> Any:
        """Send ``sql``; only the store's own transaction commands (``several``) may hold more
        than one statement (the connection allows it for them).

        Raises:
            pymysql.err.ProgrammingError: a second statement in the text (1064, as MariaDB
                answers without multi-statements); nothing was sent.
        """
        if not several and ";" in sql and has_second_statement(sql):
            raise pymysql.err.ProgrammingError(1064, "one statement per query: the text holds a second "
                                                     f"statement after a ';' ({sql[:80]!r})")
        if _is_ddl(sql):
            if self.refuse_ddl:
                self.ddl_refused = True
                raise DDLNeededError(f"DDL in an upgrade run in place: {sql[:80]}")
            self._shapes.clear()  # an upgrade's copy is renamed in: forget every database
        try:
            self._cur.execute(sql, tuple(params) if params is not None else None)
        except (pymysql.err.InterfaceError, pymysql.err.OperationalError) as exc:
            failure = self._failure(exc)
            if failure is exc:
                raise
            raise failure from exc
        return self._cur

    def _failure(self, exc: Exception) -> Exception:
        """What a driver error means: a lost connection (dropped), a retryable conflict, or
        the error itself."""
        if isinstance(exc, pymysql.err.InterfaceError):
            self.broken = True
            return _unavailable(exc)
        code = exc.args[0] if exc.args else 0
        if code in LOST_CONNECTION or code >= 2000:
            self.broken = True
            return _unavailable(exc)
        if code in RETRYABLE:
            return _unavailable(exc, "table_busy")
        return exc

    def _last_rows(self, cur: Any) -> list[dict[str, Any]]:
        """``_drain``, keeping the rows of the last result set."""
        self._drain(cur)
        names = [d[0] for d in cur.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def _drain(self, cur: Any, sets: int | None = None) -> None:
        """Read the remaining result sets of a command of several statements (raises the
        first failed statement's error); ``sets``: only that many."""
        try:
            while (sets is None or sets > 0) and cur.nextset():
                if sets is not None:
                    sets -= 1
        except (pymysql.err.InterfaceError, pymysql.err.OperationalError) as exc:
            failure = self._failure(exc)
            if failure is exc:
                raise
            raise failure from exc

    def table_names(self) -> list[str]:
        if self.overlay is not None:
            return self.overlay.table_names(self)
        return sorted(next(iter(r.values())) for r in self.execute("SHOW TABLES", None).rows)

    def column_names(self, table: str) -> list[str]:
        if self.overlay is not None:
            source = self.overlay.source_of(table)
            rows = self._run(f"SHOW COLUMNS FROM {quote(source)}.{quote(table)}", None).fetchall()
            return [r[0] for r in rows]
        return [r["Field"] for r in self.execute(f"SHOW COLUMNS FROM {quote(table)}", None).rows]

    def all_columns(self) -> dict[str, list[str]]:
        rows = self.execute(
            "SELECT TABLE_NAME AS tbl, COLUMN_NAME AS col FROM information_schema.COLUMNS "
            "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION", None
        ).rows
        out: dict[str, list[str]] = {}
        for r in rows:
            out.setdefault(r["tbl"], []).append(r["col"])
        return dict(sorted(out.items()))

    def copy_structure(self, source: str, target: str) -> None:
        overlay = self.overlay
        if overlay is None:
            self.execute(copy_table_sql(source, target, "mysql"), None)
            return
        if target in overlay.untouched():  # it exists: fail as the live database would
            overlay.copy(self, target)
        self._run(f"CREATE TABLE {quote(target)} LIKE {quote(overlay.source_of(source))}.{quote(source)}",
                  None)
        overlay.real.add(target)

    def dbapi_connection(self) -> Any:
        if self.columns is not None:  # its statements are not seen: on a copy
            raise self.columns.refuse("Alembic's operations")
        if self.refuse_ddl:  # only Alembic's DDL wants it
            self.ddl_refused = True
            raise DDLNeededError("Alembic's operations in an upgrade run in place")
        if self.overlay is not None and not self.overlay.full:  # its statements are not seen
            self.overlay.copy_all(self)
        self._shapes.clear()
        return self.raw

    def written_elsewhere(self) -> bool | None:
        """The server does not say without a statement: unknown."""
        return None

    def first_rows(self, sql: str) -> list[dict[str, Any]] | None:
        first, self._first = self._first, None
        return first[1] if first is not None and first[0] == sql else None

    # ------------------------------------------------------------------ sessions

    def use(self, database: str) -> None:
        if self.namespace == database:
            return
        try:
            self._run(f"USE {quote(database)}", None)
        except pymysql.err.OperationalError as exc:
            if exc.args and exc.args[0] == 1049:  # unknown database
                self.namespace = None
                raise FileNotFoundError(f"no database {database}") from exc
            raise
        self.namespace = database

    def lock(self, name: str, wait_s: float) -> None:
        got = self._run("SELECT GET_LOCK(%s, %s)", (name, wait_s)).fetchone()
        if not got or got[0] != 1:
            raise StorageUnavailableError("The table is busy; your move was not applied. Try again.",
                                          "table_busy")
        self.lock_name = name

    def unlock(self) -> None:
        if self.lock_name is None or self.broken:
            self.lock_name = None
            return
        try:
            self._run("DO RELEASE_LOCK(%s)", (self.lock_name,))
        except Exception as exc:  # a dead session has released it already
            log.warning("RELEASE_LOCK failed, dropping the connection: %s", exc)
            self.broken = True
        self.lock_name = None

    def begin(self, write: bool) -> None:
        self._run("START TRANSACTION" if write else "START TRANSACTION READ ONLY", None)

    def commit(self) -> None:
        self._run("COMMIT", None)

    def rollback(self) -> None:
        if self.broken:
            return
        try:
            self._run("ROLLBACK", None)
        except Exception as exc:
            log.warning("rollback failed, dropping the connection: %s", exc)
            self.broken = True

    def open(self, lock_name: str | None, wait_s: float, database: str, write: bool,
             probe: str | None = None, first_read: str | None = None) -> list[tuple[Any, ...]]:
        """Take the table's lock (``lock_name``, writers), select ``database`` and start the
        transaction, in one round trip; every result set is read and ``GET_LOCK``'s answer
        checked. On failure nothing is held: no lock, no transaction. ``probe``: one more
        read (no parameters), sent after ``USE`` and before the transaction starts; its rows
        are returned (an upgrade's look for an unfinished one, ``mysql_columns``). ``first_read``:
        the transaction's first read, last in the same round trip (``TableStore.connect``).

        Raises:
            StorageUnavailableError: the lock stayed busy for ``wait_s`` seconds
                (``table_busy``), or the connection failed.
            FileNotFoundError: no database ``database``.
        """
        parts = ["SELECT GET_LOCK(%s, %s)"] if lock_name is not None else []
        # USE every time, in the same round trip: a session whose database was dropped (by
        # this process or another, then made again) has none selected, whatever it last USEd.
        parts.append(f"USE {quote(database)}")
        if probe is not None:
            parts.append(probe if lock_name is None else probe.replace("%", "%%"))
        parts.append("START TRANSACTION" if write else "START TRANSACTION READ ONLY")
        if first_read is not None:  # the transaction's first read: after the lock is held
            parts.append(first_read)
        params = (lock_name, wait_s) if lock_name is not None else None
        self.namespace = None  # known again once USE has answered
        self._first = None
        try:
            cur = self._run("; ".join(parts), params, True)  # positional: tests wrap _run
            if lock_name is not None:
                got = cur.fetchone()
                if got and got[0] == 1:
                    self.lock_name = lock_name
                busy = self.lock_name is None
            else:
                busy = False
            probed: list[tuple[Any, ...]] = []
            if probe is not None:
                self._drain(cur, 2 if lock_name is not None else 1)  # to the probe's rows
                probed = list(cur.fetchall())
            if first_read is not None:
                self._first = (first_read, self._last_rows(cur))
            else:
                self._drain(cur)  # USE's answer, then START's: raises if one failed
        except pymysql.err.OperationalError as exc:
            self.release_quietly()
            if exc.args and exc.args[0] == 1049:  # unknown database: START did not run
                raise FileNotFoundError(f"no database {database}") from exc
            raise
        except BaseException:
            self.release_quietly()
            raise
        self.namespace = database
        if busy:  # START ran without the lock: end it
            self.rollback()
            raise StorageUnavailableError("The table is busy; your move was not applied. Try again.",
                                          "table_busy")
        return probed

    def finish(self, commit: bool, first: str | None = None) -> None:
        """``COMMIT`` (or ``ROLLBACK``) and the lock's release in one round trip. If the
        commit fails the release did not run: it is sent alone (or the connection dropped,
        which releases it), and the error raised. ``first``: a statement of the transaction
        sent in the same round trip, before its commit (no parameters, no ``%``)."""
        if first is not None and (self.lock_name is None or self.broken):
            if not self.broken:
                self._run(first, None)
            first = None
        end = "COMMIT" if commit else "ROLLBACK"
        if first is not None:
            end = f"{first}; {end}"
        if self.broken:  # the session is gone, and its transaction and lock with it
            self.lock_name = None
            if commit:
                raise _unavailable(RuntimeError("the connection failed during the transaction"))
            return
        if self.lock_name is None:
            if commit:
                self._run(end, None)
            else:
                self.rollback()
            return
        try:
            cur = self._run(f"{end}; DO RELEASE_LOCK(%s)", (self.lock_name,), True)
            if first is not None:
                self._drain(cur, 1)  # COMMIT's answer: raises if it failed
        except BaseException:  # the end failed, so the release did not run
            if commit:
                self.release_quietly()
                raise
            log.warning("rollback failed, dropping the connection", exc_info=True)
            self.broken = True
            self.lock_name = None
            return
        try:
            self._drain(cur)
        except Exception as exc:  # committed; a session that died has released its lock
            log.warning("RELEASE_LOCK failed, dropping the connection: %s", exc)
            self.broken = True
        self.lock_name = None

    def release_quietly(self) -> None:
        """After a failure: no transaction and no lock left (or the connection dropped)."""
        if not self.broken:
            try:
                self._run("ROLLBACK", None)
            except Exception as exc:  # logged, and the connection is dropped
                log.warning("rollback failed, dropping the connection: %s", exc)
                self.broken = True
        self.unlock()

    def close(self) -> None:
        try:
            self.raw.close()
        except pymysql.err.Error:
            pass


class MySQLStore:
    """Databases ``<base>_t<id>`` on one MariaDB server (``base`` is the platform database)."""

    dialect: Target = "mysql"
    notify_conninfo: str | None = None  # no LISTEN/NOTIFY: the site's bus is Redis or the poll
    #: how often the poll (framework.live.poll) reads the watched tables' last gamelog ids (one
    #: statement), when no bus reaches the other processes
    poll_interval_s = 0.01

    def __init__(self, connect_args: dict[str, Any], base: str, pool_size: int = 8,
                 lock_wait_s: float = 30.0) -> None:
        self.connect_args = dict(connect_args)
        self.base = base
        self.lock_wait_s = lock_wait_s
        # database -> its tables' shapes (framework.storage.table_shapes), forgotten after DDL.
        self.shapes: dict[str, SchemaShapes] = {}
        self.pool: ConnectionPool[MySQLTableConnection] = ConnectionPool(
            self._connect, lambda c: c.close(), size=pool_size)

    def database(self, table_id: int) -> str:
        return f"{self.base}_t{int(table_id)}"

    def _connect(self) -> MySQLTableConnection:
        # No CLIENT.FOUND_ROWS, as mysqli on BGA: the affected rows of an UPDATE are the rows
        # it changed; execute() reads the rows it matched from the info message (the
        # framework's "update, else insert" relies on those).
        # MULTI_STATEMENTS for the transaction's own commands only (MySQLTableConnection.open,
        # finish): every other text with a second statement is refused before it is sent.
        raw = pymysql.connect(**self.connect_args, autocommit=True, charset="utf8mb4",
                              conv=CONVERSIONS, connect_timeout=10,
                              client_flag=CLIENT.MULTI_STATEMENTS)
        with raw.cursor() as cur:
            cur.execute("SET time_zone = '+00:00'")
        return MySQLTableConnection(raw, self.shapes)

    def _admin(self, sql: str, params: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        with self.pool.checkout() as conn:
            return conn.execute(sql, params).rows

    def exists(self, table_id: int) -> bool:
        return bool(self._admin("SELECT 1 AS x FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s",
                                (self.database(table_id),)))

    @contextmanager
    def _session(self, conn: MySQLTableConnection, table_id: int, write: bool,
                 database: str | None = None, recover: bool = False,
                 first_read: str | None = None) -> Iterator[MySQLTableConnection]:
        """Lock (writers), select the database and begin (and ``first_read``) in one round
        trip; run one transaction; commit (or roll back) and unlock in another. ``recover``
        (an upgrade): columns an unfinished upgrade added in place are dropped first
        (``mysql_columns``)."""
        name = self.database(table_id)
        journal = conn.open(name if write else None, self.lock_wait_s, database or name, write,
                            probe=UNDO_PROBE if recover else None, first_read=first_read)
        if journal:
            try:
                self._recover(conn, journal[0][0], None, restart=True)
            except BaseException:
                conn.release_quietly()
                raise
        conn.table_id, conn.database = table_id, database or name
        try:
            yield conn
        except BaseException:
            conn.finish(commit=False)
            raise
        conn.finish(commit=True)

    @contextmanager
    def connect(self, table_id: int, write: bool = True,
                first_read: str | None = None) -> Iterator[MySQLTableConnection]:
        with self.pool.checkout(self.database(table_id)) as conn, \
                self._session(conn, table_id, write, first_read=first_read) as db:
            yield db

    @contextmanager
    def create(self, table_id: int) -> Iterator[MySQLTableConnection]:
        name = self.database(table_id)
        if self.exists(table_id):
            raise FileExistsError(f"table {table_id} already has a database")
        self._admin(f"CREATE DATABASE {quote(name)} CHARACTER SET utf8mb4")
        try:
            with self.connect(table_id) as conn:
                yield conn
        except BaseException:
            self.drop(table_id)
            raise

    @contextmanager
    def upgrading(self, table_id: int, ddl: bool = True) -> Iterator[MySQLTableConnection]:
        """A transaction for an upgrade, all-or-nothing despite MariaDB.

        ``ddl=False``: the table's own transaction, in place, with DDL refused (a release
        with no schema change costs no copy); the first DDL statement raises
        ``DDLNeededError``, and the block ends with it, everything rolled back.

        MariaDB commits each DDL statement, so the upgrade runs in a work database
        (``<db>_up``) while the table's lock is held, holding only what it writes: a table is
        copied there just before a statement first writes it, and read until then through a
        read-only view of the live one (``mysql_overlay``). On success one multi-table
        ``RENAME TABLE`` (atomic) moves the copied live tables out to ``<db>_old`` and the
        work database's tables in; on failure the work database is dropped and the live one
        was never written. A crash at any point leaves the live database whole; the leftovers
        are dropped by the next upgrade of that table.
        """
        if not ddl:
            with self._in_place(table_id) as conn:
                yield conn
            return
        live = self.database(table_id)
        work, old = f"{live}_up", f"{live}_old"
        with self.pool.checkout() as conn:
            conn.lock(live, self.lock_wait_s)
            try:
                self._drop_leftovers(conn, work, old)
                try:
                    conn.execute(f"CREATE DATABASE {quote(work)} CHARACTER SET utf8mb4", None)
                    tables, linked = self._base_tables(conn, live)
                    if "arena_meta" in tables:  # columns an unfinished upgrade added in place
                        journal = conn.execute(f"SELECT meta_value AS v FROM {quote(live)}.arena_meta "
                                               "WHERE meta_key = %s", (UNDO_KEY,)).rows
                        if journal:
                            self._recover(conn, journal[0]["v"], live, restart=False)
                    overlay = Overlay(live, work, tables)
                    conn.use(work)
                    conn.table_id, conn.database = table_id, work
                    conn.overlay = overlay
                    if linked:  # foreign keys: their tables come along together
                        conn.execute("SET SESSION foreign_key_checks = 0", None)
                        try:
                            overlay.copy_all(conn)
                        finally:
                            conn.execute("SET SESSION foreign_key_checks = 1", None)
                    else:  # what every upgrade writes: its release, the players' notice
                        for name in UPGRADE_WRITES:
                            if name in tables:
                                overlay.copy(conn, name)
                    conn.begin(True)
                    try:
                        yield conn
                    except BaseException:
                        conn.rollback()
                        raise
                    conn.commit()
                    moves = overlay.moves(conn, old)
                    conn.overlay = None
                    if moves:
                        conn.execute(f"CREATE DATABASE {quote(old)} CHARACTER SET utf8mb4", None)
                        conn.execute("RENAME TABLE " + ", ".join(moves), None)
                finally:
                    conn.overlay = None
                    conn.namespace = None
                    if not conn.broken:
                        self._drop_leftovers(conn, work, old)
            finally:
                conn.unlock()

    @staticmethod
    def _drop_leftovers(conn: MySQLTableConnection, *databases: str) -> None:
        """Drop those of ``databases`` that exist (one look-up when none does)."""
        marks = ", ".join("%s" for _ in databases)
        found = conn.execute(f"SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME "
                             f"IN ({marks})", databases).rows
        for row in found:
            conn.execute(f"DROP DATABASE IF EXISTS {quote(row['s'])}", None)

    @staticmethod
    def _base_tables(conn: MySQLTableConnection, database: str) -> tuple[set[str], bool]:
        """The base tables of ``database``, and whether any has a foreign key."""
        rows = conn.execute(
            "SELECT TABLE_NAME AS t, TABLE_TYPE AS k FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s "
            "UNION ALL SELECT TABLE_NAME, 'FOREIGN KEY' FROM information_schema.REFERENTIAL_CONSTRAINTS "
            "WHERE CONSTRAINT_SCHEMA = %s", (database, database)).rows
        return {r["t"] for r in rows if r["k"] == "BASE TABLE"}, any(r["k"] == "FOREIGN KEY" for r in rows)

    @staticmethod
    def _recover(conn: MySQLTableConnection, journal: str | None, database: str | None,
                 restart: bool) -> None:
        """Drop the columns an unfinished upgrade added in place (its journal, ``journal``),
        under the table's lock; ``restart``: a transaction was open, and is begun again."""
        pairs = read_undo(journal)
        log.warning("table database %s: dropping the columns of an unfinished upgrade: %s",
                    database or conn.database, pairs)
        conn.forget_shapes()
        statements = undo_statements(pairs, database)
        conn.run_several("; ".join([*statements, "START TRANSACTION"] if restart else statements))

    @contextmanager
    def adding_columns(self, table_id: int) -> Iterator[MySQLTableConnection]:
        """An upgrade in place whose only DDL adds columns (``mysql_columns``: each written
        down first, dropped again on failure, and by the next upgrade after a crash); any
        other DDL, or DDL after a write, undoes everything and raises ``DDLNeededError``
        (then ``upgrading``, on a copy)."""
        name = self.database(table_id)
        with self.pool.checkout(name) as conn:
            journal = conn.open(name, self.lock_wait_s, name, True, probe=UNDO_PROBE)
            conn.table_id, conn.database = table_id, name
            columns = InPlaceColumns()
            try:
                if journal:
                    self._recover(conn, journal[0][0], None, restart=True)
                conn.columns = columns
                try:
                    yield conn
                    columns.flush(conn)
                finally:
                    conn.columns = None
                if columns.refused is not None:  # the body swallowed the refusal
                    raise DDLNeededError(f"{columns.refused} (the error was caught)")
            except BaseException as exc:
                self._undo_columns(conn, columns)
                if columns.refused is not None and not isinstance(exc, DDLNeededError):
                    raise DDLNeededError(columns.refused) from exc
                raise
            conn.finish(commit=True, first=DELETE_UNDO if columns.added else None)

    @staticmethod
    def _undo_columns(conn: MySQLTableConnection, columns: InPlaceColumns) -> None:
        """After a failure: the transaction rolled back, the columns added dropped again and
        the journal deleted, then the lock released (a connection that fails meanwhile is
        dropped: the journal stays for the next upgrade)."""
        try:
            conn.rollback()
            if columns.added and not conn.broken:
                conn.forget_shapes()
                conn.run_several("; ".join(undo_statements(columns.added)))
        except Exception as exc:
            log.warning("table database %s: undoing the columns added failed, dropping the "
                        "connection (the next upgrade drops them): %s", conn.database, exc)
            conn.broken = True
        finally:
            conn.unlock()

    @contextmanager
    def _in_place(self, table_id: int) -> Iterator[MySQLTableConnection]:
        with self.pool.checkout(self.database(table_id)) as conn:
            conn.refuse_ddl, conn.ddl_refused = True, False
            try:
                with self._session(conn, table_id, True, recover=True) as db:
                    try:
                        yield db
                    except BaseException as exc:
                        if conn.ddl_refused:  # whatever the body made of the refusal
                            raise DDLNeededError(str(exc)) from exc
                        raise
                    if conn.ddl_refused:  # the body swallowed it: keep nothing
                        raise DDLNeededError("DDL in an upgrade run in place (the error was caught)")
            finally:
                conn.refuse_ddl = conn.ddl_refused = False

    @contextmanager
    def rehearsal(self, table_id: int) -> Iterator[MySQLTableConnection]:
        """A throw-away copy of the table's database (``<db>_rh<hex>``), dropped afterwards:
        for upgrade rehearsals. The table is locked only while it is copied."""
        import uuid

        live = self.database(table_id)
        copy = f"{live}_rh{uuid.uuid4().hex[:8]}"
        with self.pool.checkout() as conn:
            conn.lock(live, self.lock_wait_s)
            try:
                self._clone(conn, live, copy)
            finally:
                conn.unlock()
            try:
                conn.use(copy)
                conn.table_id, conn.database = table_id, copy
                conn.begin(True)
                try:
                    yield conn
                finally:
                    conn.rollback()
            finally:
                conn.namespace = None
                if not conn.broken:
                    conn.execute(f"DROP DATABASE IF EXISTS {quote(copy)}", None)

    @staticmethod
    def _tables_of(conn: MySQLTableConnection, database: str) -> list[str]:
        rows = conn.execute("SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s "
                            "ORDER BY TABLE_NAME", (database,)).rows
        return [r["t"] for r in rows]

    def _clone(self, conn: MySQLTableConnection, source: str, target: str) -> None:
        """``target``: a copy of database ``source`` (tables as SHOW CREATE TABLE gives them,
        so keys, defaults, AUTO_INCREMENT counters and foreign keys come along; then rows)."""
        conn.execute(f"CREATE DATABASE {quote(target)} CHARACTER SET utf8mb4", None)
        conn.execute("SET SESSION foreign_key_checks = 0", None)
        try:
            for table in self._tables_of(conn, source):
                create = conn.execute(f"SHOW CREATE TABLE {quote(source)}.{quote(table)}", None).rows[0]
                conn.use(target)
                conn.execute(create["Create Table"].replace("%", "%%"), ())
                conn.execute(f"INSERT INTO {quote(target)}.{quote(table)} "
                             f"SELECT * FROM {quote(source)}.{quote(table)}", None)
        finally:
            conn.execute("SET SESSION foreign_key_checks = 1", None)

    def drop(self, table_id: int) -> None:
        self._admin(f"DROP DATABASE IF EXISTS {quote(self.database(table_id))}")

    def latest_packets(self, table_ids: list[int]) -> dict[int, int]:
        """The last gamelog id of each table, a hundred tables per statement (the poller that
        wakes event streams of other processes)."""
        out: dict[int, int] = {}
        for start in range(0, len(table_ids), 100):
            chunk = table_ids[start:start + 100]
            sql = " UNION ALL ".join(
                f"SELECT {int(t)} AS t, MAX(gamelog_packet_id) AS m FROM "
                f"{quote(self.database(t))}.{quote('gamelog')}" for t in chunk)
            try:
                rows = self._admin(sql)
            except pymysql.err.Error:
                rows = []
                for t in chunk:  # a table was dropped meanwhile: ask the others one by one
                    try:
                        rows += self._admin(f"SELECT {int(t)} AS t, MAX(gamelog_packet_id) AS m FROM "
                                            f"{quote(self.database(t))}.{quote('gamelog')}")
                    except pymysql.err.Error:
                        continue
            out.update({int(r["t"]): int(r["m"] or 0) for r in rows})
        return out

    def table_ids(self) -> list[int]:
        pattern = "^" + re.escape(self.base) + "_t[0-9]+$"
        rows = self._admin(
            "SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME RLIKE %s", (pattern,))
        return sorted(int(r["s"][len(self.base) + 2:]) for r in rows)

    def scratch(self, tag: str) -> MySQLStore:
        """A store for throw-away tables (rehearsals) on the same server."""
        return MySQLStore(self.connect_args, f"{self.base}_zz{tag}", pool_size=2)

    def drop_all(self) -> None:
        for table_id in self.table_ids():
            self.drop(table_id)

    def close(self) -> None:
        self.pool.close()
