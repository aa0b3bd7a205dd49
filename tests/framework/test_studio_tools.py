"""The studio's engine tools on every backend: a table saved as data and reopened as a new
studio table in the same state (what a bug report does)."""

from __future__ import annotations

import pytest

from framework.engine.studio_tools import restore_snapshot, snapshot
from framework.testing import TestTable


@pytest.mark.all_backends
def test_a_snapshot_reopens_as_a_table_in_the_same_state(lab_table: TestTable) -> None:
    runtime = lab_table.harness.site.runtime
    a = lab_table.players[0]
    lab_table.act(a, "pick", number=3)
    before = snapshot(runtime, lab_table.id)
    copy_id = restore_snapshot(runtime, before)
    assert copy_id != lab_table.id
    after = snapshot(runtime, copy_id)
    for name in ("global", "gamelog", "stats"):
        assert after["tables"][name]["rows"] == before["tables"][name]["rows"], name
    # the players as they were, their clocks started again from the reopening
    clocks = ("player_start_reflexion_time", "player_remaining_reflexion_time")
    assert [{k: v for k, v in r.items() if k not in clocks} for r in after["tables"]["player"]["rows"]] == \
        [{k: v for k, v in r.items() if k not in clocks} for r in before["tables"]["player"]["rows"]]
    assert runtime.get_data(copy_id, a)["gamestate"] == runtime.get_data(lab_table.id, a)["gamestate"]
