"""What a table database's catalog says of its tables, read in two statements per database on
every backend: each column's full type (length, precision, sign), nullability, default,
auto-increment and primary-key position, and each index (its columns, unique or not)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from framework.storage.base import TableConnection


@dataclass(frozen=True)
class CatalogColumn:
    """One column as its backend declares it.

    ``type``: the declared type, normalised per backend (SQLite: the declaration as written,
    upper case; MariaDB: ``COLUMN_TYPE`` without the integer display width, which changes
    nothing; PostgreSQL: ``format_type``). ``extra``: ``auto_increment`` (MariaDB), ``identity``
    (PostgreSQL), MariaDB's ``on update ...``; empty otherwise. ``pk``: the position in the
    primary key, 0 when not in it.
    """

    name: str
    type: str
    not_null: bool
    default: str | None
    pk: int
    extra: str = ""


@dataclass
class CatalogTable:
    columns: list[CatalogColumn]  # in the table's order
    indexes: list[tuple[tuple[str, ...], bool]]  # (columns, unique), the primary key left out


Catalog = dict[str, CatalogTable]

_INT_WIDTH = re.compile(r"^(tinyint|smallint|mediumint|int|integer|bigint)\(\d+\)")
_PG_CAST = re.compile(r"::[a-z_ ]+(\([\d, ]+\))?(\[\])?$")


def normalise_sqlite_type(declared: str) -> str:
    """A declared SQLite type, upper case, blanks only between words.

    >>> normalise_sqlite_type(" numeric( 10, 2 ) "), normalise_sqlite_type("int(10)  unsigned")
    ('NUMERIC(10,2)', 'INT(10) UNSIGNED')
    """
    text = " ".join(declared.upper().split())
    text = re.sub(r"\s*\(\s*", "(", text)
    text = re.sub(r"\s*,\s*", ",", text)
    return re.sub(r"\s*\)", ")", text)


def normalise_mysql_type(column_type: str) -> str:
    """MariaDB's ``COLUMN_TYPE`` without an integer's display width (``int(10) unsigned`` and
    ``int(11) unsigned`` hold the same values), unless ZEROFILL makes it matter.

    >>> normalise_mysql_type("int(10) unsigned"), normalise_mysql_type("varchar(64)")
    ('int unsigned', 'varchar(64)')
    """
    text = column_type.strip().lower()
    if "zerofill" not in text:
        text = _INT_WIDTH.sub(r"\1", text)
    return text


def read_catalog(db: TableConnection) -> Catalog:
    """Every base table of ``db``'s database (copies included)."""
    if db.dialect == "sqlite":
        return _sqlite(db)
    if db.dialect == "postgresql":
        return _postgres(db)
    return _mysql(db)


def _sqlite(db: TableConnection) -> Catalog:
    tables = ("m.type = 'table' AND substr(m.name, 1, 7) <> 'sqlite_'")
    out: Catalog = {}
    for c in db.execute(
        "SELECT m.name AS tbl, p.name, p.type, p.\"notnull\" AS nn, p.dflt_value, p.pk "
        f"FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE {tables} "
        "ORDER BY m.name, p.cid"
    ).rows:
        entry = out.setdefault(c["tbl"], CatalogTable([], []))
        entry.columns.append(CatalogColumn(c["name"], normalise_sqlite_type(c["type"] or ""), bool(c["nn"]),
                                           c["dflt_value"], int(c["pk"])))
    indexes: dict[tuple[str, str], tuple[list[str], bool]] = {}
    for ix in db.execute(
        "SELECT m.name AS tbl, l.name AS ix, l.\"unique\" AS uq, i.name AS col "
        "FROM sqlite_master AS m JOIN pragma_index_list(m.name) AS l "
        "JOIN pragma_index_info(l.name) AS i "
        f"WHERE {tables} AND l.origin <> 'pk' ORDER BY m.name, l.name, i.seqno"
    ).rows:
        indexes.setdefault((ix["tbl"], ix["ix"]), ([], bool(ix["uq"])))[0].append(str(ix["col"]))
    for (table, _), (cols, unique) in indexes.items():
        out[table].indexes.append((tuple(cols), unique))
    return out


def _postgres(db: TableConnection) -> Catalog:
    out: Catalog = {}
    for c in db.execute(
        "SELECT c.relname AS tbl, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, "
        "a.attnotnull AS nn, pg_get_expr(d.adbin, d.adrelid) AS dflt, a.attidentity AS ident, "
        "a.attgenerated AS gen, COALESCE(array_position(p.indkey::int2[], a.attnum) "
        "- array_lower(p.indkey::int2[], 1) + 1, 0) AS pk "  # int2vector counts from 0
        "FROM pg_class AS c JOIN pg_attribute AS a ON a.attrelid = c.oid "
        "LEFT JOIN pg_attrdef AS d ON d.adrelid = c.oid AND d.adnum = a.attnum "
        "LEFT JOIN pg_index AS p ON p.indrelid = c.oid AND p.indisprimary "
        "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') "
        "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum"
    ).rows:
        default = c["dflt"]
        if default is not None:
            default = _PG_CAST.sub("", default.strip())
        extra = "identity" if c["ident"] else ("generated" if c["gen"] else "")
        out.setdefault(c["tbl"], CatalogTable([], [])).columns.append(
            CatalogColumn(c["name"], c["type"], bool(c["nn"]), default, int(c["pk"]), extra))
    indexes: dict[tuple[str, str], tuple[list[str], bool]] = {}
    for ix in db.execute(
        "SELECT c.relname AS tbl, x.relname AS ix, i.indisunique AS uq, a.attname AS col "
        "FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indrelid "
        "JOIN pg_class AS x ON x.oid = i.indexrelid "
        "JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) ON true "
        "JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = k.attnum "
        "WHERE c.relnamespace = current_schema()::regnamespace AND NOT i.indisprimary "
        "ORDER BY c.relname, x.relname, k.n"
    ).rows:
        indexes.setdefault((ix["tbl"], ix["ix"]), ([], bool(ix["uq"])))[0].append(ix["col"])
    for (table, _), (cols, unique) in indexes.items():
        if table in out:
            out[table].indexes.append((tuple(cols), unique))
    return out


def _mysql(db: TableConnection) -> Catalog:
    # No join between information_schema tables: MariaDB then opens every table of the
    # server (a second and more); views are left out by name instead.
    out: Catalog = {}
    keys: dict[tuple[str, str], tuple[list[str], bool]] = {}
    views: set[str] = set()
    for ix in db.execute(
        "SELECT TABLE_NAME AS tbl, INDEX_NAME AS ix, NON_UNIQUE AS nu, COLUMN_NAME AS col, SEQ_IN_INDEX AS n "
        "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() UNION ALL "
        "SELECT TABLE_NAME, NULL, NULL, NULL, NULL FROM information_schema.VIEWS "
        "WHERE TABLE_SCHEMA = DATABASE() ORDER BY tbl, ix, n"
    ).rows:
        if ix["ix"] is None:
            views.add(ix["tbl"])
            continue
        keys.setdefault((ix["tbl"], ix["ix"]), ([], not int(ix["nu"])))[0].append(ix["col"])
    primary = {table: cols for (table, name), (cols, _) in keys.items() if name == "PRIMARY"}
    for c in db.execute(
        "SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, "
        "COLUMN_DEFAULT AS dflt, EXTRA AS extra FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION"
    ).rows:
        if c["tbl"] in views:
            continue
        default = c["dflt"]
        if default is not None and default.upper() == "NULL":  # MariaDB's "no default"
            default = None
        pk_cols = primary.get(c["tbl"], [])
        pk = pk_cols.index(c["name"]) + 1 if c["name"] in pk_cols else 0
        out.setdefault(c["tbl"], CatalogTable([], [])).columns.append(
            CatalogColumn(c["name"], normalise_mysql_type(c["type"]), c["nullable"] == "NO", default, pk,
                          " ".join(str(c["extra"] or "").lower().split())))
    for (table, name), (cols, unique) in keys.items():
        if name != "PRIMARY" and table in out:
            out[table].indexes.append((tuple(cols), unique))
    return out
