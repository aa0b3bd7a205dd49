"""Through the web: the browser's Accept-Language, the language switcher (at once, and winning
over the browser), pages, logs, state descriptions and errors in the player's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.web import create_app

TALLY = Path(__file__).resolve().parent / "fixtures" / "tally"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(TALLY, "arena_test_tally"))
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"),
                      "ARENA_REGISTRY": registry, "SECRET_KEY": "test"})
    yield app
    app.extensions["arena"].close()


@pytest.fixture
def table(app: Flask) -> tuple[int, int, int]:
    runtime = app.extensions["arena"].runtime
    table_id = runtime.create_table("tally", ["Anna", "Bela"], seed=1)
    anna, bela = runtime.get_data(table_id, None)["playerorder"]
    runtime.act(table_id, anna, "take", {"count": 2, "pile": "blue"})
    return table_id, anna, bela


def csrf(client: FlaskClient) -> str:
    found = CSRF.search(client.get("/").get_data(as_text=True))
    assert found
    return found.group(1)


def log_of(client: FlaskClient, table_id: int, pid: int, **headers: str) -> list[str]:
    resp = client.get(f"/table/{table_id}/log?as={pid}", headers=headers)
    assert resp.status_code == 200
    return [e["log"] for e in resp.get_json()["events"] if e["log"]]


def test_the_browsers_language(app: Flask, table: tuple[int, int, int]) -> None:
    table_id, anna, bela = table
    client = app.test_client()
    page = client.get("/", headers={"Accept-Language": "it-CH,it;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="it">' in page and "Giochi" in page
    assert log_of(client, table_id, bela, **{"Accept-Language": "fr-CA,fr;q=0.8"}) == [
        "Anna prend 2 jetons dans la pile bleue"]
    assert log_of(client, table_id, bela, **{"Accept-Language": "de"}) == [
        "Anna takes 2 tokens from the blue pile"]
    data = client.get(f"/table/{table_id}/data?as={bela}", headers={"Accept-Language": "hu"}).get_json()
    assert data["gamestate"]["descriptionmyturn"] == "Te következel: vegyél el zsetonokat (5 maradt)"


def test_switching_language_takes_effect_at_once_and_beats_the_browser(
    app: Flask, table: tuple[int, int, int],
) -> None:
    table_id, anna, bela = table
    client = app.test_client()
    headers = {"Accept-Language": "fr"}
    assert log_of(client, table_id, bela, **headers) == ["Anna prend 2 jetons dans la pile bleue"]
    resp = client.post("/lang", data={"lang": "hu", "csrf_token": csrf(client), "next": "/"})
    assert resp.status_code in (302, 303)
    assert log_of(client, table_id, bela, **headers) == ["Anna 2 zsetont vesz el (kék kupac)"]
    err = client.post(f"/table/{table_id}/act/take?as={anna}", json={"count": 1},
                      headers={**headers, "X-CSRF-Token": csrf(client)})
    assert err.status_code == 403
    assert err.get_json()["error"]["message"] == "Nem te következel"
    err = client.post(f"/table/{table_id}/act/take?as={bela}", json={"count": 9},
                      headers={**headers, "X-CSRF-Token": csrf(client)})
    assert err.get_json()["error"]["message"] == "Legfeljebb 3 zsetont vehetsz el, nem 9 darabot"
