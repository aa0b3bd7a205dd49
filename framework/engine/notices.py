"""What a production table's page tells its players about the game itself: that it is
blocked (moves wait), and that the table moved to another release mid-game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from framework.core.kinds import TableMode
from framework.engine.directory import TableDirectory
from framework.platform.models import GameTableRecord

#: ``arena_meta``: the table's last move to another release (JSON: kind, from, to, notes,
#: move), written by the upgrade or the rollback that moved it.
NOTICE_KEY = "release_notice"


@dataclass(frozen=True)
class TableNotices:
    #: "game": the game is blocked (an update); "table": this table waits for a fix of an
    #: upgrade that failed; None: moves are taken.
    blocked: str | None
    #: the last move to another release: kind (upgrade | rollback), from, to, notes, move
    release: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"blocked": self.blocked, "release": self.release}


def table_notices(directory: TableDirectory, table_id: int) -> TableNotices:
    """The notices of ``table_id`` (a studio table has none).

    Raises:
        NotFoundError: no such table.
    """
    with directory.open(table_id, write=False) as (info, _, db):
        if info.mode != TableMode.PRODUCTION:
            return TableNotices(None, None)
        rows = db.execute(f"SELECT meta_value FROM arena_meta WHERE meta_key = '{NOTICE_KEY}'").rows
    release = json.loads(rows[0]["meta_value"]) if rows and rows[0]["meta_value"] else None
    blocked: str | None = "game" if directory.is_blocked(info.game) else None
    if blocked is None:
        with Session(directory.platform) as s:
            rec = s.get(GameTableRecord, info.id)
            blocked = "table" if rec is not None and rec.blocked else None
    return TableNotices(blocked, release)
