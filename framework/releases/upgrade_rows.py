"""The rows of a table's own bookkeeping an upgrade reads and writes (statistics present,
globals present, ``arena_meta`` values), each in one statement on every backend, so an
upgrade without DDL costs a few round trips on the database servers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from framework.storage.base import TableConnection

# Backticks are what MariaDB needs for ``global`` (a reserved word there); PostgreSQL and
# SQLite take double quotes.
_QUOTE = {"mysql": "`", "postgresql": '"', "sqlite": '"'}


def _q(db: TableConnection, name: str) -> str:
    mark = _QUOTE[db.dialect]
    return f"{mark}{name}{mark}"


def _mark(db: TableConnection) -> str:
    return "?" if db.dialect == "sqlite" else "%s"


@dataclass(frozen=True)
class UpgradeRows:
    """What the upgrade needs to know of a table's rows before it runs."""

    stats: frozenset[tuple[int, bool]]  # (stats_type, table scope) of the statistics present
    globals: frozenset[int]  # global ids present (options included)
    metas: Mapping[str, str | None]  # the asked ``arena_meta`` values that exist


def read_upgrade_rows(db: TableConnection, meta_keys: Iterable[str]) -> UpgradeRows:
    """Statistics and globals present and the ``meta_keys`` values, in one statement."""
    keys = list(meta_keys)
    marks = ", ".join(_mark(db) for _ in keys) or "NULL"
    # The typed columns lead, so PostgreSQL resolves the UNION's types from real columns.
    sql = (f"SELECT 1 AS k, stats_type AS a, stats_player_id AS b, NULL AS c, NULL AS d "
           f"FROM {_q(db, 'stats')} UNION ALL "
           f"SELECT 2, global_id, NULL, NULL, NULL FROM {_q(db, 'global')} UNION ALL "
           f"SELECT 3, NULL, NULL, meta_key, meta_value FROM {_q(db, 'arena_meta')} "
           f"WHERE meta_key IN ({marks})")
    stats: set[tuple[int, bool]] = set()
    globals_: set[int] = set()
    metas: dict[str, str | None] = {}
    for r in db.execute(sql, keys).rows:
        kind = int(r["k"])
        if kind == 1:
            stats.add((int(r["a"]), r["b"] is None))
        elif kind == 2:
            globals_.add(int(r["a"]))
        else:
            metas[str(r["c"])] = None if r["d"] is None else str(r["d"])
    return UpgradeRows(frozenset(stats), frozenset(globals_), metas)


def write_metas(db: TableConnection, values: Mapping[str, str]) -> None:
    """Set ``arena_meta`` values (each inserted or replaced), in one statement."""
    if not values:
        return
    rows = ", ".join(f"({_mark(db)}, {_mark(db)})" for _ in values)
    params: list[Any] = [part for item in values.items() for part in item]
    head = f"INSERT INTO {_q(db, 'arena_meta')} (meta_key, meta_value) VALUES {rows}"
    if db.dialect == "mysql":
        db.execute(f"{head} ON DUPLICATE KEY UPDATE meta_value = VALUES(meta_value)", params)
    else:
        db.execute(f"{head} ON CONFLICT (meta_key) DO UPDATE SET meta_value = excluded.meta_value", params)


def insert_stats(db: TableConnection, rows: list[tuple[int, int | None, Any]]) -> None:
    """New ``stats`` rows (type, player or None, value), absent before, in one statement."""
    if not rows:
        return
    marks = ", ".join(f"({_mark(db)}, {_mark(db)}, {_mark(db)})" for _ in rows)
    # RETURNING on PostgreSQL: the store then needs no look-up of the identity column.
    returning = " RETURNING stats_type" if db.dialect == "postgresql" else ""
    db.execute(f"INSERT INTO {_q(db, 'stats')} (stats_type, stats_player_id, stats_value) VALUES {marks}"
               + returning, [part for row in rows for part in row])
