"""MySQL's loose comparison of a string column with a number (``card_type = 3`` compares as
numbers there) on SQLite and PostgreSQL, where the schema says the column is a string."""

from __future__ import annotations

from sqlglot import exp

from framework.storage.sql.errors import Target
from framework.storage.sql.shapes import SchemaShapes

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _is_number(node: exp.Expr) -> bool:
    if isinstance(node, exp.Neg):
        node = node.this
    return isinstance(node, exp.Literal) and not node.is_string


def _tables(tree: exp.Expr) -> dict[str, str]:
    """alias or name (lower case) -> table name, for every table the statement names."""
    return {t.alias_or_name.lower(): t.name for t in tree.find_all(exp.Table) if t.name}


def _is_string_column(node: exp.Expr, tables: dict[str, str], shapes: SchemaShapes) -> bool:
    if not isinstance(node, exp.Column) or not node.name:
        return False
    if node.table:
        shape = shapes.table(tables.get(node.table.lower(), node.table))
        return shape is not None and shape.is_string_column(node.name)
    for name in tables.values():
        shape = shapes.table(name)
        if shape is not None and shape.column(node.name) is not None:
            return shape.is_string_column(node.name)
    return False


def _as_number(column: exp.Expr, target: Target) -> exp.Expr:
    name = "pg_temp.arena_number" if target == "postgresql" else "arena_number"
    return exp.Anonymous(this=name, expressions=[
        exp.Cast(this=column, to=exp.DataType.build("TEXT"))])


def _as_text(node: exp.Expr) -> exp.Expr:
    return exp.Cast(this=node, to=exp.DataType.build("TEXT"))


def bridge_loose_comparisons(tree: exp.Expr, target: Target, shapes: SchemaShapes) -> None:
    """``string_column <op> number`` compares the number MySQL reads from the string;
    ``string_column = %s`` compares text (a parameter's type is known only when it runs;
    SQLite's column affinity makes the parameter text already)."""
    text_params = target == "postgresql"
    tables = _tables(tree)
    if not tables:
        return
    for node in list(tree.find_all(*_COMPARISONS, exp.In)):
        if isinstance(node.parent, (exp.Update, exp.OnConflict)) and node.arg_key == "expressions":
            continue  # an assignment: PostgreSQL converts a number stored in a text column
        if isinstance(node, exp.In):
            column = node.this
            items = node.expressions
            if not items or not _is_string_column(column, tables, shapes):
                continue
            if all(_is_number(i) for i in items):
                column.replace(_as_number(column.copy(), target))
            elif text_params:
                for item in items:
                    if isinstance(item, exp.Placeholder) or _is_number(item):
                        item.replace(_as_text(item.copy()))
            continue
        for side, other in (("this", "expression"), ("expression", "this")):
            column, value = node.args.get(side), node.args.get(other)
            if column is None or value is None or not _is_string_column(column, tables, shapes):
                continue
            if _is_number(value):
                column.replace(_as_number(column.copy(), target))
            elif isinstance(value, exp.Placeholder) and text_params:
                value.replace(_as_text(value.copy()))
            break
