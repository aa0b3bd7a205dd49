"""SQLite tables' WAL checkpoints and closes made by a thread of their own, never by a
request's commit (framework.storage.sqlite_checkpoint)."""

from __future__ import annotations

import resource
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from framework.storage.sqlite import SQLiteStore
from framework.storage.sqlite_checkpoint import default_max_open


def wait_until(check: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@contextmanager
def store_at(directory: Path, **options: int) -> Iterator[SQLiteStore]:
    """A store of tables in ``directory``, closed (its thread stopped) at the end."""
    store = SQLiteStore(directory, **options)
    try:
        yield store
    finally:
        store.close()


def rows_in_file_alone(path: Path, tmp: Path) -> int:
    """The rows of ``t`` that the table's file holds without its WAL (what a checkpoint
    copied there)."""
    copy = tmp / "copy.sqlite"
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM t").fetchone()[0])
    finally:
        conn.close()


def test_commits_leave_the_wal_to_the_thread_which_copies_it_into_the_file(tmp_path: Path) -> None:
    with store_at(tmp_path / "tables") as store:
        store.checkpointer.every = 50
        with store.create(1) as db:
            db.execute("CREATE TABLE t (n INTEGER)")
        with store.connect(1) as db:
            assert db.execute("PRAGMA wal_autocheckpoint").rows[0]["wal_autocheckpoint"] == 0
        for n in range(48):  # with the create and the check: 50 commits
            with store.connect(1) as db:
                db.execute("INSERT INTO t VALUES (?)", (n,))
        assert wait_until(lambda: store.checkpointer.checkpoints >= 1)
        assert rows_in_file_alone(store.path(1), tmp_path) == 48
        for n in range(10):  # fewer than ``every``: they stay in the WAL
            with store.connect(1) as db:
                db.execute("INSERT INTO t VALUES (?)", (n,))
        time.sleep(0.3)
        assert store.checkpointer.checkpoints == 1
        assert rows_in_file_alone(store.path(1), tmp_path) == 48
        with store.connect(1, write=False) as db:
            assert db.execute("SELECT COUNT(*) AS n FROM t").rows[0]["n"] == 58


def test_the_wal_stays_small_while_two_processes_write_the_table(tmp_path: Path) -> None:
    """Two stores (two workers) commit in turn: the checkpoints copy the whole WAL and wait
    for its readers, so the log starts again from its beginning instead of growing (a
    PASSIVE checkpoint never catches up with two writers: this run left a 9.9 MB WAL)."""
    with store_at(tmp_path) as one, store_at(tmp_path) as two:
        with one.create(1) as db:
            db.execute("CREATE TABLE t (a INTEGER, pad TEXT)")
        for i in range(800):  # about 3 KB a commit: 2.4 MB written
            with (one if i % 2 else two).connect(1) as db:
                db.execute("INSERT INTO t VALUES (?, ?)", (i, "x" * 3000))
            time.sleep(0.001)  # the checkpoint threads look every 50 ms
        assert one.checkpointer.checkpoints + two.checkpointer.checkpoints >= 10
        wal = (tmp_path / "1.sqlite-wal").stat().st_size
        assert wal < 2_000_000, wal


def test_a_connection_the_store_lets_go_is_closed_by_the_thread(tmp_path: Path) -> None:
    with store_at(tmp_path / "tables", max_open=2) as store:
        for table_id in (1, 2, 3):
            with store.create(table_id) as db:
                db.execute("CREATE TABLE t (n INTEGER)")
                db.execute("INSERT INTO t VALUES (?)", (table_id,))
        assert wait_until(lambda: store.checkpointer.closed == 1)
        with store.connect(1, write=False) as db:  # opened again
            assert db.execute("SELECT n FROM t").rows == [{"n": 1}]


def test_the_store_lets_the_least_recently_used_table_go_and_keeps_one_in_use(tmp_path: Path) -> None:
    with store_at(tmp_path / "tables", max_open=3) as store:
        for table_id in (1, 2, 3):
            with store.create(table_id) as db:
                db.execute("CREATE TABLE t (n INTEGER)")
        with store.connect(1, write=False):
            for table_id in (2, 3):  # used since: 1, still in use, is the least recent
                with store.connect(table_id, write=False):
                    pass
            with store.create(4) as db:  # 1 is skipped, 2 goes
                db.execute("CREATE TABLE t (n INTEGER)")
            assert list(store._open) == [1, 3, 4]
        with store.create(5) as db:  # 1, no longer in use, goes now
            db.execute("CREATE TABLE t (n INTEGER)")
        assert list(store._open) == [3, 4, 5]
        store.max_open = 0
        with store.connect(1, write=False) as db:  # opened again, and kept while in use
            assert db.execute("SELECT COUNT(*) AS n FROM t").rows == [{"n": 0}]
            assert list(store._open) == [1]
        assert wait_until(lambda: store.checkpointer.closed == 5)


def test_a_dropped_table_is_not_made_again_by_its_checkpoint(tmp_path: Path) -> None:
    with store_at(tmp_path / "tables") as store:
        store.checkpointer.every = 1
        with store.create(1) as db:
            db.execute("CREATE TABLE t (n INTEGER)")
        store.drop(1)
        time.sleep(0.3)
        assert not store.exists(1)


def test_tables_kept_open_follow_the_open_files_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    expected = 100_000 if hard == resource.RLIM_INFINITY else max(256, hard // 6)
    assert default_max_open() == expected
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard  # raised to the hard limit
