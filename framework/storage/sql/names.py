"""Quoting identifiers and string literals, and the names Arena derives (indexes, triggers)."""

from __future__ import annotations

import hashlib

from framework.storage.sql.errors import Target, check_target


def quote_identifier(name: str, target: Target, *, keep_case: bool = False) -> str:
    """Quote a table, column or index name for ``target``: the one way Arena quotes names.

    Backticks on SQLite (a double-quoted name matching no column would silently be a string)
    and MariaDB; double quotes on PostgreSQL, where the name is lower-cased as the translated
    DDL and queries have it (MySQL names are case-insensitive), unless ``keep_case`` (a name
    the framework chose with its exact spelling, such as a schema).

    >>> quote_identifier("cardInPlay", "postgresql")
    '"cardinplay"'
    >>> quote_identifier("Site_t1", "postgresql", keep_case=True)
    '"Site_t1"'
    >>> quote_identifier("order", "sqlite")
    '`order`'

    Raises:
        ValueError: an empty name, a NUL character, or an unknown target.
    """
    check_target(target)
    if not name or "\x00" in name:
        raise ValueError(f"invalid SQL identifier {name!r}")
    if target == "postgresql":
        return '"' + (name if keep_case else name.lower()).replace('"', '""') + '"'
    return "`" + name.replace("`", "``") + "`"


def derived_name(*parts: str) -> str:
    """The name of an index, trigger or function derived from a table (and column) name,
    lower case, at most 63 characters (PostgreSQL's limit).

    >>> derived_name("card", "player")
    'card__player'
    """
    name = "__".join(part.lower() for part in parts)
    if len(name) > 63:
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
        name = f"{name[:54]}_{digest}"
    return name


def string_literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"

