"""``self.legacy``: data a player (or the team) carries from game to game of a legacy game
(BGA's ``$this->legacy``; the classic ``store_legacy_data`` family calls it).

On BGA the platform keeps it. Arena has no platform store for it yet: the values live in
the table's own database (``arena_meta``), so they last for the table's life (or their
``ttl``), follow undo and save slots, and a new table starts without them.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import framework.game.modern.meta_rows as meta_rows

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

PREFIX = "legacy"
TEAM = "team"
#: BGA's default lifetime of legacy data, in days.
DEFAULT_TTL_DAYS = 365


class Legacy:
    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def get(self, key: str, player_id: int, default: Any = None) -> Any:
        return self._read(meta_rows.meta_key(PREFIX, key, int(player_id)), default)

    def set(self, key: str, player_id: int, value: Any, ttl: int = DEFAULT_TTL_DAYS) -> None:
        """Keep ``value`` (any JSON value) for ``player_id`` under ``key`` for ``ttl`` days."""
        self._write(meta_rows.meta_key(PREFIX, key, int(player_id)), value, ttl, f"legacy {key!r}")

    def delete(self, key: str, player_id: int) -> None:
        meta_rows.delete(self._table, meta_rows.meta_key(PREFIX, key, int(player_id)))

    def get_team(self, default: Any = None) -> Any:
        """The data the whole team shares (a cooperative campaign's)."""
        return self._read(meta_rows.meta_key(PREFIX, TEAM), default)

    def set_team(self, value: Any, ttl: int = DEFAULT_TTL_DAYS) -> None:
        self._write(meta_rows.meta_key(PREFIX, TEAM), value, ttl, "legacy team data")

    def delete_team(self) -> None:
        meta_rows.delete(self._table, meta_rows.meta_key(PREFIX, TEAM))

    def _write(self, key: str, value: Any, ttl: int, what: str) -> None:
        expires = (self._table.context.now() + timedelta(days=int(ttl))).isoformat()
        meta_rows.to_json_text(value, what)  # refuse what is not JSON, naming it
        meta_rows.write(self._table, key, meta_rows.to_json_text(
            {"value": value, "expires": expires}, what))

    def _read(self, key: str, default: Any) -> Any:
        text = meta_rows.read(self._table, key)
        if text is None:
            return default
        stored = json.loads(text)
        if stored["expires"] <= self._table.context.now().isoformat():
            return default
        return stored["value"]
