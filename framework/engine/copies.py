"""A table's copies: ``zz_replayN_`` and ``zz_savepoint_`` next to every live table, and
copying rows between them (studio save slots, undo)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.translate import translate_query


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


#: The ``arena_meta`` keys (a LIKE pattern) that say what the table's database is, not where its game was: a
#: restore keeps them (a copy made before an upgrade holds the old release's name).
KEPT_META = "release%"


def copy_tables(db: TableConnection, prefix: str, to_copy: bool, skip: Sequence[str] = ()) -> None:
    """Replace the rows of every live table's ``prefix`` copy by the live rows
    (``to_copy``), or the other way round (the live release rows of ``arena_meta`` stay);
    tables in ``skip`` are left alone."""
    kept = [] if to_copy else db.execute(translate_query(
        "SELECT meta_key, meta_value FROM arena_meta WHERE meta_key LIKE %s", db.dialect), (KEPT_META,)).rows
    for name in live_tables(db):
        if name in skip:
            continue
        src, dst = (name, prefix + name) if to_copy else (prefix + name, name)
        cols = ", ".join(quote_identifier(c, db.dialect, keep_case=True) for c in db.column_names(name))
        db.execute(f"DELETE FROM {quote_identifier(dst, db.dialect, keep_case=True)}")
        db.execute(f"INSERT INTO {quote_identifier(dst, db.dialect, keep_case=True)} ({cols}) "
                   f"SELECT {cols} FROM {quote_identifier(src, db.dialect, keep_case=True)}")
    if kept:
        db.execute(translate_query("DELETE FROM arena_meta WHERE meta_key LIKE %s", db.dialect), (KEPT_META,))
        for row in kept:
            db.execute(translate_query("INSERT INTO arena_meta (meta_key, meta_value) VALUES (%s, %s)",
                                       db.dialect), (row["meta_key"], row["meta_value"]))
