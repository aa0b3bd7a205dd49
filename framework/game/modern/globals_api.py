"""``self.globals``: any JSON value by name, kept in the table's database (BGA's
``$this->globals``; the classic integer globals are ``get_game_state_value``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import framework.game.modern.meta_rows as meta_rows
from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

PREFIX = "global"


class Globals:
    """Named JSON values of one table; undo and save slots restore them with the table."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def get(self, name: str, default: Any = None) -> Any:
        text = meta_rows.read(self._table, meta_rows.meta_key(PREFIX, name))
        return default if text is None else json.loads(text)

    def set(self, name: str, value: Any) -> Any:
        """Store ``value`` (any JSON value) under ``name``; returns it."""
        key = meta_rows.meta_key(PREFIX, name)
        meta_rows.write(self._table, key, meta_rows.to_json_text(value, f"global {name!r}"))
        return value

    def inc(self, name: str, delta: int | float = 1) -> int | float:
        """Add ``delta`` to a number (0 when unset); returns the new value.

        Raises:
            GameSystemError: the value is not a number.
        """
        current = self.get(name, 0)
        for what, number in (("value", current), ("increment", delta)):
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise GameSystemError(f"global {name!r}: inc needs numbers; the {what} is "
                                      f"{number!r}")
        new: int | float = current + delta
        self.set(name, new)
        return new

    def has(self, name: str) -> bool:
        return meta_rows.read(self._table, meta_rows.meta_key(PREFIX, name)) is not None

    def delete(self, *names: str) -> None:
        for name in names:
            meta_rows.delete(self._table, meta_rows.meta_key(PREFIX, name))

    def get_all(self, *names: str) -> dict[str, Any]:
        """Every global (or only ``names``, those set) by name."""
        found = {k: json.loads(v) for k, v in meta_rows.listed(self._table, PREFIX).items()}
        if names:
            return {n: found[n] for n in names if n in found}
        return dict(sorted(found.items()))
