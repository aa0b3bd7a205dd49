"""State classes at run time: the ``Table`` methods the state machine calls (``st_``/``arg_``
per state, ``act_*``, ``zombie_turn``) forward to the current state's class, with
``active_player_id``, ``current_player_id``, ``args`` and ``player_id`` filled by name."""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from framework.core.errors import ConfigError, GameSystemError
from framework.game.modern.state_class import GameState
from framework.game.states import StateType

if TYPE_CHECKING:
    from framework.game.states import State
    from framework.game.table import Table

#: The parameters the framework fills by name (BGA's "magic" parameters).
MAGIC_PARAMETERS = ("active_player_id", "current_player_id", "args")
#: ``player_id``: the zombie's, or in a private state the player whose state it is.
ZOMBIE_PARAMETERS = (*MAGIC_PARAMETERS, "player_id")

#: The attribute of a table class that maps state ids to their state classes.
STATE_CLASSES_ATTR = "__arena_state_classes__"


def state_classes_of(table_cls: type) -> dict[int, type[GameState]]:
    found: dict[int, type[GameState]] = getattr(table_cls, STATE_CLASSES_ATTR, {})
    return found


def enter_method_name(state_id: int) -> str:
    return f"st_state_class_{state_id}"


def args_method_name(state_id: int) -> str:
    return f"arg_state_class_{state_id}"


@functools.lru_cache(maxsize=4096)
def parameter_names(method: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(n for n in inspect.signature(method).parameters if n != "self")


def _magic_values(table: Table, state: State, wanted: tuple[str, ...],
                  player_id: int | None = None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in wanted:
        if name == "active_player_id":
            values[name] = table.get_active_player_id()
        elif name == "current_player_id":
            values[name] = table.context.current_player_id
        elif name == "args":
            # A private state's args are its player's (state_args takes them for it).
            state_args: Any = table.state_args
            values[name] = (state_args(state, player_id)
                            if state.state_type is StateType.PRIVATE else state_args(state))
        elif name == "player_id":
            values[name] = player_id
    return values


def _instance(table: Table, state_id: int) -> tuple[GameState, State]:
    cls = state_classes_of(type(table))[state_id]
    return cls(table), table.definition.states[state_id]


def go_to(table: Table, result: Any, where: str, private_of: int | None = None) -> None:
    """Follow what a state class's method returned: a state class, an id, a transition of
    the current state or a state's name; None stays. ``private_of``: the player whose
    private state returned it (they move within their private states).

    Raises:
        GameSystemError: the value names no state of the game.
    """
    if result is None:
        return
    if private_of is not None:
        _go_private(table, result, where, private_of)
        return
    machine = table.definition.states
    gamestate = table.gamestate
    if isinstance(result, type) and issubclass(result, GameState):
        ids = [sid for sid, cls in state_classes_of(type(table)).items() if cls is result]
        if not ids:
            raise GameSystemError(
                f"game {machine.game!r}, {where}: returned {result.__name__}, which is not a "
                "state of the game (list it in STATES)")
        gamestate.jump_to_state(ids[0])
        return
    if isinstance(result, int) and not isinstance(result, bool):
        if result not in machine.by_id:
            raise GameSystemError(f"game {machine.game!r}, {where}: returned {result}, "
                                  "which is no state id of the game")
        gamestate.jump_to_state(result)
        return
    if isinstance(result, str):
        if result in gamestate.state().transitions:
            gamestate.next_state(result)
            return
        if result in machine.by_name:
            gamestate.jump_to_state(machine.by_name[result].id)
            return
        raise GameSystemError(f"game {machine.game!r}, {where}: returned {result!r}, which is "
                              "neither a transition of the current state nor a state's name")
    raise GameSystemError(f"game {machine.game!r}, {where}: returned {result!r}; return a state "
                          "class, a state id, a transition or a state name (None: stay)")


def _go_private(table: Table, result: Any, where: str, player_id: int) -> None:
    """A private state's next state, for ``player_id`` only: a transition of their private
    state, or a private state (class, id or name)."""
    gamestate: Any = table.gamestate
    machine = table.definition.states
    current = gamestate.get_private_state(player_id)
    if isinstance(result, str) and current is not None and result in current.transitions:
        gamestate.next_private_state(player_id, result)
        return
    target: int | None = None
    if isinstance(result, type) and issubclass(result, GameState):
        target = next((sid for sid, c in state_classes_of(type(table)).items() if c is result), None)
    elif isinstance(result, int) and not isinstance(result, bool):
        target = result if result in machine.by_id else None
    elif isinstance(result, str) and result in machine.by_name:
        target = machine.by_name[result].id
    if target is None:
        raise GameSystemError(f"game {machine.game!r}, {where}: returned {result!r}, which is "
                              "neither a transition of the private state nor a state")
    gamestate.set_private_state(player_id, target)


def _own_state_id(table: Table) -> int:
    """The state the acting player is in: their private state when they have one."""
    pid = table.context.current_player_id
    own = getattr(table.gamestate, "get_private_state", None)
    if pid is not None and own is not None:
        private = own(pid)
        if private is not None:
            return int(private.id)
    return table.gamestate.state_id()


def first_state_id(gdef: Any, value: Any) -> int:
    """The state ``setup_new_game`` returned (a state class, an id or a name), as an id.

    Raises:
        GameSystemError: it names no state of the game.
    """
    machine = gdef.states
    if isinstance(value, type) and issubclass(value, GameState):
        for sid, cls in state_classes_of(gdef.table_class).items():
            if cls is value:
                return sid
    elif isinstance(value, int) and not isinstance(value, bool) and value in machine.by_id:
        return value
    elif isinstance(value, str) and value in machine.by_name:
        return int(machine.by_name[value].id)
    shown = value.__name__ if isinstance(value, type) else repr(value)
    raise GameSystemError(f"game {machine.game!r}, setup_new_game: returned {shown}, which is "
                          "not a state of the game")


def _enter(state_id: int) -> Callable[..., None]:
    # ``player_id``: given when a player enters a private state.
    def enter(table: Table, player_id: int | None = None) -> None:
        instance, state = _instance(table, state_id)
        method = instance.on_entering_state  # type: ignore[attr-defined]
        wanted = parameter_names(type(instance).on_entering_state)  # type: ignore[attr-defined]
        result = method(**_magic_values(table, state, wanted, player_id))
        go_to(table, result, f"state class {type(instance).__name__!r}, on_entering_state",
              player_id if state.state_type is StateType.PRIVATE else None)

    enter.__name__ = enter_method_name(state_id)
    return enter


def _args(state_id: int) -> Callable[..., Any]:
    # ``player_id``: given for a private state's args (whose private state it is).
    def args(table: Table, player_id: int | None = None) -> Any:
        instance, state = _instance(table, state_id)
        return instance.get_args(**_magic_values(  # type: ignore[attr-defined]
            table, state, parameter_names(type(instance).get_args), player_id))  # type: ignore[attr-defined]

    args.__name__ = args_method_name(state_id)
    return args


class ActionDispatch:
    """A table's ``act_<name>``: the current state class's method of that name, seen with
    only its action arguments (so the gatekeeper binds and converts them as for a classic
    action), or the table's own ``act_<name>`` in a classic state."""

    def __init__(self, action: str, entries: Mapping[int, Callable[..., Any]],
                 fallback: Callable[..., Any] | None) -> None:
        self.action = action
        self.entries = dict(entries)  # state id -> entry function (table, **kwargs)
        self.fallback = fallback

    def __get__(self, table: Table | None, owner: type | None = None) -> Any:
        if table is None:
            return self
        entry = self.entries.get(_own_state_id(table))
        if entry is None:
            entry = self.fallback or next(iter(self.entries.values()))
        return types.MethodType(entry, table)

    def __call__(self, table: Table, **kwargs: Any) -> Any:
        return self.__get__(table)(**kwargs)


def action_entry(state_id: int, cls: type[GameState], method_name: str,
                 action: str) -> Callable[..., Any]:
    """The function the gatekeeper calls for ``method_name`` of ``cls``: its signature and
    hints are the action's arguments only (the magic ones are filled here)."""
    method = getattr(cls, method_name)
    signature = inspect.signature(method)
    try:
        hints = typing.get_type_hints(method)
    except Exception as exc:  # an annotation naming what the module does not define
        raise ConfigError(f"state class {cls.__name__!r}, field {method_name!r}: its type "
                          f"hints cannot be read: {exc!r}") from exc
    magic = tuple(n for n in signature.parameters if n in MAGIC_PARAMETERS)
    kept = [p for n, p in signature.parameters.items() if n not in MAGIC_PARAMETERS]

    def entry(table: Table, **kwargs: Any) -> None:
        instance, state = _instance(table, state_id)
        private = state.state_type is StateType.PRIVATE
        player = table.context.current_player_id
        result = getattr(instance, method_name)(
            **kwargs, **_magic_values(table, state, magic, player if private else None))
        go_to(table, result, f"state class {cls.__name__!r}, {method_name}",
              player if private else None)

    entry.__name__ = f"act_{action}"
    entry.__qualname__ = f"{cls.__qualname__}.{method_name}"
    entry.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    entry.__annotations__ = {n: hints[n] for n in signature.parameters
                             if n in hints and n not in MAGIC_PARAMETERS and n != "self"}
    return entry


class ZombieDispatch:
    """A table's ``zombie_turn``: the current state class's ``zombie`` when it has one, else
    the table's own."""

    def __init__(self, state_ids: frozenset[int], fallback: Callable[..., Any]) -> None:
        self.state_ids = state_ids
        self.fallback = fallback

    def __get__(self, table: Table | None, owner: type | None = None) -> Any:
        if table is None:
            return self
        return types.MethodType(self._turn, table)

    def _turn(self, table: Table, state: State, active_player: int) -> None:
        if state.id not in self.state_ids:
            self.fallback(table, state, active_player)
            return
        instance, _ = _instance(table, state.id)
        zombie = type(instance).zombie  # type: ignore[attr-defined]
        values = _magic_values(table, state, parameter_names(zombie), player_id=active_player)
        result = instance.zombie(**values)  # type: ignore[attr-defined]
        go_to(table, result, f"state class {type(instance).__name__!r}, zombie",
              active_player if state.state_type is StateType.PRIVATE else None)


def install(table_cls: Any, classes: Mapping[int, type[GameState]],
            actions: Mapping[str, Mapping[int, str]], entering: set[int], with_args: set[int],
            zombies: set[int]) -> None:
    """Give ``table_cls`` the methods its compiled states name (run again on each load)."""
    setattr(table_cls, STATE_CLASSES_ATTR, dict(classes))
    for sid in entering:
        setattr(table_cls, enter_method_name(sid), _enter(sid))
    for sid in with_args:
        setattr(table_cls, args_method_name(sid), _args(sid))
    for action, by_state in actions.items():
        current = getattr(table_cls, f"act_{action}", None)
        fallback = current.fallback if isinstance(current, ActionDispatch) else current
        entries = {sid: action_entry(sid, classes[sid], method, action)
                   for sid, method in by_state.items()}
        setattr(table_cls, f"act_{action}", ActionDispatch(action, entries, fallback))
    current_zombie = table_cls.__dict__.get("zombie_turn")
    if isinstance(current_zombie, ZombieDispatch):
        base_zombie = current_zombie.fallback
    else:
        base_zombie = table_cls.zombie_turn
    if zombies:
        table_cls.zombie_turn = ZombieDispatch(frozenset(zombies), base_zombie)
    elif isinstance(current_zombie, ZombieDispatch):
        table_cls.zombie_turn = base_zombie
