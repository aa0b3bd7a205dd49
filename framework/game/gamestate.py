"""``self.gamestate``: where a table is in its state machine, who is active, and each
player's private state inside a multiactive state (BGA's ``$this->gamestate``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from framework.core.errors import GameSystemError, UserError
from framework.game.globals import GLOBAL_ACTIVE_PLAYER, GLOBAL_STATE
from framework.game.states import END_STATE_ID, State, StateMachine, StateType

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

#: ``arena_meta`` key of a player's private state: ``private_state:<player id>`` -> state id.
PRIVATE_STATE_META = "private_state:"


class GameStateMachine:
    """``self.gamestate``: the table's main state, who is active, and private states."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    @property
    def _states(self) -> StateMachine:
        return self._table.definition.states

    def _fail(self, message: str) -> GameSystemError:
        return GameSystemError(f"game {self._table.definition.name!r}: {message}")

    # ----------------------------------------------------------------- the main state
    def state_id(self) -> int:
        """The main state's id (BGA's ``state_id``; ``get_current_main_state_id``)."""
        return int(self._table._read_global(GLOBAL_STATE) or 1)

    def state(self) -> State:
        """The main state, private states aside (BGA's ``state()``)."""
        state: State = self._states.by_id[self.state_id()]
        return state

    def get_current_main_state(self) -> State:
        """The main state, private states aside."""
        return self.state()

    def get_current_main_state_id(self) -> int:
        return self.state_id()

    def get_current_state(self, player_id: int | None) -> State:
        """The state ``player_id`` is in: their private state when they are in one, else the
        main state (None: a spectator or the game itself)."""
        private = self.get_private_state(player_id) if player_id is not None else None
        return private if private is not None else self.state()

    def get_current_state_id(self, player_id: int | None) -> int:
        return self.get_current_state(player_id).id

    def reload_state(self) -> State:
        """The main state read again from the database (after SQL changed ``global`` rows
        behind the table's cache)."""
        self._table.forget_cached_rows()
        return self.state()

    def get_states_as_array(self) -> dict[int, dict[str, Any]]:
        """Every state as BGA's client knows it (id -> ``State.to_json``)."""
        return {s.id: s.to_json() for s in self._states}

    def is_game_over(self) -> bool:
        return self.state_id() == END_STATE_ID

    def is_multiactive_state(self) -> bool:
        """The main state is a ``multipleactiveplayer`` state."""
        return self.state().state_type is StateType.MULTIPLE_ACTIVE_PLAYER

    def is_mutiactive_state(self) -> bool:
        """BGA's misspelt, deprecated ``isMutiactiveState``: ``is_multiactive_state``."""
        return self.is_multiactive_state()

    def check_possible_action(self, action: str) -> None:
        """The current player's state (their private state, if any) allows ``action``; unlike
        ``Table.check_action``, whether they are active is not checked.

        Raises:
            UserError: the state does not allow it.
        """
        state = self.get_current_state(self._table.context.current_player_id)
        if action not in state.possible_actions:
            raise UserError(
                "This move is not allowed now (${action} in state ${state})",
                "not_allowed_in_state", action=action, state=state.name,
            )

    # ----------------------------------------------------------------- moving on
    def next_state(self, transition: str | int = "") -> None:
        """Follow ``transition`` of the main state (``""`` is the default one; a state id
        jumps there, as BGA's newer API allows).

        Raises:
            GameSystemError: the main state has no such transition.
        """
        if isinstance(transition, int):
            self.jump_to_state(int(transition))
            return
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
        if self._states[state_id].is_private:
            raise self._fail(f"jump_to_state({state_id}): a private state is a player's own "
                             "(use set_private_state)")
        self._enter(state_id)

    def _enter(self, state_id: int) -> None:
        table = self._table
        if self.state().initial_private is not None:
            # Private states live inside their multiactive state: leaving it ends them all.
            table.db_query("DELETE FROM arena_meta WHERE meta_key LIKE %s", (PRIVATE_STATE_META + "%",))
        table._write_global(GLOBAL_STATE, state_id)
        state = self._states[state_id]
        table.context.entered_states.append(state_id)
        if state.state_type is StateType.MULTIPLE_ACTIVE_PLAYER:
            # Entering a multiactive state starts with nobody active, as on BGA: the
            # state action (st_*) chooses who acts.
            table.db_query("UPDATE player SET player_is_multiactive = 0")

    # ----------------------------------------------------------------- active players
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

    def is_player_active(self, player_id: int) -> bool:
        return player_id in self.get_active_player_list()

    def set_all_players_multiactive(self) -> None:
        self._table.db_query(
            "UPDATE player SET player_is_multiactive = 1 WHERE player_eliminated = 0 "
            "AND player_zombie = 0"
        )
        self._notify_multiactive()

    def set_players_multiactive(
        self, player_ids: Iterable[int], next_state: str | int, exclusive: bool = False
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
        return self._next_if_nobody_active(next_state)

    def set_player_non_multiactive(self, player_id: int, next_state: str | int) -> bool:
        """``player_id`` is done; when the last one is done, follow ``next_state`` (True)."""
        self._table.db_query(
            "UPDATE player SET player_is_multiactive = 0 WHERE player_id = %s", (int(player_id),)
        )
        self._notify_multiactive()
        return self._next_if_nobody_active(next_state)

    def set_all_players_non_multiactive(self, next_state: str | int) -> bool:
        self._table.db_query("UPDATE player SET player_is_multiactive = 0")
        return self._next_if_nobody_active(next_state)

    def update_multiactive_or_next_state(self, next_state: str | int) -> bool:
        """After the game changed ``player_is_multiactive`` with SQL: tell the players who is
        active, or follow ``next_state`` when nobody is (True)."""
        self._table.forget_cached_rows()
        if self._next_if_nobody_active(next_state):
            return True
        self._notify_multiactive()
        return False

    def _next_if_nobody_active(self, next_state: str | int) -> bool:
        if not self.get_active_player_list():
            self.next_state(next_state)
            return True
        return False

    def _notify_multiactive(self) -> None:
        self._table.notify_all_players(
            "gameStateMultipleActiveUpdate", "", active=self.get_active_player_list()
        )

    # ----------------------------------------------------------------- private states
    def get_private_state(self, player_id: int) -> State | None:
        """``player_id``'s private state, or None when they are in none."""
        if self.state().initial_private is None:
            return None
        value = self._table.meta(f"{PRIVATE_STATE_META}{int(player_id)}")
        if value is None:
            return None
        state: State = self._states.by_id[int(value)]
        return state

    def _master(self, helper: str) -> State:
        state = self.state()
        if state.initial_private is None:
            raise self._fail(
                f"{helper}: state {state.id} ({state.name!r}) has no private states "
                "(a 'multipleactiveplayer' state with initial_private has)"
            )
        return state

    def _player(self, helper: str, player_id: int) -> int:
        if isinstance(player_id, bool) or not isinstance(player_id, int) or \
                player_id not in self._table._player_rows():
            raise self._fail(f"{helper}({player_id!r}): no such player at this table")
        return player_id

    def initialize_private_state(self, player_id: int) -> None:
        """``player_id`` (active in the main multiactive state) enters its ``initial_private``
        state: its ``st_*`` runs with their id, and they alone receive its args."""
        master = self._master("initialize_private_state")
        pid = self._player("initialize_private_state", player_id)
        if pid not in self.get_active_player_list():
            raise self._fail(f"initialize_private_state({pid}): the player is not active in "
                             f"state {master.name!r}")
        assert master.initial_private is not None
        self._enter_private(pid, master.initial_private)

    def initialize_private_state_for_players(self, player_ids: Iterable[int]) -> None:
        for pid in list(player_ids):
            self.initialize_private_state(pid)

    def initialize_private_state_for_all_active_players(self) -> None:
        self._master("initialize_private_state_for_all_active_players")
        for pid in self.get_active_player_list():
            self.initialize_private_state(pid)

    def next_private_state(self, player_id: int, transition: str | int) -> None:
        """Move ``player_id`` along ``transition`` of their private state (a state id: straight
        there, if it is a private state)."""
        self._master("next_private_state")
        pid = self._player("next_private_state", player_id)
        current = self.get_private_state(pid)
        if current is None:
            raise self._fail(f"next_private_state({pid}, {transition!r}): the player is in no "
                             "private state (initialize_private_state first)")
        if isinstance(transition, int):
            self.set_private_state(pid, int(transition))
            return
        if transition not in current.transitions:
            if transition == "" and len(current.transitions) == 1:
                target = next(iter(current.transitions.values()))
            else:
                known = ", ".join(repr(t) for t in current.transitions) or "none"
                raise self._fail(f"private state {current.name!r} has no transition "
                                 f"{transition!r} (it has {known})")
        else:
            target = current.transitions[transition]
        self._enter_private(pid, target)

    def next_private_state_for_players(self, player_ids: Iterable[int], transition: str | int) -> None:
        for pid in list(player_ids):
            self.next_private_state(pid, transition)

    def next_private_state_for_all_active_players(self, transition: str | int) -> None:
        self._master("next_private_state_for_all_active_players")
        for pid in self.get_active_player_list():
            self.next_private_state(pid, transition)

    def set_private_state(self, player_id: int, state_id: int) -> None:
        """Put ``player_id`` in private state ``state_id`` without a transition."""
        self._master("set_private_state")
        pid = self._player("set_private_state", player_id)
        target = self._states.by_id.get(state_id)
        if target is None or not target.is_private:
            raise self._fail(f"set_private_state({pid}, {state_id}): state {state_id} is not a "
                             "'private' state")
        self._enter_private(pid, state_id)

    def unset_private_state(self, player_id: int) -> None:
        """``player_id`` leaves their private state: the main state's actions apply again."""
        self._master("unset_private_state")
        pid = self._player("unset_private_state", player_id)
        self._table.delete_meta(f"{PRIVATE_STATE_META}{pid}")

    def unset_private_state_for_players(self, player_ids: Iterable[int]) -> None:
        for pid in list(player_ids):
            self.unset_private_state(pid)

    def unset_private_state_for_all_players(self) -> None:
        self._master("unset_private_state_for_all_players")
        self._table.db_query("DELETE FROM arena_meta WHERE meta_key LIKE %s", (PRIVATE_STATE_META + "%",))

    def _enter_private(self, player_id: int, state_id: int) -> None:
        table = self._table
        table.set_meta(f"{PRIVATE_STATE_META}{player_id}", str(state_id))
        state = self._states[state_id]
        if state.action:
            getattr(table, state.action)(player_id)
            current = self.get_private_state(player_id)
            if current is None or current.id != state_id:
                return  # the action moved the player on (or the main state changed)
        table.notify_player(player_id, "gameStateChangePrivate", "", {
            "id": state.id, "name": state.name, "type": state.state_type.value,
            "args": table.state_args(state, player_id),
        })
