"""The normalised schema of a table database (live tables, full types), what its copies must
share with them, and the diff of two schemas."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.catalog import (
    Catalog,
    CatalogColumn,
    parse_catalog_rows,
    read_catalog,
    read_catalog_print,
    read_catalog_rows,
)
from framework.storage.catalog import copy_signature as copy_signature  # storage's now
from framework.storage.catalog import sqlite_affinity as sqlite_affinity
from framework.storage.sql.shapes import SchemaShapes
from framework.storage.table_shapes import catalog_shapes

Schema = dict[str, dict[str, Any]]

# Catalogs of table databases by their definition (an upgrade run meets the same few over
# and over); bounded, as each key holds the CREATE statements (SQLite) or the catalog rows
# (servers) of a whole database.
_REFLECTED: dict[Hashable, Catalog] = {}
_REFLECTED_MAX = 32


def remember(cache: dict[Hashable, Any], key: Hashable, value: Any, limit: int) -> None:
    """Keep ``value`` under ``key``, forgetting the oldest entry beyond ``limit`` (a run that
    meets more keys than that still keeps the recent ones). Safe when threads race."""
    if len(cache) >= limit:
        try:
            cache.pop(next(iter(cache), None), None)
        except RuntimeError:  # another thread changed the cache meanwhile: forget nothing now
            pass
    cache[key] = value


def _default(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text


def definition(db: TableConnection) -> Hashable | None:
    """What determines everything reflection can see in a SQLite database: the type, name,
    table and ``CREATE`` text of every object in ``sqlite_master`` (SQLite derives
    ``pragma_table_info`` and ``pragma_index_list`` from that text). None on other backends."""
    if db.dialect != "sqlite":
        return None
    return tuple(
        (r["type"], r["name"], r["tbl_name"], r["sql"])
        for r in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").rows
    )


def is_live(name: str) -> bool:
    return not name.startswith(COPY_PREFIXES) and not name.startswith(("zz_", "_alembic"))


def column_type(column: CatalogColumn) -> str:
    """The type the comparison sees: the full declared type, and its auto-increment."""
    return f"{column.type} {column.extra}".strip()


def _schema_of(catalog: Catalog) -> Schema:
    schema: Schema = {}
    for table, entry in catalog.items():
        if not is_live(table):
            continue
        schema[table.lower()] = {
            "columns": sorted((c.name.lower(), column_type(c), c.not_null, _default(c.default), c.pk)
                              for c in entry.columns),
            "indexes": sorted((tuple(n.lower() for n in cols), unique) for cols, unique in entry.indexes),
        }
    return schema


def snapshot(db: TableConnection) -> Hashable:
    """A key for what ``db``'s schema is now, to pass as ``known_definition`` while nothing
    changes it: SQLite's ``definition``; on the servers the catalog itself as one statement
    returns it (``storage.catalog.read_catalog_rows``), parsed once per distinct definition
    (the tables of one release share a few); on MariaDB the catalog's digest, its rows read
    once per digest."""
    if db.dialect == "sqlite":
        return definition(db)
    printed = read_catalog_print(db)  # MariaDB: a digest first, the rows once per digest
    if printed is not None:
        known = _BY_PRINT.get(printed)
        if known is not None:
            return known
    key = ("catalog", db.dialect, read_catalog_rows(db))
    if key not in _REFLECTED:
        remember(_REFLECTED, key, parse_catalog_rows(db.dialect, key[2]), _REFLECTED_MAX)
    if printed is not None:
        remember(_BY_PRINT, printed, key, _REFLECTED_MAX)
    return key


# The ``snapshot`` keys by their catalog's digest (``storage.catalog.read_catalog_print``).
_BY_PRINT: dict[Hashable, Hashable] = {}


def catalog(db: TableConnection, known_definition: Hashable | None = None) -> Catalog:
    """``db``'s catalog (storage.catalog), remembered per definition (``snapshot``). Callers
    must not change it. ``known_definition``: as for ``reflect``."""
    key = known_definition if known_definition is not None else snapshot(db)
    cached = _REFLECTED.get(key)
    if cached is None:
        if isinstance(key, tuple) and len(key) == 3 and key[0] == "catalog":
            cached = parse_catalog_rows(db.dialect, key[2])
        else:
            cached = read_catalog(db)
        remember(_REFLECTED, key, cached, _REFLECTED_MAX)
    return cached


# Table shapes by definition, as ``_REFLECTED``.
_SHAPES: dict[Hashable, SchemaShapes] = {}


def know_shapes(db: TableConnection, known_definition: Hashable) -> None:
    """Give a server's connection its table shapes (``storage.table_shapes``, which game
    statements need) from a catalog just read (``snapshot``), if it has none: the upgrade
    then reads the catalog once, not a second time for the shapes."""
    if db.dialect == "sqlite" or db.schema_shapes is not None:
        return
    shapes = _SHAPES.get(known_definition)
    if shapes is None:
        shapes = catalog_shapes(catalog(db, known_definition), db.dialect)
        remember(_SHAPES, known_definition, shapes, _REFLECTED_MAX)
    db.schema_shapes = shapes


# Schemas by definition, as ``_REFLECTED`` (what ``reflect`` makes of a catalog).
_SCHEMAS: dict[Hashable, Schema] = {}


def reflect(db: TableConnection, known_definition: Hashable | None = None) -> Schema:
    """table -> {"columns": [(name, type, notnull, default, pk)], "indexes": [...]}: full
    types (length, precision, sign, auto-increment) as the backend declares them.

    Copies (``zz_*``) are left out: they follow the live tables (``copy_signature``).
    ``known_definition``: the database's ``definition`` or ``snapshot`` if the caller has
    just read it (and changed nothing since).
    """
    key = known_definition if known_definition is not None else snapshot(db)
    found = _SCHEMAS.get(key)
    if found is None:
        found = _schema_of(catalog(db, key))
        remember(_SCHEMAS, key, found, _REFLECTED_MAX)
    # The caller's own (its lists may be changed); the tuples in them are shared.
    return {table: {name: list(value) for name, value in entry.items()} for table, entry in found.items()}


# A manifest's schema built before types were compared in full (SQLite: affinities only) is
# marked so, and compared at that level: a release built then still upgrades its tables.
_DECLARED = "declared"


def to_json(schema: Schema) -> dict[str, Any]:
    return {t: {"columns": [list(c) for c in v["columns"]],
                "indexes": [[list(i[0]), i[1]] for i in v["indexes"]], "types": _DECLARED}
            for t, v in schema.items()}


def from_json(data: dict[str, Any]) -> Schema:
    schema: Schema = {}
    for t, v in data.items():
        entry: dict[str, Any] = {"columns": sorted(tuple(c) for c in v["columns"]),
                                 "indexes": sorted((tuple(i[0]), bool(i[1])) for i in v["indexes"])}
        if v.get("types") != _DECLARED:
            entry["affinity_only"] = True
        schema[t] = entry
    return schema


def _affinities(schema: Schema) -> Schema:
    return {t: {"columns": sorted((c[0], sqlite_affinity(str(c[1])), *c[2:]) for c in v["columns"]),
                "indexes": v["indexes"]} for t, v in schema.items()}


def diff(expected: Schema, actual: Schema) -> list[str]:
    """Human-readable differences; empty when the schemas are the same."""
    if any(v.get("affinity_only") for v in (*expected.values(), *actual.values())):
        expected, actual = _affinities(expected), _affinities(actual)
    out: list[str] = []
    for table in sorted(set(expected) - set(actual)):
        out.append(f"table `{table}` is missing")
    for table in sorted(set(actual) - set(expected)):
        out.append(f"table `{table}` should not exist")
    for table in sorted(set(expected) & set(actual)):
        exp_cols = {c[0]: c for c in expected[table]["columns"]}
        act_cols = {c[0]: c for c in actual[table]["columns"]}
        for name in sorted(set(exp_cols) - set(act_cols)):
            out.append(f"`{table}`.`{name}` is missing ({_describe(exp_cols[name])})")
        for name in sorted(set(act_cols) - set(exp_cols)):
            out.append(f"`{table}`.`{name}` should not exist")
        for name in sorted(set(exp_cols) & set(act_cols)):
            if exp_cols[name] != act_cols[name]:
                out.append(f"`{table}`.`{name}` is {_describe(act_cols[name])}, "
                           f"expected {_describe(exp_cols[name])}")
        if list(expected[table]["indexes"]) != list(actual[table]["indexes"]):
            out.append(f"`{table}` indexes are {_describe_indexes(actual[table]['indexes'])}, "
                       f"expected {_describe_indexes(expected[table]['indexes'])}")
    return out


# diff(expected, reflect(...)) by (expected, definition), with ``expected`` itself kept (so
# its id is never another schema's).
_CHECKS: dict[Hashable, tuple[Schema, tuple[str, ...]]] = {}


def problems(expected: Schema, db: TableConnection, known_definition: Hashable | None = None) -> list[str]:
    """``diff(expected, reflect(db, known_definition))``, computed once per release schema
    and distinct definition (the tables of one release mostly share a few)."""
    key = known_definition if known_definition is not None else snapshot(db)
    memo = (id(expected), key)
    hit = _CHECKS.get(memo)
    if hit is not None and hit[0] is expected:
        return list(hit[1])
    found = diff(expected, reflect(db, key))
    remember(_CHECKS, memo, (expected, tuple(found)), _REFLECTED_MAX)
    return found


def _describe_indexes(indexes: list[tuple[tuple[str, ...], bool]]) -> str:
    if not indexes:
        return "none"
    return ", ".join(("UNIQUE " if unique else "") + "(" + ", ".join(cols) + ")" for cols, unique in indexes)


def _describe(col: tuple[Any, ...]) -> str:
    name, typ, notnull, default, pk = col
    text = str(typ) + (" NOT NULL" if notnull else " NULL")
    if default is not None:
        text += f" DEFAULT {default if default else repr('')}"
    if pk:
        text += " PRIMARY KEY"
    return text
