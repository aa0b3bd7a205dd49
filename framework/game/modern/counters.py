"""``PlayerCounter`` and ``TableCounter``: named integers kept in the table's database, with
bounds, that tell clients each change (BGA's counters and ``$this->counterFactory``)."""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import TYPE_CHECKING, Any

import framework.game.modern.meta_rows as meta_rows
from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

PLAYER_PREFIX = "pcounter"
TABLE_PREFIX = "tcounter"


class _Counter:
    kind = "counter"

    def __init__(self, table: TableProtocol, name: str, min: int | None = 0,  # noqa: A002 - BGA's name
                 max: int | None = None, default_value: int = 0) -> None:  # noqa: A002
        if not isinstance(name, str) or not name.isidentifier():
            raise GameSystemError(f"{self.kind} name {name!r} is not an identifier")
        if min is not None and max is not None and min > max:
            raise GameSystemError(f"{self.kind} {name!r}: min {min} is above max {max}")
        self._table = table
        self.name = name
        self._min = min
        self._max = max
        self.default_value = default_value
        self._check(default_value, "default_value")

    def get_min(self) -> int | None:
        return self._min

    def get_max(self) -> int | None:
        return self._max

    def _where(self, fieldname: str) -> str:
        return (f"game {self._table.definition.name!r}, {self.kind} {self.name!r}, "
                f"field {fieldname!r}")

    def _check(self, value: Any, fieldname: str = "value") -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameSystemError(f"{self._where(fieldname)}: counters hold whole numbers, "
                                  f"not {value!r}")
        if (self._min is not None and value < self._min) or (
                self._max is not None and value > self._max):
            bounds = f"{self._min if self._min is not None else '-inf'}.." \
                     f"{self._max if self._max is not None else 'inf'}"
            raise GameSystemError(f"{self._where(fieldname)}: {value} is out of range {bounds} "
                                  "(OutOfRangeCounterException)")
        return value

    def _not_initialised(self) -> GameSystemError:
        return GameSystemError(f"{self._where('init_db')}: used before init_db (call "
                               "init_db in setup_new_game, or in upgrade_table_db for tables "
                               "already in play)")


class PlayerCounter(_Counter):
    """One integer per player (money, actions left...)."""

    kind = "PlayerCounter"

    def _key(self, player_id: int) -> str:
        return meta_rows.meta_key(PLAYER_PREFIX, self.name, int(player_id))

    def init_db(self, player_ids: Iterable[int], initial_value: int | None = None) -> None:
        """Create the counter for ``player_ids`` (0 may stand for an automaton)."""
        value = self._check(self.default_value if initial_value is None else initial_value,
                            "initial_value")
        for player_id in player_ids:
            meta_rows.write(self._table, self._key(player_id), str(value))

    def get_all(self) -> dict[int, int]:
        prefix = meta_rows.meta_key(PLAYER_PREFIX, self.name)
        rows = meta_rows.listed(self._table, prefix)
        if not rows:
            raise self._not_initialised()
        return {int(pid): int(v) for pid, v in sorted(rows.items(), key=lambda kv: int(kv[0]))}

    def get(self, player_id: int) -> int:
        """Raises:
            GameSystemError: before ``init_db``, or for a player ``init_db`` was not given.
        """
        text = meta_rows.read(self._table, self._key(player_id))
        if text is None:
            self.get_all()  # raises when the counter was never initialised
            raise GameSystemError(f"{self._where('player_id')}: player {player_id} has no "
                                  "value (not in init_db's players; UnknownPlayerException)")
        return int(text)

    def set(self, player_id: int, value: int, message: str | None = "",
            **args: Any) -> int:
        """Set ``player_id``'s value and tell clients (``setPlayerCounter``; ``message`` is
        its log, None for no notification). Returns the new value."""
        old = self.get(player_id)
        self._write(player_id, self._check(value))
        self._tell(player_id, value, old, message, args)
        return value

    def inc(self, player_id: int, delta: int, message: str | None = "", **args: Any) -> int:
        """Add ``delta`` (no notification when it is 0); returns the new value."""
        old = self.get(player_id)
        new = self._check(old + self._check_delta(delta))
        if delta:
            self._write(player_id, new)
            self._tell(player_id, new, old, message, args)
        return new

    def set_all(self, value: int, message: str | None = "", **args: Any) -> None:
        for player_id in self.get_all():
            self.set(player_id, value, message, **args)

    def fill_result(self, result: MutableMapping[str, Any], field_name: str | None = None) -> None:
        """Put each player's value in ``result["players"][player_id][field_name or name]``
        (what ``get_all_datas`` returns)."""
        players = result.setdefault("players", {})
        for player_id, value in self.get_all().items():
            players.setdefault(player_id, {})[field_name or self.name] = value

    def _check_delta(self, delta: Any) -> int:
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise GameSystemError(f"{self._where('inc')}: the increment must be a whole number, "
                                  f"not {delta!r}")
        return delta

    def _write(self, player_id: int, value: int) -> None:
        meta_rows.write(self._table, self._key(player_id), str(value))

    def _tell(self, player_id: int, value: int, old: int, message: str | None,
              args: dict[str, Any]) -> None:
        if message is None:
            return
        names = self._table.load_players_basic_infos()
        self._table.notify.all("setPlayerCounter", message, {
            "name": self.name, "player_id": int(player_id),
            "player_name": names[player_id]["player_name"] if player_id in names else "",
            "value": value, "old_value": old, "inc": value - old, "abs_inc": abs(value - old),
            **args,
        })


class ScoreCounter(PlayerCounter):
    """``player_score`` / ``player_score_aux`` as a counter (BGA's ``playerScore`` and
    ``playerScoreAux``): no bounds, kept in the ``player`` table, nothing to initialise."""

    def __init__(self, table: TableProtocol, name: str, column: str) -> None:
        super().__init__(table, name, min=None, max=None)
        self._column = column

    def init_db(self, player_ids: Iterable[int], initial_value: int | None = None) -> None:
        for player_id in player_ids:
            self._write(player_id, self._check(initial_value or 0, "initial_value"))

    def get_all(self) -> dict[int, int]:
        rows = self._table.db_query(f"SELECT player_id, {self._column} FROM player "
                                    "ORDER BY player_id").rows
        return {int(r["player_id"]): int(r[self._column]) for r in rows}

    def get(self, player_id: int) -> int:
        values = self.get_all()
        if player_id not in values:
            raise GameSystemError(f"{self._where('player_id')}: no player {player_id} at this "
                                  "table (UnknownPlayerException)")
        return values[player_id]

    def _write(self, player_id: int, value: int) -> None:
        self._table.db_query(f"UPDATE player SET {self._column} = %s WHERE player_id = %s",
                             (value, int(player_id)))


class TableCounter(_Counter):
    """One integer for the table (the round, the cards left...)."""

    kind = "TableCounter"

    def _key(self) -> str:
        return meta_rows.meta_key(TABLE_PREFIX, self.name)

    def init_db(self, initial_value: int | None = None) -> None:
        value = self._check(self.default_value if initial_value is None else initial_value,
                            "initial_value")
        meta_rows.write(self._table, self._key(), str(value))

    def get(self) -> int:
        """Raises:
            GameSystemError: before ``init_db``.
        """
        text = meta_rows.read(self._table, self._key())
        if text is None:
            raise self._not_initialised()
        return int(text)

    def set(self, value: int, message: str | None = "", **args: Any) -> int:
        old = self.get()
        meta_rows.write(self._table, self._key(), str(self._check(value)))
        self._tell(value, old, message, args)
        return value

    def inc(self, delta: int, message: str | None = "", **args: Any) -> int:
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise GameSystemError(f"{self._where('inc')}: the increment must be a whole number, "
                                  f"not {delta!r}")
        old = self.get()
        new = self._check(old + delta)
        if delta:
            meta_rows.write(self._table, self._key(), str(new))
            self._tell(new, old, message, args)
        return new

    def fill_result(self, result: MutableMapping[str, Any], field_name: str | None = None) -> None:
        """Put the value in ``result[field_name or name]``."""
        result[field_name or self.name] = self.get()

    def _tell(self, value: int, old: int, message: str | None, args: dict[str, Any]) -> None:
        if message is None:
            return
        self._table.notify.all("setTableCounter", message, {
            "name": self.name, "value": value, "old_value": old, "inc": value - old,
            "abs_inc": abs(value - old), **args,
        })


class CounterFactory:
    """``self.counter_factory``: makes the counters a game keeps as attributes."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def create_player_counter(self, name: str, min: int | None = 0,  # noqa: A002 - BGA's name
                              max: int | None = None, default_value: int = 0) -> PlayerCounter:  # noqa: A002
        return PlayerCounter(self._table, name, min, max, default_value)

    def create_table_counter(self, name: str, min: int | None = 0,  # noqa: A002 - BGA's name
                             max: int | None = None, default_value: int = 0) -> TableCounter:  # noqa: A002
        return TableCounter(self._table, name, min, max, default_value)
