"""The platform database: Alembic revisions match the models and upgrade on first start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect

from framework.platform.db import (
    create_platform_engine,
    current_revision,
    head_revision,
    upgrade_platform,
)
from framework.platform.models import Base
from framework.site import Site
from tests.backends import PlatformTemplate, server_site_url


def test_first_start_creates_and_migrates(tmp_path: Path) -> None:
    site = Site.open(tmp_path / "fresh")
    assert (tmp_path / "fresh" / "platform.sqlite").exists()
    assert current_revision(site.platform) == head_revision()
    assert {"players", "game_tables", "table_seats", "games", "stat_history", "table_errors"} <= set(
        inspect(site.platform).get_table_names()
    )
    site.close()


def test_migrations_match_the_models(tmp_path: Path) -> None:
    engine = create_platform_engine(f"sqlite:///{tmp_path / 'p.sqlite'}")
    upgrade_platform(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_downgrade_to_base_and_back(tmp_path: Path) -> None:
    from alembic import command

    from framework.platform.db import alembic_config

    engine = create_platform_engine(f"sqlite:///{tmp_path / 'p.sqlite'}")
    upgrade_platform(engine)
    cfg = alembic_config(str(engine.url))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
    assert "game_tables" not in inspect(engine).get_table_names()
    upgrade_platform(engine)
    assert "game_tables" in inspect(engine).get_table_names()


def schema_of(engine: Engine) -> dict[str, Any]:
    """Tables, columns, keys and indexes of the platform database, as the inspector sees them."""
    insp = inspect(engine)
    return {
        table: (
            [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(table)],
            insp.get_pk_constraint(table)["constrained_columns"],
            sorted((tuple(fk["constrained_columns"]), fk["referred_table"]) for fk in insp.get_foreign_keys(table)),
            sorted((ix["name"], tuple(ix["column_names"]), bool(ix["unique"])) for ix in insp.get_indexes(table)),
        )
        for table in sorted(insp.get_table_names())
    }


@pytest.mark.all_backends
def test_the_test_sites_template_is_a_real_migration_at_head(
        tmp_path: Path, request: pytest.FixtureRequest, site: Site, database_url: str | None,
        platform_template: PlatformTemplate) -> None:
    """The fixtures' sites start from a copy of a migrated template (tests/conftest.py): it is
    at Alembic head and has the schema a migration from empty gives on the same backend."""
    assert current_revision(site.platform) == head_revision()
    sites: list[Iterator[str | None]] = [iter([None]), iter([None])]
    if database_url is not None:  # two more throw-away sites on the same server
        kind = site.platform.dialect.name
        pg_run = request.getfixturevalue("postgres_run") if kind == "postgresql" else None
        sites = [server_site_url(kind, pg_run), server_site_url(kind, pg_run)]
    copy_url, fresh_url = (next(urls) for urls in sites)
    # ``site`` made the template if it was the first on its backend: this one is a copy.
    platform_template.seed(tmp_path / "copy", copy_url)
    copy = Site.open(tmp_path / "copy", database_url=copy_url, migrate=False)
    fresh = Site.open(tmp_path / "fresh", database_url=fresh_url)  # migrated by Alembic
    try:
        assert current_revision(copy.platform) == head_revision()
        assert schema_of(copy.platform) == schema_of(fresh.platform)
        assert schema_of(copy.platform).keys() >= set(Base.metadata.tables)
    finally:
        copy.close()
        fresh.close()
        for urls in sites:  # drops the two sites
            for _ in urls:
                pass
