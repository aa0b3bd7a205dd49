"""State classes compiled, when a game loads, into the ``State`` rows of the classic state
machine, so both styles (and a game mixing them) run on one runtime with the same checks."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from framework.core.errors import ConfigError
from framework.game.modern.dispatch import (
    ZOMBIE_PARAMETERS,
    args_method_name,
    enter_method_name,
    install,
)
from framework.game.modern.returns import UNKNOWN, returned_values
from framework.game.modern.state_class import GameState, is_possible_action
from framework.game.states import (
    END_STATE_ID,
    SETUP_STATE_ID,
    State,
    StateType,
    end_state,
    setup_state,
)

_HOOKS = ("get_args", "on_entering_state", "zombie")


@dataclass
class _Declared:
    """What a state class declares, before the ids of the states it names are known."""

    cls: type[GameState]
    id: int
    type: StateType
    name: str
    description: str
    description_my_turn: str
    transitions: dict[str, Any]
    update_game_progression: bool
    initial_private: Any
    actions: dict[str, str] = field(default_factory=dict)  # action -> method name
    hooks: set[str] = field(default_factory=set)


class _Probe:
    """The ``game`` a state class's ``__init__`` gets while the game loads: the class may
    only hand it to ``GameState.__init__``."""

    def __init__(self, where: str) -> None:
        self._where = where

    def __getattr__(self, name: str) -> Any:
        raise ConfigError(f"{self._where}, field '__init__': __init__ uses game.{name} while the "
                          "game loads; only pass the declaration to GameState.__init__ there")


def is_state_class(item: Any) -> bool:
    return isinstance(item, type) and issubclass(item, GameState) and item is not GameState


def uses_state_classes(items: Iterable[Any]) -> bool:
    return any(is_state_class(i) for i in items)


def compile_states(game: str, items: Iterable[Any], table_cls: type) -> list[State]:
    """``State`` rows for ``items``: classic ``State``s as they are, state classes compiled;
    setup (1) and end (99) added when missing; ``table_cls`` given the methods they name.

    Raises:
        ConfigError: naming the game, the state class and the field at fault.
    """
    items = list(items)
    if not uses_state_classes(items):
        return items
    classic: list[State] = []
    declared: list[_Declared] = []
    for item in items:
        if is_state_class(item):
            declared.append(_declare(game, item))
        elif isinstance(item, State):
            classic.append(item)
        else:
            raise ConfigError(f"game {game!r}, STATES: {item!r} is neither a State nor a "
                              "GameState subclass")
    _check_ids(game, classic, declared)
    by_class = {d.cls: d.id for d in declared}
    by_name = {s.name: s.id for s in classic} | {d.name: d.id for d in declared}
    ids = {s.id for s in classic} | set(by_class.values())
    if SETUP_STATE_ID not in ids:
        first = next(d.id for d in declared) if declared else min(ids)
        classic.insert(0, setup_state(first))
        ids.add(SETUP_STATE_ID)
        by_name["gameSetup"] = SETUP_STATE_ID
    if END_STATE_ID not in ids:
        classic.append(end_state())
        ids.add(END_STATE_ID)
        by_name["gameEnd"] = END_STATE_ID
    resolver = _Resolver(game, by_class, by_name, ids)
    compiled = [_compile(d, resolver) for d in declared]
    _check_private(game, declared, [*classic, *compiled])
    install(
        table_cls,
        classes={d.id: d.cls for d in declared},
        actions=_actions_by_name(declared),
        entering={d.id for d in declared if "on_entering_state" in d.hooks},
        with_args={d.id for d in declared if "get_args" in d.hooks},
        zombies={d.id for d in declared if "zombie" in d.hooks},
    )
    return sorted([*classic, *compiled], key=lambda s: s.id)


def _where(game: str, cls: type) -> str:
    return f"game {game!r}, state class {cls.__name__!r}"


def _declare(game: str, cls: type[GameState]) -> _Declared:
    where = _where(game, cls)
    try:
        instance = cls(_Probe(where))
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"{where}, field '__init__': cannot declare the state: {exc!r}") from exc
    sid = instance.id
    if sid is None:
        raise ConfigError(f"{where}, field 'id': missing (give id= to GameState.__init__)")
    if not isinstance(sid, int) or isinstance(sid, bool) or sid < 1:
        raise ConfigError(f"{where}, field 'id': {sid!r} is not a positive integer")
    if sid in (SETUP_STATE_ID, END_STATE_ID):
        raise ConfigError(f"{where}, field 'id': {sid} is reserved for the framework's "
                          "setup and end states")
    if instance.type is None:
        raise ConfigError(f"{where}, field 'type': missing (give type=StateType.... to "
                          "GameState.__init__)")
    try:
        kind = StateType(instance.type)
    except ValueError:
        kinds = ", ".join(t.name for t in StateType if t is not StateType.MANAGER)
        raise ConfigError(f"{where}, field 'type': {instance.type!r} is not one of {kinds}") from None
    if kind is StateType.MANAGER:
        raise ConfigError(f"{where}, field 'type': 'manager' is the framework's (states 1 and 99)")
    name = instance.name or cls.__name__
    if not isinstance(instance.transitions, dict):
        raise ConfigError(f"{where}, field 'transitions': a dict of name -> state, "
                          f"not {type(instance.transitions).__name__}")
    decl = _Declared(
        cls=cls, id=sid, type=kind, name=name, description=instance.description or "",
        description_my_turn=instance.description_my_turn or "",
        transitions=dict(instance.transitions),
        update_game_progression=bool(instance.update_game_progression),
        initial_private=instance.initial_private,
    )
    _collect_methods(decl, where)
    return decl


def _collect_methods(decl: _Declared, where: str) -> None:
    """The class's ``possible_action`` methods and hooks, their parameters checked."""
    cls = decl.cls
    for attr in dir(cls):
        value = getattr(cls, attr, None)
        if is_possible_action(value):
            if not attr.startswith("act_") or not attr[4:].isidentifier():
                raise ConfigError(f"{where}, field {attr!r}: a possible_action is named act_<name>")
            decl.actions[attr[4:]] = attr
    for hook in _HOOKS:
        if callable(getattr(cls, hook, None)):
            decl.hooks.add(hook)
            allowed: tuple[str, ...] = ZOMBIE_PARAMETERS
            if hook == "get_args":
                allowed = tuple(a for a in allowed if a != "args")
            for param in inspect.signature(getattr(cls, hook)).parameters:
                if param != "self" and param not in allowed:
                    raise ConfigError(f"{where}, field {hook!r}: parameter {param!r} is not one "
                                      f"the framework fills ({', '.join(allowed)})")


def _check_ids(game: str, classic: list[State], declared: list[_Declared]) -> None:
    owners: dict[int, str] = {s.id: f"state {s.name!r}" for s in classic}
    names: dict[str, str] = {s.name: f"state {s.id}" for s in classic}
    for d in declared:
        if d.id in owners:
            raise ConfigError(f"{_where(game, d.cls)}, field 'id': id {d.id} is also the id of "
                              f"{owners[d.id]}")
        if d.name in names:
            raise ConfigError(f"{_where(game, d.cls)}, field 'name': {d.name!r} is also the name "
                              f"of {names[d.name]}")
        owners[d.id] = f"state class {d.cls.__name__!r}"
        names[d.name] = f"state class {d.cls.__name__!r}"


class _Resolver:
    """Turns what a state class names (a class, an id, a name) into a state id."""

    def __init__(self, game: str, by_class: dict[type, int], by_name: dict[str, int],
                 ids: set[int]) -> None:
        self.game = game
        self.by_class = by_class
        self.by_name = by_name
        self.ids = ids

    def state_id(self, value: Any) -> int | None:
        if isinstance(value, type) and issubclass(value, GameState):
            return self.by_class.get(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value if value in self.ids else None
        if isinstance(value, str):
            return self.by_name.get(value)
        return None


def _compile(d: _Declared, resolver: _Resolver) -> State:
    where = _where(resolver.game, d.cls)
    transitions: dict[str, int] = {}
    for key, target in d.transitions.items():
        sid = resolver.state_id(target)
        if sid is None:
            raise ConfigError(f"{where}, field 'transitions': {key!r} leads to {target!r}, which "
                              "is not a state of the game")
        transitions[str(key)] = sid
    methods: list[tuple[str, Callable[..., Any]]] = [
        (m, getattr(d.cls, m)) for m in sorted(d.actions.values())]
    methods += [(h, getattr(d.cls, h)) for h in ("on_entering_state", "zombie") if h in d.hooks]
    for method_name, method in methods:
        for returned in returned_values(method):
            if returned.value is UNKNOWN and not returned.unresolved:
                continue
            value = returned.value
            if isinstance(value, str) and value in transitions:
                continue
            sid = None if returned.unresolved else resolver.state_id(value)
            if sid is None:
                raise ConfigError(f"{where}, field {method_name!r}: returns {returned.text}, "
                                  "which is not a state of the game (nor a transition of this "
                                  "state)")
            target_name = next(n for n, i in resolver.by_name.items() if i == sid)
            if transitions.get(target_name, sid) == sid:
                transitions[target_name] = sid
    if not transitions and d.type is not StateType.PRIVATE:
        raise ConfigError(f"{where}, field 'transitions': no next state is known; return a "
                          "state class, id or name literally from on_entering_state or an "
                          "action, or declare transitions")
    if d.type is StateType.GAME and "on_entering_state" not in d.hooks:
        raise ConfigError(f"{where}, field 'on_entering_state': a GAME state needs one, "
                          "returning the next state")
    if d.type in (StateType.ACTIVE_PLAYER, StateType.MULTIPLE_ACTIVE_PLAYER,
                  StateType.PRIVATE) and not d.actions:
        raise ConfigError(f"{where}, field 'possible_actions': a player state needs at least "
                          "one @possible_action act_* method")
    if d.type is StateType.GAME and d.actions:
        raise ConfigError(f"{where}, field {sorted(d.actions.values())[0]!r}: a GAME state has "
                          "no possible actions")
    initial_private = None
    if d.initial_private is not None:
        initial_private = resolver.state_id(d.initial_private)
        if initial_private is None:
            raise ConfigError(f"{where}, field 'initial_private': {d.initial_private!r} is not a "
                              "state of the game")
    return State(
        id=d.id, name=d.name, type=d.type, description=d.description,
        description_my_turn=d.description_my_turn,
        action=enter_method_name(d.id) if "on_entering_state" in d.hooks else None,
        args=args_method_name(d.id) if "get_args" in d.hooks else None,
        possible_actions=sorted(d.actions), transitions=transitions,
        update_game_progression=d.update_game_progression, initial_private=initial_private,
    )


def _check_private(game: str, declared: list[_Declared], states: list[State]) -> None:
    """A private state class is named by a multiactive state's ``initial_private`` or by a
    transition of another private state."""
    kinds = {s.id: s.state_type for s in states}
    named = {s.initial_private for s in states if s.initial_private is not None}
    named |= {t for s in states if s.state_type is StateType.PRIVATE
              for t in s.transitions.values() if kinds.get(t) is StateType.PRIVATE and t != s.id}
    for d in declared:
        if d.type is StateType.PRIVATE and d.id not in named:
            raise ConfigError(f"{_where(game, d.cls)}, field 'type': a private state named in no "
                              "transition: give a multiactive state initial_private="
                              f"{d.cls.__name__}, or name it in another private state's transitions")


def _actions_by_name(declared: list[_Declared]) -> dict[str, dict[int, str]]:
    out: dict[str, dict[int, str]] = {}
    for d in declared:
        for action, method in d.actions.items():
            out.setdefault(action, {})[d.id] = method
    return out
