"""``/table/<id>/replay``: the reader's view of the table as it began and the log after it,
filtered per reader like every other read; the table itself never changes."""

from __future__ import annotations

from flask import Flask

from framework.core.kinds import TableMode
from framework.engine.replays import START_KEY
from tests.web.conftest import Browser, fake_production


def test_replay_starts_from_the_beginning_not_the_end(browser: Browser, table_id: int, players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=4)
    browser.act(table_id, players[1], "pick", number=2)
    now = browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()
    assert now["my_pick"] == 4

    answer = browser.get(f"/table/{table_id}/replay?as={players[0]}").get_json()
    start = answer["start"]
    assert start["my_pick"] is None  # as it was before anyone picked
    assert start["gamestate"]["name"] == "pick" and start["current_player_id"] == players[0]
    assert start["notifications"]["last_packet_id"] < now["notifications"]["last_packet_id"]
    types = [e["type"] for e in answer["events"]]
    assert types.count("picked") == 2 and types.count("myPick") == 1  # my own private note only
    assert all(e["id"] > start["notifications"]["last_packet_id"] for e in answer["events"])
    assert answer["over"] is False

    # Reading the start changed nothing: the table is where it was.
    again = browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()
    assert again["my_pick"] == 4 and again["notifications"] == now["notifications"]


def test_a_spectator_replays_only_what_was_public(browser: Browser, table_id: int, players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=3)
    answer = browser.get(f"/table/{table_id}/replay").get_json()
    assert answer["start"]["current_player_id"] is None
    assert not [e for e in answer["events"] if e["private"] or e["type"] == "myPick"]
    assert "You picked" not in str(answer)


def test_a_table_without_a_recorded_start_says_so(app: Flask, browser: Browser, table_id: int) -> None:
    rt = app.extensions["arena"].runtime
    with rt.store.connect(rt.table_info(table_id).id) as db:
        db.execute("DELETE FROM arena_meta WHERE meta_key = ?" if db.dialect == "sqlite"
                   else "DELETE FROM arena_meta WHERE meta_key = %s", (START_KEY,))
    answer = browser.get(f"/table/{table_id}/replay")
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "no_replay"


def test_replay_of_an_unknown_table_is_a_404(browser: Browser) -> None:
    assert browser.get("/table/4242/replay").status_code == 404


def test_a_spectator_reviews_a_production_table(app: Flask) -> None:
    fake_production(app)
    rt = app.extensions["arena"].runtime
    table_id = rt.create_table("labgame", ["ann", "bob", "cid"], seed=5, mode=TableMode.PRODUCTION)
    players = [int(p) for p in rt.get_data(table_id, None)["playerorder"]]
    for number, pid in enumerate(players, start=1):
        rt.act(table_id, pid, "pick", {"number": number})
    anonymous = Browser(app.test_client())
    answer = anonymous.get(f"/table/{table_id}/replay")
    assert answer.status_code == 200, answer.data[:300]
    body = answer.get_json()
    assert body["start"]["current_player_id"] is None and body["start"]["mode"] == "production"
    assert [e["type"] for e in body["events"]].count("picked") == 3
    assert not [e for e in body["events"] if e["private"]]
    # Nobody reviews a production table as one of its players without being them.
    refused = anonymous.get(f"/table/{table_id}/replay?as={players[0]}")
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "wrong_player"
