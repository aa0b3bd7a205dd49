"""Numbered game states, as BGA's ``states.inc.php``, and their validation at load time."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from framework.core.errors import ConfigError

SETUP_STATE_ID = 1
END_STATE_ID = 99


class StateType(StrEnum):
    """Who acts in a state."""

    ACTIVE_PLAYER = "activeplayer"
    MULTIPLE_ACTIVE_PLAYER = "multipleactiveplayer"
    GAME = "game"
    MANAGER = "manager"
    #: a player's own state inside a multiactive state (BGA's private parallel states)
    PRIVATE = "private"


@dataclass(frozen=True)
class State:
    """One state of a game's state machine (the fields of BGA's ``states.inc.php``)."""

    id: int
    name: str
    type: StateType | str
    description: str = ""
    description_my_turn: str = ""
    action: str | None = None
    args: str | None = None
    possible_actions: Sequence[str] = ()
    transitions: Mapping[str, int] = field(default_factory=dict)
    update_game_progression: bool = False
    #: a multiactive state's first private state (BGA's ``initialprivate``)
    initial_private: int | None = None

    @functools.cached_property
    def state_type(self) -> StateType:
        return StateType(self.type)

    @functools.cached_property
    def is_player_state(self) -> bool:
        """Players act in it: active, multiactive, or a player's private state."""
        return self.state_type in (
            StateType.ACTIVE_PLAYER, StateType.MULTIPLE_ACTIVE_PLAYER, StateType.PRIVATE,
        )

    @functools.cached_property
    def is_private(self) -> bool:
        return self.state_type is StateType.PRIVATE

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.state_type.value,
            "description": self.description,
            "descriptionmyturn": self.description_my_turn,
            "possibleactions": list(self.possible_actions),
            "transitions": dict(self.transitions),
            "updateGameProgression": self.update_game_progression,
            **({"initialprivate": self.initial_private} if self.initial_private is not None else {}),
        }


def setup_state(next_state: int = 2) -> State:
    """The reserved setup state 1, leading to ``next_state``."""
    return State(
        SETUP_STATE_ID, "gameSetup", StateType.MANAGER, "", action="st_game_setup",
        transitions={"": next_state},
    )


def end_state() -> State:
    """The reserved end state 99."""
    return State(END_STATE_ID, "gameEnd", StateType.MANAGER, "End of game", action="st_game_end")


class StateMachine:
    """The validated states of one game, indexed by id and by name."""

    def __init__(self, game: str, states: Iterable[State], table_cls: type | None = None) -> None:
        self.game = game
        self.by_id: dict[int, State] = {}
        self.by_name: dict[str, State] = {}
        for state in states:
            self._add(state)
        self._validate(table_cls)
        #: every action some state allows
        self.all_actions = frozenset(a for st in self.by_id.values() for a in st.possible_actions)

    def __getitem__(self, state_id: int) -> State:
        return self.by_id[state_id]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(sorted(self.by_id.values(), key=lambda s: s.id))

    def __len__(self) -> int:
        return len(self.by_id)

    def _fail(self, state: State | None, fieldname: str, reason: str) -> ConfigError:
        where = f"state {state.id} ({state.name!r})" if state is not None else "states"
        return ConfigError(f"game {self.game!r}, {where}, field {fieldname!r}: {reason}")

    def _add(self, state: State) -> None:
        if not isinstance(state, State):
            raise self._fail(None, "states", f"expected State, got {type(state).__name__}")
        if not isinstance(state.id, int) or isinstance(state.id, bool) or state.id < 1:
            raise self._fail(state, "id", "must be a positive integer")
        if state.id in self.by_id:
            raise self._fail(state, "id", f"id {state.id} is used twice")
        if not state.name.isidentifier():
            raise self._fail(state, "name", f"{state.name!r} is not an identifier")
        if state.name in self.by_name:
            raise self._fail(state, "name", f"name {state.name!r} is used twice")
        try:
            StateType(state.type)
        except ValueError:
            kinds = ", ".join(t.value for t in StateType)
            raise self._fail(state, "type", f"{state.type!r} is not one of {kinds}") from None
        self.by_id[state.id] = state
        self.by_name[state.name] = state

    def _validate(self, table_cls: type | None) -> None:
        setup = self.by_id.get(SETUP_STATE_ID)
        if setup is None:
            raise self._fail(None, "id", "state 1 (setup) is missing")
        end = self.by_id.get(END_STATE_ID)
        if end is None:
            raise self._fail(None, "id", "state 99 (end of game) is missing")
        for reserved in (setup, end):
            if reserved.state_type is not StateType.MANAGER:
                raise self._fail(reserved, "type", "reserved states 1 and 99 must be 'manager'")
        for state in self.by_id.values():
            if state.state_type is StateType.MANAGER and state.id not in (1, 99):
                raise self._fail(state, "type", "'manager' is reserved for states 1 and 99")
            for name, target in state.transitions.items():
                if target not in self.by_id:
                    raise self._fail(
                        state, "transitions", f"transition {name!r} leads to unknown state {target}"
                    )
            self._check_private(state)
            if state.id != END_STATE_ID and not state.transitions and not state.is_private:
                raise self._fail(state, "transitions", "a state other than 99 needs transitions")
            if state.is_player_state and not state.possible_actions:
                raise self._fail(state, "possible_actions", "a player state needs actions")
            if not state.is_player_state and state.possible_actions:
                raise self._fail(
                    state, "possible_actions", "only player states have possible actions"
                )
            if state.state_type is StateType.GAME and not state.action:
                raise self._fail(state, "action", "a 'game' state needs an st_ action")
            if table_cls is not None:
                self._check_methods(state, table_cls)
        self._check_reachability()
        self._check_private_reachability()

    def _check_private(self, state: State) -> None:
        """Private states live inside a multiactive state: reached from its ``initial_private``
        or from another private state, and leading only to private states."""
        if state.initial_private is not None:
            if state.state_type is not StateType.MULTIPLE_ACTIVE_PLAYER:
                raise self._fail(state, "initial_private",
                                 "only a 'multipleactiveplayer' state has private states")
            target = self.by_id.get(state.initial_private)
            if target is None or not target.is_private:
                raise self._fail(state, "initial_private",
                                 f"state {state.initial_private} is not a 'private' state")
        for name, target_id in state.transitions.items():
            target = self.by_id.get(target_id)
            if target is None:
                continue  # reported as an unknown state below
            if state.is_private and not target.is_private:
                raise self._fail(state, "transitions", f"transition {name!r} of a private state "
                                 f"leads to {target_id}, which is not a 'private' state")
            if not state.is_private and target.is_private:
                raise self._fail(state, "transitions", f"transition {name!r} leads to private "
                                 f"state {target_id}: enter it with initial_private and "
                                 "gamestate.initialize_private_state")

    def _check_private_reachability(self) -> None:
        reached: set[int] = set()
        todo = [s.initial_private for s in self.by_id.values() if s.initial_private is not None]
        while todo:
            sid = todo.pop()
            if sid in reached:
                continue
            reached.add(sid)
            todo.extend(self.by_id[sid].transitions.values())
        for state in self.by_id.values():
            if state.is_private and state.id not in reached:
                raise self._fail(state, "id", "this private state is named by no state's "
                                 "initial_private and by no private state's transitions")

    def _check_methods(self, state: State, table_cls: type) -> None:
        if state.id in (SETUP_STATE_ID, END_STATE_ID):
            return
        for fieldname in ("action", "args"):
            method = getattr(state, fieldname)
            if method and not callable(getattr(table_cls, method, None)):
                raise self._fail(
                    state, fieldname, f"{table_cls.__name__} has no method {method!r}"
                )
        for action in state.possible_actions:
            if not callable(getattr(table_cls, f"act_{action}", None)):
                raise self._fail(
                    state,
                    "possible_actions",
                    f"{table_cls.__name__} has no method 'act_{action}' for action {action!r}",
                )

    def _check_reachability(self) -> None:
        reached = {SETUP_STATE_ID}
        todo = [SETUP_STATE_ID]
        while todo:
            for target in self.by_id[todo.pop()].transitions.values():
                if target not in reached:
                    reached.add(target)
                    todo.append(target)
        # Every state reached from 1 must be able to reach 99.
        reverse: dict[int, set[int]] = {sid: set() for sid in self.by_id}
        for state in self.by_id.values():
            for target in state.transitions.values():
                reverse[target].add(state.id)
        ends = {END_STATE_ID}
        todo = [END_STATE_ID]
        while todo:
            for source in reverse[todo.pop()]:
                if source not in ends:
                    ends.add(source)
                    todo.append(source)
        if END_STATE_ID not in reached:
            raise self._fail(None, "transitions", "state 99 cannot be reached from state 1")
        for sid in sorted(reached - ends):
            raise self._fail(self.by_id[sid], "transitions", "state 99 cannot be reached from it")
