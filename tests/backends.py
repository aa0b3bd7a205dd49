"""Throw-away databases for tests on the server backends.

PostgreSQL: one database per test run (``arena_test_<hex>``), and in it one schema prefix per
test; MariaDB: one platform database per test (``arenatest_<hex>``, table databases
``arenatest_<hex>_t<id>``). Everything a run creates, it drops: runs never see each other.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from sqlalchemy.engine import make_url

BACKENDS = ("sqlite", "postgresql", "mysql")
SKIP_POSTGRES = (
    "set ARENA_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/postgres "
    "to run against PostgreSQL"
)
SKIP_MYSQL = "set ARENA_TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/ to run against MariaDB"


def postgres_server() -> str | None:
    return os.environ.get("ARENA_TEST_POSTGRES_URL") or None


def mysql_server() -> str | None:
    return os.environ.get("ARENA_TEST_MYSQL_URL") or None


def require(kind: str) -> str:
    """The server URL for ``kind``, or skip the test saying how to enable it."""
    url = postgres_server() if kind == "postgresql" else mysql_server()
    if not url:
        pytest.skip(SKIP_POSTGRES if kind == "postgresql" else SKIP_MYSQL)
    return url


class PostgresRun:
    """The test run's own database on the PostgreSQL server."""

    def __init__(self, server_url: str) -> None:
        import psycopg

        self.server = make_url(server_url).set(drivername="postgresql")
        self.name = f"arena_test_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self._conninfo(self.server), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        self.url = self.server.set(database=self.name)

    @staticmethod
    def _conninfo(url: Any) -> str:
        return str(url.render_as_string(hide_password=False))

    def site_url(self, prefix: str) -> str:
        """An ``ARENA_DATABASE_URL`` whose schemas all start with ``prefix``."""
        url = self.url.set(drivername="postgresql+psycopg").update_query_dict({"arena_prefix": prefix})
        return str(url.render_as_string(hide_password=False))

    def drop_prefix(self, prefix: str) -> None:
        import psycopg

        with psycopg.connect(self._conninfo(self.url), autocommit=True) as conn:
            names = [r[0] for r in conn.execute(
                "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, %s)", (prefix,))]
            for name in names:  # one schema per transaction (lock slots)
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo(self.server), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def mysql_connect(server_url: str) -> Any:
    import pymysql

    url = make_url(server_url)
    return pymysql.connect(host=url.host or "127.0.0.1", port=url.port or 3306,
                           user=unquote(url.username or "root"), password=unquote(url.password or ""),
                           autocommit=True)


def mysql_site_url(server_url: str, database: str) -> str:
    url = make_url(server_url).set(drivername="mysql+pymysql", database=database)
    return str(url.render_as_string(hide_password=False))


def mysql_drop(server_url: str, base: str) -> None:
    """Drop the platform database ``base`` and every table database of it."""
    conn = mysql_connect(server_url)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s "
                        "OR SCHEMA_NAME LIKE %s", (base, base.replace("_", "\\_") + "\\_%"))
            for (name,) in cur.fetchall():
                cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
    finally:
        conn.close()


def server_site_url(kind: str, pg_run: PostgresRun | None) -> Iterator[str]:
    """A fresh ``ARENA_DATABASE_URL`` on ``kind``'s server for one test; dropped after it."""
    tag = uuid.uuid4().hex[:10]
    if kind == "postgresql":
        assert pg_run is not None
        prefix = f"x{tag}_"
        try:
            yield pg_run.site_url(prefix)
        finally:
            pg_run.drop_prefix(prefix)
    else:
        server = require("mysql")
        base = f"arenatest_{tag}"
        try:
            yield mysql_site_url(server, base)
        finally:
            mysql_drop(server, base)
