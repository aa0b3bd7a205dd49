"""The entry points: a whole ``dbmodel.sql``, one statement, or one run-time query, translated
from MySQL for a target (the last two cached by SQL text)."""

from __future__ import annotations

import functools

from sqlglot import exp

from framework.storage.sql.ddl import alter_table, create_index, create_table, drop_statement
from framework.storage.sql.errors import TARGET_NAMES, SchemaError, SQLError, Target, check_target, refuse
from framework.storage.sql.functions import check_policy
from framework.storage.sql.generate import finish_params
from framework.storage.sql.names import quote_identifier, string_literal
from framework.storage.sql.parse import Prepared, parse_prepared, prepare
from framework.storage.sql.query import translate_query_tree
from framework.storage.sql.split import split_file

DEFAULT_RESERVED_TABLES = frozenset({"global", "stats", "gamelog", "player"})

DML = (exp.Query, exp.Insert, exp.Update, exp.Delete)


def _translate_statement(sql: str, target: Target, reserved: frozenset[str], *,
                         in_dbmodel: bool) -> list[str]:
    """One MySQL statement -> the target statements that do the same (possibly none)."""
    prepared = prepare(sql)
    tree = parse_prepared(prepared)
    if _is_session_statement(tree):
        if in_dbmodel:
            return []  # session settings and transactions belong to the framework
        raise refuse(tree.sql("mysql").split()[0].upper(), target,
                      "the framework manages sessions and transactions")
    if isinstance(tree, exp.Command):
        words = " ".join(prepared.text.split()[:2]).upper()
        raise SQLError(f"cannot parse this {words} statement")

    if isinstance(tree, DML):
        if target == "mysql":
            check_policy(tree, target)
            return [prepared.mysql_text]
        translated = translate_query_tree(tree, target, output_names=not in_dbmodel,
                                           prepared=prepared)
        return [finish_params(translated, target)]

    if prepared.params:
        raise SQLError("parameters (%s) are only allowed in SELECT, INSERT, UPDATE and DELETE")
    out = _translate_ddl(tree, target, reserved, prepared)
    if target == "sqlite":
        return out
    return [statement.replace("%", "%%") for statement in out]


def _is_session_statement(tree: exp.Expr) -> bool:
    """SET, START TRANSACTION, COMMIT, LOCK and UNLOCK TABLES."""
    return isinstance(tree, (exp.Set, exp.Transaction, exp.Commit)) or (
        isinstance(tree, exp.Command) and tree.name.upper() in ("LOCK", "UNLOCK")
    )


def _translate_ddl(tree: exp.Expr, target: Target, reserved: frozenset[str],
                   prepared: Prepared) -> list[str]:
    """CREATE, ALTER, DROP and TRUNCATE; anything else is refused."""
    if isinstance(tree, exp.Create):
        kind = str(tree.args.get("kind") or "").upper()
        if kind == "TABLE":
            return create_table(tree, target, reserved, prepared)
        if kind == "INDEX":
            return create_index(tree, target, prepared)
        raise refuse(f"CREATE {kind}", target, "create tables and indexes only")
    if isinstance(tree, exp.Alter):
        return alter_table(tree, target, prepared)
    if isinstance(tree, exp.Drop):
        return drop_statement(tree, target, reserved, prepared)
    if isinstance(tree, exp.TruncateTable):
        return _truncate(tree, target, prepared)
    raise refuse(f"{tree.key.upper()} statement", target,
                  "use SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER or DROP")


def _truncate(tree: exp.TruncateTable, target: Target, prepared: Prepared) -> list[str]:
    """TRUNCATE TABLE, which restarts the AUTO_INCREMENT counters: on SQLite a DELETE and the
    counter's row of ``sqlite_sequence`` removed (the framework's own AUTOINCREMENT tables
    make sure that table exists)."""
    tables = [t.name for t in tree.expressions]
    if target == "mysql":
        return [prepared.original]
    if target == "sqlite":
        out = []
        for table in tables:
            out.append(f"DELETE FROM {quote_identifier(table, target)}")
            out.append(f"DELETE FROM sqlite_sequence WHERE name = {string_literal(table)}")
        return out
    return ["TRUNCATE TABLE " + ", ".join(quote_identifier(t, target) for t in tables)
            + " RESTART IDENTITY"]


# ---------------------------------------------------------------------------------------------
# Public entry points


def translate_dbmodel(
    text: str,
    target: Target,
    filename: str = "dbmodel.sql",
    reserved: frozenset[str] = DEFAULT_RESERVED_TABLES,
) -> list[str]:
    """Translate a whole ``dbmodel.sql`` (MySQL) into ``target`` statements, in order.

    Comments are stripped first (a same-line ``--`` comment never swallows the rest of a
    statement, unlike on BGA). ``SET``, ``START TRANSACTION``, ``COMMIT`` and ``LOCK TABLES``
    lines are skipped. ``CREATE TABLE`` of a ``reserved`` (framework) table is refused;
    ``ALTER TABLE player ADD ...`` is how games add player columns.

    Raises:
        SchemaError: a syntax error or an unsupported statement, with ``filename``, the line
            where the statement starts and its text.
    """
    check_target(target)
    out: list[str] = []
    for statement in split_file(text, filename):
        try:
            out.extend(_translate_statement(statement.sql, target, reserved, in_dbmodel=True))
        except SQLError as exc:
            reason = exc.reason if isinstance(exc, SchemaError) else str(exc)
            raise SchemaError(reason, filename=filename, line=statement.line,
                              statement=statement.sql) from exc
    return out


@functools.lru_cache(maxsize=4096)
def translate_statements(sql: str, target: Target) -> tuple[str, ...]:
    """Translate one MySQL statement into the ``target`` statements doing the same.

    Most statements give exactly one; DDL can give several (an ALTER TABLE with many ADDs on
    SQLite, a CREATE TABLE with KEYs, AUTO_INCREMENT triggers on PostgreSQL).

    Raises:
        UnsupportedSQLError: a construct that cannot be translated faithfully.
        SQLError: a syntax error, or several statements in ``sql``.
    """
    check_target(target)
    try:
        return tuple(_translate_statement(sql, target, frozenset(), in_dbmodel=False))
    except SchemaError as exc:
        raise SQLError(exc.reason) from exc


@functools.lru_cache(maxsize=4096)
def translate_query(sql: str, target: Target) -> str:
    """Translate one run-time game statement (MySQL) for ``target``; cached by (sql, target).

    ``%s`` marks a parameter: it comes out as ``?`` for SQLite and ``%s`` for PostgreSQL and
    MariaDB, where every literal ``%`` is then written ``%%``: execute the result with a
    parameter sequence, even an empty one.

    >>> translate_query("SELECT card_id FROM card WHERE card_location = %s LIMIT 2, 3", "sqlite")
    'SELECT `card_id` AS `card_id` FROM `card` WHERE `card_location` = ? LIMIT 3 OFFSET 2'

    Raises:
        UnsupportedSQLError: a construct that cannot be translated faithfully (``RAND()``,
            ``ON DUPLICATE KEY UPDATE``...), named in ``construct``.
        SQLError: a syntax error, several statements in ``sql``, or DDL that needs several
            statements on ``target`` (use :func:`translate_statements`).
    """
    statements = translate_statements(sql, target)
    if len(statements) != 1:
        raise SQLError(
            f"this statement needs {len(statements)} statements on "
            f"{TARGET_NAMES[target]}; translate it with translate_statements()"
        )
    return statements[0]
