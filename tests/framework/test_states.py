"""The state machine is validated when a game loads; each failure names game, state, field."""

from __future__ import annotations

import pytest

from framework.core.errors import ConfigError
from framework.game.states import State, StateMachine, StateType, end_state, setup_state
from framework.game.table import Table


class Minimal(Table):
    def st_next(self) -> None:
        self.gamestate.next_state("")

    def arg_turn(self) -> dict[str, int]:
        return {}

    def act_go(self) -> None:
        self.gamestate.next_state("go")


def turn(**changes: object) -> State:
    fields: dict[str, object] = dict(
        id=2, name="turn", type=StateType.ACTIVE_PLAYER, description="d",
        args="arg_turn", possible_actions=["go"], transitions={"go": 3},
    )
    fields.update(changes)
    return State(**fields)  # type: ignore[arg-type]


def next_state() -> State:
    return State(3, "next", StateType.GAME, action="st_next", transitions={"": 99})


def machine(*states: State) -> StateMachine:
    return StateMachine("demo", states, Minimal)


def test_a_valid_machine_loads() -> None:
    m = machine(setup_state(2), turn(), next_state(), end_state())
    assert [s.id for s in m] == [1, 2, 3, 99]
    assert m.by_name["turn"].id == 2


@pytest.mark.parametrize(
    ("states", "message"),
    [
        ((turn(), next_state(), end_state()), "state 1 (setup) is missing"),
        ((setup_state(2), turn(), next_state()), "state 99 (end of game) is missing"),
        ((setup_state(2), turn(transitions={"go": 7}), next_state(), end_state()),
         "state 2 ('turn'), field 'transitions': transition 'go' leads to unknown state 7"),
        ((setup_state(2), turn(name="my turn"), next_state(), end_state()),
         "field 'name': 'my turn' is not an identifier"),
        ((setup_state(2), turn(type="sometimes"), next_state(), end_state()),
         "field 'type': 'sometimes' is not one of"),
        ((setup_state(2), turn(possible_actions=["jump"]), next_state(), end_state()),
         "has no method 'act_jump' for action 'jump'"),
        ((setup_state(2), turn(args="arg_missing"), next_state(), end_state()),
         "field 'args': Minimal has no method 'arg_missing'"),
        ((setup_state(2), turn(), State(3, "next", "game", action="st_gone", transitions={"": 99}),
          end_state()), "field 'action': Minimal has no method 'st_gone'"),
        ((setup_state(2), turn(id=99), end_state()), "id 99 is used twice"),
        ((setup_state(2), turn(transitions={"go": 3, "trap": 4}), next_state(),
          State(4, "trap", StateType.GAME, action="st_next", transitions={"": 4}), end_state()),
         "state 4 ('trap'), field 'transitions': state 99 cannot be reached from it"),
        ((setup_state(2), turn(possible_actions=[]), next_state(), end_state()),
         "a player state needs actions"),
        ((setup_state(2), turn(), State(3, "next", "game", transitions={"": 99}), end_state()),
         "a 'game' state needs an st_ action"),
        ((State(1, "gameSetup", "game", action="st_next", transitions={"": 2}), turn(),
          next_state(), end_state()), "reserved states 1 and 99 must be 'manager'"),
        ((setup_state(2), turn(type="manager"), next_state(), end_state()),
         "'manager' is reserved for states 1 and 99"),
        ((setup_state(2), turn(id=0), next_state(), end_state()), "must be a positive integer"),
    ],
)
def test_invalid_machines_name_game_state_and_field(states: tuple[State, ...], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        machine(*states)
    assert "game 'demo'" in str(err.value)
    assert message in str(err.value)


def test_unreachable_end_from_setup() -> None:
    with pytest.raises(ConfigError, match="state 99 cannot be reached from state 1"):
        StateMachine("demo", [setup_state(2), State(2, "loop", "game", action="st_next",
                                                    transitions={"": 2}), end_state()], Minimal)
