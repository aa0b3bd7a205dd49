"""MySQL's string, date and JSON functions that games use, written for each target: the
functions Arena registers on SQLite connections (``arena_*``), the ones it creates in each
PostgreSQL session (``pg_temp.arena_*``), or the target's own equivalent.

The registered functions are in ``framework.storage.sqlite_functions`` and
``framework.storage.postgres_functions``; the names below are the contract between them.
"""

from __future__ import annotations

import re
import sqlite3

from sqlglot import exp

from framework.storage.sql.errors import Target, refuse

_DONE = "arena_mapped"

#: MySQL's interval units that DATE_ADD / TIMESTAMPDIFF accept here (MICROSECOND and the
#: compound units such as DAY_HOUR are refused).
UNITS = ("SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR")

_DATE_ONLY = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
_JSON_PATH_STEP = re.compile(r'\.([A-Za-z_$][\w$]*)|\."([^"]*)"|\[(\d+)\]')

NEEDS_SQLITE_CONCAT_WS = sqlite3.sqlite_version_info < (3, 44)


def _call(name: str, *args: exp.Expr) -> exp.Anonymous:
    node = exp.Anonymous(this=name, expressions=list(args))
    node.meta[_DONE] = True
    return node


def _fn(target: Target, name: str) -> str:
    """The name of an Arena function on ``target``."""
    return f"pg_temp.arena_{name}" if target == "postgresql" else f"arena_{name}"


def _text(node: exp.Expr) -> exp.Expr:
    return exp.Cast(this=node, to=exp.DataType.build("TEXT"))


def _unit(node: exp.Expr, target: Target, construct: str) -> str:
    unit = node.args.get("unit")
    name = (unit.name if isinstance(unit, exp.Expr) else str(unit or "DAY")).upper()
    if name.endswith("S") and name[:-1] in UNITS:
        name = name[:-1]
    if name not in UNITS:
        raise refuse(f"{construct} with unit {name}", target,
                      "use one of " + ", ".join(UNITS))
    return name


def map_mysql_function(node: exp.Expr, target: Target) -> bool:
    """Rewrite ``node`` if it is one of the functions of this module; True when it was."""
    if node.meta.get(_DONE) or target == "mysql":
        return False
    if isinstance(node, exp.SubstringIndex):
        node.replace(_call(_fn(target, "substring_index"), _text(node.this),
                           _text(node.args["delimiter"]), node.args["count"]))
    elif isinstance(node, exp.Pad):
        _pad(node, target)
    elif isinstance(node, (exp.DateAdd, exp.DateSub)):
        _date_add(node, node.this, node.expression, _unit(node, target, "DATE_ADD"),
                  isinstance(node, exp.DateSub), target)
    elif isinstance(node, (exp.Add, exp.Sub)) and isinstance(node.expression, exp.Interval):
        interval = node.expression
        _date_add(node, node.this, interval.this, _unit(interval, target, "INTERVAL"),
                  isinstance(node, exp.Sub), target)
    elif isinstance(node, exp.Add) and isinstance(node.this, exp.Interval):
        interval = node.this
        _date_add(node, node.expression, interval.this, _unit(interval, target, "INTERVAL"),
                  False, target)
    elif isinstance(node, exp.TimestampDiff):
        unit = _unit(node, target, "TIMESTAMPDIFF")
        # sqlglot reads TIMESTAMPDIFF(unit, a, b) as this=b, expression=a
        node.replace(_call(_fn(target, "timestampdiff"), exp.Literal.string(unit),
                           _text(node.expression), _text(node.this)))
    elif isinstance(node, exp.UnixToTime):
        _from_unixtime(node, target)
    elif isinstance(node, exp.Trunc):
        _truncate(node, target)
    elif isinstance(node, (exp.JSONExtract, exp.JSONExtractScalar)):
        _json_extract(node, node.this, node.expression, isinstance(node, exp.JSONExtractScalar),
                      target)
    elif isinstance(node, exp.ConcatWs):
        if target == "sqlite" and NEEDS_SQLITE_CONCAT_WS:
            node.replace(_call("arena_concat_ws", *node.expressions))
        else:
            return False
    elif isinstance(node, exp.Anonymous):
        return _map_anonymous(node, target)
    else:
        return False
    return True


def _map_anonymous(node: exp.Anonymous, target: Target) -> bool:
    name = node.name.upper()
    args = node.expressions
    if name == "FIND_IN_SET" and len(args) == 2:
        node.replace(_call(_fn(target, "find_in_set"), _text(args[0]), _text(args[1])))
    elif name == "UNIX_TIMESTAMP" and len(args) == 1:
        node.replace(_call(_fn(target, "unix_timestamp"), _text(args[0])))
    elif name == "JSON_UNQUOTE" and len(args) == 1:
        inner = args[0]
        if isinstance(inner, exp.JSONExtract) and not inner.meta.get(_DONE):
            inner.meta[_DONE] = True
            _json_extract(node, inner.this, inner.expression, True, target)
        else:
            node.replace(_call(_fn(target, "json_unquote"), _text(inner)))
    else:
        return False
    return True


def _pad(node: exp.Pad, target: Target) -> None:
    fill = node.args.get("fill_pattern")
    if fill is None:
        raise refuse("LPAD()/RPAD() without a padding string", target, "give the padding")
    name = "lpad" if node.args.get("is_left") else "rpad"
    if target == "postgresql":
        node.replace(_call(name.upper(), _text(node.this), exp.Cast(
            this=node.expression, to=exp.DataType.build("INT")), _text(fill)))
    else:
        node.replace(_call(f"arena_{name}", node.this, node.expression, fill))


def _date_add(node: exp.Expr, date: exp.Expr, amount: exp.Expr, unit: str, subtract: bool,
              target: Target) -> None:
    """DATE_ADD/DATE_SUB/``+ INTERVAL``: MySQL's month arithmetic (the 31st plus a month is
    the last day of the next month); a date without a time stays a date."""
    if target == "sqlite":
        if subtract:
            amount = exp.Neg(this=exp.Paren(this=amount))
        node.replace(_call("arena_date_add", date, amount, exp.Literal.string(unit)))
        return
    is_date = (isinstance(date, exp.Literal) and date.is_string
               and bool(_DATE_ONLY.match(date.this.strip()))
               and unit in ("DAY", "WEEK", "MONTH", "QUARTER", "YEAR"))
    step = {"WEEK": "7 DAY", "QUARTER": "3 MONTH"}.get(unit, f"1 {unit}")
    operation = exp.Sub if subtract else exp.Add
    moved: exp.Expr = operation(
        this=exp.Cast(this=date, to=exp.DataType.build("TIMESTAMP")),
        expression=exp.Mul(this=exp.Cast(this=amount, to=exp.DataType.build("INT")),
                           expression=exp.Interval(this=exp.Literal.string(step))),
    )
    if is_date:
        moved = exp.Cast(this=exp.Paren(this=moved), to=exp.DataType.build("DATE"))
    else:
        moved = exp.Cast(this=exp.Paren(this=moved), to=exp.DataType.build("TIMESTAMP(0)"))
    node.replace(moved)


def _from_unixtime(node: exp.UnixToTime, target: Target) -> None:
    if node.args.get("format") is not None:
        raise refuse("FROM_UNIXTIME(n, format)", target,
                      "format the date in Python, or use DATE_FORMAT on the result")
    node.replace(_call(_fn(target, "from_unixtime"), node.this))


def _truncate(node: exp.Trunc, target: Target) -> None:
    decimals = node.args.get("decimals") or exp.Literal.number(0)
    if target == "postgresql":
        truncated = _call("TRUNC", exp.Cast(this=node.this, to=exp.DataType.build("NUMERIC")),
                          exp.Cast(this=decimals, to=exp.DataType.build("INT")))
        node.replace(truncated)
    else:
        node.replace(_call("arena_truncate", node.this, decimals))


def json_path_steps(path: str) -> list[str] | None:
    """The keys and indexes of a simple MySQL JSON path, or None when it has wildcards.

    >>> json_path_steps('$.hand[2]."odd key"')
    ['hand', '2', 'odd key']
    """
    text = path.strip()
    if not text.startswith("$"):
        return None
    steps: list[str] = []
    position = 1
    while position < len(text):
        match = _JSON_PATH_STEP.match(text, position)
        if match is None:
            return None
        steps.append(next(g for g in match.groups() if g is not None))
        position = match.end()
    return steps


def _path_text(path: exp.Expr) -> str | None:
    if isinstance(path, exp.JSONPath):
        return path.sql("mysql").strip("'")
    if isinstance(path, exp.Literal) and path.is_string:
        return str(path.this)
    return None


def _json_extract(node: exp.Expr, document: exp.Expr, path: exp.Expr, unquote: bool,
                  target: Target) -> None:
    """JSON_EXTRACT (JSON text, normalised as MySQL writes it), ``->>`` and
    JSON_UNQUOTE(JSON_EXTRACT()) (the value as text)."""
    text = _path_text(path)
    steps = json_path_steps(text) if text is not None else None
    construct = "JSON_UNQUOTE(JSON_EXTRACT())" if unquote else "JSON_EXTRACT()"
    if text is None or steps is None:
        raise refuse(f"{construct} with a computed path or wildcards", target,
                      "write the path as a literal such as '$.hand[0]'")
    if target == "sqlite":
        name = "arena_json_value" if unquote else "arena_json_extract"
        node.replace(_call(name, document, exp.Literal.string(text)))
        return
    array = exp.Literal.string("{" + ",".join('"' + s.replace('"', '\\"') + '"'
                                              for s in steps) + "}")
    node.replace(_call(_fn(target, "json_value" if unquote else "json_extract"),
                       _text(document), array))


def map_mysql_json_for_mariadb(tree: exp.Expr) -> bool:
    """MariaDB has no ``->`` / ``->>``: JSON_EXTRACT and JSON_UNQUOTE(JSON_EXTRACT()).
    True when the tree changed."""
    changed = False
    for node in list(tree.find_all(exp.JSONExtract, exp.JSONExtractScalar)):
        if isinstance(node, exp.JSONExtractScalar):
            extract = exp.Anonymous(this="JSON_EXTRACT", expressions=[node.this, node.expression])
            node.replace(exp.Anonymous(this="JSON_UNQUOTE", expressions=[extract]))
            changed = True
    return changed
