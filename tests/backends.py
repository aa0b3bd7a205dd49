"""Throw-away databases for tests on the server backends.

PostgreSQL: one database per test run (``arena_test_<hex>``), and in it one schema prefix per
test; MariaDB: one platform database per test (``arenatest_<hex>``, table databases
``arenatest_<hex>_t<id>``). Everything a run creates, it drops: runs never see each other.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url

from framework.platform.db import create_platform_engine, upgrade_platform
from framework.storage.backends import drop_site, open_backend, scratch_site_url

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


class PlatformTemplate:
    """The platform schema migrated once per run; the sites of the fixtures start from a copy.

    SQLite: a migrated file, copied into the test's instance folder. PostgreSQL and MariaDB:
    the first site of the run is migrated by Alembic, and the statements that changed its
    schema (DDL and the ``alembic_version`` rows) run again on each later test's fresh schema
    or database. tests/framework/test_platform.py checks a copy against a real migration.
    """

    def __init__(self, folder: Path) -> None:
        self._statements: dict[str, list[tuple[str, Any, bool]]] = {}
        self.sqlite_file = folder / "platform.sqlite"
        engine = create_platform_engine(f"sqlite:///{self.sqlite_file}")
        upgrade_platform(engine)
        engine.dispose()
        # The last connection checkpointed the WAL: the file alone is the whole database.
        assert not (folder / "platform.sqlite-wal").exists()

    def seed(self, instance: Path, database_url: str | None) -> None:
        """Give the site at ``instance`` / ``database_url`` (not yet migrated) the migrated schema."""
        instance.mkdir(parents=True, exist_ok=True)
        if database_url is None:
            shutil.copyfile(self.sqlite_file, instance / "platform.sqlite")
            return
        backend = open_backend(database_url, instance)
        engine = create_platform_engine(backend.platform_url, **backend.engine_options)
        try:
            dialect = engine.dialect.name
            if dialect in self._statements:
                self._replay(engine, self._statements[dialect])
            else:  # the first site of this backend in the run is migrated for real, and recorded
                self._statements[dialect] = self._record(engine)
        finally:
            engine.dispose()
            backend.store.close()

    @staticmethod
    def _record(engine: Engine) -> list[tuple[str, Any, bool]]:
        recorded: list[tuple[str, Any, bool]] = []

        def record(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
                   executemany: bool) -> None:
            if statement.lstrip().split(None, 1)[0].upper() in SCHEMA_CHANGES:
                recorded.append((statement, parameters, executemany))

        event.listen(engine, "before_cursor_execute", record)
        try:
            upgrade_platform(engine)
        finally:
            event.remove(engine, "before_cursor_execute", record)
        return recorded

    @staticmethod
    def _replay(engine: Engine, statements: list[tuple[str, Any, bool]]) -> None:
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            for statement, parameters, executemany in statements:
                if executemany:
                    cursor.executemany(statement, parameters)
                else:
                    cursor.execute(statement, parameters or None)
            cursor.close()
            raw.commit()
        finally:
            raw.close()


# What a platform migration changes (the rest it runs reads the catalog).
SCHEMA_CHANGES = {"CREATE", "ALTER", "DROP", "COMMENT", "INSERT", "UPDATE", "DELETE"}
