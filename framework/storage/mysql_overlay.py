"""MariaDB's upgrade with DDL, copying only what it writes: a work database beside the live
one, where a table is copied from the live database just before a statement first writes
it (DDL or not) and is read until then through a read-only view of the live table; one
atomic ``RENAME TABLE`` moves the copied tables in at the end (``MySQLStore.upgrading``).

The live database is never written: the views are ``ALGORITHM=TEMPTABLE`` (a write through
one fails instead of reaching the live table, and is then retried on a copy), so a failure
or a crash before the swap leaves every live row as it was.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import pymysql

from framework.storage.catalog import CatalogRows
from framework.storage.sql.names import quote_identifier


class MySQLTableConnection(Protocol):
    """What the overlay needs of the store's connection (``storage/mysql.py``, which imports
    this module): one statement run as it is, its cursor returned."""

    def run_statement(self, sql: str, params: Any) -> Any: ...

# Statements that only read (everything else may write, and gets copies first).
_READS = {"SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "DO", "SET"}
_NAMES = re.compile(r"`((?:[^`]|``)+)`|([A-Za-z_][A-Za-z0-9_$]*)")
# "not updatable" / "not insertable-into": a write reached a view (the backstop's retry).
_VIEW_WRITE = {1288, 1471}
_VIEW_NAME = re.compile(r"The target table (\S+) of the")
_RETRIES = 16


def quote(name: str) -> str:
    return quote_identifier(name, "mysql")


def names_in(sql: str) -> set[str]:
    """Every identifier of ``sql`` (words too: a keyword that is no table's name is harmless).

    >>> sorted(names_in("UPDATE `arena_meta` SET meta_value = 1"))
    ['SET', 'UPDATE', 'arena_meta', 'meta_value']
    """
    return {quoted.replace("``", "`") if quoted else bare for quoted, bare in _NAMES.findall(sql)}


class Overlay:
    """The work database of one upgrade, over the live database of the table.

    ``copied``: the live tables copied into the work database (they move out at the swap,
    even when the upgrade dropped or renamed them there); ``views``: the live tables read
    through a view so far; ``real``: the base tables of the work database (they move in).
    """

    def __init__(self, live: str, work: str, live_tables: set[str]) -> None:
        self.live, self.work = live, work
        self.live_tables = set(live_tables)
        self.copied: set[str] = set()
        self.views: set[str] = set()
        self.real: set[str] = set()
        self.real_known = True  # False after DDL whose effect on ``real`` is not followed
        self.full = False

    def untouched(self) -> set[str]:
        return self.live_tables - self.copied

    # ------------------------------------------------------------------ before a statement
    def before(self, conn: MySQLTableConnection, sql: str) -> None:
        """Make what ``sql`` refers to exist in the work database: views for a read, copies
        for anything else."""
        if self.full:
            return
        word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        untouched = self.untouched()
        if word in _READS:
            if word == "SHOW" or "information_schema" in sql.lower():
                wanted = untouched
            else:
                wanted = names_in(sql) & untouched
            for name in sorted(wanted - self.views):
                self._view(conn, name)
            return
        for name in sorted(names_in(sql) & untouched):
            self.copy(conn, name)
        if word in {"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"}:
            self.real_known = False

    def run(self, conn: MySQLTableConnection, sql: str, params: Any) -> Any:
        """``sql`` in the work database; a write that reached a view (which ``before`` did
        not foresee) is sent again once that table is copied."""
        self.before(conn, sql)
        for _ in range(_RETRIES):
            try:
                return conn.run_statement(sql, params)
            except pymysql.err.MySQLError as exc:
                code = exc.args[0] if exc.args else 0
                found = _VIEW_NAME.search(str(exc.args[1] if len(exc.args) > 1 else ""))
                if code not in _VIEW_WRITE or found is None or found.group(1) not in self.views:
                    raise
                self.copy(conn, found.group(1))
        raise RuntimeError(f"upgrade of {self.live}: a statement kept writing through views: {sql[:80]}")

    def _view(self, conn: MySQLTableConnection, name: str) -> None:
        conn.run_statement(f"CREATE ALGORITHM=TEMPTABLE VIEW {quote(name)} AS SELECT * FROM "
                           f"{quote(self.live)}.{quote(name)}", None)
        self.views.add(name)

    def copy(self, conn: MySQLTableConnection, name: str) -> None:
        """``name`` copied from the live database (keys, defaults, AUTO_INCREMENT counter and
        rows) in place of its view."""
        if name in self.views:
            conn.run_statement(f"DROP VIEW {quote(name)}", None)
            self.views.discard(name)
        cur = conn.run_statement(f"SHOW CREATE TABLE {quote(self.live)}.{quote(name)}", None)
        create = cur.fetchall()[0][1]
        conn.run_statement(create, None)
        conn.run_statement(f"INSERT INTO {quote(name)} SELECT * FROM {quote(self.live)}.{quote(name)}", None)
        self.copied.add(name)
        self.real.add(name)

    def copy_all(self, conn: MySQLTableConnection) -> None:
        """Every live table copied (for what cannot be followed statement by statement:
        Alembic's operations on the raw connection, foreign keys between tables)."""
        for name in sorted(self.untouched()):
            self.copy(conn, name)
        self.full = True
        self.real_known = False

    # ------------------------------------------------------------------ what the body sees
    def table_names(self, conn: MySQLTableConnection) -> list[str]:
        return sorted(self._real(conn) | self.untouched())

    def source_of(self, table: str) -> str:
        """The database that holds ``table`` for the upgrade now."""
        return self.live if table in self.untouched() else self.work

    def catalog_rows(self, conn: MySQLTableConnection, sql: str) -> CatalogRows:
        """The catalog as the upgrade sees it: the work database's own tables, and the
        untouched live ones (their views left out)."""
        rows = conn.run_statement(sql, (self.work,) * 3 + (self.live,) * 3).fetchall()
        work_views = {r[2] for r in rows if r[0] == self.work and r[1] == "v"}
        self.real = {r[2] for r in rows if r[0] == self.work and r[1] == "c"} - work_views
        self.real_known = True
        untouched = self.untouched()
        out = []
        for schema, *row in rows:
            table = row[1]
            if schema == self.work and table not in work_views:
                out.append(tuple(row))
            elif schema == self.live and table in untouched and table not in self.real:
                out.append(tuple(row))
        return tuple(out)

    def _real(self, conn: MySQLTableConnection) -> set[str]:
        if not self.real_known:
            rows = conn.run_statement(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s "
                "AND TABLE_TYPE = 'BASE TABLE'", (self.work,)).fetchall()
            self.real = {r[0] for r in rows}
            self.real_known = True
        return self.real

    # ------------------------------------------------------------------ the swap
    def moves(self, conn: MySQLTableConnection, old: str) -> list[str]:
        """``RENAME TABLE`` clauses: the copied live tables out to ``old``, the work
        database's tables in."""
        out = [f"{quote(self.live)}.{quote(t)} TO {quote(old)}.{quote(t)}"
               for t in sorted(self.copied & self.live_tables)]
        into = [f"{quote(self.work)}.{quote(t)} TO {quote(self.live)}.{quote(t)}"
                for t in sorted(self._real(conn))]
        return out + into
