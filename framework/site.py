"""One Arena site: the platform database, the game tables' store, the games and the runtime."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Engine

from framework.engine.runtime import Runtime, RuntimeHooks
from framework.game.registry import GameDefinition, GameRegistry
from framework.live.bus import MEMORY_SCHEMES, Bus, open_bus
from framework.live.bus_sqlite import FILE_NAME as SQLITE_BUS_FILE
from framework.live.bus_sqlite import url_of as sqlite_bus_url
from framework.live.streams import BusOpener, Streams, site_channel
from framework.platform.db import create_platform_engine, upgrade_platform
from framework.releases.builds import load_release
from framework.releases.upgrade import before_action, production_version
from framework.storage.backends import open_backend
from framework.storage.base import TableStore
from framework.storage.sqlite import SQLiteStore

#: Makes the platform engine from the backend's URL and ``create_engine`` options.
EngineFactory = Callable[[str, dict[str, Any]], Engine]


def default_instance_path() -> Path:
    return Path(os.environ.get("ARENA_INSTANCE", "instance")).resolve()


@dataclass
class Site:
    """Everything a request, a CLI command or a test needs, built from one configuration.

    ``database_url`` (``ARENA_DATABASE_URL``) picks the backend; the default is SQLite
    files under ``instance_path``, created on first use, platform schema migrated.
    ``bus_url`` (``ARENA_BUS_URL``) picks the bus between processes and machines
    (``bus_for``).
    """

    instance_path: Path
    database_url: str
    platform: Engine
    store: TableStore
    registry: GameRegistry
    bus_url: str | None = None
    runtime: Runtime = field(init=False)
    streams: Streams = field(init=False)

    def __post_init__(self) -> None:
        bus, poll_s = bus_for(self.store, self.bus_url, self.instance_path)
        # Commits of other processes and machines wake this one's event streams; the bus
        # is opened by the first stream that waits or commit that publishes (after a fork).
        self.streams = Streams(self.store, lambda: self.runtime.now(), bus, site_channel(self.database_url),
                               poll_s)

        def production(game: str) -> tuple[str, GameDefinition] | None:
            version = production_version(self, game)
            return None if version is None else (version, load_release(self, game, version))

        hooks = RuntimeHooks(
            game_loader=lambda info: load_release(self, info.game, info.release_version or ""),
            production_release=production,
            before_action=before_action(self),
        )
        self.runtime = Runtime(self.platform, self.store, self.registry, hooks=hooks, streams=self.streams)

    @classmethod
    def open(
        cls,
        instance_path: Path | str | None = None,
        database_url: str | None = None,
        registry: GameRegistry | None = None,
        migrate: bool = True,
        bus_url: str | None = None,
        make_engine: EngineFactory | None = None,
    ) -> Site:
        """``make_engine``: the web app passes Flask-SQLAlchemy's, so ``db.session`` and the
        site share one engine (default: ``create_platform_engine``)."""
        path = Path(instance_path).resolve() if instance_path else default_instance_path()
        path.mkdir(mode=0o700, parents=True, exist_ok=True)  # tables, secret key: the owner's only
        url = database_url or os.environ.get("ARENA_DATABASE_URL") or f"sqlite:///{path / 'platform.sqlite'}"
        backend = open_backend(url, path)  # SQLite files, PostgreSQL schemas or MariaDB databases
        if make_engine is None:
            engine = create_platform_engine(backend.platform_url, **backend.engine_options)
        else:
            engine = make_engine(backend.platform_url, dict(backend.engine_options))
        if migrate:
            upgrade_platform(engine)
        bus = bus_url or os.environ.get("ARENA_BUS_URL") or None
        return cls(path, url, engine, backend.store, registry or GameRegistry(), bus)

    def close(self) -> None:
        self.streams.close()
        self.store.close()
        self.platform.dispose()


def bus_for(store: TableStore, bus_url: str | None, instance: Path) -> tuple[BusOpener, float | None]:
    """How a site's processes hear each other's commits: the bus (opened lazily) and how
    often to poll the game log for them (None: the bus reaches every process).

    ``bus_url`` (``redis://...``) on any backend; else on PostgreSQL LISTEN/NOTIFY on the
    site's own database; else a file of messages for the processes of this machine
    (``framework.live.bus_sqlite``: beside the tables on SQLite, in the ``instance`` folder
    on MariaDB, whose other machines also poll); with ``memory:`` the bus of one process.
    The poll (``ARENA_LOG_POLL_S``, default the store's ``poll_interval_s``) runs wherever
    the bus may not reach every process: on MariaDB and with ``memory:``.
    """
    if bus_url and urlsplit(bus_url).scheme.lower() not in MEMORY_SCHEMES:
        return (lambda lost: open_bus(bus_url, on_reconnect=lost)), None
    conninfo = store.notify_conninfo
    if conninfo is not None:
        return (lambda lost: open_bus(conninfo, on_reconnect=lost)), None
    env = os.environ.get("ARENA_LOG_POLL_S")
    poll_s = float(env) if env else store.poll_interval_s
    if not bus_url:
        if isinstance(store, SQLiteStore):  # one machine: the file reaches every process
            return _file_bus(store.directory), None
        return _file_bus(instance), poll_s

    def in_process(lost: Callable[[], None]) -> Bus:
        return open_bus(None)

    return in_process, poll_s


def _file_bus(folder: Path) -> BusOpener:
    """The bus of the processes of one machine: ``live-bus.sqlite`` in ``folder``."""
    url = sqlite_bus_url(folder / SQLITE_BUS_FILE)
    return lambda lost: open_bus(url, on_reconnect=lost)
