"""The bus of the processes of one machine on an SQLite site: messages are rows of a small
SQLite file beside the tables, and each process's listener reads the rows after the last it
saw whenever the file changed. One look costs one ``PRAGMA data_version`` whatever the
number of tables streamed (the per-table poll of ``framework.live.poll`` costs a read per
table)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from framework.live.channels import BusClosedError, Subscriptions, validate_channel
from framework.storage.sqlite_checkpoint import Checkpointer, os_lock_allocator, os_thread_tools, take_all

log = logging.getLogger(__name__)

SCHEMES = ("sqlite",)
#: the file's name in a site's folder of tables (not a table: its name is not a number)
FILE_NAME = "live-bus.sqlite"
MAX_MESSAGE = 8000  # characters: what a commit changed, with its notifications when they are short


def path_of(url: str) -> Path:
    """The file of a ``sqlite:///...`` bus URL.

    >>> str(path_of("sqlite:////srv/site/tables/live-bus.sqlite"))
    '/srv/site/tables/live-bus.sqlite'

    Raises:
        ValueError: the URL names no file.
    """
    parts = urlsplit(url)
    path = unquote(parts.path)
    if parts.scheme.lower() not in SCHEMES or not path or path == "/":
        raise ValueError(f"not an SQLite bus URL (sqlite:///path/to/file): {url!r}")
    return Path(path[1:] if path.startswith("//") else path)


def url_of(path: Path) -> str:
    """The bus URL of a file (``path_of``'s inverse)."""
    return f"sqlite:///{Path(path).resolve()}"


class SqliteBus:
    """Publishing hands the message to this process's writer, an operating-system thread
    that inserts what is waiting as rows in one short write transaction (so a publish
    never waits for the file's write lock, which another process may hold, in a request's
    event loop); one listener thread per
    process (a greenlet under gevent) looks every ``poll_s`` seconds at the file's
    ``data_version`` (which moves when another connection commits; it reads the WAL index,
    no transaction) and dispatches the new rows in id order, the order of the publishes.

    ``subscribe`` takes effect at once: a message published after it returns is delivered.
    A process hears its own messages too, as on Redis. Rows older than the last ``keep`` are
    deleted as publishing goes on; a listener that fell further behind than that sees the gap
    and calls ``on_reconnect`` (messages were lost: re-read what is watched).
    """

    def __init__(self, url: str, *, on_reconnect: Callable[[], None] | None = None,
                 poll_s: float = 0.005, keep: int = 20000) -> None:
        self.path = path_of(url)
        self.on_reconnect = on_reconnect
        self.poll_s = poll_s
        self.keep = keep
        self._subscriptions = Subscriptions()
        self._closed = False
        self._stop = threading.Event()
        allocate_lock = os_lock_allocator()
        self._write_lock = allocate_lock()  # taken by the writer thread: an interpreter lock
        # the publishes' commits never sync the disk in the publisher's request: a thread
        # checkpoints the file (every 500 publishes of this process)
        self._checkpointer = Checkpointer(every=500)
        self._writer = self._connect()
        self._writer.execute("PRAGMA wal_autocheckpoint=0")
        self._writer.execute("CREATE TABLE IF NOT EXISTS bus_message (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                             "channel TEXT NOT NULL, message TEXT NOT NULL)")
        self._published = 0
        self._pending: deque[tuple[str, str]] = deque()  # appends and pops are atomic
        self._busy = False  # the writer took messages it has not committed yet
        self._wake = allocate_lock()  # released when a message waits, or to stop
        self._wake.acquire()
        self._written = allocate_lock()  # held while the writer runs
        self._written.acquire()
        start_thread, _ = os_thread_tools()
        start_thread(self._write_loop, ())
        self._reader = self._connect()
        self._last = self._top(self._reader)  # messages from now on
        self.lost = 0  # times the listener found rows deleted before it read them
        self._thread = threading.Thread(target=self._run, name="arena-bus-sqlite", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=10.0)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")  # a lost message costs a read, not a move
        return conn

    @staticmethod
    def _top(conn: sqlite3.Connection) -> int:
        return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM bus_message").fetchone()[0])

    # ------------------------------------------------------------------ the Bus interface
    def publish(self, channel: str, message: str) -> None:
        """The message goes out in order after this process's earlier ones, as soon as the
        writer thread has inserted it (a file that refuses it is logged: the streams' slow
        read of the log is the safety net).

        Raises: ValueError (channel name, a message over ``MAX_MESSAGE``), BusClosedError."""
        validate_channel(channel)
        if len(message) > MAX_MESSAGE:
            raise ValueError(f"a bus message is at most {MAX_MESSAGE} characters, not {len(message)}")
        if self._closed:
            raise BusClosedError("publish on a closed bus")
        self._pending.append((channel, message))
        self._signal()

    def _signal(self) -> None:
        try:
            self._wake.release()
        except RuntimeError:  # already released: the writer is about to look
            pass

    def _write_loop(self) -> None:
        try:
            while True:
                self._wake.acquire()
                self._busy = True
                batch = take_all(self._pending)
                if batch:
                    self._write(batch)
                self._busy = False
                if self._closed and not self._pending:
                    return
        finally:
            self._written.release()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until what was published before is written (False: not in ``timeout``
        seconds); for tests and ``close``. It blocks the calling thread."""
        _, sleep = os_thread_tools()
        deadline = time.monotonic() + timeout
        while self._pending or self._busy:
            if time.monotonic() > deadline:
                return False
            sleep(0.001)
        return True

    def _write(self, batch: list[tuple[str, str]]) -> None:
        """Insert ``batch`` in one transaction (on the writer thread)."""
        try:
            with self._write_lock:
                self._writer.execute("BEGIN IMMEDIATE")
                try:
                    self._writer.executemany("INSERT INTO bus_message (channel, message) VALUES (?, ?)",
                                             batch)
                    before = self._published
                    self._published += len(batch)
                    if self._published // 1000 != before // 1000:
                        top = self._top(self._writer)
                        self._writer.execute("DELETE FROM bus_message WHERE id <= ?", (top - self.keep,))
                    self._writer.execute("COMMIT")
                except BaseException:
                    self._writer.execute("ROLLBACK")
                    raise
            self._checkpointer.committed(self.path)
        except sqlite3.Error:
            log.exception("the SQLite bus could not write %d message(s) to %s: they are lost",
                          len(batch), self.path)

    def subscribe(self, channel: str, handler: Callable[[str], None]) -> None:
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("subscribe on a closed bus")
        self._subscriptions.add(channel, handler)

    def unsubscribe(self, channel: str, handler: Callable[[str], None]) -> None:
        validate_channel(channel)
        self._subscriptions.remove(channel, handler)

    def close(self) -> None:
        """Stop, once what was published is written (5 s at most)."""
        with self._write_lock:
            if self._closed:
                return
            self._closed = True
        self._signal()
        if self._written.acquire(timeout=5):
            self._written.release()
        else:
            log.warning("the SQLite bus writer did not finish: %d message(s) not written", len(self._pending))
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        self._checkpointer.stop()
        with self._write_lock:
            self._writer.close()
        self._reader.close()

    # ------------------------------------------------------------------ the listener
    def _run(self) -> None:
        seen_version = -1
        while not self._stop.wait(self.poll_s):
            try:
                version = int(self._reader.execute("PRAGMA data_version").fetchone()[0])
                if version != seen_version:
                    seen_version = version
                    self._deliver()
            except sqlite3.Error:
                log.exception("the SQLite bus listener failed to read %s; it tries again", self.path)
                self._stop.wait(0.5)

    def _deliver(self) -> None:
        rows = self._reader.execute("SELECT id, channel, message FROM bus_message WHERE id > ? ORDER BY id",
                                    (self._last,)).fetchall()
        if not rows:
            return
        if rows[0][0] != self._last + 1:  # deleted before this listener read them
            self.lost += 1
            log.warning("the SQLite bus listener fell behind: messages were lost")
            if self.on_reconnect is not None:
                try:
                    self.on_reconnect()
                except Exception:
                    log.exception("the SQLite bus's on_reconnect hook failed")
        for message_id, channel, message in rows:
            self._last = message_id
            self._subscriptions.dispatch(channel, message)
