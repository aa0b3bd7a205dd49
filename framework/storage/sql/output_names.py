"""Names as MySQL has them: result keys spelled as in the query, SELECT aliases usable
where MySQL allows them, other identifiers lower case on PostgreSQL."""

from __future__ import annotations

from sqlglot import exp

from framework.storage.sql.errors import Target
from framework.storage.sql.generate import wrap


def _projection_aliases(select: exp.Select) -> dict[str, exp.Expr]:
    aliases: dict[str, exp.Expr] = {}
    for projection in select.expressions:
        if isinstance(projection, exp.Alias) and projection.alias:
            aliases.setdefault(projection.alias.lower(), projection.this)
    return aliases


def inline_aliases_pg(tree: exp.Expr) -> None:
    """PostgreSQL resolves SELECT aliases only as whole ORDER BY / GROUP BY items; MySQL also
    in HAVING and inside ORDER BY expressions: substitute the aliased expression there."""
    for select in tree.find_all(exp.Select):
        aliases = _projection_aliases(select)
        if not aliases:
            continue
        places: list[exp.Expr] = []
        having = select.args.get("having")
        if having is not None:
            places.append(having)
        order = select.args.get("order")
        if order is not None:
            places.extend(o.this for o in order.expressions
                          if isinstance(o, exp.Ordered) and not isinstance(o.this, exp.Column))
        for place in places:
            for column in list(place.find_all(exp.Column)):
                if column.table or column.name.lower() not in aliases:
                    continue
                if column.find_ancestor(exp.Select) is not select:
                    continue
                aliased = aliases[column.name.lower()]
                if isinstance(aliased, exp.Column) and aliased.name.lower() == column.name.lower():
                    continue
                column.replace(aliased.copy())


_KEEP_CASE = "arena_keep_case"


def _output_selects(tree: exp.Expr) -> list[exp.Select]:
    if isinstance(tree, exp.Select):
        return [tree]
    if isinstance(tree, exp.Subquery):
        return _output_selects(tree.this)
    if isinstance(tree, exp.SetOperation):
        return _output_selects(tree.this) + _output_selects(tree.expression)
    return []


def name_outputs(tree: exp.Expr, target: Target) -> None:
    """Result keys as on MySQL: a bare column of the outermost SELECT is named as written in
    the query (SQLite would use the declared spelling, PostgreSQL lower case)."""
    selects = _output_selects(tree)
    names: dict[str, str] = {}
    for select in selects:
        for projection in select.expressions:
            if isinstance(projection, exp.Column) and not isinstance(projection.this, exp.Star):
                written = projection.name
                if target == "sqlite" or written != written.lower():
                    alias = exp.to_identifier(written, quoted=True)
                    alias.meta[_KEEP_CASE] = True
                    wrap(projection, exp.Alias(alias=alias))
                names.setdefault(written.lower(), written)
            elif isinstance(projection, exp.Alias):
                identifier = projection.args.get("alias")
                if isinstance(identifier, exp.Identifier):
                    identifier.meta[_KEEP_CASE] = True
                    names.setdefault(identifier.name.lower(), identifier.name)
    if target != "postgresql" or not selects:
        return
    # ORDER BY / GROUP BY items naming an output column must match its exact spelling.
    holders: list[exp.Expr] = list(selects)
    if isinstance(tree, exp.SetOperation):
        holders.append(tree)
    for holder in holders:
        items: list[exp.Expr] = []
        order = holder.args.get("order")
        if order is not None:
            items.extend(o.this for o in order.expressions if isinstance(o, exp.Ordered))
        group = holder.args.get("group")
        if group is not None:
            items.extend(group.expressions)
        for item in items:
            if isinstance(item, exp.Column) and not item.table and item.name.lower() in names:
                identifier = item.this
                if isinstance(identifier, exp.Identifier):
                    identifier.set("this", names[item.name.lower()])
                    identifier.meta[_KEEP_CASE] = True


def lowercase_identifiers(tree: exp.Expr) -> None:
    for identifier in tree.find_all(exp.Identifier):
        if not identifier.meta.get(_KEEP_CASE):
            identifier.set("this", identifier.name.lower())
        identifier.set("quoted", True)

