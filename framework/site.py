"""One Arena site: the platform database, the game tables' store, the games and the runtime."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine

from framework.engine.runtime import Runtime, RuntimeHooks
from framework.game.registry import GameDefinition, GameRegistry
from framework.live.notify import Notifier
from framework.platform.db import create_platform_engine, upgrade_platform
from framework.releases.builds import load_release
from framework.releases.upgrade import before_action, production_version
from framework.storage.backends import open_backend
from framework.storage.base import TableStore


def default_instance_path() -> Path:
    return Path(os.environ.get("ARENA_INSTANCE", "instance")).resolve()


@dataclass
class Site:
    """Everything a request, a CLI command or a test needs, built from one configuration.

    ``database_url`` (``ARENA_DATABASE_URL``) picks the backend; the default is SQLite
    files under ``instance_path``, created on first use, platform schema migrated.
    """

    instance_path: Path
    database_url: str
    platform: Engine
    store: TableStore
    registry: GameRegistry
    runtime: Runtime = field(init=False)
    notifier: Notifier = field(init=False)

    def __post_init__(self) -> None:
        def production(game: str) -> tuple[str, GameDefinition] | None:
            version = production_version(self, game)
            return None if version is None else (version, load_release(self, game, version))

        hooks = RuntimeHooks(
            game_loader=lambda info: load_release(self, info.game, info.release_version or ""),
            production_release=production,
            before_action=before_action(self),
        )
        self.runtime = Runtime(self.platform, self.store, self.registry, hooks=hooks)
        # Commits of other processes wake this one's event streams (started by the first wait).
        self.notifier = Notifier(self.runtime, self.store, peers_dir=self.instance_path / ".peers")
        self.runtime.before_wait = self.notifier.ensure_running
        channel = self.notifier.channel
        if channel is not None:
            self.runtime.on_commit = self.notifier.announce
            self.runtime.has_peers = lambda: bool(channel.peers())

    @classmethod
    def open(
        cls,
        instance_path: Path | str | None = None,
        database_url: str | None = None,
        registry: GameRegistry | None = None,
        migrate: bool = True,
    ) -> Site:
        path = Path(instance_path).resolve() if instance_path else default_instance_path()
        path.mkdir(parents=True, exist_ok=True)
        url = database_url or os.environ.get("ARENA_DATABASE_URL") or f"sqlite:///{path / 'platform.sqlite'}"
        backend = open_backend(url, path)  # SQLite files, PostgreSQL schemas or MariaDB databases
        engine = create_platform_engine(backend.platform_url, **backend.engine_options)
        if migrate:
            upgrade_platform(engine)
        return cls(path, url, engine, backend.store, registry or GameRegistry())

    def close(self) -> None:
        self.notifier.stop()
        self.store.close()
        self.platform.dispose()
