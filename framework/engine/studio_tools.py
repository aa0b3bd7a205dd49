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
from framework.engine.runtime import Runtime
from framework.game.table import Table
from framework.platform.models import GameTableRecord, TableSeat
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier
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
    with Session(runtime.platform) as s, s.begin():
        rec = s.get(GameTableRecord, table_id)
        if rec is not None and state_id != 99 and rec.status == TablePhase.FINISHED:
            rec.status, rec.finished_at = TablePhase.PLAYING, None


def read_tables(db: TableConnection, with_copies: bool = False) -> dict[str, dict[str, Any]]:
    """Every table of a game table's database: ``{name: {"columns", "rows"}}``."""
    out = {}
    for name in db.table_names():
        if not with_copies and name.startswith(COPY_PREFIXES):
            continue
        columns = db.column_names(name)
        rows = db.execute(f"SELECT * FROM {quote_identifier(name, db.dialect, keep_case=True)}").rows
        out[name] = {"columns": columns, "rows": rows}
    return out


def snapshot(runtime: Runtime, table_id: int) -> dict[str, Any]:
    """The whole live table (every table of its database, copies left out), as JSON-able data."""
    info = runtime.table_info(table_id)
    with runtime.store.connect(info.id, write=False) as db:
        tables = read_tables(db)
    data: dict[str, Any] = json.loads(json.dumps(
        {"game": info.game, "release_version": info.release_version, "tables": tables}, default=str))
    return data


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
        live = set(Runtime.live_tables(db))
        for name, content in tables.items():
            if name not in live:
                continue
            columns = [c for c in content["columns"] if c in set(db.column_names(name))]
            db.execute(f"DELETE FROM {quote_identifier(name, db.dialect, keep_case=True)}")
            if not columns:
                continue
            # Written in MySQL's dialect, as all framework SQL, then translated for the backend.
            column_list = ", ".join(quote_identifier(c, "mysql") for c in columns)
            sql = translate_query(f"INSERT INTO {quote_identifier(name, 'mysql')} ({column_list})"
                                  f" VALUES ({', '.join('%s' for _ in columns)})", db.dialect)
            for row in content["rows"]:
                db.execute(sql, [row.get(c) for c in columns])
        ai = {int(r["player_id"]): bool(int(r.get("player_ai") or 0)) for r in players}
    with Session(runtime.platform) as s, s.begin():
        for pid, is_bot in ai.items():
            s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.player_id == pid)
                      .values(is_bot=is_bot))
        over = any(int(r["global_id"]) == 1 and int(r["global_value"]) == 99
                   for r in tables["global"]["rows"])
        rec = s.get(GameTableRecord, table_id)
        if rec is not None:
            rec.status = TablePhase.FINISHED if over else TablePhase.PLAYING
    runtime.changed(table_id)
    return table_id
