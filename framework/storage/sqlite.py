"""Embedded backend: one SQLite file per game table, connections kept open per process."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from framework.core.errors import StorageUnavailableError
from framework.storage.base import Result, Target
from framework.storage.sql.changed_rows import NOTE_CHANGE
from framework.storage.sql.ddl import copy_table_sql
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import SchemaShapes
from framework.storage.sqlite_busy import is_busy, retry_while_busy
from framework.storage.sqlite_checkpoint import Checkpointer, default_max_open
from framework.storage.sqlite_functions import ChangeCounter, register_sqlite_functions

log = logging.getLogger(__name__)

# SQLite's refusals that are the machine's, not the game's: the action is rolled back whole
# and the player may send it again (HTTP 503).
_STORAGE_FAILURES = {
    "database or disk is full": ("storage_full", "The server's disk is full"),
    "attempt to write a readonly database": ("storage_read_only", "The table's file cannot be written"),
    "disk i/o error": ("storage_io", "The server could not write the table's file"),
    "database is locked": ("table_busy", "The table is busy"),
    "unable to open database file": ("storage_io", "The server could not open the table's file"),
}


def storage_failure(exc: sqlite3.Error, table_id: int) -> StorageUnavailableError | None:
    """The error to show for a failure of the machine (disk full, read-only file...), or
    None when ``exc`` is an ordinary SQL error."""
    text = str(exc).lower()
    for needle, (code, what) in _STORAGE_FAILURES.items():
        if needle in text:
            log.error("table %s: SQLite refused to write: %s", table_id, exc)
            err = StorageUnavailableError(what + "; your move was not applied. Try again later.", code)
            err.__cause__ = exc
            return err
    return None


_DDL_HEADS = ("CREA", "ALTE", "DROP")

#: Table files and the folders that hold them are their owner's alone (a table file holds
#: every hand; SQLite gives its ``-wal`` and ``-shm`` files the database file's mode).
FILE_MODE = 0o600
FOLDER_MODE = 0o700


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with ``FILE_MODE`` unless it exists (an empty file is an empty
    SQLite database), so SQLite does not create it readable by every local user."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass


def make_private_folder(path: Path) -> None:
    """``mkdir -p`` whose last folder, when it is made here, has ``FOLDER_MODE``."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)


class SQLiteTableConnection:
    """A game table's SQLite file; DDL is transactional (explicit BEGIN, no pysqlite magic)."""

    dialect: Target = "sqlite"

    def __init__(self, table_id: int, path: Path, checkpoint_off: bool = False) -> None:
        """``checkpoint_off``: the connection's commits never checkpoint the WAL (SQLite's
        ``wal_autocheckpoint``, which syncs the disk in the middle of a request): the
        store's ``Checkpointer`` thread does."""
        self.table_id = table_id
        self.path = path
        # isolation_level=None: pysqlite issues no implicit COMMIT before DDL, so a failed
        # migration rolls back whole (SQLAlchemy's documented recipe for SQLite).
        try:
            create_private_file(path)
        except OSError as exc:  # a missing folder or a full disk: sqlite3 says which below
            log.debug("table %s: cannot create %s: %s", table_id, path, exc)
        # timeout=0: SQLite never sleeps in its busy handler, which would stop a gevent
        # worker whole; a busy file is waited for here (``framework.storage.sqlite_busy``)
        self.raw = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, timeout=0
        )
        try:
            retry_while_busy(lambda: self.raw.execute("PRAGMA journal_mode=WAL"))
            self.raw.execute("PRAGMA synchronous=NORMAL")
            self.raw.execute("PRAGMA foreign_keys=ON")
            if checkpoint_off:
                self.raw.execute("PRAGMA wal_autocheckpoint=0")
            register_sqlite_functions(self.raw)
            # counts the rows a game's UPDATE changes (mysqli's affected rows)
            self.change_counter = ChangeCounter()
            self.raw.create_function(NOTE_CHANGE, 2, self.change_counter)
        except sqlite3.OperationalError as exc:
            self.raw.close()
            failure = storage_failure(exc, table_id)
            if failure is not None:
                raise failure from exc
            raise
        self.lock = threading.Lock()
        self.owner: int | None = None  # thread holding ``lock``
        self.schema_shapes: SchemaShapes | None = None
        self._schema_changed = False  # DDL ran in the open transaction (its rollback undoes it)
        self._writing = False  # the open transaction is a write transaction
        self.wal_path = f"{path}-wal"
        # the write-ahead log's identity, size and time right after this connection's last
        # commit (``written_elsewhere``); None: unknown
        self._wal_mark: tuple[int, int, int] | None = None
        self._elsewhere: bool | None = None  # ``written_elsewhere``'s answer in this write transaction
        self._elsewhere_seen = False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        if sql.lstrip()[:4].upper() in _DDL_HEADS:
            self.schema_shapes = None
            self._schema_changed = True
        args = tuple(params)
        try:
            try:
                cur = self.raw.execute(sql, args)
            except sqlite3.OperationalError as exc:
                # only a read meets a busy file (one being recovered): a write transaction
                # holds the file's write lock from its BEGIN IMMEDIATE on
                if not is_busy(exc) or (self._writing and self.raw.in_transaction):
                    raise
                cur = retry_while_busy(lambda: self.raw.execute(sql, args))
        except sqlite3.OperationalError as exc:
            failure = storage_failure(exc, self.table_id)
            if failure is not None:
                raise failure from exc
            raise
        if cur.description is None:
            return Result([], cur.rowcount, cur.lastrowid)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, row)) for row in cur.fetchall()]  # noqa: B905 (same length)
        return Result(rows, cur.rowcount, cur.lastrowid)

    def table_names(self) -> list[str]:
        cur = self.raw.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        return [r[0] for r in cur.fetchall()]

    def column_names(self, table: str) -> list[str]:
        cur = self.raw.execute(f"PRAGMA table_info({quote_identifier(table, 'sqlite')})")
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
        self.raw.execute(copy_table_sql(source, target, "sqlite"))

    def dbapi_connection(self) -> Any:
        self.schema_shapes = None  # Alembic's operations change the schema behind execute()
        self._schema_changed = True
        return self.raw

    def begin(self, write: bool) -> None:
        self._writing = write
        self._elsewhere_seen = False  # ``written_elsewhere`` not asked yet in this transaction
        try:
            if write:  # another process's writer or a checkpoint may hold the file a while
                retry_while_busy(lambda: self.raw.execute("BEGIN IMMEDIATE"))
            else:
                self.raw.execute("BEGIN")
        except sqlite3.OperationalError as exc:
            self.rollback()
            failure = storage_failure(exc, self.table_id)
            if failure is not None:
                raise failure from exc
            raise

    def commit(self) -> None:
        try:
            self.raw.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self.rollback()  # a COMMIT refused for lack of space leaves the transaction open
            failure = storage_failure(exc, self.table_id)
            if failure is not None:
                raise failure from exc
            raise
        self._schema_changed = False
        if self._writing:  # a reader's commit may come after another connection's write
            self._wal_mark = self._wal_now()

    def first_rows(self, sql: str) -> list[dict[str, Any]] | None:
        return None  # nothing is read ahead: a statement costs no round trip here

    def written_elsewhere(self) -> bool | None:
        """Another connection's commit appends to the write-ahead log (or restarts it): the
        log's size or time moved since this connection's last commit. A commit in the same
        clock tick that leaves the size as it was goes unseen: a hint only. Asked again in
        the same write transaction, the answer holds (no one else can write meanwhile): no
        second ``stat``."""
        if self._elsewhere_seen:
            return self._elsewhere
        mark = self._wal_mark
        now = None if mark is None else self._wal_now()
        answer = None if now is None else now != mark
        if self._writing:
            self._elsewhere, self._elsewhere_seen = answer, True
        return answer

    def _wal_now(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.wal_path)
        except OSError:  # no log (the last connection of a process closed it)
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def rollback(self) -> None:
        if self._schema_changed:  # the shapes read since may be of the undone DDL's schema
            self.schema_shapes = None
            self._schema_changed = False
        if self.raw.in_transaction:
            try:
                self.raw.execute("ROLLBACK")
            except sqlite3.OperationalError as exc:  # SQLite may have rolled back already
                log.warning("table %s: ROLLBACK failed: %s", self.table_id, exc)

    def close(self) -> None:
        self.raw.close()


def _last_packet(raw: sqlite3.Connection) -> int:
    return int(raw.execute("SELECT MAX(gamelog_packet_id) FROM gamelog").fetchone()[0] or 0)


class SQLiteStore:
    """``<directory>/<table_id>.sqlite`` files, with a bounded LRU of open connections.

    Opening a WAL file per action costs about a millisecond (and closing the last connection
    to it checkpoints it, syncing the disk), so connections stay open: ``max_open`` of them,
    by default half of what the process's open-files limit allows (``default_max_open``,
    which raises the soft limit to the hard one), or ``ARENA_SQLITE_MAX_OPEN``. A
    per-connection lock serialises threads of this process and ``BEGIN IMMEDIATE``
    serialises processes. Commits never checkpoint: the store's ``Checkpointer`` thread
    does, every few hundred commits of a table, and closes the connections the LRU lets go.
    """

    dialect: Target = "sqlite"
    notify_conninfo: str | None = None  # no LISTEN/NOTIFY: the site's bus is Redis or the poll
    #: how often the poll (framework.live.poll) looks for other processes' commits (cheap here: see
    #: ``latest_packets``)
    poll_interval_s = 0.01

    def __init__(self, directory: Path, max_open: int | None = None) -> None:
        self.directory = Path(directory)
        make_private_folder(self.directory)
        # tables kept open per process (each holds 3 files and ~200 KiB): ARENA_SQLITE_MAX_OPEN
        self.max_open = max_open or int(os.environ.get("ARENA_SQLITE_MAX_OPEN") or 0) or default_max_open()
        self.checkpointer = Checkpointer()
        self._open: OrderedDict[int, SQLiteTableConnection] = OrderedDict()
        self._pool_lock = threading.Lock()
        self.temporary = False  # a scratch folder, removed by drop_all
        # The poll's own connections and the last (data_version, gamelog id) it saw.
        self._poll_lock = threading.Lock()
        self._poll_conns: dict[int, sqlite3.Connection] = {}
        self._poll_marks: dict[int, tuple[int, int]] = {}
        self._poll_seen: dict[int, float] = {}  # table -> when a stream last waited on it

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
            conn = SQLiteTableConnection(table_id, self.path(table_id), checkpoint_off=True)
            self._open[table_id] = conn
            if len(self._open) > self.max_open:
                self._close_least_recent(keep=table_id)
            return conn

    def _close_least_recent(self, keep: int) -> None:
        """Let the least recently used connections go until ``max_open`` are left, skipping
        ``keep``'s and those in use (they stay the least recent). From the front of the LRU
        order: a checkout past the bound costs a pop or two, not a walk over every open
        table (thousands at a large site). ``_pool_lock`` is held."""
        opened = self._open
        busy: list[tuple[int, SQLiteTableConnection]] = []
        while opened and len(opened) + len(busy) > self.max_open:
            old_id, old = opened.popitem(last=False)
            if old_id == keep or not old.lock.acquire(blocking=False):
                busy.append((old_id, old))
                continue
            # closing may checkpoint (the last connection to the file): not here
            self.checkpointer.close_later(old.raw)
            old.lock.release()
        for old_id, old in reversed(busy):
            opened[old_id] = old
            opened.move_to_end(old_id, last=False)

    @contextmanager
    def connect(self, table_id: int, write: bool = True,
                first_read: str | None = None) -> Iterator[SQLiteTableConnection]:
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
                if write:
                    self.checkpointer.committed(conn.path)

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
                    self.checkpointer.committed(conn.path)
        except BaseException:
            self.drop(table_id)
            raise

    @contextmanager
    def upgrading(self, table_id: int, ddl: bool = True) -> Iterator[SQLiteTableConnection]:
        """SQLite DDL is transactional here: an upgrade is one ordinary write transaction."""
        with self.connect(table_id) as conn:
            yield conn

    @contextmanager
    def rehearsal(self, table_id: int) -> Iterator[SQLiteTableConnection]:
        """A throw-away copy of the table's database (a backup into a temporary file), in a
        transaction that is rolled back: for upgrade rehearsals."""
        import tempfile

        with tempfile.TemporaryDirectory(prefix="arena-rehearsal-") as tmp:
            path = Path(tmp) / f"{int(table_id)}.sqlite"
            with self.connect(table_id, write=False) as db:
                target = sqlite3.connect(str(path))
                db.raw.backup(target)
                target.close()
            conn = SQLiteTableConnection(table_id, path)
            try:
                conn.begin(True)
                try:
                    yield conn
                finally:
                    conn.rollback()
            finally:
                conn.close()

    def latest_packets(self, table_ids: list[int]) -> dict[int, int]:
        """The last gamelog id of each table (for the poller waking other processes' streams).

        The poller has a connection of its own per watched table and asks it ``PRAGMA
        data_version`` (which changes whenever another connection commits; it reads the WAL
        index, no transaction); the log is read again only when it moved. So polling every
        few milliseconds costs a few microseconds per table. Beyond ``max_open`` such
        connections (open files are limited), a table's log is read through the ordinary
        connections instead.
        """
        out: dict[int, int] = {}
        with self._poll_lock:
            for table_id in table_ids:
                try:
                    last = self._poll_one(table_id)
                except (sqlite3.Error, FileNotFoundError, StorageUnavailableError):
                    self._forget_poll(table_id)
                    continue
                if last is not None:
                    out[table_id] = last
            # A stream busy sending is not waiting for a moment: keep its table's connection
            # until nobody has waited on the table for a while.
            now = time.monotonic()
            for table_id in table_ids:
                self._poll_seen[table_id] = now
            for table_id in [t for t, seen in self._poll_seen.items() if now - seen > 30.0]:
                self._forget_poll(table_id)
        return out

    def _poll_one(self, table_id: int) -> int | None:
        """A table's last gamelog id (hold ``_poll_lock``); None when it has no file."""
        conn = self._poll_conns.get(table_id)
        if conn is None:
            if not self.exists(table_id):
                return None
            if len(self._poll_conns) >= self.max_open:
                with self.connect(table_id, write=False) as db:
                    return _last_packet(db.raw)
            conn = sqlite3.connect(str(self.path(table_id)), isolation_level=None,
                                   check_same_thread=False, timeout=5.0)
            self._poll_conns[table_id] = conn
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        mark = self._poll_marks.get(table_id)
        if mark is None or mark[0] != version:
            mark = self._poll_marks[table_id] = (version, _last_packet(conn))
        return mark[1]

    def _forget_poll(self, table_id: int) -> None:
        """Close the poller's connection to a table (hold ``_poll_lock``)."""
        conn = self._poll_conns.pop(table_id, None)
        self._poll_marks.pop(table_id, None)
        self._poll_seen.pop(table_id, None)
        if conn is not None:
            conn.close()

    def table_ids(self) -> list[int]:
        return sorted(int(p.stem) for p in self.directory.glob("*.sqlite") if p.stem.isdigit())

    def scratch(self, tag: str) -> SQLiteStore:
        """A store for throw-away tables (rehearsals), in a temporary folder."""
        import tempfile

        store = SQLiteStore(Path(tempfile.mkdtemp(prefix=f"arena-scratch-{tag}-")))
        store.temporary = True
        return store

    def drop_all(self) -> None:
        for table_id in self.table_ids():
            self.drop(table_id)
        if self.temporary:
            import shutil

            self.close()
            shutil.rmtree(self.directory, ignore_errors=True)

    def drop(self, table_id: int) -> None:
        self.checkpointer.forget(self.path(table_id))
        with self._poll_lock:
            self._forget_poll(table_id)
        with self._pool_lock:
            conn = self._open.pop(table_id, None)
        if conn is not None:
            conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path(table_id)) + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        self.checkpointer.stop()
        with self._poll_lock:
            for table_id in list(self._poll_conns):
                self._forget_poll(table_id)
        with self._pool_lock:
            conns = list(self._open.values())
            self._open.clear()
        for conn in conns:
            # Closing a connection another thread is using crashes the interpreter: wait for it.
            if conn.lock.acquire(timeout=10):
                try:
                    conn.close()
                finally:
                    conn.lock.release()
            else:
                log.warning("table %s still in use: its connection is left open", conn.table_id)
