"""Private parallel states: in a multiactive state each player moves through private states
of their own, sees only their own private args, and the game checks them at load."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from framework.core.errors import ConfigError, GameCodeError, GameSystemError, UserError
from framework.game.gameinfo import GameInfo
from framework.game.registry import build_definition
from framework.game.states import State, StateType, end_state, setup_state
from framework.game.table import Table
from framework.testing import GameHarness, TestTable
from tests.backends import PlatformTemplate
from tests.framework.classic_games import SECRET_STATES, SecretGame, harness_for, secret_definition


@pytest.fixture
def secrets(tmp_path: Path, platform_template: PlatformTemplate,
            database_url: str | None) -> Iterator[GameHarness]:
    with harness_for(secret_definition(), tmp_path, platform_template, database_url) as h:
        yield h


@pytest.fixture
def table(secrets: GameHarness) -> TestTable:
    return secrets.create_table(players=3, seed=7)


def codes(t: TestTable) -> dict[int, int]:
    return {int(r["secret_player"]): int(r["secret_code"])
            for r in t.query("SELECT secret_player, secret_code FROM secret")}


def own(t: TestTable, pid: int) -> dict[str, Any]:
    private: dict[str, Any] = t.data(pid)["gamestate"]["private_state"]
    return private


@pytest.mark.all_backends
def test_each_player_moves_through_private_states_of_their_own(table: TestTable) -> None:
    a, b, c = table.players
    secret = codes(table)
    for pid in (a, b, c):
        assert own(table, pid)["name"] == "chooseFirst"
        assert own(table, pid)["args"] == {"code": secret[pid]}
    entered = {int(r["secret_player"]): int(r["secret_entered"])
               for r in table.query("SELECT secret_player, secret_entered FROM secret")}
    assert entered == {a: 1, b: 1, c: 1}  # the private state's st_* ran once per player

    table.act(a, "choose", value=4)
    assert own(table, a)["name"] == "confirm" and own(table, a)["args"]["choice"] == 4
    assert own(table, a)["descriptionmyturn"] == "You must confirm 4"
    assert own(table, b)["name"] == "chooseFirst"  # b is where b was
    assert table.state.name == "plan"  # the main state did not move
    # Each player's actions are those of their own private state.
    assert table.act_expecting_error(a, "choose", value=2).code == "not_allowed_in_state"
    assert table.act_expecting_error(b, "confirm").code == "not_allowed_in_state"
    assert table.act_expecting_error(c, "skip").code == "not_allowed_in_state"

    table.act(a, "back")
    assert own(table, a)["name"] == "chooseFirst"
    assert int(table.query("SELECT secret_entered FROM secret WHERE secret_player = %s", (a,))[0]
               ["secret_entered"]) == 2
    for pid in (a, b, c):
        table.act(pid, "choose", value=pid % 9 + 1)
        table.act(pid, "confirm")
    assert table.is_over
    assert "private_state" not in table.data(a)["gamestate"]


@pytest.mark.all_backends
def test_another_players_private_args_appear_in_no_response_or_stream(table: TestTable) -> None:
    a, b, c = table.players
    secret = codes(table)
    table.act(a, "choose", value=3)
    table.act(b, "choose", value=6)
    table.act(b, "back")
    viewers: list[int | None] = [a, b, c, None]
    for viewer in viewers:
        seen = json.dumps(table.data(viewer)) + json.dumps(table.notifications(viewer))
        for pid, code in secret.items():
            if pid == viewer:
                assert str(code) in seen  # their own code reaches them
            else:
                assert str(code) not in seen, f"{pid}'s code reached {viewer}"
    private = [e for e in table.notifications(b) if e["type"] == "gameStateChangePrivate"]
    assert [e["args"]["name"] for e in private] == ["chooseFirst", "confirm", "chooseFirst"]


def test_a_zombie_plays_its_own_private_state(table: TestTable) -> None:
    a, b, c = table.players
    table.act(a, "choose", value=2)
    table.zombie(a)  # in "confirm": zombie_turn gets the private state
    assert a not in table.active_players
    table.zombie(b)  # in "chooseFirst": chooses, then confirms
    assert table.active_players == [c]
    table.act(c, "choose", value=9)
    table.act(c, "confirm")
    assert table.is_over


def test_an_error_of_zombie_turn_in_leave_reaches_the_error_log(table: TestTable) -> None:
    a = table.players[0]
    before = table.snapshot()
    with table.with_table() as t:
        type(t).FAIL_ZOMBIE = True
    try:
        with pytest.raises(GameCodeError):
            table.zombie(a)
    finally:
        with table.with_table() as t:
            type(t).FAIL_ZOMBIE = False
    assert table.snapshot() == before  # the leave was rolled back
    errors = table.runtime.errors(table.id)
    assert errors and errors[-1]["action"] == "leave"
    assert "zombie_turn fails on purpose in chooseFirst" in errors[-1]["traceback"]


def test_misuse_of_private_states_is_a_clear_error(table: TestTable) -> None:
    a = table.players[0]
    with table.with_table() as t:
        with pytest.raises(GameSystemError, match="state 3 is not a 'private' state"):
            t.gamestate.set_private_state(a, 3)
        with pytest.raises(GameSystemError, match="a private state is a player's own"):
            t.gamestate.jump_to_state(10)
        with pytest.raises(GameSystemError, match="no such player"):
            t.gamestate.next_private_state(424242, "next")
        with pytest.raises(GameSystemError, match="has no transition 'nope'"):
            t.gamestate.next_private_state(a, "nope")
        t.gamestate.unset_private_state(a)
        with pytest.raises(GameSystemError, match="in no private state"):
            t.gamestate.next_private_state(a, "next")
        assert t.gamestate.get_current_state(a).name == "plan"  # back in the main state
        t.gamestate.set_all_players_non_multiactive("done")  # the main state moves on
        with pytest.raises(GameSystemError, match="game 'secretgame': initialize_private_state: "
                           r"state 3 \('reveal'\) has no private states"):
            t.gamestate.initialize_private_state(a)


def test_current_state_and_main_state(table: TestTable) -> None:
    a, b, _ = table.players
    table.act(a, "choose", value=1)
    with table.read() as t:
        assert t.gamestate.get_current_state_id(a) == 11
        assert t.gamestate.get_current_state_id(b) == 10
        assert t.gamestate.get_current_state(None).name == "plan"
        assert t.gamestate.get_current_main_state().name == "plan"
        assert t.gamestate.get_current_main_state_id() == 2
        assert t.gamestate.is_multiactive_state() and t.gamestate.is_mutiactive_state()
        assert t.gamestate.get_states_as_array()[2]["initialprivate"] == 10
        assert t.gamestate.get_private_state(a) is not None
    with table.with_table() as t:
        t.context.current_player_id = a
        t.gamestate.check_possible_action("confirm")
        with pytest.raises(UserError, match="not allowed now"):
            t.gamestate.check_possible_action("choose")
        assert t.check_action("choose", False) is False


def _machine(states: list[State]) -> None:
    build_definition(GameInfo(name="privbad", display_name="P", min_players=1, max_players=2),
                     type("PrivBad", (SecretGame,), {}), states)


@pytest.mark.parametrize(("states", "message"), [
    ([setup_state(2), State(2, "plan", StateType.ACTIVE_PLAYER, possible_actions=["skip"],
                            transitions={"done": 99}, initial_private=10),
      State(10, "chooseFirst", StateType.PRIVATE, possible_actions=["choose"]), end_state()],
     "state 2 ('plan'), field 'initial_private': only a 'multipleactiveplayer' state"),
    ([setup_state(2), State(2, "plan", StateType.MULTIPLE_ACTIVE_PLAYER, possible_actions=["skip"],
                            transitions={"done": 99}, initial_private=99), end_state()],
     "state 2 ('plan'), field 'initial_private': state 99 is not a 'private' state"),
    ([setup_state(2), State(2, "plan", StateType.MULTIPLE_ACTIVE_PLAYER, possible_actions=["skip"],
                            transitions={"done": 99}, initial_private=10),
      State(10, "chooseFirst", StateType.PRIVATE, possible_actions=["choose"], transitions={"x": 2}),
      end_state()],
     "state 10 ('chooseFirst'), field 'transitions': transition 'x' of a private state leads to 2"),
    ([setup_state(2), State(2, "plan", StateType.MULTIPLE_ACTIVE_PLAYER, possible_actions=["skip"],
                            transitions={"done": 99, "in": 10}),
      State(10, "chooseFirst", StateType.PRIVATE, possible_actions=["choose"]), end_state()],
     "state 2 ('plan'), field 'transitions': transition 'in' leads to private state 10"),
    ([setup_state(2), State(2, "plan", StateType.MULTIPLE_ACTIVE_PLAYER, possible_actions=["skip"],
                            transitions={"done": 99}),
      State(10, "chooseFirst", StateType.PRIVATE, possible_actions=["choose"]), end_state()],
     "state 10 ('chooseFirst'), field 'id': this private state is named by no state"),
])
def test_private_states_are_checked_at_load(states: list[State], message: str) -> None:
    with pytest.raises(ConfigError, match="game 'privbad', " + message.replace("(", r"\(")
                       .replace(")", r"\)")):
        _machine(states)


def test_the_secret_game_loads() -> None:
    assert len(list(secret_definition().states)) == len(SECRET_STATES)
    assert issubclass(secret_definition().table_class, Table)
