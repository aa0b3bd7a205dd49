"""What a game's production tables in play use: their release, state and statistics, read
from each table's own database (the truth), for the rehearsal, deploy and rollback."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.kinds import TableMode, TablePhase
from framework.platform.models import GameTableRecord
from framework.releases.context import ReleaseContext
from framework.storage.sql.names import quote_identifier

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableUse:
    """One production table in play."""

    table_id: int
    release: str | None  # as its database records it
    state: int | None  # None: its database could not be read
    blocked: bool
    #: (scope, id) of the statistics holding a value other than 0
    stats: frozenset[tuple[str, int]] = frozenset()


def tables_in_use(site: ReleaseContext, game: str) -> list[TableUse]:
    """Every production table of ``game`` still in play, blocked ones included, by id."""
    with Session(site.platform) as s:
        rows = s.execute(select(GameTableRecord.id, GameTableRecord.release_version, GameTableRecord.blocked)
                         .where(GameTableRecord.game == game, GameTableRecord.mode == TableMode.PRODUCTION,
                                GameTableRecord.status != TablePhase.FINISHED)
                         .order_by(GameTableRecord.id)).all()
    out = []
    for table_id, release, blocked in rows:
        state: int | None = None
        stats: set[tuple[str, int]] = set()
        try:
            with site.store.connect(int(table_id), write=False) as db:
                glob = quote_identifier("global", db.dialect)
                found = db.execute(f"SELECT global_value FROM {glob} WHERE global_id = 1").rows
                state = int(found[0]["global_value"]) if found else None
                meta = db.execute("SELECT meta_value FROM arena_meta WHERE meta_key = 'release'").rows
                release = meta[0]["meta_value"] if meta else release
                for r in db.execute("SELECT stats_type, stats_player_id, stats_value FROM stats").rows:
                    if r["stats_value"] not in (None, 0, 0.0):
                        scope = "table" if r["stats_player_id"] is None else "player"
                        stats.add((scope, int(r["stats_type"])))
        except (FileNotFoundError, sqlite3.Error):
            log.warning("table %s of %s has no readable database", table_id, game, exc_info=True)
        out.append(TableUse(int(table_id), release, state, bool(blocked), frozenset(stats)))
    return out


def distinct_uses(uses: list[TableUse]) -> dict[tuple[str | None, int | None], list[int]]:
    """Tables grouped by (release, state): one of each group stands for the others in a
    rehearsal (they take the same branches of ``upgrade_table_db``)."""
    groups: dict[tuple[str | None, int | None], list[int]] = {}
    for use in uses:
        groups.setdefault((use.release, use.state), []).append(use.table_id)
    return groups
