"""The state driver: after a move, run the game states entered, play bots' and zombies'
turns while one of them is active, then progression, clocks and undo."""

from __future__ import annotations

from framework.core.errors import GameSystemError
from framework.engine.copies import copy_tables
from framework.game.globals import GLOBAL_MOVE, GLOBAL_PROGRESSION, acted_global
from framework.game.registry import GameDefinition
from framework.game.states import END_STATE_ID, State, StateType
from framework.game.table import Table
from framework.storage.base import SAVEPOINT_PREFIX

MAX_STATE_STEPS = 10_000


class StateDriver:
    """Moves a table on until a person must act (``settle``)."""

    def __init__(self) -> None:
        self.automatic_turns = 0  # bot and zombie turns played, for simulations

    @staticmethod
    def begin_move(table: Table) -> None:
        """A new move: the move counter (global 3) goes up."""
        table.inc_game_state_value(GLOBAL_MOVE)

    def settle(self, table: Table, gdef: GameDefinition) -> None:
        """Run entered states' actions and ``game`` states until a player must act, play
        zombies' and bots' turns, then bookkeeping (clocks, progression, undo).

        Raises:
            GameSystemError: states loop forever, a ``game`` state does not transition, or
                a bot or zombie turn does not move the game on.
        """
        ctx = table.context
        steps = 0
        while True:
            self._run_entered_states(table, gdef)
            state = table.gamestate.state()
            if state.id == END_STATE_ID or not state.is_player_state:
                break
            turn = self._automatic_player(table)
            if turn is None:
                break
            pid, kind = turn
            steps += 1
            self.automatic_turns += 1
            if steps > MAX_STATE_STEPS:
                raise GameSystemError(f"zombie/bot turns never end in state {state.name!r}")
            own = table.gamestate.get_current_state(pid)  # their private state, if any
            saved = ctx.current_player_id
            ctx.current_player_id = None
            try:
                if kind == "bot" and hasattr(table, "bot_turn"):
                    table.bot_turn(own, pid)
                else:
                    table.zombie_turn(own, pid)
            finally:
                ctx.current_player_id = saved
            if not ctx.entered_states and table.gamestate.state().id == state.id and (
                pid in table.gamestate.get_active_player_list()
                and (state.state_type is StateType.ACTIVE_PLAYER
                     or (own.is_private and table.gamestate.get_current_state(pid).id == own.id))
            ):
                raise GameSystemError(
                    f"{kind} turn of player {pid} in state {own.name!r} did not move the game on"
                )
        state = table.gamestate.state()
        if state.update_game_progression or state.id == END_STATE_ID:
            progression = 100 if state.id == END_STATE_ID else int(table.get_game_progression())
            table.set_game_state_value(GLOBAL_PROGRESSION, max(0, min(100, progression)))
        table.update_clocks()
        if ctx.restore_requested or ctx.savepoint_requested:
            table.flush_writes()  # the undo copies below read and write the global rows
        if ctx.restore_requested:
            # The move counter and the moves each player acted from go on from where they
            # are (the undo is a move too): they are what makes each view act once.
            move = int(table.get_game_state_value(GLOBAL_MOVE) or 0)
            seats = [acted_global(p["player_no"]) for p in table.load_players_basic_infos().values()]
            acted = {gid: table.get_game_state_value(gid) for gid in seats}
            recorded = table.db_query(  # as a table played before these globals recorded it
                "SELECT meta_key, meta_value FROM arena_meta WHERE meta_key LIKE %s", ("acted:%",)).rows
            copy_tables(ctx.db, SAVEPOINT_PREFIX, to_copy=False, skip=("gamelog",))
            table.forget_cached_rows()  # the restored rows, not the cached ones
            table.set_game_state_value(GLOBAL_MOVE, move)
            for gid, value in acted.items():
                if value is not None:
                    table.set_game_state_value(gid, value)
            for row in recorded:
                table.set_meta(str(row["meta_key"]), str(row["meta_value"]))
            ctx.restore_requested = False
            table.notify_all_players("undoRestore", "")
        if ctx.savepoint_requested:
            copy_tables(ctx.db, SAVEPOINT_PREFIX, to_copy=True, skip=("gamelog",))
            ctx.savepoint_requested = False

    @staticmethod
    def _automatic_player(table: Table) -> tuple[int, str] | None:
        """An active zombie (first), else an active bot, with its kind; None: a person."""
        active = table.gamestate.get_active_player_list()
        if not active:
            return None
        flags = table.load_players_basic_infos()
        for pid in active:
            if int(flags[pid]["player_zombie"]):
                return pid, "zombie"
        for pid in active:
            if int(flags[pid]["player_ai"]):
                return pid, "bot"
        return None

    def _run_entered_states(self, table: Table, gdef: GameDefinition) -> None:
        ctx = table.context
        steps = 0
        while ctx.entered_states:
            steps += 1
            if steps > MAX_STATE_STEPS:
                raise GameSystemError("game states loop without ever waiting for a player")
            sid = ctx.entered_states.pop(0)
            state = gdef.states[sid]
            if ctx.entered_states:
                continue  # a later transition in the same step supersedes this one
            if sid == END_STATE_ID:
                self._notify_state(table, state)
                self._finish(table)
                return
            if state.action:
                getattr(table, state.action)()
            if ctx.entered_states:
                if state.is_player_state:
                    self._notify_state(table, state)
                continue
            if state.state_type is StateType.GAME:
                raise GameSystemError(
                    f"game state {state.name!r}: {state.action} did not call next_state/jump_to_state"
                )
            self._notify_state(table, state)

    @staticmethod
    def _notify_state(table: Table, state: State) -> None:
        args = table.state_args(state)
        private = args.pop("_private", None) if isinstance(args, dict) else None
        table.notify_all_players("gameStateChange", "", {
            "id": state.id, "name": state.name, "type": state.state_type.value,
            "active_player": table.get_active_player_id(),
            "multiactive": table.gamestate.get_active_player_list()
            if state.state_type is StateType.MULTIPLE_ACTIVE_PLAYER else [],
            "args": args,
        })
        if private:
            for key, data in private.items():
                pid = table.get_active_player_id() if key == "active" else int(key)
                table.notify_player(
                    pid, "gameStateChangePrivateArg", "", {"state_id": state.id, "args": data}
                )

    @staticmethod
    def _finish(table: Table) -> None:
        table.set_game_state_value(GLOBAL_PROGRESSION, 100)
        table.db_query("UPDATE player SET player_is_multiactive = 0")
