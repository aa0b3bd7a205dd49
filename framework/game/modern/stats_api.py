"""``self.table_stats`` and ``self.player_stats``: the game's statistics by name (BGA's
``$this->tableStats`` / ``$this->playerStats``), over the classic ``init_stat`` family."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

Value = float | int | bool


def _names(names: str | Iterable[str]) -> list[str]:
    return [names] if isinstance(names, str) else list(names)


class TableStats:
    """Statistics of the whole table (scope ``table`` in ``stats.py``)."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def init(self, names: str | Iterable[str], value: Value) -> None:
        """Create one statistic or several, each at ``value``."""
        for name in _names(names):
            self._table.init_stat("table", name, value)

    def get(self, name: str) -> Value:
        return self._table.get_stat(name)

    def set(self, name: str, value: Value) -> None:
        self._table.set_stat(value, name)

    def inc(self, name: str, delta: float | int = 1) -> Value:
        """Add ``delta``; returns the new value."""
        self._table.inc_stat(delta, name)
        return self.get(name)

    def get_all(self) -> dict[str, Value]:
        """The initialised table statistics by name."""
        out: dict[str, Value] = {}
        rows = self._table.db_query(
            "SELECT stats_type, stats_value FROM stats WHERE stats_player_id IS NULL").rows
        by_id = {s.id: s for s in self._table.definition.stats.by_scope("table")}
        for row in rows:
            stat = by_id.get(int(row["stats_type"]))
            if stat is not None:
                out[stat.key] = stat.to_python(float(row["stats_value"]))
        return dict(sorted(out.items()))


class PlayerStats:
    """Statistics of each player (scope ``player`` in ``stats.py``)."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def init(self, names: str | Iterable[str], value: Value) -> None:
        """Create one statistic or several for every player, each at ``value``."""
        for name in _names(names):
            self._table.init_stat("player", name, value)

    def get(self, name: str, player_id: int) -> Value:
        return self._table.get_stat(name, player_id)

    def set(self, name: str, player_id: int, value: Value) -> None:
        self._table.set_stat(value, name, player_id)

    def inc(self, name: str, player_id: int, delta: float | int = 1) -> Value:
        """Add ``delta`` to ``player_id``'s; returns the new value."""
        self._table.inc_stat(delta, name, player_id)
        return self.get(name, player_id)

    def set_all(self, name: str, value: Value) -> None:
        for player_id in self._table.load_players_basic_infos():
            self.set(name, player_id, value)

    def inc_all(self, name: str, delta: float | int = 1) -> None:
        for player_id in self._table.load_players_basic_infos():
            self._table.inc_stat(delta, name, player_id)

    def get_all(self, name: str) -> dict[int, Value]:
        """``name`` for each player, by player id."""
        return {pid: self.get(name, pid) for pid in self._table.load_players_basic_infos()}
