"""A table's copies: ``zz_replayN_`` and ``zz_savepoint_`` next to every live table, and
copying rows between them (studio save slots, undo)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier


def live_tables(db: TableConnection) -> list[str]:
    """The table's own tables (the framework's and the game's), not their copies."""
    return [t for t in db.table_names() if not t.startswith(COPY_PREFIXES)]


def create_copies(db: TableConnection) -> None:
    """Every live table gets its ``zz_replayN_`` and ``zz_savepoint_`` copies."""
    existing = set(db.table_names())
    for name in live_tables(db):
        for prefix in COPY_PREFIXES:
            if prefix + name not in existing:
                db.copy_structure(name, prefix + name)


def copy_tables(db: TableConnection, prefix: str, to_copy: bool, skip: Sequence[str] = ()) -> None:
    """Replace the rows of every live table's ``prefix`` copy by the live rows
    (``to_copy``), or the other way round; tables in ``skip`` are left alone."""
    for name in live_tables(db):
        if name in skip:
            continue
        src, dst = (name, prefix + name) if to_copy else (prefix + name, name)
        cols = ", ".join(quote_identifier(c, db.dialect, keep_case=True) for c in db.column_names(name))
        db.execute(f"DELETE FROM {quote_identifier(dst, db.dialect, keep_case=True)}")
        db.execute(f"INSERT INTO {quote_identifier(dst, db.dialect, keep_case=True)} ({cols}) "
                   f"SELECT {cols} FROM {quote_identifier(src, db.dialect, keep_case=True)}")
