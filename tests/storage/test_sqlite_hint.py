"""SQLite's hint that another connection wrote a table since this one's last commit
(``written_elsewhere``): right after a foreign write, and asked once per write transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from framework.storage.sqlite import SQLiteStore, SQLiteTableConnection


def test_the_hint_sees_a_foreign_write_and_looks_once_a_transaction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SQLiteStore(tmp_path / "tables")
    with store.create(3) as db:
        db.execute("CREATE TABLE t (v INT)")
    with store.connect(3) as db:
        db.execute("INSERT INTO t VALUES (1)")
    looks: list[int] = []
    look = SQLiteTableConnection._wal_now
    monkeypatch.setattr(SQLiteTableConnection, "_wal_now", lambda self: (looks.append(1), look(self))[1])
    with store.connect(3) as db:
        assert db.written_elsewhere() is False  # this connection wrote last
        assert db.written_elsewhere() is False
        assert len(looks) == 1  # one stat for the transaction
        db.execute("INSERT INTO t VALUES (2)")
    other = sqlite3.connect(store.path(3))
    with other:
        other.execute("INSERT INTO t VALUES (3)")
    other.close()
    with store.connect(3) as db:
        assert db.written_elsewhere() is True
    store.close()
