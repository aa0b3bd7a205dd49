"""MySQL functions, casts and operators rewritten (or refused) for SQLite and PostgreSQL."""

from __future__ import annotations

import sqlglot
from sqlglot import exp
from sqlglot.expressions.datatypes import DType as DT

from framework.storage.sql.column_types import STRING_TYPES, type_params
from framework.storage.sql.errors import Target, refuse
from framework.storage.sql.generate import wrap
from framework.storage.sql.mysql_functions import map_mysql_function

_REFUSED_FUNCTIONS = {
    "FOUND_ROWS": "count the rows with a separate SELECT COUNT(*)",
    "ROW_COUNT": "use the affected row count of the statement (DbAffectedRow)",
    "UUID": "generate identifiers in Python",
    "UUID_SHORT": "generate identifiers in Python",
    "SLEEP": "do not wait inside a request",
    "BENCHMARK": "do not benchmark inside a request",
    "GET_LOCK": "each request already runs in its own transaction",
    "RELEASE_LOCK": "each request already runs in its own transaction",
    "DATABASE": "the game table's database is implicit",
    "CONNECTION_ID": "connections are the framework's",
    "CONVERT_TZ": "convert times in Python",
}


def check_policy(tree: exp.Expr, target: Target) -> None:
    """Refusals that hold on every backend, MariaDB included: ``RAND()`` outside a game's
    ``db_query`` (which seeds it from the table's random source, ``framework.storage.sql.rand``)."""
    if tree.find(exp.Rand) is not None:
        raise refuse("RAND()", target,
                      "RAND() is seeded from the table's random source (self.random / "
                      "bga_rand) only in the table's db_query, so that tables replay")


def _date_now(target: Target) -> exp.Expr:
    if target == "postgresql":
        return exp.Anonymous(this="LOCALTIMESTAMP", expressions=[exp.Literal.number(0)])
    return exp.Anonymous(this="DATETIME", expressions=[exp.Literal.string("now")])


_UNIX_TIMESTAMP = {
    "sqlite": "CAST(STRFTIME('%s', 'now') AS INTEGER)",
    "postgresql": "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) AS BIGINT)",
}
_LAST_INSERT_ID = {"sqlite": "LAST_INSERT_ROWID()", "postgresql": "LASTVAL()"}
_READ_AS = {"sqlite": "sqlite", "postgresql": "postgres"}


def _snippet(sql: str, target: Target) -> exp.Expr:
    return sqlglot.parse_one(sql, read=_READ_AS[target])


def map_functions(tree: exp.Expr, target: Target) -> None:
    """MySQL functions and operators without an equivalent of the same name on the target."""
    for node in list(tree.walk()):
        _map_node(node, target)


def _map_node(node: exp.Expr, target: Target) -> None:
    """Rewrite (or refuse) one node of the tree in place."""
    if map_mysql_function(node, target):
        return
    if isinstance(node, exp.Anonymous):
        _map_anonymous(node, target)
    elif isinstance(node, exp.CurrentTimestamp):
        node.replace(_date_now(target))
    elif isinstance(node, (exp.Parameter, exp.SessionParameter)):
        raise refuse(f"MySQL variable {node.sql('mysql')}", target,
                      "keep values in Python or in a table")
    elif isinstance(node, exp.Group) and (node.args.get("rollup") or node.args.get("cube")):
        raise refuse("GROUP BY ... WITH ROLLUP", target, "compute the totals in Python")
    elif isinstance(node, exp.Collate):
        _map_collate(node, target)
    elif isinstance(node, exp.GroupConcat):
        _map_group_concat(node, target)
    elif isinstance(node, exp.Cast):
        _map_cast(node, target)
    elif target == "postgresql":
        _map_node_pg(node)
    else:
        _map_node_sqlite(node, target)


_NOW_FUNCTIONS = ("NOW", "SYSDATE", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP")


def _map_anonymous(node: exp.Anonymous, target: Target) -> None:
    """Functions sqlglot does not know by name: refused ones, the clock, LAST_INSERT_ID, FIELD."""
    name = node.name.upper()
    if name in _REFUSED_FUNCTIONS:
        raise refuse(f"{name}()", target, _REFUSED_FUNCTIONS[name])
    if name in _NOW_FUNCTIONS:
        node.replace(_date_now(target))
    elif name == "UNIX_TIMESTAMP" and not node.expressions:
        node.replace(_snippet(_UNIX_TIMESTAMP[target], target))
    elif name == "LAST_INSERT_ID" and not node.expressions:
        node.replace(_snippet(_LAST_INSERT_ID[target], target))
    elif name == "FIELD" and len(node.expressions) >= 2:
        node.replace(_field_case(node))


def _field_case(node: exp.Anonymous) -> exp.Expr:
    """FIELD(x, a, b, ...) as CASE WHEN x = a THEN 1 WHEN x = b THEN 2 ... ELSE 0 END."""
    subject, *choices = node.expressions
    case = exp.Case()
    for position, choice in enumerate(choices, start=1):
        case = case.when(exp.EQ(this=subject.copy(), expression=choice.copy()),
                         exp.Literal.number(position))
    return case.else_(exp.Literal.number(0))


def _map_collate(node: exp.Collate, target: Target) -> None:
    """Case-sensitive collations are dropped; case-insensitive ones are refused."""
    collation = node.expression.name.lower()
    if not collation.endswith(("_bin", "_cs")):
        raise refuse(f"COLLATE {collation}", target,
                      "compare with LOWER() on both sides instead")
    node.replace(node.this)  # SQLite and PostgreSQL compare case-sensitively already


def _map_node_pg(node: exp.Expr) -> None:
    """CONCAT and LIKE, which mean something else on PostgreSQL."""
    if isinstance(node, exp.Concat) and not isinstance(node, exp.ConcatWs):
        _map_concat_pg(node)
    elif isinstance(node, exp.Like):
        node.replace(exp.ILike(**node.args))  # keeps NOT (negate) and ESCAPE


def _map_node_sqlite(node: exp.Expr, target: Target) -> None:
    """LIKE's backslash escape (the functions SQLite lacks are in ``mysql_functions``)."""
    del target
    if isinstance(node, exp.Like):
        pattern = node.expression
        if (isinstance(pattern, exp.Literal) and "\\" in str(pattern.this)
                and not isinstance(node.parent, exp.Escape)):
            # MySQL's LIKE escapes with a backslash by default, SQLite's with nothing.
            node.replace(exp.Escape(this=node.copy(), expression=exp.Literal.string("\\")))


_UNSIGNED_INT_TYPES = {DT.UTINYINT, DT.USMALLINT, DT.UMEDIUMINT, DT.UINT, DT.UBIGINT}


def _map_cast(node: exp.Cast, target: Target) -> None:
    """MySQL CAST types that mean something else (or nothing) on the target."""
    to = node.args.get("to")
    if not isinstance(to, exp.DataType):
        return
    params = type_params(to)
    if to.this in _UNSIGNED_INT_TYPES:  # CAST(x AS UNSIGNED)
        to.set("this", DT.BIGINT)
        to.set("expressions", [])
    elif to.this in STRING_TYPES:  # CAST(x AS CHAR[(n)]): MySQL's CHAR is not padded
        text = exp.DataType.build("TEXT")
        if not params:
            node.set("to", text)
        elif target == "postgresql":
            node.set("to", exp.DataType.build(f"VARCHAR({params[0]})"))
        else:
            node.set("to", text)
            wrap(node, exp.Substring(start=exp.Literal.number(1),
                                      length=exp.Literal.number(params[0])))
    elif to.this in (DT.BINARY, DT.VARBINARY) and not params:
        # BINARY x = 'a' makes MySQL compare case-sensitively, as SQLite and PostgreSQL do
        node.replace(node.this)
    elif target == "postgresql" and to.this == DT.DECIMAL and not params:
        node.set("to", exp.DataType.build("NUMERIC(10, 0)"))  # MySQL's DECIMAL is DECIMAL(10,0)
    elif target == "sqlite" and to.this == DT.DECIMAL:
        scale = params[1] if len(params) > 1 else 0
        node.set("to", exp.DataType.build("REAL"))
        rounded = wrap(node, exp.Round(decimals=exp.Literal.number(scale)))
        if scale == 0:
            wrap(rounded, exp.Cast(to=exp.DataType.build("INTEGER")))


def _map_concat_pg(node: exp.Concat) -> None:
    """CONCAT() -> ``||`` on text casts: PostgreSQL's CONCAT skips NULLs, MySQL's returns NULL."""
    parts: list[exp.Expr] = []
    for arg in node.expressions:
        if isinstance(arg, exp.Literal) and arg.is_string:
            parts.append(arg)
        else:
            parts.append(exp.Cast(this=arg, to=exp.DataType.build("TEXT")))
    if not parts:
        return
    result = parts[0]
    for part in parts[1:]:
        result = exp.DPipe(this=result, expression=part, safe=True)
    node.replace(exp.Paren(this=result) if len(parts) > 1 else result)


def _map_group_concat(node: exp.GroupConcat, target: Target) -> None:
    inner = node.this
    ordered = isinstance(inner, exp.Order)
    value = inner.this if isinstance(inner, exp.Order) else inner
    distinct = isinstance(value, exp.Distinct)
    separator = node.args.get("separator")
    if distinct:
        assert isinstance(value, exp.Distinct)
        if len(value.expressions) != 1:
            raise refuse("GROUP_CONCAT(DISTINCT a, b)", target, "concatenate one expression")
        value = value.expressions[0]
    if target == "sqlite":
        plain_separator = separator is None or (
            isinstance(separator, exp.Literal) and separator.this == ",")
        if ordered or (distinct and not plain_separator):
            # SQLite before 3.44 has no ORDER BY in an aggregate: Arena's own GROUP_CONCAT
            keys: list[exp.Expr] = []
            if isinstance(inner, exp.Order):
                for item in inner.expressions:
                    keys.append(item.this if isinstance(item, exp.Ordered) else item)
                    keys.append(exp.Literal.number(1 if item.args.get("desc") else 0))
            node.replace(exp.Anonymous(this="arena_group_concat", expressions=[
                value, separator or exp.Literal.string(","),
                exp.Literal.number(1 if distinct else 0), *keys]))
        return
    if distinct and ordered:
        assert isinstance(inner, exp.Order)
        keys_are_value = all(isinstance(o, exp.Ordered) and o.this == value
                             for o in inner.expressions)
        if not keys_are_value:
            raise refuse("GROUP_CONCAT(DISTINCT ... ORDER BY another expression)", target,
                          "order by the concatenated expression, or sort in Python")
        for item in inner.expressions:
            wrap(item.this, exp.Cast(to=exp.DataType.build("TEXT")))
    wrap(value, exp.Cast(to=exp.DataType.build("TEXT")))

