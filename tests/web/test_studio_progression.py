"""The lobby shows a studio table's true progression after a slot load or a jump to a state,
not the 100 % of the game it left."""

from __future__ import annotations

from flask import Flask
from sqlalchemy.orm import Session

from framework.core.kinds import TablePhase
from framework.platform.models import GameTableRecord
from framework.storage.sql.translate import translate_query
from tests.web.conftest import Browser


def set_progression(app: Flask, table_id: int, value: int) -> None:
    rt = app.extensions["arena"].runtime
    with rt.store.connect(rt.table_info(table_id).id) as db:
        db.execute(translate_query("UPDATE global SET global_value = %s WHERE global_id = 4", db.dialect), (value,))


def record(app: Flask, table_id: int) -> tuple[str, int]:
    with Session(app.extensions["arena"].runtime.platform) as s:
        rec = s.get(GameTableRecord, table_id)
        assert rec is not None
        return rec.status, rec.progression


def test_a_loaded_slot_shows_its_own_progression(app: Flask, browser: Browser, table_id: int) -> None:
    set_progression(app, table_id, 25)
    assert browser.post(f"/table/{table_id}/studio/save/1", json={}).status_code == 200
    with Session(app.extensions["arena"].runtime.platform) as s, s.begin():  # the game then ended
        rec = s.get(GameTableRecord, table_id)
        assert rec is not None
        rec.status, rec.progression = TablePhase.FINISHED, 100
    assert browser.post(f"/table/{table_id}/studio/load/1", json={}).status_code == 200
    assert record(app, table_id) == (TablePhase.PLAYING, 25)
    lobby = browser.get("/").data.decode()
    assert 'value="25"' in lobby and "25%" in lobby


def test_going_to_a_state_updates_the_lobby(app: Flask, browser: Browser, table_id: int) -> None:
    set_progression(app, table_id, 40)
    states = app.extensions["arena"].runtime.get_data(table_id, None)["gamestates"]
    target = next(int(i) for i, s in states.items() if s["name"] == "pick")
    answer = browser.post(f"/table/{table_id}/studio/jump", json={"state_id": target})
    assert answer.status_code == 200
    assert record(app, table_id)[1] == 40
