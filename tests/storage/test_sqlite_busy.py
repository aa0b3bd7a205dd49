"""A busy SQLite file is waited for in Python (``framework.storage.sqlite_busy``), not in
SQLite's busy handler: a table's write transaction and a bus publish wait while another
connection holds the file's write lock, then go through; a file held too long gives
SQLite's own "database is locked"; other errors are not retried."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from framework.live.bus_sqlite import SqliteBus, url_of
from framework.storage.sqlite import SQLiteStore
from framework.storage.sqlite_busy import is_busy, retry_while_busy


def _hold(path: Path, seconds: float) -> tuple[threading.Thread, threading.Event]:
    """Another connection takes ``path``'s write lock and lets it go after ``seconds``."""
    taken = threading.Event()

    def run() -> None:
        conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        taken.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()

    thread = threading.Thread(target=run)
    thread.start()
    taken.wait(5)
    return thread, taken


def _wal_file(path: Path) -> None:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (v INT)")
    conn.close()


def test_a_write_waits_for_the_holder_through_the_given_sleep(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    _wal_file(path)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=0)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.sleep(seconds)

    holder, _ = _hold(path, 0.2)
    started = time.monotonic()
    retry_while_busy(lambda: conn.execute("BEGIN IMMEDIATE"), sleep=sleep)
    waited = time.monotonic() - started
    conn.execute("INSERT INTO t VALUES (1)")
    conn.execute("COMMIT")
    holder.join()
    assert waited >= 0.1  # it could not begin before the holder let go
    assert len(slept) >= 3 and slept[0] == pytest.approx(0.0005)  # short waits first, growing
    assert max(slept) <= 0.008
    assert conn.execute("SELECT v FROM t").fetchall() == [(1,)]


def test_a_file_held_too_long_gives_sqlites_database_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    _wal_file(path)
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=0)
    holder, _ = _hold(path, 0.5)
    with pytest.raises(sqlite3.OperationalError, match="database is locked") as caught:
        retry_while_busy(lambda: conn.execute("BEGIN IMMEDIATE"), timeout_s=0.05)
    assert is_busy(caught.value)
    holder.join()


def test_other_errors_are_not_retried(tmp_path: Path) -> None:
    conn = sqlite3.connect(str(tmp_path / "t.sqlite"), isolation_level=None, timeout=0)
    slept: list[float] = []
    with pytest.raises(sqlite3.OperationalError, match="no such table") as caught:
        retry_while_busy(lambda: conn.execute("SELECT * FROM missing"), sleep=slept.append)
    assert not is_busy(caught.value)
    assert slept == []


def test_a_table_write_waits_for_another_processs_lock(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables")
    with store.create(7) as db:
        db.execute("CREATE TABLE t (v INT)")
    holder, _ = _hold(store.path(7), 0.2)
    with store.connect(7) as db:  # the connection has no busy timeout: this wait is ours
        db.execute("INSERT INTO t VALUES (?)", (5,))
    holder.join()
    with store.connect(7, write=False) as db:
        assert db.execute("SELECT v FROM t").rows == [{"v": 5}]
    store.close()


def test_a_bus_publish_waits_for_another_processs_lock(tmp_path: Path) -> None:
    path = tmp_path / "live-bus.sqlite"
    bus = SqliteBus(url_of(path), poll_s=0.01)
    heard: list[str] = []
    bus.subscribe("t1", heard.append)
    try:
        holder, _ = _hold(path, 0.2)
        bus.publish("t1", "hello")
        holder.join()
        deadline = time.monotonic() + 5
        while not heard and time.monotonic() < deadline:
            time.sleep(0.01)
        assert heard == ["hello"]
    finally:
        bus.close()
