"""MySQL column types and defaults, and what they become on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from sqlglot import exp
from sqlglot.expressions.datatypes import DType

from framework.storage.sql.errors import SQLError, Target
from framework.storage.sql.names import string_literal

DT = DType

_INT_TYPES = {
    DT.TINYINT, DT.UTINYINT, DT.SMALLINT, DT.USMALLINT, DT.MEDIUMINT, DT.UMEDIUMINT,
    DT.INT, DT.UINT, DT.BIGINT, DT.UBIGINT, DT.SERIAL,
}
_PG_INT_TYPES = {
    DT.TINYINT: "SMALLINT", DT.UTINYINT: "SMALLINT", DT.SMALLINT: "SMALLINT",
    DT.USMALLINT: "INTEGER", DT.MEDIUMINT: "INTEGER", DT.UMEDIUMINT: "INTEGER",
    DT.INT: "INTEGER", DT.UINT: "BIGINT", DT.BIGINT: "BIGINT", DT.UBIGINT: "BIGINT",
    DT.SERIAL: "BIGINT", DT.BOOLEAN: "SMALLINT", DT.YEAR: "SMALLINT",
}
STRING_TYPES = {DT.CHAR, DT.NCHAR, DT.VARCHAR, DT.NVARCHAR}
_TEXT_TYPES = {DT.TEXT, DT.TINYTEXT, DT.MEDIUMTEXT, DT.LONGTEXT}
_BLOB_TYPES = {DT.BLOB, DT.TINYBLOB, DT.MEDIUMBLOB, DT.LONGBLOB, DT.BINARY, DT.VARBINARY}
_DATETIME_TYPES = {DT.DATETIME, DT.TIMESTAMP, DT.TIMESTAMPTZ}

# What a column holds, for defaults and checks.
Kind = Literal["int", "float", "decimal", "string", "enum", "set", "json", "blob", "date",
                "time", "datetime"]


def type_kind(dtype: exp.DataType) -> Kind | None:
    t = dtype.this
    if t in _INT_TYPES or t in (DT.BOOLEAN, DT.BIT, DT.YEAR):
        return "int"
    if t in (DT.FLOAT, DT.DOUBLE, DT.UDOUBLE):
        return "float"
    if t in (DT.DECIMAL, DT.UDECIMAL):
        return "decimal"
    if t in STRING_TYPES or t in _TEXT_TYPES:
        return "string"
    simple: dict[DType, Kind] = {
        DT.ENUM: "enum", DT.SET: "set", DT.JSON: "json", DT.DATE: "date", DT.TIME: "time",
    }
    if t in simple:
        return simple[t]
    if t in _BLOB_TYPES:
        return "blob"
    if t in _DATETIME_TYPES:
        return "datetime"
    return None


def type_params(dtype: exp.DataType) -> list[int]:
    params: list[int] = []
    for param in dtype.expressions:
        value = param.this if isinstance(param, exp.DataTypeParam) else param
        if isinstance(value, exp.Literal) and not value.is_string:
            params.append(int(value.this))
    return params


def enum_values(dtype: exp.DataType) -> list[str]:
    return [value.this for value in dtype.expressions if isinstance(value, exp.Literal)]


def target_type(dtype: exp.DataType, target: Target) -> str:
    """The column type on SQLite or PostgreSQL for a MySQL type."""
    params = type_params(dtype)
    kind = type_kind(dtype)
    if kind is None:
        raise SQLError(f"unsupported column type {dtype.sql('mysql')}")
    pg = target == "postgresql"
    if dtype.this == DT.BIT:
        return _bit_type(params, pg)
    return _TARGET_TYPES[kind](dtype, params, pg)


def _bit_type(params: list[int], pg: bool) -> str:
    """BIT(n) as the smallest integer that holds n bits (any width is an INTEGER on SQLite)."""
    width = params[0] if params else 1
    if not pg:
        return "INTEGER"
    return "SMALLINT" if width <= 15 else "INTEGER" if width <= 31 else "BIGINT"


def _int_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    return _PG_INT_TYPES[dtype.this] if pg else "INTEGER"


def _float_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    """REAL for single precision (FLOAT, FLOAT(p) with p <= 24), DOUBLE PRECISION otherwise."""
    if not pg:
        return "REAL"
    if dtype.this == DT.FLOAT and (len(params) != 1 or params[0] <= 24):
        return "REAL"
    return "DOUBLE PRECISION"


def _decimal_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    precision = params[0] if params else 10
    scale = params[1] if len(params) > 1 else 0
    return f"NUMERIC({precision},{scale})"


def _string_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    if dtype.this in _TEXT_TYPES:
        return "TEXT"
    if not params:
        if dtype.this in (DT.VARCHAR, DT.NVARCHAR):
            raise SQLError("VARCHAR needs a length, e.g. VARCHAR(32)")
        params = [1]
    # CHAR(n) is VARCHAR(n) too: PostgreSQL would return CHAR values blank-padded.
    return f"VARCHAR({params[0]})"


def _enum_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    """On PostgreSQL, a VARCHAR as long as the longest value."""
    values = enum_values(dtype)
    return f"VARCHAR({max((len(v) for v in values), default=1)})" if pg else "TEXT"


def _text_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    return "TEXT"


def _blob_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    return "BYTEA" if pg else "BLOB"


def _date_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    return "DATE"


def _time_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    return f"TIME({params[0] if params else 0})" if pg else "TIME"


def _datetime_type(dtype: exp.DataType, params: list[int], pg: bool) -> str:
    if pg:
        return f"TIMESTAMP({params[0] if params else 0})"
    return "TIMESTAMP" if dtype.this != DT.DATETIME else "DATETIME"


# kind -> (dtype, its numeric parameters, is PostgreSQL) -> the target's column type
_TARGET_TYPES: dict[Kind, Callable[[exp.DataType, list[int], bool], str]] = {
    "int": _int_type, "float": _float_type, "decimal": _decimal_type, "string": _string_type,
    "enum": _enum_type, "set": _text_type, "json": _text_type, "blob": _blob_type,
    "date": _date_type, "time": _time_type, "datetime": _datetime_type,
}


class Now(exp.Expression):
    """CURRENT_TIMESTAMP as a column default (rendered per target)."""


_NOW_NAMES = {"NOW", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "SYSDATE"}


def is_now(node: exp.Expr | None) -> bool:
    if isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, (exp.CurrentTimestamp, Now)):
        return True
    return isinstance(node, exp.Anonymous) and node.name.upper() in _NOW_NAMES


def number_text(node: exp.Expr) -> str | None:
    """The text of a numeric literal, possibly negative or written as a string ('0')."""
    negative = False
    while isinstance(node, (exp.Neg, exp.Paren)):
        if isinstance(node, exp.Neg):
            negative = not negative
        node = node.this
    if isinstance(node, exp.Boolean):
        return "1" if node.this else "0"
    if not isinstance(node, exp.Literal):
        return None
    text = str(node.this).strip()
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    if negative:
        text = text[1:] if text.startswith("-") else "-" + text
    return text


def normalize_default(
    default: exp.Expr, dtype: exp.DataType, column: str
) -> exp.Expr:
    """A column default as a plain literal, NULL or ``Now``, checked against the type."""
    if isinstance(default, exp.Null):
        return default
    kind = type_kind(dtype)
    if is_now(default):
        if kind not in ("datetime", None):
            raise SQLError(f"column `{column}`: CURRENT_TIMESTAMP default on a non-date column")
        return Now()
    if kind in ("int", "float", "decimal"):
        text = number_text(default)
        if text is None:
            raise SQLError(f"column `{column}`: invalid default value {default.sql('mysql')}")
        if kind == "int" and not re.fullmatch(r"-?\d+", text):
            text = str(round(float(text)))
        return exp.Literal(this=text, is_string=False)  # Literal.number("-1") would be a Neg
    if isinstance(default, exp.Boolean):
        value = "1" if default.this else "0"
    elif isinstance(default, exp.Literal):
        value = str(default.this)
    elif number_text(default) is not None:
        value = str(number_text(default))
    else:
        raise SQLError(f"column `{column}`: unsupported default {default.sql('mysql')}")
    if kind == "enum":
        values = enum_values(dtype)
        if isinstance(default, exp.Literal) and not default.is_string and value.isdigit():
            index = int(value)
            if not 1 <= index <= len(values):
                raise SQLError(f"column `{column}`: invalid default value {value}")
            value = values[index - 1]
        matches = [v for v in values if v.lower() == value.lower()]
        if not matches:
            raise SQLError(f"column `{column}`: default '{value}' is not one of the ENUM values")
        value = matches[0]
    if kind in ("date", "datetime") and value.startswith("0000-00-00"):
        raise SQLError(
            f"column `{column}`: the zero date default '{value}' exists only in MySQL; "
            "use DEFAULT NULL"
        )
    return exp.Literal.string(value)


def implicit_default(dtype: exp.DataType) -> exp.Expr | None:
    """What non-strict MySQL stores in a NOT NULL column an INSERT leaves out."""
    kind = type_kind(dtype)
    if kind in ("int", "float", "decimal"):
        return exp.Literal.number(0)
    if kind in ("string", "set", "blob"):
        return exp.Literal.string("")
    if kind == "enum":
        values = enum_values(dtype)
        return exp.Literal.string(values[0]) if values else None
    return None


def render_default(default: exp.Expr, dtype: exp.DataType, target: Target) -> str:
    if isinstance(default, Now):
        return "LOCALTIMESTAMP(0)" if target == "postgresql" else "CURRENT_TIMESTAMP"
    if isinstance(default, exp.Null):
        return "NULL"
    if isinstance(default, exp.Literal) and not default.is_string:
        return str(default.this)
    value = str(default.this)
    if type_kind(dtype) == "blob" and target == "sqlite":
        return "X'" + value.encode("utf-8").hex() + "'"
    return string_literal(value)

