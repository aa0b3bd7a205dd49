"""MySQL's upserts (``INSERT ... ON DUPLICATE KEY UPDATE``, ``REPLACE INTO``) as ``INSERT ...
ON CONFLICT`` on SQLite and PostgreSQL, on the keys the table's schema declares."""

from __future__ import annotations

import enum
import functools

import sqlglot
from sqlglot import exp

from framework.storage.sql.errors import Target, refuse
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import SchemaShapes, TableShape


class UpsertKind(enum.Enum):
    """What MySQL does with a row whose key is taken (it decides what the statement answers)."""

    NONE = "insert"  # an error
    UPDATE = "on duplicate key update"  # 2 affected rows when it changed the row, else 0
    REPLACE = "replace"  # the old row deleted and the new one inserted: 2 affected rows
    IGNORE = "ignore"  # skipped: 0 affected rows


def insert_table(insert: exp.Insert) -> tuple[exp.Table | None, list[str] | None]:
    """The table an INSERT writes and its column list (None when it names none)."""
    target = insert.this
    if isinstance(target, exp.Schema):
        table = target.this
        columns = [c.name for c in target.expressions]
        return (table if isinstance(table, exp.Table) else None), columns
    return (target if isinstance(target, exp.Table) else None), None


def value_rows(insert: exp.Insert) -> int | None:
    """How many rows an ``INSERT ... VALUES`` gives (None for ``INSERT ... SELECT``)."""
    values = insert.expression
    if isinstance(values, exp.Values):
        return len(values.expressions)
    return None


def _conflict_key(shape: TableShape, columns: list[str] | None, target: Target,
                  construct: str) -> tuple[str, ...] | None:
    """A key a row of this INSERT can collide on (None when none can: each holds the
    AUTO_INCREMENT column, left to the counter). SQLite resolves a conflict on any key (a
    conflict clause without target); PostgreSQL needs one, the one whose columns are given."""
    given = None if columns is None else {c.lower() for c in columns}
    auto = shape.auto_column
    possible = [k for k in shape.unique_keys
                if given is None or auto is None or auto in given or auto not in k]
    if len(possible) <= 1 or target == "sqlite":
        return possible[0] if possible else None
    complete = [k for k in possible if given is None or all(c in given for c in k)]
    if len(complete) > 1 and shape.primary_key in complete:
        # the row's primary key decides; another key colliding with another row is an error
        return shape.primary_key
    if len(complete) != 1:
        raise refuse(f"{construct} on a table with several unique keys", target,
                      "PostgreSQL resolves a conflict on one key only; give the columns of "
                      "one key alone, or SELECT the row first")
    return complete[0]


def _values_to_excluded(expression: exp.Expr) -> exp.Expr:
    """``VALUES(col)`` -> ``excluded.col`` (the row that was proposed)."""
    for call in list(expression.find_all(exp.Anonymous)):
        if call.name.upper() == "VALUES" and len(call.expressions) == 1:
            column = call.expressions[0]
            call.replace(exp.column(column.name, table="excluded"))
    if isinstance(expression, exp.Anonymous) and expression.name.upper() == "VALUES":
        return exp.column(expression.expressions[0].name, table="excluded")
    return expression


def _disambiguate_select(insert: exp.Insert) -> None:
    """SQLite reads ``INSERT ... SELECT ... ON CONFLICT`` as a join's ON unless the SELECT
    has a WHERE."""
    source = insert.expression
    if isinstance(source, exp.Select) and source.args.get("where") is None:
        source.set("where", exp.Where(this=exp.Literal.number(1)))


def _default_of(shape: TableShape, column: str, target: Target) -> exp.Expr:
    if target == "postgresql":
        return exp.var("DEFAULT")
    declared = shape.column(column)
    if declared is None or declared.default_sql is None:
        return exp.null()
    return sqlglot.parse_one(declared.default_sql, read="sqlite")


def _update_assignments(conflict: exp.OnConflict, qualifier: str
                        ) -> tuple[list[exp.Expr], list[exp.Expr]]:
    """The SET of ON DUPLICATE KEY UPDATE, and for each the condition that it changes the
    row (MySQL counts a row left as it was as 0 affected rows)."""
    assignments: list[exp.Expr] = []
    changed: list[exp.Expr] = []
    for assignment in conflict.expressions:
        column, value = assignment.this, _values_to_excluded(assignment.expression)
        for reference in list(value.find_all(exp.Column)):
            if not reference.table:  # the row in the table (PostgreSQL needs it qualified)
                reference.set("table", exp.to_identifier(qualifier))
        if isinstance(value, exp.Column) and not value.table:
            value.set("table", exp.to_identifier(qualifier))
        assignments.append(exp.EQ(this=exp.column(column.name), expression=value))
        changed.append(exp.NullSafeNEQ(this=exp.column(column.name, table=qualifier),
                                       expression=exp.Paren(this=value.copy())))
    return assignments, changed


def _replace_assignments(shape: TableShape, columns: list[str] | None, key: tuple[str, ...],
                         target: Target) -> list[exp.Expr]:
    """REPLACE as an update of the whole row: the given columns, the others their defaults
    (MySQL deletes the old row and inserts the new one)."""
    given = [c.name for c in shape.columns] if columns is None else columns
    given_lower = {c.lower() for c in given}
    assignments: list[exp.Expr] = [
        exp.EQ(this=exp.column(name), expression=exp.column(name, table="excluded"))
        for name in given if name.lower() not in key
    ]
    for column_shape in shape.columns:
        name = column_shape.name.lower()
        if name in given_lower or name in key or name == shape.auto_column:
            continue
        assignments.append(exp.EQ(this=exp.column(column_shape.name),
                                  expression=_default_of(shape, column_shape.name, target)))
    return assignments


def rewrite_upsert(insert: exp.Insert, target: Target, shapes: SchemaShapes,
                   is_replace: bool) -> tuple[UpsertKind, TableShape | None]:
    """Rewrite an upsert of ``insert`` in place for SQLite or PostgreSQL.

    Raises:
        UnsupportedSQLError: the table is unknown, or (PostgreSQL) the row may collide on
            several keys.
    """
    conflict = insert.args.get("conflict")
    is_update = isinstance(conflict, exp.OnConflict) and bool(conflict.args.get("duplicate"))
    table, columns = insert_table(insert)
    shape = shapes.table(table.name) if table is not None else None
    if insert.args.get("ignore"):
        return UpsertKind.IGNORE, shape
    if not (is_update or is_replace):
        return UpsertKind.NONE, shape
    construct = "REPLACE INTO" if is_replace else "ON DUPLICATE KEY UPDATE"
    if shape is None or table is None:
        raise refuse(f"{construct} on an unknown table", target,
                     "create the table in dbmodel.sql first")
    key = _conflict_key(shape, columns, target, construct)
    kind = UpsertKind.REPLACE if is_replace else UpsertKind.UPDATE
    if key is None:  # no row of this INSERT can collide: a plain INSERT
        insert.set("conflict", None)
        return kind, shape
    if is_update:
        assert isinstance(conflict, exp.OnConflict)
        assignments, changed = _update_assignments(conflict, table.alias_or_name)
    else:
        assignments = _replace_assignments(shape, columns, key, target)
        # MariaDB replaces a row in place when the table has one unique key, and then counts
        # a row equal to the new one once: such a row is left alone here too. With several
        # keys it deletes and inserts (2 rows), and columns the statement leaves out go back
        # to their defaults: the row is always rewritten then.
        changed = [exp.NullSafeNEQ(this=exp.column(a.this.name, table=table.alias_or_name),
                                   expression=a.expression.copy()) for a in assignments]
        if len(shape.unique_keys) > 1 or not all(isinstance(a.expression, exp.Column)
                                                 for a in assignments):
            changed = []
    if target == "sqlite":
        _disambiguate_select(insert)
    if not assignments:
        insert.set("conflict", exp.OnConflict(action=exp.var("DO NOTHING")))
        return kind, shape
    on_conflict = exp.OnConflict(action=exp.var("DO UPDATE"), expressions=assignments)
    if target == "postgresql":  # SQLite's last conflict clause may take any key
        on_conflict.set("conflict_keys", [exp.to_identifier(c) for c in key])
    if changed:
        condition = changed[0]
        for extra in changed[1:]:
            condition = exp.Or(this=condition, expression=extra)
        on_conflict.set("where", exp.Where(this=condition))
    insert.set("conflict", on_conflict)
    return kind, shape


@functools.lru_cache(maxsize=256)
def keyed_upsert_sql(table: str, key: str, columns: tuple[str, ...], rows: int,
                     target: Target) -> str:
    """One statement that writes ``rows`` rows of ``(key, *columns)`` into ``table``, each
    updating the row with its ``key`` when there is one (the framework's write-back of its own
    rows, whose key it knows), in ``target``'s dialect and parameter style.

    >>> head, tail = keyed_upsert_sql("global", "global_id", ("global_value",), 2, "sqlite").split(" ON ")
    >>> head
    'INSERT INTO `global` (`global_id`, `global_value`) VALUES (?, ?), (?, ?)'
    >>> tail
    'CONFLICT (`global_id`) DO UPDATE SET `global_value` = excluded.`global_value`'
    >>> keyed_upsert_sql("global", "global_id", ("global_value",), 1, "mysql").split(" ON ")[1]
    'DUPLICATE KEY UPDATE `global_value` = VALUES(`global_value`)'
    """
    if rows < 1 or not columns:
        raise ValueError("keyed_upsert_sql: at least one row and one column")
    names = [quote_identifier(c, target) for c in (key, *columns)]
    mark = "?" if target == "sqlite" else "%s"
    row = "(" + ", ".join([mark] * len(names)) + ")"
    head = f"INSERT INTO {quote_identifier(table, target)} ({', '.join(names)}) VALUES " + \
        ", ".join([row] * rows)
    if target == "mysql":
        sets = ", ".join(f"{n} = VALUES({n})" for n in names[1:])
        return f"{head} ON DUPLICATE KEY UPDATE {sets}"
    sets = ", ".join(f"{n} = excluded.{n}" for n in names[1:])
    return f"{head} ON CONFLICT ({names[0]}) DO UPDATE SET {sets}"


@functools.lru_cache(maxsize=64)
def guarded_upsert_sql(table: str, key: str, column: str, rows: int, target: Target) -> str:
    """``keyed_upsert_sql`` of ``rows`` rows of ``(key, column)`` that updates the rows it
    finds only while the row whose ``key`` is the first parameter after the rows' still
    holds the second (a write that checks, in the same statement, that no one wrote the table
    since it was read), and that returns ``key, column`` of the rows as they are now
    (SQLite and PostgreSQL: the rows it wrote; MariaDB: every row it names). Whether the
    check held shows in what comes back: put the guard row last among the rows with a new
    value, and look for that value.

    >>> print(guarded_upsert_sql("global", "global_id", "global_value", 1, "sqlite")
    ...       .replace(" ON ", "\\n").replace(" WHERE (", "\\nWHERE (").replace(" RETURNING", "\\nRETURNING"))
    INSERT INTO `global` (`global_id`, `global_value`) VALUES (?, ?)
    CONFLICT (`global_id`) DO UPDATE SET `global_value` = excluded.`global_value`
    WHERE (SELECT `g`.`global_value` FROM `global` AS `g` WHERE `g`.`global_id` = ?) = ?
    RETURNING `global_id`, `global_value`
    """
    plain = keyed_upsert_sql(table, key, (column,), rows, target)
    k, c = quote_identifier(key, target), quote_identifier(column, target)
    mark = "?" if target == "sqlite" else "%s"
    guard = (f"(SELECT {quote_identifier('g', target)}.{c} FROM {quote_identifier(table, target)} AS "
             f"{quote_identifier('g', target)} WHERE {quote_identifier('g', target)}.{k} = {mark}) = {mark}")
    if target == "mysql":
        head = plain.split(" ON DUPLICATE KEY UPDATE ")[0]
        return f"{head} ON DUPLICATE KEY UPDATE {c} = IF({guard}, VALUES({c}), {c}) RETURNING {k}, {c}"
    return f"{plain} WHERE {guard} RETURNING {k}, {c}"
