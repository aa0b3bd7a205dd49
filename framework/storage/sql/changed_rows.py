"""The rows an UPDATE changed, as mysqli counts them on BGA, beside the rows it matched (the
framework's "update, else insert" relies on those): a RETURNING that compares each row's new
values with its old ones on PostgreSQL; on SQLite (whose RETURNING cannot see another table)
a function of the connection's that the UPDATE calls for each row it matches, telling it
whether the row changes (``NOTE_CHANGE``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from framework.storage.sql.errors import Target

CHANGED_FLAG = "arena_changed"
#: SQLite: the connection's function that counts the rows an UPDATE changes
#: (``framework.storage.sqlite_functions.ChangeCounter``)
NOTE_CHANGE = "arena_note_change"
_OLD = "arena_old"
_OLD_ROW = "arena_row"


@dataclass
class ChangeCount:
    """What the rewrite of one UPDATE needs from the runner. SQLite's UPDATE takes the first
    ``set_params`` parameters twice (the change test's copies first)."""

    set_params: int = 0
    rewritten: bool = False
    noted: bool = False  # SQLite: NOTE_CHANGE counts the changed rows


def _assignments(update: exp.Update) -> list[tuple[str, exp.Expr]] | None:
    out = []
    for assignment in update.expressions:
        if not isinstance(assignment, exp.EQ) or not isinstance(assignment.this, exp.Column):
            return None
        out.append((assignment.this.name, assignment.expression))
    return out


def count_changed_rows(update: exp.Update, target: Target, counts: ChangeCount) -> None:
    """Rewrite a single-table UPDATE (after the statement-level rewrites) so that its
    changed rows can be counted; multi-table UPDATEs are left as they are."""
    table = update.this
    if (not isinstance(table, exp.Table) or update.args.get("from_") is not None
            or table.args.get("joins")):
        return
    assignments = _assignments(update)
    if not assignments:
        return
    name = table.alias_or_name
    where = update.args.get("where")
    if target == "postgresql":
        row_id = "ctid"
        old = exp.select(exp.alias_(exp.column(row_id), _OLD_ROW)).from_(table.copy())
        for position, (column, _) in enumerate(assignments):
            old = old.select(exp.alias_(exp.column(column), f"{_OLD}_{position}"))
        if where is not None:
            old.set("where", where.copy())
        update.set("from_", exp.From(this=exp.Subquery(this=old, alias=exp.TableAlias(
            this=exp.to_identifier(_OLD)))))
        update.set("where", exp.Where(this=exp.EQ(this=exp.column(row_id, table=name),
                                                  expression=exp.column(_OLD_ROW, table=_OLD))))
        changed = [exp.NullSafeNEQ(this=exp.column(column, table=name),
                                   expression=exp.column(f"{_OLD}_{position}", table=_OLD))
                   for position, (column, _) in enumerate(assignments)]
        condition: exp.Expr = changed[0]
        for extra in changed[1:]:
            condition = exp.Or(this=condition, expression=extra)
        update.set("returning", exp.Returning(expressions=[
            exp.alias_(exp.Paren(this=condition), CHANGED_FLAG)]))
        counts.rewritten = True
        return
    # SQLite: the UPDATE's first assignment notes, row by row, whether the row changes
    # (``NOTE_CHANGE``, a function of the connection's that counts its true arguments): its
    # SET expressions see the old row, and run for matched rows only. The values are given
    # twice: the change test's copies first.
    counts.set_params = sum(1 for _, value in assignments for _ in value.find_all(exp.Placeholder))
    changed = [exp.NullSafeNEQ(this=exp.column(column, table=name),
                               expression=exp.Paren(this=value.copy()))
               for column, value in assignments]
    condition = changed[0]
    for extra in changed[1:]:
        condition = exp.Or(this=condition, expression=extra)
    first = update.expressions[0]
    first.set("expression", exp.Anonymous(this=NOTE_CHANGE, expressions=[
        exp.Paren(this=condition), first.expression]))
    counts.noted = True
    counts.rewritten = True
