"""What a table database's catalog says of its tables, read in one statement (two on SQLite) on
every backend: each column's full type (length, precision, sign), nullability, default,
auto-increment and primary-key position, and each index (its columns, unique or not)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

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


#: A server's catalog as one statement returns it (``read_catalog_rows``): hashable, so the
#: parsed ``Catalog`` can be remembered per distinct definition.
CatalogRows = tuple[tuple[Any, ...], ...]


def sqlite_affinity(declared: str) -> str:
    """SQLite's type affinity of a declared type (the only typing SQLite enforces).

    >>> sqlite_affinity("int(10) unsigned"), sqlite_affinity("VARCHAR(16)"), sqlite_affinity("")
    ('INTEGER', 'TEXT', 'BLOB')
    """
    t = declared.upper()
    if "INT" in t:
        return "INTEGER"
    if any(k in t for k in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if not t or "BLOB" in t:
        return "BLOB"
    if any(k in t for k in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def copy_signature(db_dialect: str, table: CatalogTable) -> list[tuple[Any, ...]]:
    """What a copy (``zz_*``) must share with its live table, column by column, in order:
    the name and type (SQLite: the type's affinity, all SQLite enforces; a copy made with
    ``CREATE TABLE ... AS`` keeps no more) and, on the servers, nullability. Keys, defaults
    and auto-increment are the live table's business."""
    if db_dialect == "sqlite":
        return [(c.name, sqlite_affinity(c.type)) for c in table.columns]
    return [(c.name, c.type, c.not_null) for c in table.columns]


def read_catalog(db: TableConnection) -> Catalog:
    """Every base table of ``db``'s database (copies included)."""
    if db.dialect == "sqlite":
        return _sqlite(db)
    return parse_catalog_rows(db.dialect, read_catalog_rows(db))


def read_catalog_rows(db: TableConnection) -> CatalogRows:
    """A server's catalog of ``db``'s database in one statement, as rows (kind, table,
    group, position, name, type, flag, default, extra, pk): ``c`` a column (group empty),
    ``i`` a column of index ``group`` (flag: unique; PostgreSQL: one row per index, its
    column numbers as ``name``), ``v`` a view (MariaDB)."""
    if db.dialect == "postgresql":
        # Planned once per connection by the store (the plan costs as much as the run).
        planned = getattr(db, "execute_planned", None)
        result = db.execute(_PG_CATALOG) if planned is None else planned("arena_catalog", _PG_CATALOG)
        return tuple(tuple(r.values()) for r in result.rows)
    overlay = getattr(db, "overlay", None)  # MariaDB in an upgrade with DDL (mysql_overlay)
    if overlay is not None:
        return overlay.catalog_rows(db, MYSQL_LAYERED_CATALOG)  # type: ignore[no-any-return]
    sql = _MYSQL_CATALOG
    return tuple(tuple(r.values()) for r in db.execute(sql).rows)


def read_catalog_print(db: TableConnection) -> tuple[str, int, str] | None:
    """A digest of what ``read_catalog_rows`` would return (dialect, rows, digest) in one
    short row, for a caller that remembers catalogs by it. MariaDB: its client decodes the
    catalog's hundreds of rows in Python. PostgreSQL: ``pg_get_expr`` (the defaults as text)
    costs most of the catalog's time, as it opens each table; the digest is made of what
    determines it instead (the stored expression, ``adbin``, and the type's ids for
    ``format_type``), and planned per connection as the catalog is. None on SQLite and in a
    MariaDB upgrade with DDL, whose catalog spans two databases."""
    if db.dialect == "postgresql":
        planned = getattr(db, "execute_planned", None)
        rows = (db.execute(_PG_PRINT) if planned is None else planned("arena_catalog_print", _PG_PRINT)).rows
        return (db.dialect, int(rows[0]["n"]), str(rows[0]["print"]))
    if db.dialect != "mysql" or getattr(db, "overlay", None) is not None:
        return None
    row = db.execute(_MYSQL_PRINT).rows[0]
    if int(row["n"]) * 32 > int(row["cap"]):  # GROUP_CONCAT would have cut it short
        return None
    return (db.dialect, int(row["n"]), str(row["print"]))


def parse_catalog_rows(dialect: str, rows: CatalogRows) -> Catalog:
    """The ``Catalog`` of ``read_catalog_rows``' rows (no statement)."""
    return _postgres(rows) if dialect == "postgresql" else _mysql(rows)


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


# The schema's tables once (a CTE), their columns, and one row per index with its column
# numbers (``indkey``, named from the column rows): no join of every index column with
# ``pg_attribute``, whose plan cost more than the rest of the statement.
_PG_CATALOG = (
    "WITH t AS (SELECT c.oid, c.relname::text AS relname FROM pg_class AS c "
    "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')) "
    "SELECT 'c' AS kind, t.relname AS tbl, '' AS grp, a.attnum::int AS n, a.attname::text AS name, "
    "format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS flag, "
    "pg_get_expr(d.adbin, d.adrelid) AS dflt, CASE WHEN a.attidentity <> '' THEN 'identity' "
    "WHEN a.attgenerated <> '' THEN 'generated' ELSE '' END AS extra, "
    "COALESCE(array_position(p.indkey::int2[], a.attnum) "
    "- array_lower(p.indkey::int2[], 1) + 1, 0)::int AS pk "  # int2vector counts from 0
    "FROM t JOIN pg_attribute AS a ON a.attrelid = t.oid "
    "LEFT JOIN pg_attrdef AS d ON d.adrelid = t.oid AND d.adnum = a.attnum "
    "LEFT JOIN pg_index AS p ON p.indrelid = t.oid AND p.indisprimary "
    "WHERE a.attnum > 0 AND NOT a.attisdropped "
    "UNION ALL "
    "SELECT 'i', t.relname, x.relname::text, 0, i.indkey::text, NULL, i.indisunique, NULL, NULL, 0 "
    "FROM t JOIN pg_index AS i ON i.indrelid = t.oid JOIN pg_class AS x ON x.oid = i.indexrelid "
    "WHERE NOT i.indisprimary "
    "ORDER BY kind, tbl, grp, n"
)

# What determines each row of ``_PG_CATALOG``, each field quoted (NULL as NULL): the type's
# ids (``format_type``'s arguments), the default's stored expression (``pg_get_expr``'s),
# the primary key's columns; the index rows' own fields. One digest of them all.
_PG_PRINT = (
    "WITH t AS (SELECT c.oid, c.relname::text AS relname FROM pg_class AS c "
    "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')), "
    "r AS (SELECT concat_ws(',', 'c', " + ", ".join(f"quote_nullable({f}::text)" for f in (
        "t.relname", "a.attnum", "a.attname", "a.atttypid", "a.atttypmod", "a.attnotnull",
        "a.attidentity", "a.attgenerated", "p.indkey", "d.adbin")) + ") AS x "
    "FROM t JOIN pg_attribute AS a ON a.attrelid = t.oid "
    "LEFT JOIN pg_attrdef AS d ON d.adrelid = t.oid AND d.adnum = a.attnum "
    "LEFT JOIN pg_index AS p ON p.indrelid = t.oid AND p.indisprimary "
    "WHERE a.attnum > 0 AND NOT a.attisdropped "
    "UNION ALL SELECT concat_ws(',', 'i', " + ", ".join(f"quote_nullable({f}::text)" for f in (
        "t.relname", "x.relname", "i.indkey", "i.indisunique")) + ") "
    "FROM t JOIN pg_index AS i ON i.indrelid = t.oid JOIN pg_class AS x ON x.oid = i.indexrelid "
    "WHERE NOT i.indisprimary) "
    "SELECT COUNT(*) AS n, md5(string_agg(x, '|' ORDER BY x)) AS print FROM r"
)


def _postgres(rows: CatalogRows) -> Catalog:
    """The ``Catalog`` of PostgreSQL's rows: an index row names its columns by number
    (``indkey``, ``0`` for an expression, which has no column and is left out).

    >>> rows = (("c", "t", "", 1, "a", "integer", True, None, "identity", 1),
    ...         ("c", "t", "", 2, "b", "character varying(8)", False, "'x'::character varying", "", 0),
    ...         ("i", "t", "t_b", 0, "2 0", None, True, None, None, 0))
    >>> table = _postgres(rows)["t"]
    >>> [(c.name, c.default) for c in table.columns], table.indexes
    ([('a', None), ('b', "'x'")], [(('b',), True)])
    """
    out: Catalog = {}
    numbers: dict[tuple[str, int], str] = {}
    index_rows = []
    for kind, tbl, _, n, name, type_, flag, default, extra, pk in rows:
        if kind == "i":
            index_rows.append((tbl, name, bool(flag)))
            continue
        if default is not None:
            default = _PG_CAST.sub("", default.strip())
        numbers[(tbl, int(n))] = name
        out.setdefault(tbl, CatalogTable([], [])).columns.append(
            CatalogColumn(name, type_, bool(flag), default, int(pk), extra))
    for table, indkey, unique in index_rows:
        cols = tuple(numbers[(table, k)] for k in map(int, str(indkey).split()) if (table, k) in numbers)
        if table in out and cols:
            out[table].indexes.append((cols, unique))
    return out


# No join between information_schema tables: MariaDB then opens every table of the server
# (a second and more); views are left out by name instead.
def _mysql_catalog(schemas: list[str], schema_column: str = "") -> str:
    # One database per WHERE: MariaDB reads information_schema of that database alone then
    # (``TABLE_SCHEMA IN (...)`` opens every database of the server).
    parts = []
    for schema in schemas:
        where = f"TABLE_SCHEMA = {schema}"
        parts += [
            f"SELECT {schema_column}'c' AS kind, TABLE_NAME AS tbl, '' AS grp, ORDINAL_POSITION AS n, "
            "COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS flag, COLUMN_DEFAULT AS dflt, "
            f"EXTRA AS extra FROM information_schema.COLUMNS WHERE {where}",
            f"SELECT {schema_column}'i', TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NULL, "
            f"NON_UNIQUE, NULL, NULL FROM information_schema.STATISTICS WHERE {where}",
            # TABLES, not VIEWS: VIEWS opens every table's definition to find none.
            f"SELECT {schema_column}'v', TABLE_NAME, '', 0, NULL, NULL, NULL, NULL, NULL "
            f"FROM information_schema.TABLES WHERE {where} AND TABLE_TYPE = 'VIEW'",
        ]
    return " UNION ALL ".join(parts) + " ORDER BY kind, tbl, grp, n"


_MYSQL_CATALOG = _mysql_catalog(["DATABASE()"])
_MYSQL_FIELDS = ("kind", "tbl", "grp", "n", "name", "type", "flag", "dflt", "extra")
# Each row's digest, in the catalog's order, digested again: one short row to send, where
# the catalog is hundreds that PyMySQL decodes in Python. (QUOTE: NULL and '' differ.)
_MYSQL_PRINT = (
    "SELECT COUNT(*) AS n, @@group_concat_max_len AS cap, MD5(GROUP_CONCAT(MD5(CONCAT_WS(',', "
    + ", ".join(f"QUOTE({f})" for f in _MYSQL_FIELDS)
    + ")) ORDER BY kind, tbl, grp, n SEPARATOR '')) AS print FROM ("
    + _MYSQL_CATALOG.rsplit(" ORDER BY ", 1)[0] + ") AS catalog"
)
#: The catalog of two databases (parameters: the two names), each row led by its database.
MYSQL_LAYERED_CATALOG = _mysql_catalog(["%s", "%s"], "TABLE_SCHEMA AS s, ")


def _mysql(rows: CatalogRows) -> Catalog:
    out: Catalog = {}
    keys: dict[tuple[str, str], tuple[list[str], bool]] = {}
    views = {r[1] for r in rows if r[0] == "v"}
    for kind, tbl, grp, _, name, *_rest in rows:
        if kind == "i":
            keys.setdefault((tbl, grp), ([], not int(_rest[1])))[0].append(name)
    primary = {table: cols for (table, name), (cols, _) in keys.items() if name == "PRIMARY"}
    for kind, tbl, _, _, name, type_, nullable, default, extra in rows:
        if kind != "c" or tbl in views:
            continue
        if default is not None and default.upper() == "NULL":  # MariaDB's "no default"
            default = None
        pk_cols = primary.get(tbl, [])
        pk = pk_cols.index(name) + 1 if name in pk_cols else 0
        out.setdefault(tbl, CatalogTable([], [])).columns.append(
            CatalogColumn(name, normalise_mysql_type(type_), nullable == "NO", default, pk,
                          " ".join(str(extra or "").lower().split())))
    for (table, name), (cols, unique) in keys.items():
        if name != "PRIMARY" and table in out:
            out[table].indexes.append((tuple(cols), unique))
    return out
