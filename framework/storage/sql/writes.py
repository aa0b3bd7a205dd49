"""What a MySQL statement can change (tables whose rows it adds or removes, columns it updates),
read from sqlglot's tree once per SQL text, so that callers caching rows know when to drop them."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sqlglot import exp

from framework.storage.sql.errors import SQLError
from framework.storage.sql.parse import parse_prepared, prepare


@dataclass(frozen=True)
class StatementWrites:
    """What one statement can change; names are lower case (MySQL's are case-insensitive).

    ``rows``: tables whose rows may be added, removed or replaced (INSERT, REPLACE, DELETE,
    DDL); ``columns``: the tables an UPDATE writes and the columns its SET names; ``is_ddl``:
    CREATE, ALTER, DROP, RENAME or TRUNCATE (translate with ``translate_statements``);
    ``unknown``: a statement not understood (it will be refused), so anything may change.
    """

    rows: frozenset[str] = frozenset()
    columns: Mapping[str, frozenset[str]] = field(default_factory=dict)
    is_ddl: bool = False
    unknown: bool = False

    def may_change(self, table: str, columns: Iterable[str] | None = None) -> bool:
        """Whether the statement can change ``table``'s rows (only ``columns`` of them, if given).

        >>> analyse_writes("UPDATE player SET player_score = 1").may_change("player", ["player_zombie"])
        False
        """
        table = table.lower()
        if self.unknown or table in self.rows:
            return True
        updated = self.columns.get(table)
        if updated is None:
            return False
        return columns is None or not updated.isdisjoint(c.lower() for c in columns)


_UNKNOWN = StatementWrites(unknown=True)
_DDL = (exp.Create, exp.Alter, exp.Drop, exp.TruncateTable)


@functools.lru_cache(maxsize=4096)
def analyse_writes(sql: str) -> StatementWrites | None:
    """What the MySQL statement ``sql`` can change; None when it only reads (a SELECT).

    >>> analyse_writes("SELECT * FROM player") is None
    True
    >>> sorted(analyse_writes("DELETE FROM card WHERE card_id IN (SELECT 1 FROM player)").rows)
    ['card']
    """
    try:
        tree = parse_prepared(prepare(sql))
    except SQLError:
        return _UNKNOWN  # the translation refuses it with the reason
    if isinstance(tree, exp.Query):
        return None
    if isinstance(tree, exp.Insert):
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        if not isinstance(target, exp.Table):
            return _UNKNOWN
        return StatementWrites(rows=frozenset({target.name.lower()}))
    if isinstance(tree, exp.Delete):
        return _delete_writes(tree)
    if isinstance(tree, exp.Update):
        return _update_writes(tree)
    if isinstance(tree, _DDL):
        names = frozenset(t.name.lower() for t in tree.find_all(exp.Table) if t.name)
        return StatementWrites(rows=names, is_ddl=True, unknown=not names)
    return _UNKNOWN


def _aliases(tables: Iterable[exp.Expr]) -> dict[str, str]:
    """alias or name (lower case) -> table name, for the tables of a statement's FROM/JOINs."""
    out: dict[str, str] = {}
    for node in tables:
        if not isinstance(node, exp.Table):
            continue
        for joined in [node, *(j.this for j in node.args.get("joins") or [])]:
            if isinstance(joined, exp.Table) and joined.name:
                out[joined.alias_or_name.lower()] = joined.name.lower()
    return out


def _delete_writes(delete: exp.Delete) -> StatementWrites:
    sources = _aliases([delete.this, *(delete.args.get("using") or [])])
    targets = list(delete.args.get("tables") or []) or [delete.this]
    rows = set()
    for target in targets:
        if not isinstance(target, exp.Table):
            return _UNKNOWN
        rows.add(sources.get(target.alias_or_name.lower(), target.name.lower()))
    return StatementWrites(rows=frozenset(rows))


def _update_writes(update: exp.Update) -> StatementWrites:
    tables = _aliases([update.this])
    from_ = update.args.get("from_")
    if isinstance(from_, exp.From):
        tables.update(_aliases([from_.this]))
    if not tables:
        return _UNKNOWN
    columns: dict[str, set[str]] = {}
    for assignment in update.expressions:
        column = assignment.this if isinstance(assignment, exp.EQ) else None
        if not isinstance(column, exp.Column):
            return _UNKNOWN
        if column.table:
            owners = [tables.get(column.table.lower(), column.table.lower())]
        else:  # unqualified in a multi-table UPDATE: any of them may own it
            owners = list(set(tables.values()))
        for owner in owners:
            columns.setdefault(owner, set()).add(column.name.lower())
    return StatementWrites(columns={t: frozenset(c) for t, c in columns.items()})
