"""The bus of the processes of one machine on an SQLite site: messages are rows of a small
SQLite file beside the tables, and each process's listener reads the rows after the last it
saw whenever the file changed. One look costs one ``PRAGMA data_version`` whatever the
number of tables streamed (the per-table poll of ``framework.live.poll`` costs a read per
table)."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from framework.live.channels import BusClosedError, Subscriptions, validate_channel
from framework.storage.sqlite_busy import retry_while_busy
from framework.storage.sqlite_checkpoint import Checkpointer

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
    """Publishing inserts a row (its own short write transaction); one listener thread per
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
        self._write_lock = threading.Lock()
        # the publishes' commits never sync the disk in the publisher's request: a thread
        # checkpoints the file (every 200 publishes of this process)
        self._checkpointer = Checkpointer(every=200)
        self._writer = self._connect()
        self._writer.execute("PRAGMA wal_autocheckpoint=0")
        # ids in publish order without AUTOINCREMENT's extra page write a publish: a new row
        # takes the largest id plus one, and the newest rows are never the ones deleted
        retry_while_busy(lambda: self._writer.execute(
            "CREATE TABLE IF NOT EXISTS bus_message (id INTEGER PRIMARY KEY, "
            "channel TEXT NOT NULL, message TEXT NOT NULL)"))
        self._published = 0
        self._reader = self._connect()
        self._last = self._top(self._reader)  # messages from now on
        self.lost = 0  # times the listener found rows deleted before it read them
        self._thread = threading.Thread(target=self._run, name="arena-bus-sqlite", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        # timeout=0: a busy file is waited for in ``retry_while_busy``, which lets the rest of
        # a gevent worker run meanwhile (SQLite's busy handler would sleep in C)
        conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=0)
        retry_while_busy(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        conn.execute("PRAGMA synchronous=NORMAL")  # a lost message costs a read, not a move
        return conn

    @staticmethod
    def _top(conn: sqlite3.Connection) -> int:
        return int(retry_while_busy(
            lambda: conn.execute("SELECT COALESCE(MAX(id), 0) FROM bus_message").fetchone()[0]))

    # ------------------------------------------------------------------ the Bus interface
    def publish(self, channel: str, message: str) -> None:
        """Raises: ValueError (channel name, a message over ``MAX_MESSAGE``), BusClosedError,
        sqlite3.Error (the file)."""
        validate_channel(channel)
        if len(message) > MAX_MESSAGE:
            raise ValueError(f"a bus message is at most {MAX_MESSAGE} characters, not {len(message)}")
        with self._write_lock:
            if self._closed:
                raise BusClosedError("publish on a closed bus")
            cur = retry_while_busy(lambda: self._writer.execute(
                "INSERT INTO bus_message (channel, message) VALUES (?, ?)", (channel, message)))
            self._published += 1
            self._checkpointer.committed(self.path)
            if self._published % 1000 == 0 and cur.lastrowid is not None:
                last = cur.lastrowid
                retry_while_busy(lambda: self._writer.execute("DELETE FROM bus_message WHERE id <= ?",
                                                              (last - self.keep,)))

    def subscribe(self, channel: str, handler: Callable[[str], None]) -> None:
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("subscribe on a closed bus")
        self._subscriptions.add(channel, handler)

    def unsubscribe(self, channel: str, handler: Callable[[str], None]) -> None:
        validate_channel(channel)
        self._subscriptions.remove(channel, handler)

    def close(self) -> None:
        with self._write_lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        self._checkpointer.stop()
        self._writer.close()
        self._reader.close()

    # ------------------------------------------------------------------ the listener
    def _run(self) -> None:
        seen_version = -1
        while not self._stop.wait(self.poll_s):
            try:
                version = int(retry_while_busy(
                    lambda: self._reader.execute("PRAGMA data_version").fetchone()[0]))
                if version != seen_version:
                    seen_version = version
                    self._deliver()
            except sqlite3.Error:
                log.exception("the SQLite bus listener failed to read %s; it tries again", self.path)
                self._stop.wait(0.5)

    def _deliver(self) -> None:
        last = self._last
        rows = retry_while_busy(lambda: self._reader.execute(
            "SELECT id, channel, message FROM bus_message WHERE id > ? ORDER BY id", (last,)).fetchall())
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
