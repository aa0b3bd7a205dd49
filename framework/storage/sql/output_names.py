"""Names as MySQL has them: result keys spelled as in the query, SELECT aliases usable
where MySQL allows them, other identifiers lower case on PostgreSQL."""

from __future__ import annotations

import sqlglot
from sqlglot import TokenType, exp
from sqlglot.errors import TokenError

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


_END_OF_PROJECTIONS = {
    TokenType.FROM, TokenType.WHERE, TokenType.GROUP_BY, TokenType.ORDER_BY, TokenType.LIMIT,
    TokenType.UNION, TokenType.INTO, TokenType.HAVING, TokenType.SEMICOLON, TokenType.FOR,
    TokenType.WINDOW,
}


def projection_texts(text: str) -> list[str]:
    """The projections of a SELECT as written (MySQL names an unaliased expression so).

    >>> projection_texts("SELECT COUNT(*), MAX(a) + 1 FROM t")
    ['COUNT(*)', 'MAX(a) + 1']
    """
    try:
        tokens = sqlglot.Dialect.get_or_raise("mysql").tokenize(text)
    except TokenError:
        return []
    if not tokens or tokens[0].token_type != TokenType.SELECT:
        return []
    out: list[str] = []
    depth = 0
    start: int | None = None
    end = 0
    for token in tokens[1:]:
        kind = token.token_type
        if depth == 0 and (kind in _END_OF_PROJECTIONS or kind == TokenType.COMMA):
            if start is not None:
                out.append(text[start:end + 1])
            start = None
            if kind != TokenType.COMMA:
                return out
            continue
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        if start is None:
            if depth == 0 and kind == TokenType.DISTINCT:
                continue
            start = token.start
        end = token.end
    if start is not None:
        out.append(text[start:end + 1])
    return out


def _name_expressions(select: exp.Select, source_text: str) -> None:
    """An unaliased expression of the outermost SELECT is named as MySQL names it: its text
    as written (a string literal: its value)."""
    texts = projection_texts(source_text) if source_text else []
    if len(texts) != len(select.expressions):
        return
    for projection, written in zip(list(select.expressions), texts, strict=True):
        if isinstance(projection, (exp.Column, exp.Alias, exp.Star)) or "?" in written:
            continue
        name = projection.this if isinstance(projection, exp.Literal) and projection.is_string \
            else written
        if not isinstance(name, str) or not name:
            continue
        alias = exp.to_identifier(name, quoted=True)
        alias.meta[_KEEP_CASE] = True
        wrap(projection, exp.Alias(alias=alias))


def name_outputs(tree: exp.Expr, target: Target, source_text: str = "") -> None:
    """Result keys as on MySQL: a bare column of the outermost SELECT is named as written in
    the query (SQLite would use the declared spelling, PostgreSQL lower case), an expression
    by its text (``source_text``: the statement as written)."""
    if isinstance(tree, exp.Select):
        _name_expressions(tree, source_text)
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
    if target == "postgresql" and selects:
        _spell_output_references(tree, selects, names)


def _spell_output_references(tree: exp.Expr, selects: list[exp.Select],
                             names: dict[str, str]) -> None:
    """PostgreSQL: ORDER BY / GROUP BY items naming an output column must match its exact
    spelling."""
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

