"""The shapes of a table database's tables (keys, string columns, AUTO_INCREMENT), read from
its catalog once and kept by the connection or store until the next DDL statement."""

from __future__ import annotations

import re

from framework.storage.base import TableConnection
from framework.storage.catalog import Catalog, CatalogTable, read_catalog
from framework.storage.sql.shapes import ColumnShape, SchemaShapes, TableShape, intern_shapes

_STRING_TYPE = re.compile(r"char|text|clob|enum|set\(|json", re.IGNORECASE)
_AUTO_TRIGGER = re.compile(r"^(.+)__(.+)__auto_increment$")


def shapes_of(db: TableConnection) -> SchemaShapes:
    """``db``'s table shapes, read from the catalog the first time (two or three statements)
    and then kept until DDL runs on the database."""
    shapes = db.schema_shapes
    if shapes is None:
        shapes = db.schema_shapes = read_shapes(db)
    return shapes


#: SQLite schemas seen by this process (their ``sqlite_master`` rows) and their shapes: the
#: tables of one game share a schema, and its catalog costs milliseconds to read
_SQLITE_SHAPES: dict[tuple[tuple[str, str, str, str | None], ...], SchemaShapes] = {}
_SQLITE_SCHEMAS_KEPT = 64


def read_shapes(db: TableConnection) -> SchemaShapes:
    if db.dialect != "sqlite":
        return _read_shapes(db, ())
    # The schema's text decides the shapes whole: a schema met before needs no catalog read.
    master = tuple((r["type"], r["name"], r["tbl_name"], r["sql"]) for r in db.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").rows)
    shapes = _SQLITE_SHAPES.get(master)
    if shapes is None:
        shapes = _read_shapes(db, master)
        if len(_SQLITE_SHAPES) < _SQLITE_SCHEMAS_KEPT:
            _SQLITE_SHAPES[master] = shapes
    return shapes


def _read_shapes(db: TableConnection, master: tuple[tuple[str, str, str, str | None], ...]) -> SchemaShapes:
    catalog = read_catalog(db)
    autos: dict[str, str] = {}
    if db.dialect == "sqlite":
        for kind, name, table_name, sql in master:
            if kind == "trigger":
                match = _AUTO_TRIGGER.match(name)
                if match and match.group(1) == table_name.lower():
                    autos[table_name.lower()] = match.group(2)
            elif kind == "table" and "AUTOINCREMENT" in (sql or "").upper():
                table = catalog.get(name)
                pk = [c.name for c in table.columns if c.pk] if table else []
                if len(pk) == 1:
                    autos[name.lower()] = pk[0].lower()
    return catalog_shapes(catalog, db.dialect, autos)


def catalog_shapes(catalog: Catalog, dialect: str, autos: dict[str, str] | None = None) -> SchemaShapes:
    """The shapes of a catalog already read (on the servers, all ``read_shapes`` needs;
    SQLite's AUTOINCREMENT columns come in ``autos``)."""
    autos = autos or {}
    return intern_shapes(_table_shape(name, table, dialect, autos.get(name.lower()))
                         for name, table in catalog.items())


def _table_shape(name: str, table: CatalogTable, dialect: str, auto: str | None) -> TableShape:
    columns = tuple(
        ColumnShape(c.name, bool(_STRING_TYPE.search(c.type)),
                    c.default if dialect == "sqlite" else None)
        for c in table.columns
    )
    primary = tuple(c.name.lower() for c in sorted((c for c in table.columns if c.pk),
                                                   key=lambda c: c.pk))
    if dialect != "sqlite":
        extras = [c.name.lower() for c in table.columns
                  if "auto_increment" in c.extra or "identity" in c.extra]
        auto = extras[0] if extras else None
    uniques = [primary] if primary else []
    uniques += [tuple(c.lower() for c in cols) for cols, unique in table.indexes if unique]
    return TableShape(name, columns, primary, tuple(uniques), auto)
