"""``ARENA_DATABASE_URL`` -> the platform database's engine settings and the game tables' store.

- ``sqlite:///...`` (or nothing): the platform in that file (default
  ``<instance>/platform.sqlite``), each game table in ``<instance>/tables/<id>.sqlite``.
- ``postgresql+psycopg://user@host/db``: the platform in schema ``arena``, each game table in
  schema ``t<id>``, all in database ``db``.
- ``mysql+pymysql://user@host/db`` (MariaDB): the platform in database ``db`` (default
  ``arena``), each game table in database ``<db>_t<id>``.

Arena's own query parameters, removed before the URL reaches the driver: ``arena_prefix``
(PostgreSQL: a prefix for every schema, so several sites share a database) and
``arena_pool`` (connections per process to the table databases, default 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

from framework.core.errors import ConfigError
from framework.storage.base import TableStore
from framework.storage.pool import parse_flag

POSTGRES_SCHEMES = {"postgresql", "postgres", "postgresql+psycopg", "postgresql+psycopg2"}
MYSQL_SCHEMES = {"mysql", "mysql+pymysql", "mariadb", "mariadb+pymysql"}
PLATFORM_SCHEMA = "arena"


@dataclass
class Backend:
    """What ``Site.open`` needs: the platform engine's URL and options, and the store."""

    dialect: str
    platform_url: str
    store: TableStore
    engine_options: dict[str, Any] = field(default_factory=dict)


def _arena_params(url: URL) -> tuple[URL, dict[str, str]]:
    ours = {k: str(v) for k, v in url.query.items() if k.startswith("arena_")}
    return url.difference_update_query(list(ours)), ours


def open_backend(database_url: str | None, instance_path: Path) -> Backend:
    """The backend named by ``database_url`` (None: SQLite files under ``instance_path``).

    Raises:
        ConfigError: an unknown scheme, or a server that refuses the set-up.
    """
    if not database_url:
        database_url = f"sqlite:///{instance_path / 'platform.sqlite'}"
    url, ours = _arena_params(make_url(database_url))
    scheme = url.drivername
    pool = parse_flag(ours.get("arena_pool"), 8)
    if scheme.startswith("sqlite"):
        from framework.storage.sqlite import SQLiteStore, create_private_file

        if url.database and url.database != ":memory:" and Path(url.database).parent.is_dir():
            create_private_file(Path(url.database))  # the platform file holds password hashes
        return Backend("sqlite", url.render_as_string(hide_password=False),
                       SQLiteStore(instance_path / "tables"))
    if scheme in POSTGRES_SCHEMES:
        return _postgres(url, ours.get("arena_prefix", ""), pool)
    if scheme in MYSQL_SCHEMES:
        return _mysql(url, pool)
    raise ConfigError(
        f"ARENA_DATABASE_URL: unknown database {scheme!r}; use sqlite:///..., "
        "postgresql+psycopg://... or mysql+pymysql://..."
    )


def _postgres(url: URL, prefix: str, pool: int) -> Backend:
    import psycopg

    from framework.storage.postgres import PostgresStore, quote

    if prefix and not prefix.replace("_", "").isalnum():
        raise ConfigError(f"arena_prefix must be letters, digits and _, not {prefix!r}")
    url = url.set(drivername="postgresql+psycopg")
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    schema = f"{prefix}{PLATFORM_SCHEMA}"
    try:
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {quote(schema)}")
    except psycopg.errors.UniqueViolation:
        pass  # another worker created it at the same moment
    except psycopg.Error as exc:
        raise ConfigError(f"cannot set up PostgreSQL at {url.render_as_string()}: {exc}") from exc
    return Backend(
        "postgresql", url.render_as_string(hide_password=False), PostgresStore(conninfo, prefix, pool),
        {"connect_args": {"options": f"-csearch_path={schema}"}, "pool_pre_ping": True,
         "pool_size": 4, "max_overflow": 8},
    )


def _mysql(url: URL, pool: int) -> Backend:
    import pymysql

    from framework.storage.mysql import MySQLStore, quote

    database = url.database or "arena"
    url = url.set(drivername="mysql+pymysql", database=database)
    if "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    connect_args: dict[str, Any] = {
        "host": url.host or "127.0.0.1", "port": url.port or 3306,
        "user": url.username or "root", "password": url.password or "",
    }
    if url.query.get("unix_socket"):
        connect_args["unix_socket"] = str(url.query["unix_socket"])
    try:
        conn = pymysql.connect(**connect_args, autocommit=True, connect_timeout=10)
        with conn.cursor() as cur:
            cur.execute(f"CREATE DATABASE IF NOT EXISTS {quote(database)} CHARACTER SET utf8mb4")
        conn.close()
    except pymysql.err.Error as exc:
        raise ConfigError(f"cannot set up MariaDB at {url.render_as_string()}: {exc}") from exc
    return Backend(
        "mysql", url.render_as_string(hide_password=False), MySQLStore(connect_args, database, pool),
        {"pool_pre_ping": True, "pool_size": 4, "max_overflow": 8, "pool_recycle": 3600},
    )


def scratch_site_url(database_url: str, tag: str) -> str:
    """A URL for a throw-away site on the same server as ``database_url``: PostgreSQL schemas
    prefixed ``<tag>_``, MariaDB databases ``<db>_<tag>`` and ``<db>_<tag>_t<id>``."""
    url, ours = _arena_params(make_url(database_url))
    if url.drivername in POSTGRES_SCHEMES:
        prefix = ours.get("arena_prefix", "") + f"{tag}_"
        url = url.set(drivername="postgresql+psycopg").update_query_dict({"arena_prefix": prefix})
    elif url.drivername in MYSQL_SCHEMES:
        url = url.set(drivername="mysql+pymysql", database=f"{url.database or 'arena'}_{tag}")
    else:
        raise ConfigError(f"not a database server: {url.drivername}")
    # The mark ``drop_site`` asks for: only a throw-away site can be dropped.
    return url.update_query_dict({"arena_scratch": "1"}).render_as_string(hide_password=False)


def drop_site(database_url: str) -> None:
    """Drop every schema or database of the site at ``database_url`` (its platform too):
    for throw-away sites only (benchmarks, tests)."""
    url, ours = _arena_params(make_url(database_url))
    if ours.get("arena_scratch") != "1":
        raise ConfigError("refusing to drop a site that scratch_site_url did not make")
    if url.drivername in POSTGRES_SCHEMES:
        import psycopg

        prefix = ours.get("arena_prefix", "")
        if not prefix:
            raise ConfigError("refusing to drop a site without an arena_prefix")
        conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            names = [r[0] for r in conn.execute(
                "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, %s)", (prefix,))]
            for name in names:  # one schema per transaction (lock slots)
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    elif url.drivername in MYSQL_SCHEMES:
        import pymysql

        base = url.database or "arena"
        conn = pymysql.connect(host=url.host or "127.0.0.1", port=url.port or 3306,
                               user=url.username or "root", password=url.password or "", autocommit=True)
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s "
                            "OR SCHEMA_NAME LIKE %s", (base, base.replace("_", "\\_") + "\\_%"))
                for (name,) in cur.fetchall():
                    cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
        finally:
            conn.close()
