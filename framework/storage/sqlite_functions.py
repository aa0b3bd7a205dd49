"""MySQL's functions that SQLite lacks, in Python, registered on every table connection as
``arena_*`` (the translation in ``framework.storage.sql.mysql_functions`` calls them)."""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import json
import sqlite3
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any, cast

from framework.storage.sql.mysql_functions import json_path_steps

_DATE_FORMATS = ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d")
_TIME_UNITS = {"SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400, "WEEK": 604800}


def _text(value: Any) -> str | None:
    """A value as MySQL converts it to a string."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def parse_datetime(value: Any) -> tuple[dt.datetime, bool] | None:
    """A MySQL date or datetime string -> (the datetime, whether it had no time part).

    >>> parse_datetime("2024-02-03")
    (datetime.datetime(2024, 2, 3, 0, 0), True)
    """
    text = _text(value)
    if text is None:
        return None
    text = text.strip().replace("T", " ")
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt), fmt == "%Y-%m-%d"
        except ValueError:
            continue
    return None


def _add_months(moment: dt.datetime, months: int) -> dt.datetime:
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def date_add(value: Any, amount: Any, unit: str) -> str | None:
    """MySQL's DATE_ADD(value, INTERVAL amount unit), as MySQL writes the result.

    >>> date_add("2024-01-31", 1, "MONTH"), date_add("2024-01-31 10:00:00", -2, "HOUR")
    ('2024-02-29', '2024-01-31 08:00:00')
    """
    parsed = parse_datetime(value)
    if parsed is None or amount is None:
        return None
    moment, date_only = parsed
    count = int(amount) if not isinstance(amount, str) else int(float(amount))
    try:
        if unit in ("MONTH", "QUARTER", "YEAR"):
            moment = _add_months(moment, count * {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit])
        else:
            moment = moment + dt.timedelta(seconds=count * _TIME_UNITS[unit])
    except (OverflowError, ValueError):
        return None
    if date_only and unit not in ("SECOND", "MINUTE", "HOUR"):
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def timestampdiff(unit: str, start: Any, end: Any) -> int | None:
    """MySQL's TIMESTAMPDIFF(unit, start, end): whole units, truncated toward zero.

    >>> timestampdiff("MONTH", "2024-01-31", "2024-02-29")
    0
    >>> timestampdiff("MINUTE", "2024-01-01 00:00:00", "2024-01-01 01:30:59")
    90
    """
    first, last = parse_datetime(start), parse_datetime(end)
    if first is None or last is None:
        return None
    a, b = first[0], last[0]
    if unit in _TIME_UNITS:
        seconds = (b - a).total_seconds()
        return int(seconds / _TIME_UNITS[unit])
    months = (b.year - a.year) * 12 + (b.month - a.month)
    rest_a = (a.day, a.time())
    rest_b = (b.day, b.time())
    if months > 0 and rest_b < rest_a:
        months -= 1
    elif months < 0 and rest_b > rest_a:
        months += 1
    return int(months / {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit])


def unix_timestamp(value: Any) -> int | None:
    parsed = parse_datetime(value)
    if parsed is None:
        return None
    return calendar.timegm(parsed[0].timetuple())


def from_unixtime(value: Any) -> str | None:
    if value is None:
        return None
    moment = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=int(float(value)))
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def substring_index(text: Any, delimiter: Any, count: Any) -> str | None:
    """MySQL's SUBSTRING_INDEX: the text before the ``count``-th delimiter (after it, from
    the end, when ``count`` is negative).

    >>> substring_index("a,b,c", ",", 2), substring_index("a,b,c", ",", -1)
    ('a,b', 'c')
    """
    s, d = _text(text), _text(delimiter)
    if s is None or d is None or count is None:
        return None
    n = int(count)
    if d == "" or n == 0:
        return ""
    parts = s.split(d)
    return d.join(parts[:n] if n > 0 else parts[n:])


def _pad(text: Any, length: Any, fill: Any, left: bool) -> str | None:
    s, f = _text(text), _text(fill)
    if s is None or f is None or length is None:
        return None
    n = int(length)
    if n < 0:
        return None
    if len(s) >= n:
        return s[:n]
    if f == "":
        return None
    padding = (f * (n // len(f) + 1))[: n - len(s)]
    return padding + s if left else s + padding


def lpad(text: Any, length: Any, fill: Any) -> str | None:
    """MySQL's LPAD (a longer text is cut to ``length``).

    >>> lpad(5, 3, "0"), lpad("abcd", 2, "x")
    ('005', 'ab')
    """
    return _pad(text, length, fill, True)


def rpad(text: Any, length: Any, fill: Any) -> str | None:
    return _pad(text, length, fill, False)


def truncate(value: Any, decimals: Any) -> int | float | None:
    """MySQL's TRUNCATE(x, d).

    >>> truncate(-1.239, 2), truncate(15, -1)
    (-1.23, 10)
    """
    if value is None or decimals is None:
        return None
    d = int(decimals)
    try:
        number = Decimal(str(value))
        cut = number.quantize(Decimal(1).scaleb(-d), rounding=ROUND_DOWN) if d >= 0 else (
            (number.scaleb(d).to_integral_value(rounding=ROUND_DOWN)).scaleb(-d))
    except InvalidOperation:
        return None
    if d <= 0 or isinstance(value, int):
        return int(cut)
    return float(cut)


def find_in_set(needle: Any, haystack: Any) -> int | None:
    """MySQL's FIND_IN_SET: the position of ``needle`` in a comma-separated list, 0 if absent.

    >>> find_in_set(3, "1,2,3"), find_in_set("x", "")
    (3, 0)
    """
    n, h = _text(needle), _text(haystack)
    if n is None or h is None:
        return None
    if "," in n or h == "":
        return 0
    parts = h.split(",")
    return parts.index(n) + 1 if n in parts else 0


def concat_ws(separator: Any, *values: Any) -> str | None:
    sep = _text(separator)
    if sep is None:
        return None
    return sep.join(t for t in (_text(v) for v in values) if t is not None)


def _json_at(document: Any, path: Any) -> tuple[bool, Any]:
    text, where = _text(document), _text(path)
    if text is None or where is None:
        return False, None
    steps = json_path_steps(where)
    try:
        value = json.loads(text)
    except ValueError:
        return False, None
    for step in steps or []:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            return False, None
    return True, value


def json_extract(document: Any, path: Any) -> str | None:
    """JSON_EXTRACT as MySQL writes its answer (``", "`` and ``": "`` between items).

    >>> json_extract('{"a":{"b":[1,2]}}', "$.a")
    '{"b": [1, 2]}'
    """
    found, value = _json_at(document, path)
    return json.dumps(value, ensure_ascii=False) if found else None


def json_value(document: Any, path: Any) -> str | None:
    """JSON_UNQUOTE(JSON_EXTRACT(...)): a string without its quotes, anything else as JSON."""
    found, value = _json_at(document, path)
    if not found:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def json_unquote(text: Any) -> str | None:
    s = _text(text)
    if s is None:
        return None
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        try:
            value = json.loads(s)
        except ValueError:
            return s
        return value if isinstance(value, str) else s
    return s


class GroupConcat:
    """GROUP_CONCAT(value [ORDER BY keys] SEPARATOR sep), called as
    ``arena_group_concat(value, sep, distinct, key1, desc1, key2, desc2, ...)`` (SQLite before
    3.44 has no ORDER BY inside an aggregate)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, list[Any]]] = []
        self.separator = ","
        self.distinct = False
        self.descending: list[bool] = []

    def step(self, value: Any, separator: Any, distinct: Any, *keys: Any) -> None:
        self.separator = _text(separator) or ""
        self.distinct = bool(distinct)
        self.descending = [bool(d) for d in keys[1::2]]
        text = _text(value)
        if text is not None:
            self.rows.append((text, list(keys[0::2])))

    def finalize(self) -> str | None:
        rows = self.rows
        for position in reversed(range(len(self.descending))):
            rows.sort(key=functools.partial(_sort_key, position),
                      reverse=self.descending[position])
        values = [text for text, _ in rows]
        if self.distinct:
            values = list(dict.fromkeys(values))
        return self.separator.join(values) if values else None


def _sort_key(position: int, row: tuple[str, list[Any]]) -> tuple[int, Any]:
    return _sortable(row[1][position])


def _sortable(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, int | float):
        return (1, value)
    return (2, _text(value))


def number(value: Any) -> float | None:
    """The number MySQL reads at the start of a string ('12abc' is 12, 'x' is 0)."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    text = (_text(value) or "").strip()
    end = 0
    for end in range(len(text), 0, -1):
        try:
            return float(text[:end])
        except ValueError:
            continue
    return 0.0


class ChangeCounter:
    """``arena_note_change(changed, value)``: counts the rows an UPDATE changed (its first
    assignment calls it for each row it matches, ``framework.storage.sql.changed_rows``)
    and gives ``value`` back. ``take()`` answers the count since the last ``take()``."""

    def __init__(self) -> None:
        self.changed = 0

    def __call__(self, changed: Any, value: Any) -> Any:
        if changed:
            self.changed += 1
        return value

    def take(self) -> int:
        count, self.changed = self.changed, 0
        return count


def register_sqlite_functions(connection: sqlite3.Connection) -> None:
    """Make MySQL's functions (as ``arena_*``) callable on ``connection``."""
    functions: list[tuple[str, int, Any]] = [
        ("arena_date_add", 3, date_add),
        ("arena_timestampdiff", 3, timestampdiff),
        ("arena_unix_timestamp", 1, unix_timestamp),
        ("arena_from_unixtime", 1, from_unixtime),
        ("arena_substring_index", 3, substring_index),
        ("arena_lpad", 3, lpad),
        ("arena_rpad", 3, rpad),
        ("arena_truncate", 2, truncate),
        ("arena_find_in_set", 2, find_in_set),
        ("arena_concat_ws", -1, concat_ws),
        ("arena_json_extract", 2, json_extract),
        ("arena_json_value", 2, json_value),
        ("arena_json_unquote", 1, json_unquote),
        ("arena_number", 1, number),
    ]
    for name, arity, function in functions:
        connection.create_function(name, arity, function, deterministic=True)
    connection.create_aggregate("arena_group_concat", -1, cast(Any, GroupConcat))
