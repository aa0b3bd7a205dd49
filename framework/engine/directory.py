"""Which table is which: the registry rows the runtime keeps per process, the game code a
table runs, and whether a game is blocked."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from framework.core.errors import NotFoundError
from framework.core.kinds import TableMode
from framework.game.registry import GameDefinition, GameRegistry
from framework.platform.models import GameRecord, GameTableRecord
from framework.storage.base import TableConnection, TableStore

RELEASE_SQL = "SELECT meta_value FROM arena_meta WHERE meta_key = 'release'"


@dataclass(frozen=True)
class TableInfo:
    """What the runtime keeps of a table's registry row. Only a production table's release
    changes during play (an upgrade or a rollback, maybe by another process): ``open``
    reads it again in every transaction."""

    id: int
    game: str
    mode: str
    release_version: str | None


class TableDirectory:
    """Table registry rows (cached per process) and the ``GameDefinition`` each table runs.

    The release a production table runs is its database's (``arena_meta.release``), read in
    the transaction that runs the code (``open``): another process may have upgraded or
    rolled the table back since this one cached its row.
    """

    def __init__(
        self, platform: Engine, store: TableStore, registry: GameRegistry,
        game_loader: Callable[[TableInfo], GameDefinition] | None,
    ) -> None:
        self.platform = platform
        self.store = store
        self.registry = registry
        self.game_loader = game_loader
        self._tables: dict[int, TableInfo] = {}
        self._blocked: dict[str, tuple[float, bool]] = {}

    def table_info(self, table_id: int) -> TableInfo:
        """Raises:
            NotFoundError: no such table (or an id no database column can hold).
        """
        info = self._tables.get(table_id)
        if info is not None:
            return info
        with Session(self.platform) as s:
            # An id no database column can hold (the URL's int converter takes any size) is
            # simply no table.
            valid = _is_int(table_id) and 0 < int(table_id) < 2**62
            rec = s.get(GameTableRecord, int(table_id)) if valid else None
            if rec is None or not self.store.exists(rec.id):
                raise NotFoundError("There is no table ${table_id}", "unknown_table", table_id=str(table_id))
            info = TableInfo(rec.id, rec.game, rec.mode, rec.release_version)
        self._tables[info.id] = info
        return info

    def forget_table(self, table_id: int) -> None:
        self._tables.pop(table_id, None)

    @contextmanager
    def open(self, table_id: int, write: bool = True, first_read: str | None = None
             ) -> Iterator[tuple[TableInfo, GameDefinition, TableConnection]]:
        """The table's transaction (``write``: holding its lock), its registry row and the
        code to run on it: a production table's release as its database records it in
        this very transaction (the cached row is corrected when it is stale).
        ``first_read``: see ``TableStore.connect``.

        Raises:
            NotFoundError: no such table.
        """
        with self.open_for_action(table_id, write=write, first_read=first_read) as (info, gdef, db, _):
            yield info, gdef, db

    @contextmanager
    def open_for_action(self, table_id: int, write: bool = True, first_read: str | None = None,
                        kept_release: str | None = None,
                        ) -> Iterator[tuple[TableInfo, GameDefinition, TableConnection, bool]]:
        """``open``, and whether the release was taken on trust (last). ``kept_release``: the release
        of what this process kept of the table from its own last action
        (``framework.game.kept``). When it is the cached one and the connection can tell
        that no one else wrote the table since that action's commit (SQLite's
        ``written_elsewhere``), the release is not read: an upgrade or rollback made
        elsewhere is a write, which changes the table's write token, so the kept copy is
        found stale (by the action's guarded write of its globals, or at once) and the
        caller plays the action again from the rows, reading the release then.

        Raises:
            NotFoundError: no such table.
        """
        info = self.table_info(table_id)
        with self.store.connect(info.id, write=write, first_read=first_read) as db:
            on_trust = False
            if info.mode == TableMode.PRODUCTION:
                on_trust = kept_release is not None and kept_release == info.release_version \
                    and db.written_elsewhere() is False
                if not on_trust:
                    info = self.confirm_release(info, db)
            yield info, self.game_for(info), db, on_trust

    def confirm_release(self, info: TableInfo, db: TableConnection) -> TableInfo:
        """``info`` with the release the table's database records (read on ``db``); the
        cache follows it."""
        rows = db.execute(RELEASE_SQL).rows
        recorded = rows[0]["meta_value"] if rows else info.release_version
        if recorded == info.release_version:
            return info
        fresh = dataclasses.replace(info, release_version=recorded)
        self._tables[info.id] = fresh
        return fresh

    def game_for(self, info: TableInfo) -> GameDefinition:
        """Production tables run their release's stored code (``game_loader``), studio tables
        the registry's."""
        if info.mode == TableMode.PRODUCTION and self.game_loader is not None:
            return self.game_loader(info)
        return self.registry.get(info.game)

    def is_blocked(self, game: str, max_age: float = 1.0) -> bool:
        cached = self._blocked.get(game)
        now = time.monotonic()
        if cached is not None and now - cached[0] < max_age:
            return cached[1]
        with Session(self.platform) as s:
            rec = s.get(GameRecord, game)
            blocked = bool(rec and rec.blocked)
        self._blocked[game] = (now, blocked)
        return blocked

    def forget_blocked(self, game: str | None = None) -> None:
        if game is None:
            self._blocked.clear()
        else:
            self._blocked.pop(game, None)


def _is_int(value: Any) -> bool:
    try:
        int(value)
        return not isinstance(value, bool)
    except (TypeError, ValueError):
        return False
