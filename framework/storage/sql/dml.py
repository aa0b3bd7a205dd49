"""Statement-level rewrites of INSERT, UPDATE and DELETE for SQLite and PostgreSQL
(multi-table forms, ``ORDER BY ... LIMIT``, ``INSERT IGNORE``, ``REPLACE``)."""

from __future__ import annotations

from sqlglot import exp

from framework.storage.sql.errors import SQLError, Target, refuse
from framework.storage.sql.parse import Prepared


def _row_id(target: Target) -> str:
    return "ctid" if target == "postgresql" else "rowid"


def _rewrite_limited(stmt: exp.Update | exp.Delete, target: Target) -> None:
    """UPDATE/DELETE ... ORDER BY ... LIMIT n -> WHERE rowid IN (SELECT rowid ... LIMIT n)."""
    order = stmt.args.get("order")
    limit = stmt.args.get("limit")
    if limit is None:
        stmt.set("order", None)  # without LIMIT the order changes nothing
        return
    table = stmt.this
    if not isinstance(table, exp.Table) or table.args.get("joins"):
        raise refuse("multi-table UPDATE/DELETE ... LIMIT", target, "MySQL refuses it too")
    row_id = _row_id(target)
    sub = exp.select(exp.column(row_id)).from_(table.copy())
    where = stmt.args.get("where")
    if where is not None:
        sub.set("where", where.copy())
    if order is not None:
        sub.set("order", order.copy())
    sub.set("limit", limit.copy())
    stmt.set("where", exp.Where(this=exp.column(row_id).isin(query=sub)))
    stmt.set("order", None)
    stmt.set("limit", None)


def _rewrite_multi_table_update(update: exp.Update, target: Target) -> None:
    """UPDATE a JOIN b ON c SET a.x = b.y WHERE w -> UPDATE a SET x = b.y FROM b WHERE c AND w."""
    table = update.this
    joins = list(table.args.get("joins") or []) if isinstance(table, exp.Table) else []
    if not joins:
        return
    assert isinstance(table, exp.Table)
    own = {table.name.lower(), table.alias_or_name.lower()}
    conditions: list[exp.Expr] = []
    for join in joins:
        if join.side or str(join.args.get("kind") or "").upper() not in ("", "INNER", "CROSS"):
            raise refuse("UPDATE with an outer JOIN", target,
                          "use a subquery in SET or WHERE instead")
        if join.args.get("using"):
            raise refuse("UPDATE ... JOIN ... USING", target, "write the join with ON")
    for assignment in update.expressions:
        column = assignment.this
        if isinstance(column, exp.Column) and column.table:
            if column.table.lower() not in own:
                raise refuse("UPDATE of several tables", target,
                              "update one table per statement")
            column.set("table", None)
    first, rest = joins[0], joins[1:]
    on = first.args.get("on")
    if on is not None:
        conditions.append(on.copy())
    source = first.this.copy()
    if rest:
        source.set("joins", [j.copy() for j in rest])
    table.set("joins", None)
    where = update.args.get("where")
    if where is not None:
        conditions.append(where.this.copy())
    update.set("from_", exp.From(this=source))
    if conditions:
        condition = conditions[0]
        for extra in conditions[1:]:
            condition = exp.And(this=exp.Paren(this=condition), expression=exp.Paren(this=extra))
        update.set("where", exp.Where(this=condition))


def _unqualify_assignments(update: exp.Update, target: Target) -> None:
    """``SET c.x = 1`` -> ``SET x = 1``: SQLite and PostgreSQL name only the updated table's
    columns there (multi-table updates were checked before)."""
    table = update.this
    if not isinstance(table, exp.Table):
        return
    own = {table.name.lower(), table.alias_or_name.lower()}
    for assignment in update.expressions:
        column = assignment.this
        if isinstance(column, exp.Column) and column.table:
            if column.table.lower() not in own:
                raise refuse("UPDATE of several tables", target,
                              "update one table per statement")
            column.set("table", None)


def _rewrite_multi_table_delete(delete: exp.Delete, target: Target) -> None:
    """DELETE t FROM t JOIN u ON c WHERE w -> DELETE FROM t WHERE rowid IN (SELECT t.rowid
    FROM t JOIN u ON c WHERE w)."""
    targets = list(delete.args.get("tables") or [])
    using = list(delete.args.get("using") or [])
    source = delete.this
    if using:
        targets = targets or [delete.this]
        source = using[0]
        if len(using) > 1:
            raise refuse("DELETE ... USING several tables", target, "join them in one FROM")
    elif not targets:
        return
    if len(targets) != 1:
        raise refuse("DELETE from several tables", target, "delete from one table per statement")
    if not isinstance(source, exp.Table):
        raise refuse("multi-table DELETE", target, "use WHERE id IN (SELECT ...)")
    wanted = targets[0].alias_or_name.lower()
    candidates = [source] + [j.this for j in source.args.get("joins") or []]
    real = next((t for t in candidates
                 if isinstance(t, exp.Table) and t.alias_or_name.lower() == wanted), None)
    if real is None:
        raise SQLError(f"unknown table `{targets[0].alias_or_name}` in multi-table DELETE")
    row_id = _row_id(target)
    sub = exp.select(exp.column(row_id, table=real.alias_or_name)).from_(source.copy())
    where = delete.args.get("where")
    if where is not None:
        sub.set("where", where.copy())
    delete.set("tables", None)
    delete.set("using", None)
    delete.set("this", exp.Table(this=exp.to_identifier(real.name)))
    delete.set("where", exp.Where(this=exp.column(row_id).isin(query=sub)))


def transform_statement(tree: exp.Expr, target: Target, prepared: Prepared) -> None:
    """Statement-level rewrites for SQLite and PostgreSQL."""
    if isinstance(tree, exp.Insert):
        conflict = tree.args.get("conflict")
        if isinstance(conflict, exp.OnConflict) and conflict.args.get("duplicate"):
            raise refuse(
                "ON DUPLICATE KEY UPDATE", target,
                "the conflicting key cannot be known from the query alone; SELECT the row "
                "first, then UPDATE it or INSERT it",
            )
        if prepared.is_replace:
            if target == "postgresql":
                raise refuse("REPLACE INTO", target,
                              "DELETE the conflicting row, then INSERT the new one")
            tree.set("alternative", "REPLACE")
        if tree.args.get("ignore") and target == "postgresql":
            tree.set("ignore", None)
            tree.set("conflict", exp.OnConflict(action=exp.var("DO NOTHING")))
    elif isinstance(tree, exp.Update):
        _rewrite_multi_table_update(tree, target)
        _unqualify_assignments(tree, target)
        _rewrite_limited(tree, target)
    elif isinstance(tree, exp.Delete):
        _rewrite_multi_table_delete(tree, target)
        _rewrite_limited(tree, target)
    if target == "sqlite":
        for select in tree.find_all(exp.Select):
            if select.args.get("locks"):
                select.set("locks", None)  # a SQLite write transaction already locks the file

