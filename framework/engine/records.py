"""End of a game: the ranking, and what the platform keeps of a finished table (seats'
ranks and scores, statistics)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, bindparam, delete, insert, update

from framework.core.kinds import TablePhase
from framework.engine.directory import TableDirectory
from framework.platform.models import GameTableRecord, StatRecord, TableSeat
from framework.storage.base import TableConnection


def ranking_of(db: TableConnection) -> list[dict[str, Any]]:
    """Players by score, then score_aux (the eliminated last); equal pairs share a rank."""
    rows = db.execute(
        "SELECT player_id, player_name, player_score, player_score_aux, player_eliminated "
        "FROM player ORDER BY player_no"
    ).rows
    ordered = sorted(
        rows, key=lambda r: (int(r["player_eliminated"]), -int(r["player_score"]),
                             -int(r["player_score_aux"]))
    )
    out: list[dict[str, Any]] = []
    for i, r in enumerate(ordered):
        key = (int(r["player_eliminated"]), int(r["player_score"]), int(r["player_score_aux"]))
        if out and out[-1]["_key"] == key:
            rank = out[-1]["rank"]
        else:
            rank = i + 1
        out.append({"player_id": int(r["player_id"]), "player_name": r["player_name"],
                    "score": int(r["player_score"]), "score_aux": int(r["player_score_aux"]),
                    "rank": rank, "_key": key})
    for r in out:
        del r["_key"]
    return out


class GameRecords:
    """Writes a finished table's results to the platform database."""

    def __init__(self, platform: Engine, directory: TableDirectory, now: Callable[[], datetime]) -> None:
        self.platform = platform
        self.directory = directory
        self.now = now

    def ranking(self, table_id: int) -> list[dict[str, Any]]:
        with self.directory.store.connect(table_id, write=False) as db:
            return ranking_of(db)

    def record_finish(self, table_id: int) -> None:
        """The registry row, the seats' ranks and every statistic of a finished table, in one
        platform transaction of three statements (once only: a second call changes nothing)."""
        with self.directory.open(table_id, write=False) as (info, gdef, db):
            ranking = ranking_of(db)
            stats = db.execute("SELECT stats_type, stats_player_id, stats_value FROM stats").rows
        with self.platform.begin() as conn:
            marked = conn.execute(
                update(GameTableRecord)
                .where(GameTableRecord.id == table_id, GameTableRecord.status != TablePhase.FINISHED)
                .values(status=TablePhase.FINISHED, finished_at=self.now(), progression=100,
                        state_name="gameEnd")
            )
            if marked.rowcount == 0:
                return  # no such table, or already recorded
            if ranking:
                conn.execute(
                    update(TableSeat)
                    .where(TableSeat.table_id == table_id, TableSeat.player_id == bindparam("b_player"))
                    .values(rank=bindparam("b_rank"), score=bindparam("b_score"),
                            score_aux=bindparam("b_aux")),
                    [{"b_player": r["player_id"], "b_rank": r["rank"], "b_score": r["score"],
                      "b_aux": r["score_aux"]} for r in ranking],
                )
            # A studio table finished again (a slot loaded, a state jumped to): this finish's
            # statistics replace the last one's.
            conn.execute(delete(StatRecord).where(StatRecord.table_id == table_id))
            if stats:
                recorded = self.now()
                conn.execute(insert(StatRecord), [{
                    "table_id": table_id, "game": gdef.name,
                    "scope": "table" if st["stats_player_id"] is None else "player",
                    "stat_id": int(st["stats_type"]),
                    "player_id": None if st["stats_player_id"] is None else int(st["stats_player_id"]),
                    "value": float(st["stats_value"]), "release_version": info.release_version,
                    "recorded_at": recorded,
                } for st in stats])
