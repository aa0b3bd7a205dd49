"""The platform database: Alembic revisions match the models and upgrade on first start."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from framework.platform.db import (
    create_platform_engine,
    current_revision,
    head_revision,
    upgrade_platform,
)
from framework.platform.models import Base
from framework.site import Site


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
