"""Studio tools: slots, go to a state, bots mid-game, errors, database view, bug reports."""

from __future__ import annotations

from flask import Flask

from framework.engine.studio_tools import restore_snapshot, set_bot, snapshot
from tests.web.conftest import Browser, fake_production


def test_save_and_load_slots(browser: Browser, table_id: int, players: list[int]) -> None:
    assert browser.post(f"/table/{table_id}/studio/save/2", json={}).get_json() == {"ok": True, "slot": 2}
    browser.act(table_id, players[0], "pick", number=4)
    assert browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()["my_pick"] == 4
    r = browser.post(f"/table/{table_id}/studio/load/2", json={})
    assert r.status_code == 200 and r.get_json()["reload"] is True
    assert browser.get(f"/table/{table_id}/data?as={players[0]}").get_json()["my_pick"] is None
    log = browser.get(f"/table/{table_id}/log?as={players[1]}").get_json()["events"]
    assert log[-1]["type"] == "studioReload"  # open pages reload
    assert browser.post(f"/table/{table_id}/studio/load/3", json={}).get_json()["error"]["code"] == "empty_slot"
    assert browser.post(f"/table/{table_id}/studio/save/7", json={}).get_json()["error"]["code"] == "bad_slot"
    assert browser.client.post(f"/table/{table_id}/studio/save/1", json={}).status_code == 400  # no CSRF


def test_go_to_a_state(browser: Browser, table_id: int, players: list[int]) -> None:
    r = browser.post(f"/table/{table_id}/studio/jump", json={"state_id": 4})
    assert r.status_code == 200
    data = browser.get(f"/table/{table_id}/data").get_json()
    assert data["gamestate"]["name"] == "bonus"
    for bad in ({"state_id": 42}, {"state_id": 1}, {"state_id": "x"}, {}):
        r = browser.post(f"/table/{table_id}/studio/jump", json=bad)
        assert r.status_code in (400, 404), bad
    assert browser.post(f"/table/{table_id}/studio/jump", json=[4]).status_code == 400


def test_a_bot_takes_a_seat_mid_game_and_plays(app: Flask, browser: Browser, table_id: int,
                                               players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=5)
    browser.act(table_id, players[1], "pick", number=4)
    # The lab game has no bot_turn: the framework plays its seat with zombie_turn.
    assert browser.post(f"/table/{table_id}/studio/bot", json={"player_id": players[2], "kind": "default"}
                        ).get_json()["error"]["code"] == "bad_bot"
    set_bot(app.extensions["arena"].runtime, table_id, players[2], "default")
    data = browser.get(f"/table/{table_id}/data").get_json()
    assert data["players"][str(players[2])]["bot"] == 1
    assert data["gamestate"]["name"] == "bonus"  # the bot picked, the round was revealed
    log = browser.get(f"/table/{table_id}/log").get_json()["events"]
    assert any(e["type"] == "botSeat" and "is now played by a bot" in e["log"] for e in log)
    assert browser.post(f"/table/{table_id}/studio/bot", json={"player_id": 999, "kind": ""}).status_code == 404
    r = browser.post(f"/table/{table_id}/studio/bot", json={"player_id": players[2], "kind": ""})
    assert r.status_code == 200
    assert browser.get(f"/table/{table_id}/data").get_json()["players"][str(players[2])]["bot"] == 0


def test_error_log_and_database_view(browser: Browser, table_id: int, players: list[int]) -> None:
    assert browser.get(f"/table/{table_id}/studio/errors").get_json() == {"errors": []}
    page = browser.get(f"/table/{table_id}/studio/database").data.decode()
    assert "pick" in page and "player" in page and "gamelog" in page and "zz_replay1_player" not in page
    copies = browser.get(f"/table/{table_id}/studio/database?copies=1").data.decode()
    assert "zz_replay1_player" in copies


def test_bug_report_reopens_as_a_new_table_in_that_state(app: Flask, browser: Browser, table_id: int,
                                                         players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=3)
    assert browser.post(f"/table/{table_id}/studio/bug?as={players[0]}", json={"text": "  "}).status_code == 400
    r = browser.post(f"/table/{table_id}/studio/bug?as={players[0]}", json={"text": "my pick <b>vanished</b>"})
    assert r.status_code == 200
    bug_id = r.get_json()["bug_id"]
    listing = browser.get("/bugs").data.decode()
    assert "my pick &lt;b&gt;vanished&lt;/b&gt;" in listing
    page = browser.get(f"/bugs/{bug_id}").data.decode()
    assert "You picked 3" in page and "Reopen" in page
    r = browser.post(f"/bugs/{bug_id}/reopen")
    assert r.status_code == 302
    new_id = int(r.headers["Location"].split("/table/")[1].split("?")[0])
    assert new_id != table_id
    rt = app.extensions["arena"].runtime
    old, new = snapshot(rt, table_id)["tables"], snapshot(rt, new_id)["tables"]
    for name in ("global", "pick", "stats", "gamelog"):
        assert old[name]["rows"] == new[name]["rows"], name
    clocks = ("player_start_reflexion_time", "player_remaining_reflexion_time")
    assert [{k: v for k, v in row.items() if k not in clocks} for row in old["player"]["rows"]] == \
        [{k: v for k, v in row.items() if k not in clocks} for row in new["player"]["rows"]]
    # It opens as the reporter, with clocks running again from now, not already out of time.
    assert r.headers["Location"].endswith(f"?as={players[0]}")
    reopened = browser.get(f"/table/{new_id}/data?as={players[0]}").get_json()
    assert reopened["current_player_id"] == players[0]
    assert all(p["time_left"] > 0 for p in reopened["players"].values())
    assert browser.get(f"/table/{new_id}/data?as={players[0]}").get_json()["my_pick"] == 3
    assert browser.get("/bugs/999").status_code == 404
    assert browser.post("/bugs/999/reopen").status_code == 404
    assert restore_snapshot(rt, snapshot(rt, new_id)) > new_id


def test_studio_tools_do_not_exist_on_production_tables(app: Flask, browser: Browser) -> None:
    fake_production(app)
    rt = app.extensions["arena"].runtime
    tid = rt.create_table("labgame", ["ann", "bob"], mode="production")
    for url in ("save/1", "load/1", "jump", "bot", "bug"):
        assert browser.post(f"/table/{tid}/studio/{url}", json={}).status_code == 404, url
    for url in ("errors", "database"):
        assert browser.get(f"/table/{tid}/studio/{url}").status_code == 404, url
    assert "studio-tools" not in browser.get(f"/table/{tid}").data.decode()
    assert browser.post("/table/999/studio/save/1", json={}).status_code == 404
