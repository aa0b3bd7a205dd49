"""The normalised schema of a table database (live tables only), and the diff of two."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from framework.releases.owned import OwnedTransaction, owned_engine_options
from framework.storage.base import COPY_PREFIXES, TableConnection

Schema = dict[str, dict[str, Any]]

# Reflections of SQLite schemas by their definition (an upgrade run meets the same few over
# and over); bounded, as each key holds the CREATE statements of a whole database.
_REFLECTED: dict[Hashable, Schema] = {}
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


def _copy(schema: Schema) -> Schema:
    return {t: {"columns": list(v["columns"]), "indexes": list(v["indexes"])} for t, v in schema.items()}


def reflect(db: TableConnection, known_definition: Hashable | None = None) -> Schema:
    """table -> {"columns": [(name, type, notnull, default, pk)], "indexes": [...]}.

    Copies (``zz_*``) are left out: they follow the live tables. ``known_definition``: the
    database's ``definition`` if the caller has just read it (and changed nothing since).
    """
    if db.dialect != "sqlite":
        return _reflect_sqlalchemy(db)
    key = known_definition if known_definition is not None else definition(db)
    cached = _REFLECTED.get(key)
    if cached is None:
        cached = _reflect_sqlite(db)
        remember(_REFLECTED, key, cached, _REFLECTED_MAX)
    return _copy(cached)


def _reflect_sqlite(db: TableConnection) -> Schema:
    schema: Schema = {}
    # Two statements for the whole database (table-valued pragmas), not a few per table.
    live = ("m.type = 'table' AND substr(m.name, 1, 7) <> 'sqlite_' AND substr(m.name, 1, 3) <> 'zz_' "
            "AND substr(m.name, 1, 8) <> '_alembic'")
    for c in db.execute(
        "SELECT m.name AS tbl, p.name, p.type, p.\"notnull\" AS nn, p.dflt_value, p.pk "
        f"FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE {live}"
    ).rows:
        entry = schema.setdefault(c["tbl"].lower(), {"columns": [], "indexes": []})
        entry["columns"].append((c["name"].lower(), sqlite_affinity(c["type"] or ""), bool(c["nn"]),
                                 _default(c["dflt_value"]), int(c["pk"])))
    indexes: dict[tuple[str, str], tuple[list[str], bool]] = {}
    for ix in db.execute(
        "SELECT m.name AS tbl, l.name AS ix, l.\"unique\" AS uq, i.name AS col "
        f"FROM sqlite_master AS m JOIN pragma_index_list(m.name) AS l "
        "JOIN pragma_index_info(l.name) AS i "
        f"WHERE {live} AND l.origin <> 'pk' ORDER BY m.name, l.name, i.seqno"
    ).rows:
        key = (ix["tbl"].lower(), ix["ix"])
        indexes.setdefault(key, ([], bool(ix["uq"])))[0].append(str(ix["col"]).lower())
    for (table, _), (cols, unique) in indexes.items():
        schema[table]["indexes"].append((tuple(cols), unique))
    for entry in schema.values():
        entry["columns"].sort()
        entry["indexes"].sort()
    return schema


def _reflect_sqlalchemy(db: TableConnection) -> Schema:
    from sqlalchemy import create_engine, inspect
    from sqlalchemy.pool import StaticPool

    raw = OwnedTransaction(db.dbapi_connection())
    url = {"postgresql": "postgresql+psycopg://", "mysql": "mysql+pymysql://"}[db.dialect]
    engine = create_engine(url, creator=lambda: raw, poolclass=StaticPool, pool_reset_on_return=None,
                           **owned_engine_options(db.dialect))
    insp = inspect(engine.connect())
    schema: Schema = {}
    for table in insp.get_table_names():
        if table.startswith(COPY_PREFIXES):
            continue
        pk = insp.get_pk_constraint(table).get("constrained_columns", [])
        columns = [
            (c["name"].lower(), str(c["type"]).split("(")[0].upper(), not c["nullable"],
             _default(c.get("default")), pk.index(c["name"]) + 1 if c["name"] in pk else 0)
            for c in insp.get_columns(table)
        ]
        indexes = [(tuple(n.lower() for n in ix["column_names"] if n), bool(ix["unique"]))
                   for ix in insp.get_indexes(table)]
        schema[table.lower()] = {"columns": sorted(columns), "indexes": sorted(indexes)}
    return schema


def to_json(schema: Schema) -> dict[str, Any]:
    return {t: {"columns": [list(c) for c in v["columns"]],
                "indexes": [[list(i[0]), i[1]] for i in v["indexes"]]} for t, v in schema.items()}


def from_json(data: dict[str, Any]) -> Schema:
    return {t: {"columns": sorted(tuple(c) for c in v["columns"]),
                "indexes": sorted((tuple(i[0]), bool(i[1])) for i in v["indexes"])}
            for t, v in data.items()}


def diff(expected: Schema, actual: Schema) -> list[str]:
    """Human-readable differences; empty when the schemas are the same."""
    if expected == actual:
        return []
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
        if expected[table]["indexes"] != actual[table]["indexes"]:
            out.append(f"`{table}` indexes are {actual[table]['indexes']}, "
                       f"expected {expected[table]['indexes']}")
    return out


def _describe(col: tuple[Any, ...]) -> str:
    name, typ, notnull, default, pk = col
    text = str(typ) + (" NOT NULL" if notnull else " NULL")
    if default is not None:
        text += f" DEFAULT {default}"
    if pk:
        text += " PRIMARY KEY"
    return text
