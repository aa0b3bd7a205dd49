"""``self.gamestate``: where a table is in its state machine, and who is active (BGA's
``$this->gamestate``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from framework.core.errors import GameSystemError
from framework.game.globals import GLOBAL_ACTIVE_PLAYER, GLOBAL_STATE
from framework.game.states import END_STATE_ID, State, StateMachine, StateType

if TYPE_CHECKING:
    from framework.game.table import Table


class GameStateMachine:
    """``self.gamestate``: where the table is in its state machine, and who is active."""

    def __init__(self, table: Table) -> None:
        self._table = table

    @property
    def _states(self) -> StateMachine:
        return self._table.definition.states

    def state_id(self) -> int:
        return int(self._table._read_global(GLOBAL_STATE) or 1)

    def state(self) -> State:
        state: State = self._states.by_id[self.state_id()]
        return state

    def is_game_over(self) -> bool:
        return self.state_id() == END_STATE_ID

    def next_state(self, transition: str = "") -> None:
        """Follow ``transition`` of the current state (``""`` is the default one).

        Raises:
            GameSystemError: the current state has no such transition.
        """
        state = self.state()
        if transition not in state.transitions:
            if transition == "" and len(state.transitions) == 1:
                target = next(iter(state.transitions.values()))
            else:
                known = ", ".join(repr(t) for t in state.transitions) or "none"
                raise GameSystemError(
                    f"state {state.name!r} has no transition {transition!r} (it has {known})"
                )
        else:
            target = state.transitions[transition]
        self._enter(target)

    def jump_to_state(self, state_id: int) -> None:
        if state_id not in self._states.by_id:
            raise GameSystemError(f"jump_to_state: no state {state_id}")
        self._enter(state_id)

    def _enter(self, state_id: int) -> None:
        table = self._table
        table._write_global(GLOBAL_STATE, state_id)
        state = self._states[state_id]
        table._ctx.entered_states.append(state_id)
        if state.state_type is StateType.MULTIPLE_ACTIVE_PLAYER:
            # Entering a multiactive state starts with nobody active, as on BGA: the
            # state action (st_*) chooses who acts.
            table.db_query("UPDATE player SET player_is_multiactive = 0")

    def change_active_player(self, player_id: int) -> None:
        self._table._write_global(GLOBAL_ACTIVE_PLAYER, int(player_id))

    def get_active_player_list(self) -> list[int]:
        state = self.state()
        if state.state_type is StateType.ACTIVE_PLAYER:
            active = self._table.get_active_player_id()
            return [active] if active else []
        if state.state_type is StateType.MULTIPLE_ACTIVE_PLAYER:
            return [pid for pid, p in self._table._player_rows().items() if p["player_is_multiactive"]]
        return []

    def set_all_players_multiactive(self) -> None:
        self._table.db_query(
            "UPDATE player SET player_is_multiactive = 1 WHERE player_eliminated = 0 "
            "AND player_zombie = 0"
        )
        self._notify_multiactive()

    def set_players_multiactive(
        self, player_ids: Iterable[int], next_state: str, exclusive: bool = False
    ) -> bool:
        """Make ``player_ids`` active (``exclusive``: only them). If nobody is active
        afterwards, follow ``next_state`` and return True."""
        ids = [int(p) for p in player_ids]
        if exclusive:
            self._table.db_query("UPDATE player SET player_is_multiactive = 0")
        for pid in ids:
            self._table.db_query(
                "UPDATE player SET player_is_multiactive = 1 WHERE player_id = %s "
                "AND player_eliminated = 0 AND player_zombie = 0", (pid,),
            )
        self._notify_multiactive()
        return self.update_multiactive_or_next_state(next_state)

    def set_player_non_multiactive(self, player_id: int, next_state: str) -> bool:
        """``player_id`` is done; when the last one is done, follow ``next_state`` (True)."""
        self._table.db_query(
            "UPDATE player SET player_is_multiactive = 0 WHERE player_id = %s", (int(player_id),)
        )
        self._notify_multiactive()
        return self.update_multiactive_or_next_state(next_state)

    def set_all_players_non_multiactive(self, next_state: str) -> bool:
        self._table.db_query("UPDATE player SET player_is_multiactive = 0")
        return self.update_multiactive_or_next_state(next_state)

    def update_multiactive_or_next_state(self, next_state: str) -> bool:
        if not self.get_active_player_list():
            self.next_state(next_state)
            return True
        return False

    def _notify_multiactive(self) -> None:
        self._table.notify_all_players(
            "gameStateMultipleActiveUpdate", "", active=self.get_active_player_list()
        )
