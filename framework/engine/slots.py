"""Studio save slots: the whole table copied to slot 1..3 and back."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from framework.core.errors import UserError
from framework.core.kinds import TablePhase
from framework.engine.copies import copy_tables
from framework.engine.directory import TableDirectory
from framework.game.globals import GLOBAL_PROGRESSION, GLOBAL_STATE
from framework.game.states import END_STATE_ID
from framework.platform.models import GameTableRecord
from framework.storage.base import SLOT_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.translate import translate_query


class SaveSlots:
    """Save and load slots; ``changed`` is told of each load (the table's streams reload)."""

    def __init__(self, platform: Engine, directory: TableDirectory, now: Callable[[], datetime],
                 changed: Callable[[int], None]) -> None:
        self.platform = platform
        self.directory = directory
        self.now = now
        self.changed = changed

    def save_slot(self, table_id: int, slot: int) -> None:
        """Studio: save the whole table to slot 1..3."""
        prefix = slot_prefix(slot)
        with self.directory.store.connect(self.directory.table_info(table_id).id) as db:
            copy_tables(db, prefix, to_copy=True)
            write_meta(db, f"slot{slot}", self.now().isoformat())

    def load_slot(self, table_id: int, slot: int) -> None:
        """Studio: put the table back as it was saved in slot 1..3.

        Raises:
            UserError: no slot of that number, or nothing saved in it.
        """
        prefix = slot_prefix(slot)
        info = self.directory.table_info(table_id)
        with self.directory.store.connect(info.id) as db:
            saved = db.execute(
                "SELECT COUNT(*) AS n FROM " + quote_identifier(prefix + "player", db.dialect)
            ).rows[0]["n"]
            if not saved:
                raise UserError("Slot ${slot} is empty", "empty_slot", slot=slot)
            copy_tables(db, prefix, to_copy=False)
            state, progression = framework_globals(db)
        with Session(self.platform) as s, s.begin():
            rec = s.get(GameTableRecord, info.id)
            if rec is not None:
                rec.progression = progression  # what the lobby shows: the loaded table's
                if rec.status == TablePhase.FINISHED and state != END_STATE_ID:
                    rec.status = TablePhase.PLAYING
                    rec.finished_at = None
        self.changed(info.id)


def framework_globals(db: TableConnection) -> tuple[int, int]:
    """The table's state id and progression (0..100), read from its ``global`` rows."""
    sql = translate_query("SELECT global_id, global_value FROM global WHERE global_id IN (%s, %s)",
                          db.dialect)
    rows = db.execute(sql, (GLOBAL_STATE, GLOBAL_PROGRESSION)).rows
    values = {int(r["global_id"]): int(r["global_value"] or 0) for r in rows}
    return values.get(GLOBAL_STATE, 0), max(0, min(100, values.get(GLOBAL_PROGRESSION, 0)))


def slot_prefix(slot: int) -> str:
    """The table prefix of save slot 1..3.

    Raises:
        UserError: no slot of that number.
    """
    if slot not in SLOT_PREFIXES:
        raise UserError("Save slots are 1, 2 and 3, not ${slot}", "bad_slot", slot=slot)
    return SLOT_PREFIXES[slot]


def write_meta(db: TableConnection, key: str, value: str) -> None:
    """Write one ``arena_meta`` row whether it exists or not (the same SQL on every backend)."""
    update = translate_query("UPDATE arena_meta SET meta_value = %s WHERE meta_key = %s", db.dialect)
    if db.execute(update, (value, key)).rowcount == 0:
        insert = translate_query("INSERT INTO arena_meta (meta_key, meta_value) VALUES (%s, %s)", db.dialect)
        db.execute(insert, (key, value))
