"""Reading a table: a table instance in a read-only transaction, and ``get_data`` (BGA's
``gamedatas``: what a player's page starts from)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from framework.engine.directory import TableDirectory
from framework.game.globals import GLOBAL_MOVE, GLOBAL_PROGRESSION
from framework.game.table import ActionContext, Table
from framework.i18n import Translate, clienttranslate, format_message


def last_packet_id(table: Table) -> int:
    """The id of the table's last notification (0: none yet)."""
    known = table.context.last_packet_id
    if known is not None:
        return known
    value = table.get_unique_value_from_db("SELECT MAX(gamelog_packet_id) FROM gamelog")
    return int(value or 0)


class TableViews:
    """Read-only access to tables."""

    def __init__(self, directory: TableDirectory, now: Callable[[], datetime]) -> None:
        self.directory = directory
        self.now = now

    @contextmanager
    def read(self, table_id: int, player_id: int | None = None) -> Iterator[Table]:
        """A table instance in a read-only transaction (for views and tests)."""
        with self.directory.open(table_id, write=False) as (_, gdef, db):
            yield gdef.table_class(ActionContext(db=db, current_player_id=player_id, now=self.now))

    def get_data(
        self, table_id: int, player_id: int | None, translate: Translate | None = None
    ) -> dict[str, Any]:
        """``get_all_datas(player_id)`` plus the framework's keys (BGA's ``gamedatas``)."""
        with self.read(table_id, player_id) as table:
            return data_of(table, table_id, player_id, translate)


def data_of(
    table: Table, table_id: int, player_id: int | None, translate: Translate | None
) -> dict[str, Any]:
    """``TableViews.get_data`` of a table already open (a replay reads its start this way)."""
    players = table.db_query(
        "SELECT player_id, player_name, player_color, player_no, player_score, "
        "player_score_aux, player_zombie, player_eliminated, player_ai, "
        "player_is_multiactive FROM player ORDER BY player_no"
    ).rows
    if player_id is not None and player_id not in {int(p["player_id"]) for p in players}:
        # A signed-in spectator: get_all_datas(None), while get_current_player_id()
        # stays their id and is_spectator() is True, as on BGA.
        player_id = None
    data = table.get_all_datas(player_id)
    state = table.gamestate.state()
    args = table.state_args(state)
    private = args.pop("_private", None) or {}
    active = table.get_active_player_id()
    mine = None
    own_state: dict[str, Any] | None = None
    if player_id is not None:
        mine = private.get(str(player_id), private.get(player_id))
        if mine is None and player_id == active:
            mine = private.get("active")
        own_state = _private_state(table, player_id, translate)
    clocks = {int(p["player_id"]): round(table.get_remaining_time(int(p["player_id"])))
              for p in players}
    # What the game put under "players" (a counter's fill_result, say) stays beside
    # the framework's fields.
    given = data.get("players")
    extra: dict[Any, Any] = given if isinstance(given, dict) else {}
    data.update({
        "players": {
            str(p["player_id"]): {
                **(extra.get(int(p["player_id"])) or extra.get(str(p["player_id"])) or {}),
                "id": int(p["player_id"]), "name": p["player_name"],
                "color": p["player_color"], "no": int(p["player_no"]),
                "score": int(p["player_score"]), "score_aux": int(p["player_score_aux"]),
                "zombie": int(p["player_zombie"]), "eliminated": int(p["player_eliminated"]),
                "bot": int(p["player_ai"]), "time_left": clocks[int(p["player_id"])],
            } for p in players
        },
        "playerorder": [int(p["player_id"]) for p in players],
        "current_player_id": player_id,
        "gamestate": {
            "id": state.id, "name": state.name, "type": state.state_type.value,
            "active_player": active,
            "multiactive": table.gamestate.get_active_player_list(),
            "args": {**args, **({"_private": mine} if mine is not None else {})},
            "description": _describe(state.description, args, table, active, translate),
            "descriptionmyturn": _describe(state.description_my_turn, args, table, active, translate),
            **({"private_state": own_state} if own_state is not None else {}),
        },
        "gamestates": {str(s.id): s.to_json() for s in table.definition.states},
        "progression": int(table.get_game_state_value(GLOBAL_PROGRESSION) or 0),
        "notifications": {"last_packet_id": last_packet_id(table)},
        "move": int(table.get_game_state_value(GLOBAL_MOVE) or 0),
        "game": table.definition.name,
        "table_id": table_id,
    })
    return data


def _private_state(table: Table, player_id: int, translate: Translate | None) -> dict[str, Any] | None:
    """``player_id``'s own private state with its args (only they receive it), or None."""
    state = table.gamestate.get_private_state(player_id)
    if state is None:
        return None
    args = table.state_args(state, player_id)
    return {
        "id": state.id, "name": state.name, "type": state.state_type.value,
        "possibleactions": list(state.possible_actions), "args": args,
        "descriptionmyturn": _describe(state.description_my_turn, args, table, player_id, translate),
    }


def _describe(
    text: str, args: Mapping[str, Any], table: Table, active: int, translate: Translate | None
) -> str:
    """A state's description with its args, ``${actplayer}`` and ``${you}`` filled in."""
    if not text:
        return ""
    values = dict(args)
    if active:
        try:
            values.setdefault("actplayer", table.get_player_name_by_id(active))
        except KeyError:
            pass
    values.setdefault("you", (translate or (lambda s: s))(clienttranslate("You")))
    return format_message(text, values, translate, strict=False)
