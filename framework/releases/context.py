"""What release work needs of a site: its folder, platform database, table store, games and
runtime. A ``Site`` is one; the upgrade rehearsal makes a scratch one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sqlalchemy import Engine

from framework.engine.runtime import Runtime
from framework.game.registry import GameRegistry
from framework.storage.base import TableStore


class ReleaseContext(Protocol):
    """The parts of a site that build, check, deploy and upgrade use."""

    @property
    def instance_path(self) -> Path: ...

    @property
    def platform(self) -> Engine: ...

    @property
    def store(self) -> TableStore: ...

    @property
    def registry(self) -> GameRegistry: ...

    @property
    def runtime(self) -> Runtime: ...


@dataclass
class ScratchContext:
    """A throw-away context: a SQLite platform file and a scratch namespace of the store."""

    instance_path: Path
    platform: Engine
    store: TableStore
    registry: GameRegistry
    runtime: Runtime

    def close(self) -> None:
        self.store.close()
        self.platform.dispose()
