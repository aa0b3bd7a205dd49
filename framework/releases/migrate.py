"""``self.migrate`` in ``upgrade_table_db``: Alembic operations on a table's own database,
applied to the live table and to all its copies (``zz_replayN_``, ``zz_savepoint_``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, cast

import sqlalchemy as sa
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from sqlalchemy.pool import StaticPool

from framework.releases.owned import OwnedTransaction, owned_engine_options
from framework.releases.schema import definition, remember
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier

_URLS = {"sqlite": "sqlite://", "postgresql": "postgresql+psycopg://", "mysql": "mysql+pymysql://"}
# SQLite schema definitions whose copies were found in step with the live tables (bounded).
_IN_STEP: dict[Hashable, None] = {}
_IN_STEP_MAX = 32
# (operation, table, its sqlite_master rows) -> the statements Alembic ran for that rebuild.
_REBUILDS: dict[Hashable, tuple[str, ...]] = {}
_REBUILDS_MAX = 64
_CHANGES = {"CREATE", "INSERT", "DROP", "ALTER", "UPDATE", "DELETE"}


def _first_word(sql: str) -> str:
    return sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""


def _replayable(executed: list[str]) -> bool:
    """Whether a recorded rebuild can be replayed as it is: reads, and changes each seen
    once (SQLite's trace repeats a statement whose trigger or foreign-key action ran); no
    PRAGMA that sets something."""
    seen: set[str] = set()
    for sql in executed:
        word = _first_word(sql)
        if word == "SELECT" or (word == "PRAGMA" and "=" not in sql):
            continue
        if word not in _CHANGES or sql in seen:
            return False
        seen.add(sql)
    return True


@functools.cache
def sql_dialect(name: str) -> sa.Dialect:
    """SQLAlchemy's dialect for compiling DDL (one per backend: making one costs ~0.1 ms)."""
    from sqlalchemy.dialects import mysql, postgresql, sqlite

    dialects: dict[str, type[sa.Dialect]] = {
        "sqlite": sqlite.dialect, "postgresql": postgresql.dialect, "mysql": mysql.dialect}
    return dialects[name]()


def _operation_key(name: str, column: str, kw: dict[str, Any]) -> Hashable | None:
    """A batch operation as SQLite would receive it (types compiled), or None when an
    argument has no such form (then the rebuild is not recorded)."""
    parts: list[Any] = [name, column]
    for key in sorted(kw):
        value = kw[key]
        if isinstance(value, type) and issubclass(value, sa.types.TypeEngine):
            value = value()
        if isinstance(value, sa.types.TypeEngine):
            value = value.compile(dialect=sql_dialect("sqlite"))
        elif not (value is None or isinstance(value, str | int | float | bool)):
            return None
        parts.append((key, value))
    return tuple(parts)


class TableMigrator:
    """Schema changes for one table database, inside the upgrade's transaction.

    Each method takes the live table's name and changes every copy the same way, so a
    studio save slot or the undo point still loads after the upgrade.
    """

    def __init__(self, db: TableConnection) -> None:
        self.db = db
        self._conn: sa.Connection | None = None
        self._ops: Operations | None = None
        self.changed: list[str] = []

    @property
    def ops(self) -> Operations:
        """Alembic's operations on this connection (made on first use: it costs ~2 ms)."""
        if self._ops is None:
            raw = OwnedTransaction(self.db.dbapi_connection())
            # The upgrade owns the transaction: SQLAlchemy must neither commit nor roll back.
            engine = sa.create_engine(
                _URLS[self.db.dialect], creator=lambda: raw, poolclass=StaticPool,
                pool_reset_on_return=None, **owned_engine_options(self.db.dialect),
            )
            self._conn = engine.connect()
            self._ops = Operations(MigrationContext.configure(self._conn, opts={"render_as_batch": True}))
        return self._ops

    def _targets(self, table: str) -> list[str]:
        existing = set(self.db.table_names())
        return [name for name in [table, *(p + table for p in COPY_PREFIXES)] if name in existing]

    def _batch(self, table: str) -> Any:
        return self.ops.batch_alter_table(table, recreate="auto")

    def _rebuild_all(self, table: str, operation: Hashable | None, apply: Callable[[Any], None]) -> None:
        """One batch operation on the live table and its copies (Alembic rebuilds each on
        SQLite).

        Alembic's statements for a rebuild depend only on the table's definition and the
        operation: on SQLite they are recorded for the first table and replayed on the next
        ones with the same ``sqlite_master`` rows (tables of one release mostly share them),
        which skips Alembic's reflection and SQL compilation.
        """
        rows = cast("tuple[tuple[Any, ...], ...] | None", definition(self.db))
        if rows is None:  # not SQLite: Alembic each time
            for name in self._targets(table):
                with self._batch(name) as batch:
                    apply(batch)
            return
        # Rebuilding one target changes only the rows of that target: read them once.
        by_table: dict[str, tuple[Any, ...]] = {}
        for row in rows:
            by_table[row[2]] = (*by_table.get(row[2], ()), row)
        for name in [table, *(p + table for p in COPY_PREFIXES)]:
            if name not in by_table:
                continue
            key = None if operation is None else (operation, name, by_table[name])
            recorded = _REBUILDS.get(key) if key is not None else None
            if recorded is not None:
                for sql in recorded:
                    self.db.execute(sql)
                continue
            executed = self._traced(name, apply)
            if key is not None and _replayable(executed):
                remember(_REBUILDS, key, tuple(sql for sql in executed if _first_word(sql) in _CHANGES),
                         _REBUILDS_MAX)

    def _traced(self, name: str, apply: Callable[[Any], None]) -> list[str]:
        """Alembic's batch operation on ``name``, and every statement SQLite ran for it."""
        raw = self.db.dbapi_connection()
        executed: list[str] = []
        raw.set_trace_callback(executed.append)
        try:
            with self._batch(name) as batch:
                apply(batch)
        finally:
            raw.set_trace_callback(None)
        return executed

    def add_column(self, table: str, column: sa.Column[Any]) -> None:
        # Plain DDL compiled by SQLAlchemy: Alembic's machinery is not needed to add a column.
        spec = str(sa.schema.CreateColumn(column).compile(dialect=sql_dialect(self.db.dialect)))
        for name in self._targets(table):
            self.db.execute(f"ALTER TABLE {quote_identifier(name, self.db.dialect)} ADD COLUMN {spec}")
        self.changed.append(f"add column {table}.{column.name}")

    def drop_column(self, table: str, column: str) -> None:
        self._rebuild_all(table, _operation_key("drop_column", column, {}),
                          lambda batch: batch.drop_column(column))
        self.changed.append(f"drop column {table}.{column}")

    def alter_column(self, table: str, column: str, **kw: Any) -> None:
        """Alembic's ``alter_column`` (type_, nullable, server_default, new_column_name...)."""
        self._rebuild_all(table, _operation_key("alter_column", column, kw),
                          lambda batch: batch.alter_column(column, **kw))
        self.changed.append(f"alter column {table}.{column}")

    def create_table(self, table: str, *columns: sa.Column[Any], **kw: Any) -> None:
        self.ops.create_table(table, *columns, **kw)
        for prefix in COPY_PREFIXES:
            self.ops.create_table(prefix + table, *(c._copy() for c in columns))
        self.changed.append(f"create table {table}")

    def drop_table(self, table: str) -> None:
        for name in self._targets(table):
            self.ops.drop_table(name)
        self.changed.append(f"drop table {table}")

    def rename_table(self, old: str, new: str) -> None:
        for prefix in ("", *COPY_PREFIXES):
            if prefix + old in self.db.table_names():
                self.ops.rename_table(prefix + old, prefix + new)
        self.changed.append(f"rename table {old} to {new}")

    def create_index(self, name: str, table: str, columns: list[str], unique: bool = False) -> None:
        """Indexes live on the live table only; copies are storage."""
        self.ops.create_index(name, table, columns, unique=unique)
        self.changed.append(f"create index {name}")

    def drop_index(self, name: str, table: str) -> None:
        self.ops.drop_index(name, table_name=table)
        self.changed.append(f"drop index {name}")

    def close(self) -> None:
        # Only the SQLAlchemy handle: disposing the engine would close the table's own
        # connection, which the store keeps open.
        if self._conn is not None:
            self._conn.close()


def sync_copies(db: TableConnection, known_definition: Hashable | None = None) -> list[str]:
    """Give every copy the live table's columns (catches changes made with raw SQL), keeping
    the rows of the columns both have; create copies of new tables; drop copies of dropped
    tables. Returns what it changed. ``known_definition``: as for ``schema.reflect``."""
    key = known_definition if known_definition is not None else definition(db)
    if key is not None and key in _IN_STEP:
        return []
    changed = _sync_copies(db)
    if key is not None and not changed:
        remember(_IN_STEP, key, None, _IN_STEP_MAX)
    return changed


def _sync_copies(db: TableConnection) -> list[str]:
    def q(name: str) -> str:  # names read from the catalog: spelled exactly
        return quote_identifier(name, db.dialect, keep_case=True)

    all_columns = getattr(db, "all_columns", None)
    columns: dict[str, list[str]] = (
        all_columns() if all_columns else {t: db.column_names(t) for t in db.table_names()}
    )
    names = set(columns)
    live = [t for t in names if not t.startswith(COPY_PREFIXES) and not t.startswith("_alembic")]
    changed: list[str] = []
    for table in live:
        cols = columns[table]
        for prefix in COPY_PREFIXES:
            copy = prefix + table
            if copy not in names:
                db.copy_structure(table, copy)
                changed.append(f"created {copy}")
                continue
            copy_cols = columns[copy]
            if copy_cols == cols:
                continue
            common = [c for c in cols if c in copy_cols]
            tmp = f"zz_tmp_{copy}"[:60]
            db.copy_structure(table, tmp)
            if common:
                col_list = ", ".join(q(c) for c in common)
                db.execute(f"INSERT INTO {q(tmp)} ({col_list}) SELECT {col_list} FROM {q(copy)}")
            for column, default in _defaults(db, table).items():
                if column not in copy_cols and default is not None:
                    db.execute(f"UPDATE {q(tmp)} SET {q(column)} = {default}")
            db.execute(f"DROP TABLE {q(copy)}")
            db.execute(f"ALTER TABLE {q(tmp)} RENAME TO {q(copy)}")
            changed.append(f"rebuilt {copy}")
    for name in names:
        for prefix in COPY_PREFIXES:
            if name.startswith(prefix) and name[len(prefix):] not in live:
                db.execute(f"DROP TABLE {q(name)}")
                changed.append(f"dropped {name}")
    return changed


def _defaults(db: TableConnection, table: str) -> dict[str, str | None]:
    """Column -> default expression of a live table (SQLite: as declared)."""
    if db.dialect != "sqlite":
        return {}
    rows = db.execute(f"PRAGMA table_info({quote_identifier(table, 'sqlite')})").rows
    return {r["name"]: r["dflt_value"] for r in rows}
