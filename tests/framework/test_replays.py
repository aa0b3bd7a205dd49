"""A table's recorded start, read back for a replay on every backend: the reader's view as the
table began, while the table itself stays exactly as it is."""

from __future__ import annotations

import pytest

from framework.engine.replays import start_data
from framework.engine.studio_tools import snapshot
from framework.site import Site


@pytest.mark.all_backends
def test_the_start_is_read_back_and_the_table_is_untouched(site: Site) -> None:
    rt = site.runtime
    table_id = rt.create_table("labgame", 3, seed=11)
    players = [int(p) for p in rt.get_data(table_id, None)["playerorder"]]
    for number, pid in enumerate(players, start=1):
        rt.act(table_id, pid, "pick", {"number": number})
    before = snapshot(rt, table_id)
    now = rt.get_data(table_id, players[0])
    start = start_data(rt.directory, table_id, players[0], None, rt.now)
    assert start["my_pick"] is None and now["my_pick"] == 1
    assert start["move"] == 0 and now["move"] == 3
    assert start["gamestate"]["name"] == "pick" and start["current_player_id"] == players[0]
    assert start["notifications"]["last_packet_id"] < now["notifications"]["last_packet_id"]
    assert snapshot(rt, table_id) == before  # read in a transaction that was rolled back
    spectator = start_data(rt.directory, table_id, None, None, rt.now)
    assert spectator["current_player_id"] is None and spectator["my_pick"] is None
