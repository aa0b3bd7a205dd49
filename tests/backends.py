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

import pytest
from sqlalchemy.engine import make_url

from framework.storage.backends import drop_site, scratch_site_url

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

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo(self.server), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def server_site_url(kind: str, pg_run: PostgresRun | None) -> Iterator[str]:
    """A fresh ``ARENA_DATABASE_URL`` on ``kind``'s server for one test; dropped after it."""
    tag = uuid.uuid4().hex[:10]
    if kind == "postgresql":
        assert pg_run is not None
        url = scratch_site_url(str(pg_run.url.render_as_string(hide_password=False)), f"x{tag}")
    else:
        url = scratch_site_url(str(make_url(require("mysql")).set(database="arenatest")
                                   .render_as_string(hide_password=False)), tag)
    try:
        yield url
    finally:
        drop_site(url)
