"""The end-of-game panel's data: a finished table's ranking and statistics, with the names the
game declared (``stats.py``) translated for the reader, as BGA shows them at the end."""

from __future__ import annotations

from typing import Any

from framework.core.errors import UserError
from framework.engine.records import ranking_of
from framework.game.table import Table
from framework.i18n import Translate


class GameNotOverError(UserError):
    """The statistics are shown once the game is over (during play they could guide a player)."""

    http_status = 409


def _shown(value: float | int | bool) -> float | int | bool:
    return round(value, 2) if isinstance(value, float) else value


def final_statistics(table: Table, translate: Translate) -> dict[str, Any]:
    """``{"ranking", "table", "players"}``: the ranking (``ranking_of``), the table's
    statistics (``[{"key", "name", "type", "value"}]``) and the players' (``[{"key", "name",
    "type", "values": {player id: value}}]``), in the game's declared order. A statistic the
    table never set is left out; one the game no longer declares too.

    Raises:
        GameNotOverError: the game is still in play.
    """
    if not table.gamestate.is_game_over():
        raise GameNotOverError("The statistics are shown at the end of the game", "game_not_over")
    stored: dict[tuple[int, int | None], float] = {}
    for row in table.db_query("SELECT stats_type, stats_player_id, stats_value FROM stats").rows:
        pid = None if row["stats_player_id"] is None else int(row["stats_player_id"])
        stored[(int(row["stats_type"]), pid)] = float(row["stats_value"])
    ranking = ranking_of(table.context.db)
    catalog = table.definition.stats
    table_stats = [
        {"key": st.key, "name": translate(st.name), "type": st.type,
         "value": _shown(st.to_python(stored[(st.id, None)]))}
        for st in catalog.by_scope("table") if (st.id, None) in stored
    ]
    player_stats = []
    for st in catalog.by_scope("player"):
        values = {str(r["player_id"]): _shown(st.to_python(stored[(st.id, r["player_id"])]))
                  for r in ranking if (st.id, r["player_id"]) in stored}
        if values:
            player_stats.append({"key": st.key, "name": translate(st.name), "type": st.type,
                                 "values": values})
    return {"ranking": ranking, "table": table_stats, "players": player_stats}
