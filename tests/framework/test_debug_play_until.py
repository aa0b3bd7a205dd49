"""``Debug.play_until``: the studio plays turns as zombies would until a condition holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from framework.core.errors import UserError
from framework.engine.debug import Debug
from framework.game.registry import GameRegistry
from framework.game.table import Table
from framework.testing import GameHarness
from tests.framework.test_state_classes import ROUNDS, tally_definition


def test_play_until_a_condition_then_to_the_end(tmp_path: Path) -> None:
    registry = GameRegistry(packages={})
    registry.add_definition(tally_definition())
    with GameHarness("tally", tmp_path, registry) as h:
        table = h.create_table(players=2, seed=5)
        debug = Debug(h.site.runtime)

        def second_round(count: int, t: Table) -> bool:
            return bool(t.round.get() >= 2)  # type: ignore[attr-defined]

        played = debug.play_until(table.id, second_round)
        assert played == 2 and not table.is_over
        players = table.players
        with table.read() as t:
            assert t.round.get() == 2 and t.credits.get_all() == dict.fromkeys(players, 1)
        with pytest.raises(UserError, match="played 1 turns and the condition still does not hold"):
            debug.play_until(table.id, lambda count: False, max_turns=1)
        assert debug.play_until(table.id, lambda count: False) == 2 * ROUNDS - 3
        assert table.is_over
