"""Embedded backend: one SQLite file per game table, connections kept open per process."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from framework.storage.base import Result, Target

log = logging.getLogger(__name__)


class SQLiteTableConnection:
    """A game table's SQLite file; DDL is transactional (explicit BEGIN, no pysqlite magic)."""

    dialect: Target = "sqlite"

    def __init__(self, table_id: int, path: Path) -> None:
        self.table_id = table_id
        self.path = path
        # isolation_level=None: pysqlite issues no implicit COMMIT before DDL, so a failed
        # migration rolls back whole (SQLAlchemy's documented recipe for SQLite).
        self.raw = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, timeout=30.0
        )
        self.raw.execute("PRAGMA journal_mode=WAL")
        self.raw.execute("PRAGMA synchronous=NORMAL")
        self.raw.execute("PRAGMA foreign_keys=ON")
        self.lock = threading.Lock()
        self.owner: int | None = None  # thread holding ``lock``

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        cur = self.raw.execute(sql, tuple(params))
        if cur.description is None:
            return Result([], cur.rowcount, cur.lastrowid)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        return Result(rows, cur.rowcount, cur.lastrowid)

    def table_names(self) -> list[str]:
        cur = self.raw.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        return [r[0] for r in cur.fetchall()]

    def column_names(self, table: str) -> list[str]:
        cur = self.raw.execute(f'PRAGMA table_info("{table}")')
        return [r[1] for r in cur.fetchall()]

    def all_columns(self) -> dict[str, list[str]]:
        """Every table's columns in one statement (table-valued ``pragma_table_info``)."""
        cur = self.raw.execute(
            "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p "
            "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid"
        )
        out: dict[str, list[str]] = {}
        for table, column in cur.fetchall():
            out.setdefault(table, []).append(column)
        return out

    def copy_structure(self, source: str, target: str) -> None:
        self.raw.execute(f'CREATE TABLE "{target}" AS SELECT * FROM "{source}" WHERE 0')

    def dbapi_connection(self) -> Any:
        return self.raw

    def begin(self, write: bool) -> None:
        self.raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    def commit(self) -> None:
        self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()


class SQLiteStore:
    """``<directory>/<table_id>.sqlite`` files, with a bounded LRU of open connections.

    Opening a WAL file per action costs about a millisecond (the last connection to close
    checkpoints it), so connections stay open; a per-connection lock serialises threads of
    this process and ``BEGIN IMMEDIATE`` serialises processes.
    """

    dialect: Target = "sqlite"

    def __init__(self, directory: Path, max_open: int = 256) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.max_open = max_open
        self._open: OrderedDict[int, SQLiteTableConnection] = OrderedDict()
        self._pool_lock = threading.Lock()

    def path(self, table_id: int) -> Path:
        return self.directory / f"{int(table_id)}.sqlite"

    def exists(self, table_id: int) -> bool:
        return self.path(table_id).exists()

    def _checkout(self, table_id: int) -> SQLiteTableConnection:
        with self._pool_lock:
            conn = self._open.get(table_id)
            if conn is not None:
                self._open.move_to_end(table_id)
                return conn
            conn = SQLiteTableConnection(table_id, self.path(table_id))
            self._open[table_id] = conn
            if len(self._open) > self.max_open:
                for old_id, old in list(self._open.items()):
                    if len(self._open) <= self.max_open:
                        break
                    if old_id != table_id and old.lock.acquire(blocking=False):
                        del self._open[old_id]
                        old.close()
                        old.lock.release()
            return conn

    @contextmanager
    def connect(self, table_id: int, write: bool = True) -> Iterator[SQLiteTableConnection]:
        if table_id not in self._open and not self.exists(table_id):
            raise FileNotFoundError(f"no database for table {table_id}")
        conn = self._checkout(table_id)
        with self._hold(conn):
            conn.begin(write)
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            else:
                conn.commit()

    @staticmethod
    @contextmanager
    def _hold(conn: SQLiteTableConnection) -> Iterator[None]:
        me = threading.get_ident()
        if conn.owner == me:
            raise RuntimeError(
                f"table {conn.table_id} is already open in this thread: "
                "one request cannot open its own table twice"
            )
        with conn.lock:
            conn.owner = me
            try:
                yield
            finally:
                conn.owner = None

    @contextmanager
    def create(self, table_id: int) -> Iterator[SQLiteTableConnection]:
        path = self.path(table_id)
        if path.exists():
            raise FileExistsError(f"table {table_id} already has a database")
        conn = self._checkout(table_id)
        try:
            with self._hold(conn):
                conn.begin(True)
                try:
                    yield conn
                except BaseException:
                    conn.rollback()
                    raise
                else:
                    conn.commit()
        except BaseException:
            self.drop(table_id)
            raise

    def drop(self, table_id: int) -> None:
        with self._pool_lock:
            conn = self._open.pop(table_id, None)
        if conn is not None:
            conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path(table_id)) + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        with self._pool_lock:
            for conn in self._open.values():
                conn.close()
            self._open.clear()
