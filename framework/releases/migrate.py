"""``self.migrate`` in ``upgrade_table_db``: Alembic operations on a table's own database,
applied to the live table and to all its copies (``zz_replayN_``, ``zz_savepoint_``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from sqlalchemy.pool import StaticPool
from sqlglot import exp

from framework.core.errors import GameSystemError
from framework.releases.owned import OwnedTransaction, owned_engine_options
from framework.releases.schema import catalog, copy_signature, definition, is_live, remember, snapshot
from framework.storage.base import (
    COPY_PREFIXES,
    AddsColumnsInPlace,
    DDLNeededError,
    TableConnection,
    TableStore,
)
from framework.storage.sql.declared import declared_column
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.parse import parse_prepared, prepare
from framework.storage.sql.translate import translate_statements

_URLS = {"sqlite": "sqlite://", "postgresql": "postgresql+psycopg://", "mysql": "mysql+pymysql://"}
# Schema definitions (``schema.snapshot``) whose copies were found in step with the live
# tables (bounded).
_IN_STEP: dict[Hashable, None] = {}
_IN_STEP_MAX = 32
# (operation, table, its sqlite_master rows) -> the statements Alembic ran for that rebuild.
_REBUILDS: dict[Hashable, tuple[str, ...]] = {}
_REBUILDS_MAX = 64
_CHANGES = {"CREATE", "INSERT", "DROP", "ALTER", "UPDATE", "DELETE"}

T = TypeVar("T")


class CopyNeededError(RuntimeError):
    """The upgrade needs DDL, which this store makes all-or-nothing only on a copy of the
    table's database, and the caller cannot wait for one (a player's move)."""


def in_upgrade(store: TableStore, table_id: int, body: Callable[[TableConnection], T],
               copy_allowed: bool = True, ddl_expected: bool = False) -> T:
    """``body`` run in one all-or-nothing upgrade transaction of the table: first without DDL
    (MariaDB then upgrades in place, no copy of the database), and only if that attempt
    wanted DDL, again from the start with it (MariaDB: in place if its only DDL adds
    columns, ``AddsColumnsInPlace``, else on a copy swapped in at the end).
    ``ddl_expected`` (the release's schema is not the table's): with DDL at once, when
    ``copy_allowed``.

    Raises:
        CopyNeededError: the attempt without DDL wanted some, and ``copy_allowed`` is False
            (nothing was kept).
    """
    if not (ddl_expected and copy_allowed):
        try:
            with store.upgrading(table_id, ddl=False) as db:
                return body(db)
        except DDLNeededError as exc:
            if not copy_allowed:
                raise CopyNeededError(f"table {table_id}: the upgrade runs DDL") from exc
    if isinstance(store, AddsColumnsInPlace):  # MariaDB: columns added in place, else a copy
        try:
            with store.adding_columns(table_id) as db:
                return body(db)
        except DDLNeededError:
            pass
    with store.upgrading(table_id) as db:
        return body(db)


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
        elif isinstance(value, sa.TextClause):
            value = ("text", value.text)
        elif not (value is None or isinstance(value, str | int | float | bool)):
            return None
        parts.append((key, value))
    return tuple(parts)


class DeclaredType(sa.types.UserDefinedType[Any]):
    """A column type given as the backend's own text (what ``dbmodel.sql``'s translation gave)."""

    cache_ok = True

    def __init__(self, text: str) -> None:
        self.text = text

    def get_col_spec(self, **kw: Any) -> str:
        return self.text


def _column_text(column: sa.Column[Any] | str, definition: str | None) -> tuple[str, str]:
    """(name, MySQL definition) of a column given as a name and its MySQL definition, or as a
    SQLAlchemy column (compiled by SQLAlchemy's MySQL dialect)."""
    if isinstance(column, str):
        if definition is None:
            raise TypeError(f"add_column: the column {column!r} needs its MySQL definition, "
                            "e.g. \"INT UNSIGNED NOT NULL DEFAULT 0\"")
        return column, definition
    if definition is not None:
        raise TypeError("add_column: a SQLAlchemy column carries its own definition")
    dialect = sql_dialect("mysql")
    compiled = str(sa.schema.CreateColumn(column).compile(dialect=dialect))
    head = dialect.identifier_preparer.format_column(column)
    if not compiled.startswith(head):
        raise GameSystemError(f"cannot read SQLAlchemy's MySQL definition of {column.name}: {compiled}")
    return str(column.name), compiled[len(head):].strip()


def _target_type_of(type_: Any, dialect: str) -> str:
    """The type ``dbmodel.sql``'s translation gives the MySQL form of a SQLAlchemy type."""
    if isinstance(type_, DeclaredType):
        return type_.text
    if isinstance(type_, type):
        type_ = type_()
    mysql_text = str(type_.compile(dialect=sql_dialect("mysql")))
    return declared_column(mysql_text, cast("Any", dialect)).type


@functools.lru_cache(maxsize=256)
def _without_keys(spec: str) -> str:
    """A MySQL column definition without PRIMARY KEY, UNIQUE and AUTO_INCREMENT (for copies).
    Remembered: every table of an upgrade run sends the same few (parsing one costs ~5 ms)."""
    tree = parse_prepared(prepare(f"ALTER TABLE `t` ADD `c` {spec}"))
    coldef = tree.find(exp.ColumnDef)
    if coldef is None:
        return spec
    keys = (exp.PrimaryKeyColumnConstraint, exp.UniqueColumnConstraint, exp.AutoIncrementColumnConstraint)
    coldef.set("constraints", [c for c in coldef.constraints if not isinstance(c.args.get("kind"), keys)])
    text = coldef.sql("mysql")
    return text[len(coldef.this.sql("mysql")):].strip()


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

    def changed_only_added(self) -> bool:
        """Whether every change made so far added a column (no row written, none moved)."""
        return all(change.startswith("add column ") for change in self.changed)

    def _targets(self, table: str) -> list[str]:
        # The catalog the upgrade has just read knows the tables (forgotten after any DDL).
        shapes = getattr(self.db, "schema_shapes", None)
        if shapes is not None and shapes.tables:
            existing = {t.name for t in shapes.tables}
        else:
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

    def _run_mysql(self, sql: str) -> None:
        """One MySQL statement, translated as ``dbmodel.sql`` is (MariaDB: as written)."""
        for statement in translate_statements(sql, self.db.dialect):
            self.db.execute(statement)

    def add_column(self, table: str, column: sa.Column[Any] | str, definition: str | None = None) -> None:
        """Add a column to ``table`` and its copies, made exactly as ``dbmodel.sql``'s
        ``ALTER TABLE ... ADD`` makes it on this backend.

        ``add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")``: the
        definition in MySQL, as in ``dbmodel.sql``. ``add_column("player", sa.Column(...))``:
        a SQLAlchemy column, compiled for MySQL and then translated the same way (so
        ``sa.Integer`` is what ``INT`` is; an unsigned column needs the MySQL text or
        ``sqlalchemy.dialects.mysql.INTEGER(unsigned=True)``).
        """
        name, spec = _column_text(column, definition)
        for target in self._targets(table):
            copy = target != table
            if copy and self.db.dialect != "mysql":  # copies are storage: no keys, no counters
                spec_here = _without_keys(spec)
            else:
                spec_here = spec
            self._run_mysql(f"ALTER TABLE {quote_identifier(target, 'mysql')} ADD "
                            f"{quote_identifier(name, 'mysql')} {spec_here}")
        self.changed.append(f"add column {table}.{name}")

    def drop_column(self, table: str, column: str) -> None:
        self._rebuild_all(table, _operation_key("drop_column", column, {}),
                          lambda batch: batch.drop_column(column))
        self.changed.append(f"drop column {table}.{column}")

    def alter_column(self, table: str, column: str, definition: str | None = None, **kw: Any) -> None:
        """Change a column of ``table`` and its copies.

        ``alter_column("card", "card_note", "VARCHAR(255) NOT NULL DEFAULT ''")``: the whole
        new definition in MySQL (as ``MODIFY`` takes it), made as ``dbmodel.sql`` would make
        it. Otherwise Alembic's ``alter_column`` keywords (``type_``, ``nullable``,
        ``server_default``, ``new_column_name``...); a SQLAlchemy ``type_`` becomes the type
        ``dbmodel.sql`` would give its MySQL form.
        """
        if definition is not None:
            if kw:
                raise TypeError("alter_column: give a MySQL definition or Alembic's keywords, not both")
            self._alter_declared(table, column, definition)
        else:
            if "type_" in kw:
                kw["type_"] = DeclaredType(_target_type_of(kw["type_"], self.db.dialect))
            self._rebuild_all(table, _operation_key("alter_column", column, kw),
                              lambda batch: batch.alter_column(column, **kw))
        self.changed.append(f"alter column {table}.{column}")

    def _alter_declared(self, table: str, column: str, definition: str) -> None:
        if self.db.dialect != "sqlite":  # MODIFY, translated (MariaDB: as written)
            for target in self._targets(table):
                self._run_mysql(f"ALTER TABLE {quote_identifier(target, 'mysql')} MODIFY "
                                f"{quote_identifier(column, 'mysql')} {definition}")
            return
        # SQLite cannot change a column: Alembic rebuilds the table with the declaration the
        # translation gives.
        declared = declared_column(definition, "sqlite")
        default = None if declared.default is None else sa.text(declared.default)
        kw: dict[str, Any] = {"type_": DeclaredType(declared.type), "nullable": not declared.not_null,
                              "server_default": default}
        self._rebuild_all(table, _operation_key("alter_column", column, kw),
                          lambda batch: batch.alter_column(column, **kw))

    def create_table(self, table: str, *columns: sa.Column[Any] | str) -> None:
        """Create ``table`` as ``dbmodel.sql``'s ``CREATE TABLE`` would, and its copies.

        Each of ``columns`` is a SQLAlchemy column (compiled for MySQL, then translated) or a
        piece of the MySQL statement: a column (``"`roll_id` INT UNSIGNED NOT NULL
        AUTO_INCREMENT"``) or a key (``"PRIMARY KEY (`roll_id`)"``).
        """
        pieces: list[str] = []
        primary: list[str] = []
        # On a table, SQLAlchemy knows which integer primary key auto-increments.
        sa.Table(table, sa.MetaData(), *(c for c in columns if not isinstance(c, str)))
        for column in columns:
            if isinstance(column, str):
                pieces.append(column)
                continue
            name, spec = _column_text(column, None)
            pieces.append(f"{quote_identifier(name, 'mysql')} {spec}")
            if column.primary_key:
                primary.append(quote_identifier(name, "mysql"))
        if primary:
            pieces.append(f"PRIMARY KEY ({', '.join(primary)})")
        self._run_mysql(f"CREATE TABLE {quote_identifier(table, 'mysql')} (" + ", ".join(pieces) + ")")
        for prefix in COPY_PREFIXES:
            self.db.copy_structure(table, prefix + table)
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
    """Give every copy the live table's columns, with their types (``schema.copy_signature``:
    catches changes made with raw SQL, a widened VARCHAR too), keeping the rows of the columns
    both have; create copies of new tables; drop copies of dropped
    tables. Returns what it changed. ``known_definition``: as for ``schema.reflect``."""
    key = known_definition if known_definition is not None else snapshot(db)
    if key in _IN_STEP:
        return []
    changed = _sync_copies(db, key)
    if not changed:
        remember(_IN_STEP, key, None, _IN_STEP_MAX)
    return changed


def _sync_copies(db: TableConnection, known_definition: Hashable | None) -> list[str]:
    def q(name: str) -> str:  # names read from the catalog: spelled exactly
        return quote_identifier(name, db.dialect, keep_case=True)

    tables = catalog(db, known_definition)
    live = [t for t in tables if is_live(t)]
    changed: list[str] = []
    for table in live:
        signature = copy_signature(db.dialect, tables[table])
        cols = [c.name for c in tables[table].columns]
        for prefix in COPY_PREFIXES:
            copy = prefix + table
            if copy not in tables:
                db.copy_structure(table, copy)
                changed.append(f"created {copy}")
                continue
            if copy_signature(db.dialect, tables[copy]) == signature:
                continue
            copy_cols = [c.name for c in tables[copy].columns]
            common = [c for c in cols if c in copy_cols]
            tmp = f"zz_tmp_{copy}"[:60]
            db.copy_structure(table, tmp)
            if common:
                col_list = ", ".join(q(c) for c in common)
                db.execute(f"INSERT INTO {q(tmp)} ({col_list}) SELECT {col_list} FROM {q(copy)}")
            if db.dialect == "sqlite":  # CREATE TABLE ... AS keeps no default: give the new columns theirs
                for column in tables[table].columns:
                    if column.name not in copy_cols and column.default is not None:
                        db.execute(f"UPDATE {q(tmp)} SET {q(column.name)} = {column.default}")
            db.execute(f"DROP TABLE {q(copy)}")
            db.execute(f"ALTER TABLE {q(tmp)} RENAME TO {q(copy)}")
            changed.append(f"rebuilt {copy}")
    for name in tables:
        for prefix in COPY_PREFIXES:
            if name.startswith(prefix) and name[len(prefix):] not in live:
                db.execute(f"DROP TABLE {q(name)}")
                changed.append(f"dropped {name}")
    return changed
