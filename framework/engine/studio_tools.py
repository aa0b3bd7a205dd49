"""Studio tools over the runtime: a bot at any seat, a jump to a state, a whole table as data
(bug reports) and a new studio table made from it. The web's studio routes and tests call them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from framework.core.errors import GameCodeError, GameOverError, GameSystemError, NotFoundError, UserError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.replays import table_rows, write_rows
from framework.engine.runtime import Runtime
from framework.engine.slots import framework_globals
from framework.game.table import Table
from framework.game.table_context import datetime_text
from framework.platform.models import GameTableRecord, TableSeat
from framework.storage.base import TableConnection
from framework.storage.sql.translate import translate_query


class StateUnreachableError(UserError):
    """A jump to a state whose code fails on the table as it is (rolled back, logged)."""

    http_status = 409


def set_bot(runtime: Runtime, table_id: int, player_id: int, kind: str | None) -> None:
    """Give ``player_id``'s seat to a bot of ``kind`` (None: back to a person), mid-game.

    Raises:
        NotFoundError: the player is not at the table.
        GameOverError: the game has ended.
    """

    def change(table: Table) -> None:
        if table.gamestate.is_game_over():
            raise GameOverError("This game is over", "game_over")
        players = table.load_players_basic_infos()
        if player_id not in players:
            raise NotFoundError("There is no player ${player_id} at this table", "unknown_player",
                                player_id=player_id)
        table.db_query("UPDATE player SET player_ai = %s WHERE player_id = %s", (1 if kind else 0, player_id))
        if kind:
            table.set_meta(f"bot:{player_id}", kind)
            table.notify_all_players("botSeat", "${player_name} is now played by a bot (${kind})",
                                     player_id=player_id, player_name=players[player_id]["player_name"],
                                     kind=kind, bot=1)
        else:
            table.notify_all_players("botSeat", "${player_name} takes their seat back",
                                     player_id=player_id, player_name=players[player_id]["player_name"],
                                     bot=0)

    runtime.apply_change(table_id, change, "set_bot")
    with Session(runtime.platform) as s, s.begin():
        s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == player_id)
                  .values(is_bot=bool(kind)))


def jump_to_state(runtime: Runtime, table_id: int, state_id: int) -> None:
    """Studio: put the table in state ``state_id`` (its ``st_`` action runs), like BGA's
    debug ``jumpToState``.

    Raises:
        NotFoundError: the game has no such state (a private state is a player's own, not
            the table's).
    """
    gdef = runtime.game_for(runtime.table_info(table_id))
    if state_id not in gdef.states.by_id or state_id == 1 or gdef.states[state_id].is_private:
        raise NotFoundError("There is no state ${state} to go to", "unknown_state", state=state_id)

    def change(table: Table) -> None:
        table.gamestate.jump_to_state(state_id)

    label = f"jump_to_state({state_id})"
    try:
        runtime.apply_change(table_id, change, label)
    except GameSystemError as exc:  # the game's code cannot run that state from these data
        runtime.log_error(table_id, None, label, exc)
        raise StateUnreachableError(
            "The table cannot go to state ${state} from where it is (nothing changed): ${error}",
            "state_unreachable", state=state_id, error=str(exc)) from exc
    except GameCodeError as exc:
        raise StateUnreachableError(
            "The table cannot go to state ${state} from where it is (nothing changed): ${error}",
            "state_unreachable", state=state_id, error=str(exc.__cause__ or exc)) from exc
    with runtime.store.connect(runtime.table_info(table_id).id, write=False) as db:
        _, progression = framework_globals(db)
    with Session(runtime.platform) as s, s.begin():
        rec = s.get(GameTableRecord, table_id)
        if rec is not None:
            rec.progression = progression  # the lobby shows where the table went
            if state_id != 99 and rec.status == TablePhase.FINISHED:
                rec.status, rec.finished_at = TablePhase.PLAYING, None


def read_tables(db: TableConnection, with_copies: bool = False) -> dict[str, dict[str, Any]]:
    """Every table of a game table's database: ``{name: {"columns", "rows"}}``."""
    return table_rows(db, with_copies)


def snapshot(runtime: Runtime, table_id: int) -> dict[str, Any]:
    """The whole live table (every table of its database, copies left out), as JSON-able data."""
    info = runtime.table_info(table_id)
    with runtime.store.connect(info.id, write=False) as db:
        tables = read_tables(db)
    data: dict[str, Any] = json.loads(json.dumps(
        {"game": info.game, "release_version": info.release_version, "tables": tables}, default=str))
    return data


def restart_clocks(db: TableConnection, now: str, full: int) -> None:
    """A reopened table's clocks start again now, as they stood when it was saved; a clock
    already out of time gets the game's full time back (a report is read long after)."""
    rows = db.execute("SELECT player_id, player_remaining_reflexion_time, player_start_reflexion_time "
                      "FROM player").rows
    update = translate_query("UPDATE player SET player_remaining_reflexion_time = %s, "
                             "player_start_reflexion_time = %s WHERE player_id = %s", db.dialect)
    for r in rows:
        remaining = int(r["player_remaining_reflexion_time"] or 0)
        running = r["player_start_reflexion_time"] is not None
        db.execute(update, (remaining if remaining > 0 else full, now if running else None, r["player_id"]))


def restore_snapshot(runtime: Runtime, snap: Mapping[str, Any]) -> int:
    """A new studio table in exactly the state of ``snap``; returns its id."""
    tables = snap["tables"]
    players = sorted(tables["player"]["rows"], key=lambda r: int(r["player_no"]))
    names = [str(p["player_name"]) for p in players]
    options = {int(r["global_id"]): int(r["global_value"]) for r in tables["global"]["rows"]
               if 100 <= int(r["global_id"]) <= 199}
    gdef = runtime.registry.get(str(snap["game"]))
    known = set(gdef.options.options)
    table_id = runtime.create_table(gdef.name, names, {k: v for k, v in options.items() if k in known},
                                    seed="bug-report", mode=TableMode.STUDIO)
    info = runtime.table_info(table_id)
    ids = {str(p["player_name"]): int(p["player_id"]) for p in players}
    with runtime.store.connect(info.id) as db:
        new_ids = {r["player_name"]: int(r["player_id"])
                   for r in db.execute("SELECT player_id, player_name FROM player").rows}
        if new_ids != ids:
            raise UserError("The players of this report cannot be seated again", "bad_snapshot")
        write_rows(db, tables, keep=lambda name: True)
        restart_clocks(db, datetime_text(runtime.now()), gdef.info.reflexion_time_s)
        ai = {int(r["player_id"]): bool(int(r.get("player_ai") or 0)) for r in players}
        _, progression = framework_globals(db)
    with Session(runtime.platform) as s, s.begin():
        for pid, is_bot in ai.items():
            s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == pid)
                      .values(is_bot=is_bot))
        over = any(int(r["global_id"]) == 1 and int(r["global_value"]) == 99
                   for r in tables["global"]["rows"])
        rec = s.get(GameTableRecord, table_id)
        if rec is not None:
            rec.status = TablePhase.FINISHED if over else TablePhase.PLAYING
            rec.progression = progression
    runtime.changed(table_id)
    return table_id
