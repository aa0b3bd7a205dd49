"""Players' clocks of ``Table`` (BGA's reflexion time and ``giveExtraTime``), and the status
the event streams send after each batch (progression, scores, time left)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from framework.core.clock import to_datetime
from framework.game.globals import GLOBAL_PROGRESSION
from framework.game.table_context import datetime_text
from framework.game.table_statistics import TableStatistics
from framework.storage.base import TableConnection
from framework.storage.sql.translate import translate_query


def remaining_seconds(row: Mapping[str, Any], now: datetime) -> float:
    """Seconds left on a ``player`` row's clock at ``now`` (negative when out of time)."""
    return seconds_left(row["player_remaining_reflexion_time"], row["player_start_reflexion_time"], now)


def seconds_left(remaining: Any, start: Any, now: datetime) -> float:
    """Seconds left on a clock holding ``remaining`` seconds, running since ``start`` (as
    stored; None: stopped) at ``now``."""
    left = float(remaining or 0)
    started = to_datetime(start)
    if started is not None:
        left -= (now - started).total_seconds()
    return left


class TableClocks(TableStatistics):
    """Each player's clock: running while they are active, stopped otherwise."""

    def give_extra_time(self, player_id: int, seconds: int | None = None) -> None:
        """Add the game's extra time (or ``seconds``) to a player's clock."""
        extra = self.definition.info.extra_time_s if seconds is None else seconds
        self.db_query(
            "UPDATE player SET player_remaining_reflexion_time = "
            "COALESCE(player_remaining_reflexion_time, 0) + %s WHERE player_id = %s",
            (int(extra), player_id),
        )

    def get_remaining_time(self, player_id: int) -> float:
        """Seconds left on ``player_id``'s clock now (negative when out of time)."""
        row = self.get_non_empty_object_from_db(
            "SELECT player_remaining_reflexion_time, player_start_reflexion_time FROM player "
            "WHERE player_id = %s", (player_id,),
        )
        return remaining_seconds(row, self._ctx.now())

    @staticmethod
    def _remaining(row: Mapping[str, Any], now: datetime) -> float:
        return remaining_seconds(row, now)

    def stream_status(self) -> dict[str, Any]:
        """What the event stream adds after each batch: progression, and each player's score,
        score_aux and seconds left on the clock: from the rows this request holds, else in
        one statement."""
        scores = self._scores
        if self._players is None or scores is None or self._globals is None or self._pending_globals:
            return table_status(self._db, self._ctx.now())
        now = self._ctx.now()
        return {
            "progression": int(self._globals.get(GLOBAL_PROGRESSION) or 0),
            "scores": {
                str(pid): {
                    "score": scores[pid][0], "score_aux": scores[pid][1],
                    "time_left": round(seconds_left(remaining, start, now)),
                } for pid, (remaining, start) in self._clocks.items()
            },
        }

    def update_clocks(self) -> None:
        """Run the clocks of active players, stop the others' (after every request), in one
        statement."""
        active = set(self.gamestate.get_active_player_list())
        if self._ctx.active_at_start is not None and active == self._ctx.active_at_start:
            return  # the same clocks keep running
        now = self._ctx.now()
        self._player_rows()  # the clocks come with the players' rows
        changes: dict[int, tuple[Any, Any]] = {}
        for pid, (remaining, start) in self._clocks.items():
            started = to_datetime(start)
            if pid in active and started is None:
                changes[pid] = (remaining, datetime_text(now))
            elif pid not in active and started is not None:
                used = (now - started).total_seconds()
                changes[pid] = (int(round(float(remaining or 0) - used)), None)
        if not changes:
            return
        params: list[Any] = []
        for pid, (remaining, _) in changes.items():
            params += (pid, remaining)
        for pid, (_, start) in changes.items():
            params += (pid, start)
        params += changes
        self._db.execute(translate_query(_clock_sql(len(changes)), self._db.dialect), params)
        self._clocks.update(changes)


@functools.lru_cache(maxsize=16)
def _clock_sql(players: int) -> str:
    """The UPDATE that sets ``players`` players' clocks (remaining time, then start)."""
    cases = " ".join(["WHEN %s THEN %s"] * players)
    marks = ", ".join(["%s"] * players)
    return (f"UPDATE player SET player_remaining_reflexion_time = CASE player_id {cases} "
            "ELSE player_remaining_reflexion_time END, "
            f"player_start_reflexion_time = CASE player_id {cases} "
            f"ELSE player_start_reflexion_time END WHERE player_id IN ({marks})")


_STATUS_SQL = (
    "SELECT player_id, player_score, player_score_aux, player_remaining_reflexion_time, "
    "player_start_reflexion_time, (SELECT global_value FROM global WHERE global_id = %s) "
    "AS progression FROM player"
)


def table_status(db: TableConnection, now: datetime) -> dict[str, Any]:
    """A table's status as event streams send it (``Table.stream_status``), read with ``db``."""
    rows = db.execute(translate_query(_STATUS_SQL, db.dialect), (GLOBAL_PROGRESSION,)).rows
    return {
        "progression": int(rows[0]["progression"] or 0) if rows else 0,
        "scores": {
            str(r["player_id"]): {
                "score": int(r["player_score"]), "score_aux": int(r["player_score_aux"]),
                "time_left": round(remaining_seconds(r, now)),
            } for r in rows
        },
    }
