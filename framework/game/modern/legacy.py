"""``self.legacy``: data a player (or the team) carries from game to game of a legacy game
(BGA's ``$this->legacy``).

On BGA the platform keeps it. Arena has no platform store for it yet: the values live in
the table's own database (``arena_meta``), so they last for the table's life, follow undo
and save slots, and a new table starts without them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import framework.game.modern.meta_rows as meta_rows

if TYPE_CHECKING:
    from framework.game.table import Table

PREFIX = "legacy"
TEAM = "team"


class Legacy:
    def __init__(self, table: Table) -> None:
        self._table = table

    def get(self, key: str, player_id: int, default: Any = None) -> Any:
        text = meta_rows.read(self._table, meta_rows.meta_key(PREFIX, key, int(player_id)))
        return default if text is None else json.loads(text)

    def set(self, key: str, player_id: int, value: Any) -> None:
        """Keep ``value`` (any JSON value) for ``player_id`` under ``key``."""
        meta_rows.write(self._table, meta_rows.meta_key(PREFIX, key, int(player_id)),
                        meta_rows.to_json_text(value, f"legacy {key!r}"))

    def delete(self, key: str, player_id: int) -> None:
        meta_rows.delete(self._table, meta_rows.meta_key(PREFIX, key, int(player_id)))

    def get_team(self, key: str, default: Any = None) -> Any:
        """The value the whole team shares under ``key`` (a cooperative campaign's)."""
        text = meta_rows.read(self._table, meta_rows.meta_key(PREFIX, key, TEAM))
        return default if text is None else json.loads(text)

    def set_team(self, key: str, value: Any) -> None:
        meta_rows.write(self._table, meta_rows.meta_key(PREFIX, key, TEAM),
                        meta_rows.to_json_text(value, f"legacy {key!r}"))

    def delete_team(self, key: str) -> None:
        meta_rows.delete(self._table, meta_rows.meta_key(PREFIX, key, TEAM))
