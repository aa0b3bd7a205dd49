"""End of a game: the ranking, and what the platform keeps of a finished table (seats'
ranks and scores, statistics, and the players' ratings when it is a production table)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, update

from framework.core.kinds import TableMode, TablePhase
from framework.engine.directory import TableDirectory
from framework.game.table import ActionContext
from framework.platform.models import GameTableRecord, Rating, RatingChange, StatRecord, TableSeat
from framework.platform.ratings import START_RATING, Standing, rating_changes
from framework.storage.base import TableConnection

log = logging.getLogger(__name__)


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
        """The registry row, the seats' ranks, every statistic of a finished table and, for
        a production table, its players' ratings, in one platform transaction (once only: a
        second call changes nothing)."""
        with self.directory.open(table_id, write=False) as (info, gdef, db):
            ranking = ranking_of(db)
            stats = db.execute("SELECT stats_type, stats_player_id, stats_value FROM stats").rows
            sides: dict[int, int] = {}
            left: set[int] = set()
            if info.mode == TableMode.PRODUCTION:
                table = gdef.table_class(ActionContext(db=db, now=self.now))
                left = {pid for pid, p in table.load_players_basic_infos().items() if p["player_zombie"]}
                try:
                    sides = {pid: no for no, team in enumerate(table.rating_teams()) for pid in team}
                except Exception:  # the game's hook: its failure must not lose the table's end
                    log.exception("%s: rating_teams failed at table %s; rated without teams",
                                  gdef.name, table_id)
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
            if info.mode == TableMode.PRODUCTION:
                self._rate(conn, table_id, gdef.name, ranking, sides, left)

    def _rate(self, conn: Connection, table_id: int, game: str, ranking: list[dict[str, Any]],
              sides: dict[int, int], left: set[int]) -> None:
        """Move the players' ratings in ``game`` by the table's result (``docs/ratings.md``):
        not for a simulated table, a table with a bot seat, or a table rated already."""
        simulated = conn.scalar(select(GameTableRecord.simulated).where(GameTableRecord.id == table_id))
        bots = conn.scalar(select(TableSeat.player_id).where(TableSeat.table_id == table_id,
                                                            TableSeat.is_bot.is_(True)).limit(1))
        rated = conn.scalar(select(RatingChange.player_id).where(RatingChange.table_id == table_id).limit(1))
        if simulated or bots is not None or rated is not None or len(ranking) < 2:
            return
        ids = [r["player_id"] for r in ranking]
        current = {r.player_id: r for r in conn.execute(
            select(Rating.player_id, Rating.rating, Rating.games)
            .where(Rating.game == game, Rating.player_id.in_(ids)).with_for_update()
        )}
        lone = max(sides.values(), default=-1) + 1  # a player no team names: a side of their own
        standings = []
        for r in ranking:
            pid = r["player_id"]
            side = sides.get(pid)
            if side is None:
                side, lone = lone, lone + 1
            found = current.get(pid)
            standings.append(Standing(
                pid, side, r["rank"], found.rating if found else START_RATING,
                found.games if found else 0, pid in left))
        now = self.now()
        changes = rating_changes(standings)
        for st in standings:
            after = st.rating + changes.get(st.player_id, 0.0)
            if st.player_id in current:
                conn.execute(update(Rating).where(Rating.game == game, Rating.player_id == st.player_id)
                             .values(rating=after, games=Rating.games + 1, updated_at=now))
            else:
                conn.execute(insert(Rating).values(player_id=st.player_id, game=game, rating=after,
                                                   games=1, updated_at=now))
            conn.execute(insert(RatingChange).values(table_id=table_id, player_id=st.player_id, game=game,
                                                     before=st.rating, after=after, recorded_at=now))
