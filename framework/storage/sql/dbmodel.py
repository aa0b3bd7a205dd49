"""A whole ``dbmodel.sql`` translated statement by statement, knowing which tables exist at
each point (the framework's, their ``zz_`` copies, the file's own): ``IF NOT EXISTS`` meeting
an existing table, ``CREATE TABLE ... LIKE`` and ``CREATE TABLE ... AS SELECT`` as MariaDB
makes them."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.expressions.datatypes import DType as DT
from sqlglot.optimizer.simplify import simplify

from framework.storage.base import COPY_PREFIXES
from framework.storage.sql.column_types import number_text
from framework.storage.sql.ddl import created_table_name
from framework.storage.sql.errors import SchemaError, SQLError, Target, UnsupportedSQLError, check_target
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.parse import parse_prepared, prepare
from framework.storage.sql.schema import index_column_name
from framework.storage.sql.split import split_file
from framework.storage.sql.translate import DEFAULT_RESERVED_TABLES, translate_dbmodel


@dataclass(frozen=True)
class SchemaStatement:
    """One statement for the target, and where it comes from: the line of ``dbmodel.sql``
    where its MySQL statement starts, and that statement."""

    sql: str
    line: int
    source: str


class KnownTables:
    """The tables of a database being built, by lower-case name, each with its MySQL
    ``CREATE TABLE`` (the columns added since by ``ALTER TABLE ... ADD`` included), or None
    when only its existence is known: a copy, a table changed by more than ``ADD``, one made
    by ``AS SELECT`` of expressions. The declarations are never changed in place (copies of
    a ``KnownTables`` share them)."""

    def __init__(self, tables: dict[str, exp.Create | None] | None = None) -> None:
        self._tables: dict[str, exp.Create | None] = dict(tables or {})

    def copy(self) -> KnownTables:
        return KnownTables(self._tables)

    def exists(self, name: str) -> bool:
        return name.lower() in self._tables

    def declaration(self, name: str) -> exp.Create | None:
        return self._tables.get(name.lower())

    def add(self, name: str, declaration: exp.Create | None) -> None:
        self._tables[name.lower()] = declaration

    def drop(self, name: str) -> None:
        self._tables.pop(name.lower(), None)

    def rename(self, old: str, new: str) -> None:
        if old.lower() in self._tables:
            self._tables[new.lower()] = _renamed(self._tables.pop(old.lower()), new)

    def forget_declaration(self, name: str) -> None:
        if name.lower() in self._tables:
            self._tables[name.lower()] = None

    def add_columns(self, name: str, columns: list[exp.ColumnDef]) -> None:
        declaration = self._tables.get(name.lower())
        if declaration is None or not isinstance(declaration.this, exp.Schema):
            return
        changed = declaration.copy()
        for column in columns:
            changed.this.append("expressions", column.copy())
        self._tables[name.lower()] = changed


def _renamed(declaration: exp.Create | None, name: str) -> exp.Create | None:
    """``declaration`` for a table called ``name``."""
    if declaration is None:
        return None
    renamed = declaration.copy()
    table = renamed.this.this if isinstance(renamed.this, exp.Schema) else renamed.this
    table.set("this", exp.to_identifier(name, quoted=True))
    return renamed


# ---------------------------------------------------------------------------------------------
# Entry points


def translate_schema(
    text: str,
    target: Target,
    filename: str = "dbmodel.sql",
    reserved: frozenset[str] = DEFAULT_RESERVED_TABLES,
    known: KnownTables | None = None,
) -> list[SchemaStatement]:
    """Translate a whole ``dbmodel.sql`` like ``translate.translate_dbmodel``, for a database
    where the tables of ``known`` exist already (``framework_tables``: the framework's and
    their copies); each target statement comes with the line and text of its MySQL one.

    ``CREATE TABLE IF NOT EXISTS`` of a table that exists at that point gives nothing (MariaDB
    leaves the table as it is: no index, no trigger is added to it). ``CREATE TABLE ... LIKE``
    gives the source's declaration under the new name (its columns, keys and AUTO_INCREMENT;
    the counter starts again at 1). ``CREATE TABLE ... AS SELECT`` of columns gives them their
    source's type, NOT NULL, default and ON UPDATE, but no key nor AUTO_INCREMENT (an
    AUTO_INCREMENT column becomes ``NOT NULL DEFAULT 0``), then copies the rows unless the
    query selects none (``WHERE FALSE IS TRUE``, ``WHERE 0``, ``LIMIT 0``).

    Raises:
        SchemaError: a syntax error or a statement Arena refuses, with ``filename``, the line
            where the statement starts and its text.
    """
    check_target(target)
    state = known.copy() if known is not None else KnownTables()
    out: list[SchemaStatement] = []
    for statement in split_file(text, filename):
        try:
            translated = _translate_one(statement.sql, target, filename, reserved, state)
        except SQLError as exc:
            reason = exc.reason if isinstance(exc, SchemaError) else str(exc)
            raise SchemaError(reason, filename=filename, line=statement.line,
                              statement=statement.sql) from exc
        out.extend(SchemaStatement(sql, statement.line, statement.sql) for sql in translated)
    return out


@functools.lru_cache(maxsize=8)
def framework_tables(default_tables_sql: str) -> KnownTables:
    """The tables that exist before a game's ``dbmodel.sql`` runs: the framework's
    (``default_tables_sql``) and each one's ``zz_replayN_`` and ``zz_savepoint_`` copies.
    Shared: copy it before changing it (``translate_schema`` does)."""
    state = KnownTables()
    for statement in split_file(default_tables_sql, "default_tables.sql"):
        tree = parse_prepared(prepare(statement.sql))
        if isinstance(tree, exp.Create) and str(tree.args.get("kind") or "").upper() == "TABLE":
            name = created_table_name(tree.this, frozenset())
            state.add(name, tree)
            for prefix in COPY_PREFIXES:
                state.add(prefix + name, None)
    return state


# ---------------------------------------------------------------------------------------------
# One statement

_SCHEMA_WORDS = re.compile(r"\s*(CREATE|DROP|ALTER|RENAME)\b", re.IGNORECASE)


def _translate_one(sql: str, target: Target, filename: str, reserved: frozenset[str],
                   state: KnownTables) -> list[str]:
    """The target statements of one MySQL statement, ``state`` updated to what it does."""
    if not _SCHEMA_WORDS.match(sql):
        return _as_translated(sql, target, filename, reserved)
    tree = parse_prepared(prepare(sql))
    if isinstance(tree, exp.Create) and str(tree.args.get("kind") or "").upper() == "TABLE":
        return _create_table(tree, sql, target, filename, reserved, state)
    out = _as_translated(sql, target, filename, reserved)
    _track(tree, state)
    return out


def _as_translated(sql: str, target: Target, filename: str, reserved: frozenset[str]) -> list[str]:
    """The statement as ``translate_dbmodel`` translates it on its own."""
    return translate_dbmodel(sql, target, filename, reserved)


def _track(tree: exp.Expr, state: KnownTables) -> None:
    """What a DROP, ALTER or CREATE INDEX does to the known tables."""
    if isinstance(tree, exp.Drop) and str(tree.args.get("kind") or "").upper() == "TABLE":
        for table in tree.args.get("tables") or []:
            state.drop(table.name)
    elif isinstance(tree, exp.Alter) and isinstance(tree.this, exp.Table):
        name = tree.this.name
        for action in tree.args.get("actions") or []:
            if isinstance(action, exp.ColumnDef):
                state.add_columns(name, [action])
            elif isinstance(action, exp.AlterRename):
                state.rename(name, action.this.name)
                name = action.this.name
            else:
                state.forget_declaration(name)
    elif isinstance(tree, exp.Create) and isinstance(tree.this, exp.Index):
        table = tree.this.args.get("table")
        if isinstance(table, exp.Table):
            state.forget_declaration(table.name)


def _create_table(tree: exp.Create, sql: str, target: Target, filename: str,
                  reserved: frozenset[str], state: KnownTables) -> list[str]:
    name = created_table_name(tree.this, reserved)
    if tree.args.get("exists") and state.exists(name):
        return []  # MariaDB leaves the existing table as it is (and only warns)
    like = _like_source(tree)
    query = tree.args.get("expression")
    if (like is None and query is None) or isinstance(tree.this, exp.Schema):
        out = _as_translated(sql, target, filename, reserved)
        state.add(name, tree)
        return out
    if like is not None:
        declaration = _like_declaration(tree, name, like, state)
        statements = [] if declaration is None else [declaration.sql("mysql")]
    else:
        assert isinstance(query, exp.Query)
        declaration, statements = _as_select_declaration(tree, name, query, state)
    state.add(name, declaration)
    if target == "mysql" or declaration is None:
        if like is not None and declaration is None and target == "sqlite":
            raise UnsupportedSQLError(
                f"CREATE TABLE ... LIKE `{like.name}`", target,
                f"`{like.name}` was changed by more than ALTER TABLE ... ADD earlier (or is a "
                "copy): write the full CREATE TABLE statement",
            )
        return _as_translated(sql, target, filename, reserved)  # MariaDB copies as it does
    return [out for statement in statements
            for out in _as_translated(statement, target, filename, reserved)]


def _like_source(tree: exp.Create) -> exp.Table | None:
    properties = tree.args.get("properties")
    for prop in properties.expressions if properties else []:
        if isinstance(prop, exp.LikeProperty) and isinstance(prop.this, exp.Table):
            return prop.this
    return None


def _require(state: KnownTables, table: str) -> None:
    if not state.exists(table):
        raise SQLError(f"there is no table `{table}` at this point of the file")


def _like_declaration(tree: exp.Create, name: str, like: exp.Table,
                      state: KnownTables) -> exp.Create | None:
    """The source's declaration under ``name``, without its AUTO_INCREMENT start (MariaDB's
    LIKE restarts the counter)."""
    _require(state, like.name)
    source = _renamed(state.declaration(like.name), name)
    if source is None:
        return None
    source.set("exists", tree.args.get("exists"))
    properties = source.args.get("properties")
    if properties is not None:
        kept = [p for p in properties.expressions if not isinstance(p, exp.AutoIncrementProperty)]
        properties.set("expressions", kept)
    return source


def _as_select_declaration(tree: exp.Create, name: str, query: exp.Query,
                           state: KnownTables) -> tuple[exp.Create | None, list[str]]:
    """(the declaration of the new table, the MySQL statements making and filling it), or
    (None, []) when a selected value is not a column of a known declaration."""
    columns = _selected_columns(query, state)
    if columns is None:
        return None, []
    table = exp.Table(this=exp.to_identifier(name, quoted=True))
    declaration = exp.Create(this=exp.Schema(this=table, expressions=columns), kind="TABLE",
                             exists=tree.args.get("exists"))
    statements = [declaration.sql("mysql")]
    if not _selects_nothing(query):
        names = ", ".join(quote_identifier(c.name, "mysql") for c in columns)
        statements.append(f"INSERT INTO {quote_identifier(name, 'mysql')} ({names}) {query.sql('mysql')}")
    return declaration, statements


# ---------------------------------------------------------------------------------------------
# CREATE TABLE ... AS SELECT: the selected columns' declarations


@dataclass(frozen=True)
class _Source:
    """A table of the FROM clause: how the query names it, its columns and primary key."""

    alias: str
    columns: list[exp.ColumnDef]
    primary_key: set[str]


def _sources(query: exp.Select, state: KnownTables) -> list[_Source] | None:
    from_ = query.args.get("from_")
    if from_ is None:
        return None
    out: list[_Source] = []
    for node in [from_.this, *(join.this for join in query.args.get("joins") or [])]:
        if not isinstance(node, exp.Table) or node.args.get("db"):
            return None
        _require(state, node.name)
        declaration = state.declaration(node.name)
        if declaration is None or not isinstance(declaration.this, exp.Schema):
            return None
        items = declaration.this.expressions
        primary = {index_column_name(c)[0].lower() for item in items
                   if isinstance(item, exp.PrimaryKey) for c in item.expressions}
        columns = [c for c in items if isinstance(c, exp.ColumnDef)]
        out.append(_Source(node.alias_or_name.lower(), columns, primary))
    return out


def _selected_columns(query: exp.Query, state: KnownTables) -> list[exp.ColumnDef] | None:
    """The new table's columns, each declared as its source column is; None when a selected
    value is not a plain column (MariaDB then types the expression itself)."""
    if not isinstance(query, exp.Select):
        return None
    sources = _sources(query, state)
    if sources is None:
        return None
    out: list[exp.ColumnDef] = []
    for item in query.expressions:
        alias = item.alias if isinstance(item, exp.Alias) else None
        value = item.this if isinstance(item, exp.Alias) else item
        picks = _picked(value, sources)
        if picks is None or (alias and len(picks) != 1):
            return None
        for source, column in picks:
            out.append(_copied_column(column, alias, column.name.lower() in source.primary_key))
    names = [c.name.lower() for c in out]
    return out if len(set(names)) == len(names) else None


def _picked(value: exp.Expr, sources: list[_Source]) -> list[tuple[_Source, exp.ColumnDef]] | None:
    """The source columns one selected value stands for (``*``, ``t.*``, ``t.c``, ``c``)."""
    if isinstance(value, exp.Star):
        return [(s, c) for s in sources for c in s.columns]
    if not isinstance(value, exp.Column):
        return None
    qualifier = value.table.lower()
    named = [s for s in sources if s.alias == qualifier] if qualifier else sources
    if isinstance(value.this, exp.Star):
        return [(s, c) for s in named for c in s.columns] if named else None
    found = [(s, c) for s in named for c in s.columns if c.name.lower() == value.name.lower()]
    return found if len(found) == 1 else None


_NOT_COPIED = (exp.PrimaryKeyColumnConstraint, exp.UniqueColumnConstraint,
               exp.CheckColumnConstraint, exp.Reference)


def _copied_column(column: exp.ColumnDef, alias: str | None, in_primary_key: bool) -> exp.ColumnDef:
    """``column`` as MariaDB's CREATE TABLE ... AS SELECT declares it: same type, NOT NULL,
    default and ON UPDATE; no key, check, reference nor AUTO_INCREMENT (that column is
    ``NOT NULL DEFAULT 0``; a primary key column is NOT NULL)."""
    copied = column.copy()
    if alias:
        copied.set("this", exp.to_identifier(alias, quoted=True))
    kind = copied.args.get("kind")
    auto = isinstance(kind, exp.DataType) and kind.this == DT.SERIAL
    if auto:
        copied.set("kind", exp.DataType.build("BIGINT UNSIGNED", dialect="mysql"))
    kept: list[exp.ColumnConstraint] = []
    not_null = has_default = False
    for constraint in copied.constraints:
        option = constraint.args.get("kind")
        if isinstance(option, _NOT_COPIED):
            in_primary_key = in_primary_key or isinstance(option, exp.PrimaryKeyColumnConstraint)
            continue
        if isinstance(option, exp.AutoIncrementColumnConstraint):
            auto = True
            continue
        if isinstance(option, exp.NotNullColumnConstraint) and not option.args.get("allow_null"):
            not_null = True
        has_default = has_default or isinstance(option, exp.DefaultColumnConstraint)
        kept.append(constraint)
    if (auto or in_primary_key) and not not_null:
        kept = [c for c in kept if not isinstance(c.args.get("kind"), exp.NotNullColumnConstraint)]
        kept.insert(0, exp.ColumnConstraint(kind=exp.NotNullColumnConstraint()))
    if auto and not has_default:
        kept.append(exp.ColumnConstraint(kind=exp.DefaultColumnConstraint(this=exp.Literal.number(0))))
    copied.set("constraints", kept)
    return copied


# ---------------------------------------------------------------------------------------------
# A query that selects no row


def _selects_nothing(query: exp.Query) -> bool:
    """``WHERE FALSE IS TRUE``, ``WHERE 0``, ``WHERE 1 = 0``, ``LIMIT 0``: the idioms that copy
    a structure without its rows."""
    limit = query.args.get("limit")
    if isinstance(limit, exp.Limit) and limit.expression is not None:
        if number_text(limit.expression) in ("0", "0.0"):
            return True
    where = query.args.get("where")
    return isinstance(where, exp.Where) and _constant(simplify(where.this.copy())) in (False, None)


_UNKNOWN = object()


def _constant(node: exp.Expr) -> object:
    """The truth of a constant condition: True, False, None (NULL), or ``_UNKNOWN``."""
    if isinstance(node, exp.Paren):
        return _constant(node.this)
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Null):
        return None
    number = number_text(node) if isinstance(node, (exp.Literal, exp.Neg)) else None
    if number is not None:
        return float(number) != 0
    if isinstance(node, exp.Not):
        inner = _constant(node.this)
        return inner if inner is None or inner is _UNKNOWN else not inner
    if isinstance(node, exp.Is):
        value, test = _constant(node.this), node.expression
        if value is _UNKNOWN:
            return _UNKNOWN
        if isinstance(test, exp.Null):
            return value is None
        if isinstance(test, exp.Boolean):
            return value is bool(test.this)
    return _UNKNOWN

