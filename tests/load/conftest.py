"""A real server (gunicorn, gevent workers, ``python -m framework.web.server``) on loopback, on
each backend, with the test's own site on the same databases to check what the server did."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.client import HttpClient
from bench.server import ServerProcess
from framework.game.registry import GameRegistry
from framework.site import Site
from framework.web.server import registry_with
from tests.backends import BACKENDS, PostgresRun, require, server_site_url

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def load_registry() -> GameRegistry:
    """The installed games (Belote) and the fault game, as the server loads them
    (``ARENA_EXTRA_GAMES``)."""
    return registry_with([FIXTURES])


@dataclass
class Served:
    site: Site
    server: ServerProcess
    pid_file: Path

    def client(self) -> HttpClient:
        return HttpClient(self.server.host, self.server.port)


@pytest.fixture(scope="module", params=BACKENDS)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Two gevent workers serving a fresh site on each backend (one server per module)."""
    kind = request.param
    root = tmp_path_factory.mktemp(f"served-{kind}")
    urls: Iterator[str | None]
    if kind == "sqlite":
        urls = iter([None])
    else:
        require(kind)
        pg_run: PostgresRun | None = request.getfixturevalue("postgres_run") if kind == "postgresql" else None
        urls = server_site_url(kind, pg_run)
    url = next(urls)
    site = Site.open(root / "instance", database_url=url, registry=load_registry())
    pid_file = root / "working.pid"
    server = ServerProcess.start(root / "instance", 2, url, [FIXTURES],
                                 env={"ARENA_FAULT_PID_FILE": str(pid_file)})
    try:
        yield Served(site, server, pid_file)
    finally:
        server.stop()
        site.close()
        for _ in urls:  # drops the databases of the run
            pass


def new_fault_table(site: Site, players: int = 2) -> tuple[int, list[int]]:
    """A table of the fault game; its id and its players in seat order."""
    table_id = site.runtime.create_table("faultgame", players, seed=1)
    data = site.runtime.get_data(table_id, None)
    return table_id, [int(p) for p in data["playerorder"]]


def step_kinds(site: Site, table_id: int) -> list[str]:
    """The kind of every step the fault game recorded, in order."""
    with site.store.connect(table_id, write=False) as db:
        q = '"' if db.dialect == "postgresql" else "`"
        return [r["step_kind"] for r in db.execute(f"SELECT step_kind FROM {q}step{q} ORDER BY step_id").rows]
