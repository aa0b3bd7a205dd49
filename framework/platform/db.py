"""Opening the platform database and bringing its schema to the latest Alembic revision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).parent


def create_platform_engine(url: str, **options: Any) -> Engine:
    """The platform's engine; ``options`` are ``create_engine``'s (pool sizes, connect_args)."""
    return prepare_platform_engine(create_engine(url, **options))


def prepare_platform_engine(engine: Engine) -> Engine:
    """What a platform engine needs whoever made it (``create_platform_engine`` or the web
    app's Flask-SQLAlchemy): on SQLite, the pragmas of every new connection."""
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # As the table files: a commit survives a crash of the process; only a power
            # loss can take back the last ones (no fsync per commit).
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    return engine


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def upgrade_platform(engine: Engine, revision: str = "head") -> str | None:
    """Apply every pending revision; returns the revision the database is at."""
    cfg = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    return current_revision(engine)
