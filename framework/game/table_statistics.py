"""BGA's statistics helpers of ``Table`` (``initStat``, ``setStat``, ``incStat``, ``getStat``)
over the table's ``stats`` rows, declared in the game's ``stats.py``."""

from __future__ import annotations

from typing import Any

from framework.core.errors import GameSystemError
from framework.game.stats import Stat
from framework.game.table_players import TablePlayers


class TableStatistics(TablePlayers):
    """Table and player statistics, checked against their declarations."""

    def init_stat(
        self, scope: str, key: str, value: float | int | bool, player_id: int | None = None
    ) -> None:
        """Create a statistic; player scope without ``player_id`` initialises every player."""
        stat = self.definition.stats.get(scope, key)
        stored = stat.coerce(value)
        if scope == "table":
            targets: list[int | None] = [None]
        else:
            targets = [player_id] if player_id is not None else list(self.load_players_basic_infos())
        for pid in targets:
            self.db_query(
                "DELETE FROM stats WHERE stats_type = %s AND stats_player_id "
                + ("IS NULL" if pid is None else "= %s"),
                (stat.id,) if pid is None else (stat.id, pid),
            )
            self.db_query(
                "INSERT INTO stats (stats_type, stats_player_id, stats_value) VALUES (%s, %s, %s)",
                (stat.id, pid, stored),
            )

    def _stat_row(self, key: str, player_id: int | None) -> tuple[Stat, dict[str, Any]]:
        stat = self._stat(key, player_id)
        if player_id is None:
            row = self.get_object_from_db(
                "SELECT stats_id, stats_value FROM stats WHERE stats_type = %s "
                "AND stats_player_id IS NULL", (stat.id,),
            )
        else:
            row = self.get_object_from_db(
                "SELECT stats_id, stats_value FROM stats WHERE stats_type = %s "
                "AND stats_player_id = %s", (stat.id, player_id),
            )
        if row is None:
            who = "" if player_id is None else f" for player {player_id}"
            raise GameSystemError(f"statistic {key!r}{who} was never initialised (init_stat)")
        return stat, row

    def _stat(self, key: str, player_id: int | None) -> Stat:
        return self.definition.stats.get("table" if player_id is None else "player", key)

    def _update_stat(self, stat: Stat, player_id: int | None, assignment: str, value: float) -> None:
        """One UPDATE of the statistic's row (no read first: this runs on every move)."""
        if player_id is None:
            matched = self.update_matched_rows(
                f"UPDATE stats SET stats_value = {assignment} WHERE stats_type = %s "
                "AND stats_player_id IS NULL", (value, stat.id),
            )
        else:
            matched = self.update_matched_rows(
                f"UPDATE stats SET stats_value = {assignment} WHERE stats_type = %s "
                "AND stats_player_id = %s", (value, stat.id, player_id),
            )
        if matched == 0:
            who = "" if player_id is None else f" for player {player_id}"
            raise GameSystemError(f"statistic {stat.key!r}{who} was never initialised (init_stat)")

    def set_stat(self, value: float | int | bool, key: str, player_id: int | None = None) -> None:
        stat = self._stat(key, player_id)
        self._update_stat(stat, player_id, "%s", stat.coerce(value))

    def inc_stat(self, delta: float | int, key: str, player_id: int | None = None) -> None:
        stat = self._stat(key, player_id)
        if stat.type == "bool":
            raise GameSystemError(f"statistic {key!r} is a bool: use set_stat")
        self._update_stat(stat, player_id, "stats_value + %s", stat.coerce(delta))

    def get_stat(self, key: str, player_id: int | None = None) -> float | int | bool:
        stat, row = self._stat_row(key, player_id)
        value: float | int | bool = stat.to_python(float(row["stats_value"]))
        return value
