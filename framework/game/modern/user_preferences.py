"""``self.user_preferences``: each player's choice for the game's preferences (BGA's
``$this->userPreferences``), read on the server side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import framework.game.modern.meta_rows as meta_rows
from framework.core.errors import GameSystemError, UserError

if TYPE_CHECKING:
    from framework.game.options import Preference
    from framework.game.table_protocol import TableProtocol

PREFIX = "pref"


class UserPreferences:
    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def _preference(self, pref_id: int) -> Preference:
        prefs = self._table.definition.options.preferences
        if pref_id not in prefs:
            known = ", ".join(str(i) for i in prefs) or "none"
            raise GameSystemError(f"game {self._table.definition.name!r} declares no preference "
                                  f"{pref_id} (its preferences: {known})")
        return prefs[pref_id]

    def get(self, player_id: int, pref_id: int) -> int:
        """``player_id``'s value of preference ``pref_id``, or its default when never chosen."""
        pref = self._preference(pref_id)
        text = meta_rows.read(self._table, meta_rows.meta_key(PREFIX, int(player_id), pref_id))
        return pref.default if text is None else int(text)

    def store(self, player_id: int, pref_id: int, value: int) -> None:
        """Record ``player_id``'s choice (the platform's side: the player changed it).

        Raises:
            UserError: the preference has no such value.
        """
        pref = self._preference(pref_id)
        if value not in pref.values:
            raise UserError("Preference ${name} has no value ${value}", "bad_preference",
                            name=pref.name, value=value)
        meta_rows.write(self._table, meta_rows.meta_key(PREFIX, int(player_id), pref_id),
                        str(int(value)))
