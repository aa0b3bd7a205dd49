"""Shared fixtures: a private Arena site in a temporary folder; no test touches ./instance."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.game.registry import GameDefinition, GameRegistry, build_definition, load_game_from_directory
from framework.game.table import Table
from framework.site import Site
from framework.testing import GameHarness, TestTable
from tests.backends import BACKENDS, PlatformTemplate, PostgresRun, require, server_site_url

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def lab_definition() -> GameDefinition:
    return load_game_from_directory(FIXTURES / "labgame", "arena_test_labgame")


def lab_variant(name: str, table_class: type[Table]) -> GameDefinition:
    """The lab game's states, statistics and options under another name, with
    ``table_class`` (a subclass of the lab game's table) as its table."""
    lab = lab_definition()
    assert lab.package is not None
    part = {p: importlib.import_module(f"{lab.package.__name__}.{p}") for p in ("states", "stats", "options")}
    return build_definition(dataclasses.replace(lab.info, name=name), table_class, part["states"].STATES,
                            part["stats"].STATS, part["options"].OPTIONS, dbmodel=lab.dbmodel)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "all_backends: run on SQLite, and on PostgreSQL and MariaDB when "
        "ARENA_TEST_POSTGRES_URL / ARENA_TEST_MYSQL_URL are set",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked ``all_backends`` that use a site run once per backend."""
    if "database_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("all_backends"):
        metafunc.parametrize("database_url", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def postgres_run() -> Iterator[PostgresRun]:
    """This test run's own PostgreSQL database (dropped at the end of the run)."""
    run = PostgresRun(require("postgresql"))
    yield run
    run.close()


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """``ARENA_DATABASE_URL`` of the test's site: None (SQLite in the test's folder) unless the
    test is parametrised with a server backend, which then gets fresh databases."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield None
        return
    require(kind)
    pg_run = request.getfixturevalue("postgres_run") if kind == "postgresql" else None
    yield from server_site_url(kind, pg_run)


@pytest.fixture(scope="session")
def platform_template(tmp_path_factory: pytest.TempPathFactory) -> PlatformTemplate:
    """The platform database migrated once per run (the fixtures' sites start from a copy)."""
    return PlatformTemplate(tmp_path_factory.mktemp("platform-template"))


@pytest.fixture
def registry() -> GameRegistry:
    reg = GameRegistry(packages={})
    reg.add_definition(lab_definition())
    return reg


@pytest.fixture
def site(tmp_path: Path, registry: GameRegistry, database_url: str | None,
         platform_template: PlatformTemplate) -> Iterator[Site]:
    platform_template.seed(tmp_path / "instance", database_url)
    s = Site.open(tmp_path / "instance", database_url=database_url, registry=registry, migrate=False)
    yield s
    s.close()


@pytest.fixture
def lab(tmp_path: Path, registry: GameRegistry, database_url: str | None,
        platform_template: PlatformTemplate) -> Iterator[GameHarness]:
    platform_template.seed(tmp_path / "instance", database_url)  # the harness finds it at head
    with GameHarness("labgame", tmp_path, registry=registry, database_url=database_url) as h:
        yield h


@pytest.fixture
def lab_table(lab: GameHarness) -> TestTable:
    return lab.create_table(players=3, seed=42)
