"""State classes in private parallel states: each player moves through private states of
their own inside a multiactive one, and sees only their own private args."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from framework.game.gamestate import GameStateMachine
from framework.game.modern import GameState, StateType, possible_action
from framework.game.registry import GameInfo, GameRegistry, build_definition
from framework.game.table import Table
from framework.testing import GameHarness

pytestmark = pytest.mark.skipif(
    not hasattr(GameStateMachine, "initialize_private_state_for_all_active_players"),
    reason="the runtime of private parallel states comes with the api-classic branch "
           "(gamestate.initialize_private_state...); these tests run once both are merged")


class Plan(GameState):
    def __init__(self, game: Table) -> None:
        super().__init__(game, id=2, type=StateType.MULTIPLE_ACTIVE_PLAYER,
                         description="Everyone plans", transitions={"done": 99},
                         initial_private=Choose)

    def on_entering_state(self) -> Any:
        self.gamestate.set_all_players_multiactive()
        self.gamestate.initialize_private_state_for_all_active_players()  # type: ignore[attr-defined]

    @possible_action
    def act_wait(self) -> Any:
        return None


class Choose(GameState):
    id = 10
    type = StateType.PRIVATE
    description_my_turn = "${you} must choose"

    def get_args(self, player_id: int) -> dict[str, Any]:
        return {"hand": [f"card-{player_id}-{n}" for n in range(3)]}

    @possible_action
    def act_pick(self, card: int, current_player_id: int, args: dict[str, Any]) -> Any:
        self.globals.set(f"pick{current_player_id}", args["hand"][card])
        return Confirm


class Confirm(GameState):
    id = 11
    type = StateType.PRIVATE
    description_my_turn = "${you} must confirm"

    def get_args(self, player_id: int) -> dict[str, Any]:
        return {"choice": self.globals.get(f"pick{player_id}")}

    @possible_action
    def act_confirm(self, current_player_id: int) -> Any:
        self.gamestate.set_player_non_multiactive(current_player_id, "done")


def test_each_player_moves_through_private_state_classes_of_their_own(tmp_path: Path) -> None:
    class Planning(Table):
        pass

    info = GameInfo(name="planning", display_name="Planning", min_players=2, max_players=3)
    registry = GameRegistry(packages={})
    registry.add_definition(build_definition(info, Planning, [Plan, Choose, Confirm], []))
    with GameHarness("planning", tmp_path, registry) as h:
        table = h.create_table(players=2)
        a, b = table.players
        assert table.data(a)["gamestate"]["private_state"]["args"]["hand"] == [f"card-{a}-{n}" for n in range(3)]
        assert f"card-{a}-" not in str(table.data(b)) and f"card-{a}-" not in str(table.data(None))
        assert table.act_expecting_error(a, "confirm").code == "not_allowed_in_state"
        table.act(a, "pick", card=2)
        assert table.data(a)["gamestate"]["private_state"]["name"] == "Confirm"
        assert table.data(b)["gamestate"]["private_state"]["name"] == "Choose"
        assert f"card-{a}-2" not in str(table.notifications(b))
        table.act(a, "confirm")
        table.act(b, "pick", card="0")
        table.act(b, "confirm")
        assert table.is_over
        with table.read() as t:
            assert t.globals.get_all() == {f"pick{a}": f"card-{a}-2", f"pick{b}": f"card-{b}-0"}
