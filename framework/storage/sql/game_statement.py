"""A game's run-time statement translated with what the table's schema says (keys, string
columns, AUTO_INCREMENT), with what its answers need: upserts, seeded ``RAND()``, loose
comparisons. Cached by (SQL text, target, schema shapes)."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, replace

from sqlglot import exp

from framework.storage.sql.changed_rows import ChangeCount, count_changed_rows
from framework.storage.sql.errors import Target, check_target
from framework.storage.sql.functions import check_policy
from framework.storage.sql.generate import finish_params, generate, replace_placeholders
from framework.storage.sql.loose import bridge_loose_comparisons
from framework.storage.sql.mysql_functions import map_mysql_json_for_mariadb
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.parse import parse_prepared, prepare
from framework.storage.sql.query import translate_query_tree
from framework.storage.sql.rand import SEED_MARKER, seed_rand
from framework.storage.sql.shapes import SchemaShapes
from framework.storage.sql.translate import DML, translate_statements
from framework.storage.sql.upserts import UpsertKind, insert_table, rewrite_upsert, value_rows

#: The columns an upsert's RETURNING adds (never shown to the game).
INSERTED_FLAG = "arena_inserted"
ROW_ID = "arena_id"


class StatementKind(enum.Enum):
    """What a statement does, as far as its answers (affected rows, last id) go."""

    READ = "read"
    INSERT = "insert"
    INSERT_IGNORE = "insert ignore"
    UPSERT = "on duplicate key update"
    REPLACE = "replace"
    UPDATE = "update"
    DELETE = "delete"
    DDL = "ddl"
    TRUNCATE = "truncate"


_UPSERT_KINDS = {
    UpsertKind.NONE: StatementKind.INSERT,
    UpsertKind.IGNORE: StatementKind.INSERT_IGNORE,
    UpsertKind.UPDATE: StatementKind.UPSERT,
    UpsertKind.REPLACE: StatementKind.REPLACE,
}


@dataclass(frozen=True)
class GameStatement:
    """The target statements for one game statement, and how to read their answers.

    ``seeded``: the text holds ``SEED_MARKER``, to be replaced by a seed drawn from the
    table's random source when it runs. ``returns_rows_touched``: an upsert with a RETURNING
    of the rows it inserted or updated (``INSERTED_FLAG`` on PostgreSQL, ``ROW_ID``).
    ``counts_changes``: an UPDATE rewritten to count the rows it changes beside those it
    matches (``changed_rows``): on SQLite the UPDATE takes its first ``set_params``
    parameters twice (first for the change test) and the connection's ``ChangeCounter``
    counts the rows it changed; on PostgreSQL the UPDATE returns ``CHANGED_FLAG``.
    ``count_rows``: SQLite's ``SELECT COUNT(*)`` of the table a multi-row upsert writes (run
    before and after it: the rows it inserted, which its RETURNING cannot tell).
    """

    statements: tuple[str, ...]
    kind: StatementKind
    seeded: bool = False
    auto_column: str | None = None
    auto_given: bool = False
    value_rows: int | None = None
    returns_rows_touched: bool = False
    counts_changes: bool = False
    set_params: int = 0
    count_rows: str = ""


def _statement_kind(tree: exp.Expr) -> StatementKind:
    if isinstance(tree, exp.Update):
        return StatementKind.UPDATE
    if isinstance(tree, exp.Delete):
        return StatementKind.DELETE
    if isinstance(tree, exp.Insert):
        return StatementKind.INSERT
    return StatementKind.READ


@functools.lru_cache(maxsize=4096)
def translate_game_statement(sql: str, target: Target, shapes: SchemaShapes) -> GameStatement:
    """Translate a game's statement (MySQL, ``%s`` parameters) for ``target``.

    Raises:
        UnsupportedSQLError: a construct that cannot be translated faithfully, by name.
        SQLError: a syntax error, several statements, an empty statement.
    """
    check_target(target)
    prepared = prepare(sql)
    tree = parse_prepared(prepared)
    if not isinstance(tree, DML):
        kind = StatementKind.TRUNCATE if isinstance(tree, exp.TruncateTable) else StatementKind.DDL
        return GameStatement(translate_statements(sql, target), kind)
    kind = _statement_kind(tree)
    seeded = seed_rand(tree, target, shapes) and SEED_MARKER in tree.sql("mysql")
    auto_column: str | None = None
    auto_given = False
    rows: int | None = None
    if isinstance(tree, exp.Insert):
        table, columns = insert_table(tree)
        shape = shapes.table(table.name) if table is not None else None
        auto_column = shape.auto_column if shape is not None else None
        auto_given = auto_column is not None and _gives_auto_values(
            tree, columns if columns is not None else [c.name for c in shape.columns]
            if shape is not None else [], auto_column)
        rows = value_rows(tree)
        if target == "mysql":
            kind = _mysql_insert_kind(tree, prepared.is_replace)
    if target == "mysql":
        check_policy(tree, target)
        if map_mysql_json_for_mariadb(tree) or seeded or tree.find(exp.Rand) is not None:
            replace_placeholders(tree)
            text = finish_params(generate(tree, target), target)
        else:
            text = prepared.mysql_text
        return GameStatement((text,), kind, seeded, auto_column, auto_given, rows)
    returning = False
    count_rows = ""
    if isinstance(tree, exp.Insert):
        upsert, shape = rewrite_upsert(tree, target, shapes, prepared.is_replace)
        kind = _UPSERT_KINDS[upsert]
        if prepared.is_replace:
            prepared = replace(prepared, is_replace=False)
        returning = kind in (StatementKind.UPSERT, StatementKind.REPLACE) and (
            tree.args.get("conflict") is not None)
        if returning and target == "sqlite" and rows != 1 and shape is not None:
            count_rows = f"SELECT COUNT(*) AS n FROM {quote_identifier(shape.name, target)}"
    bridge_loose_comparisons(tree, target, shapes)
    counts = ChangeCount()
    after = None
    if isinstance(tree, exp.Update):
        def after(statement: exp.Expr) -> None:
            assert isinstance(statement, exp.Update)
            count_changed_rows(statement, target, counts)
    text = finish_params(translate_query_tree(tree, target, output_names=True,
                                              prepared=prepared, after_statement=after), target)
    if returning:
        text += _returning(target, auto_column)
    texts: tuple[str, ...] = (text,)
    return GameStatement(texts, kind, seeded, auto_column, auto_given, rows, returning,
                         counts.rewritten, counts.set_params, count_rows)


def _gives_auto_values(insert: exp.Insert, columns: list[str], auto_column: str) -> bool:
    """Whether the INSERT gives the AUTO_INCREMENT column values (NULL everywhere: it does not)."""
    lowered = [c.lower() for c in columns]
    if auto_column not in lowered:
        return False
    values = insert.expression
    if not isinstance(values, exp.Values):
        return True
    position = lowered.index(auto_column)
    return not all(isinstance(row, exp.Tuple) and len(row.expressions) > position
                   and isinstance(row.expressions[position], exp.Null)
                   for row in values.expressions)


def _mysql_insert_kind(insert: exp.Insert, is_replace: bool) -> StatementKind:
    conflict = insert.args.get("conflict")
    if is_replace:
        return StatementKind.REPLACE
    if isinstance(conflict, exp.OnConflict) and conflict.args.get("duplicate"):
        return StatementKind.UPSERT
    if insert.args.get("ignore"):
        return StatementKind.INSERT_IGNORE
    return StatementKind.INSERT


def _returning(target: Target, auto_column: str | None) -> str:
    """What an upsert returns of each row it inserted or updated."""
    parts = []
    if target == "postgresql":
        parts.append(f"(xmax = 0) AS {quote_identifier(INSERTED_FLAG, target)}")
    if auto_column is not None:
        parts.append(f"{quote_identifier(auto_column, target)} AS {quote_identifier(ROW_ID, target)}")
    if not parts:
        parts.append(f"1 AS {quote_identifier(ROW_ID, target)}")
    return " RETURNING " + ", ".join(parts)
