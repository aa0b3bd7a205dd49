"""Client mistakes that used to answer 500 (issue 16, finding 8), each answered 4xx with a
clear, translated message and nothing changed; on every backend where the database is what
used to fail (a NUL byte on PostgreSQL, a 65-character seed on PostgreSQL and MariaDB)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from framework.game.registry import GameRegistry
from framework.web import create_app
from tests.backends import PlatformTemplate
from tests.web.conftest import Browser

DEEP = b"[" * 10000 + b"]" * 10000


@pytest.fixture
def backend_app(tmp_path: Path, registry: GameRegistry, database_url: str | None,
                platform_template: PlatformTemplate) -> Iterator[Flask]:
    """The web app of the lab game on the test's backend."""
    platform_template.seed(tmp_path / "instance", database_url)
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "ARENA_REGISTRY": registry,
                      "ARENA_DATABASE_URL": database_url, "SECRET_KEY": "test", "SSE_MAX_SECONDS": 0.3})
    yield app
    app.extensions["arena"].close()


def _json_error(r: object) -> dict[str, str]:
    body = r.get_json()  # type: ignore[attr-defined]
    assert body is not None, r.data  # type: ignore[attr-defined]
    return body["error"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ deeply nested JSON
@pytest.mark.parametrize("route", ["/table/{t}/act/pick?as={p}", "/table/{t}/studio/jump", "/table/{t}/studio/bug"])
def test_deeply_nested_json_is_refused(browser: Browser, table_id: int, players: list[int], route: str) -> None:
    url = route.format(t=table_id, p=players[0])
    r = browser.client.post(url, data=DEEP, headers={"Content-Type": "application/json", "X-CSRF-Token": browser.token})
    assert r.status_code == 400
    assert _json_error(r) == {"code": "json_too_deep", "message": "This request's JSON is nested too deeply"}
    fr = browser.client.post(url, data=b"[" * 40 + b"]" * 40, headers={
        "Content-Type": "application/json", "X-CSRF-Token": browser.token, "Accept-Language": "fr"})
    assert fr.status_code == 400 and _json_error(fr)["message"] == "Le JSON de cette requête est trop imbriqué"


def test_json_within_the_depth_limit_is_taken(browser: Browser, table_id: int, players: list[int]) -> None:
    r = browser.act(table_id, players[0], "shout", words=["a"], loud=False)
    assert r.status_code == 200


def test_a_body_over_the_limit_is_refused(app: Flask, browser: Browser, table_id: int, players: list[int]) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    r = browser.client.post(f"/table/{table_id}/studio/bug", data=b'{"text": "' + b"x" * limit + b'"}',
                            headers={"Content-Type": "application/json", "X-CSRF-Token": browser.token})
    assert r.status_code == 413 and _json_error(r)["message"] == "This request is too large"
    too_many = {f"f{i}": "1" for i in range(app.config["MAX_FORM_PARTS"] + 1)}
    assert browser.post("/tables", data=too_many, content_type="multipart/form-data").status_code == 413
    big = {"game": "x" * (app.config["MAX_FORM_MEMORY_SIZE"] + 1)}  # one field of a multipart form
    assert browser.post("/tables", data=big, content_type="multipart/form-data").status_code == 413


# ------------------------------------------------------------------ odd form keys
def test_an_option_key_that_is_not_a_number_is_refused(browser: Browser) -> None:
    r = browser.post("/tables", data={"game": "labgame", "players": "2", "mode": "studio", "option_²": "1"})
    assert r.status_code == 400
    assert "Game labgame has no option ²" in r.data.decode()


# ------------------------------------------------------------------ NUL bytes
def _signed_up(app: Flask, name: str) -> Browser:
    b = Browser(app.test_client())
    assert b.post("/register", data={"name": name, "password": "secret-" + name}).status_code == 302
    b.refresh_token()
    return b


@pytest.mark.all_backends
def test_nul_bytes_are_refused_on_every_backend(backend_app: Flask) -> None:
    b = Browser(backend_app.test_client())
    for url, data in [("/login", {"name": "ann\x00", "password": "x"}),
                      ("/register", {"name": "b\x00b", "password": "secret-bob"}),
                      ("/tables", {"game": "labgame", "players": "2", "mode": "studio", "seed": "s\x00"})]:
        r = b.post(url, data=data)
        assert r.status_code == 400, (url, r.status_code)
        assert "This request contains a NUL character" in r.data.decode(), url
    for url in ["/game/lab\x00game/news", "/studio/lab%00game", "/gamehelp/lab%00game", "/?lang=%00"]:
        r = b.get(url)
        assert r.status_code == 400, (url, r.status_code)
    runtime = backend_app.extensions["arena"].runtime
    table_id = runtime.create_table("labgame", 2, seed=1)
    r = b.post(f"/table/{table_id}/studio/bug", json={"text": "it broke \x00 here"})
    assert r.status_code == 400 and _json_error(r)["code"] == "nul_character"
    r = b.post(f"/table/{table_id}/studio/bug", data={"text": "it broke \x00 here"})
    assert r.status_code == 400
    fr = b.client.post("/login", data={"name": "a\x00", "password": "x", "csrf_token": b.token},
                       headers={"Accept-Language": "fr"})
    assert "Cette requête contient un caractère NUL" in fr.data.decode()
    assert runtime.errors(table_id) == []
    assert b.post(f"/table/{table_id}/studio/bug", json={"text": "it broke here"}).status_code == 200


# ------------------------------------------------------------------ long seeds
@pytest.mark.all_backends
def test_a_seed_longer_than_the_column_is_refused(backend_app: Flask) -> None:
    b = Browser(backend_app.test_client())
    r = b.post("/tables", data={"game": "labgame", "players": "2", "mode": "studio", "seed": "s" * 65})
    assert r.status_code == 400
    assert "A seed has at most 64 characters" in r.data.decode()
    assert "No table yet" in b.get("/").data.decode()  # nothing was created
    ok = b.post("/tables", data={"game": "labgame", "players": "2", "mode": "studio", "seed": "s" * 64})
    assert ok.status_code == 302


# ------------------------------------------------------------------ go to a state
@pytest.fixture
def belote_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "test"})
    yield app
    app.extensions["arena"].close()


@pytest.mark.parametrize("state_id", [40, 45, 50])
def test_a_jump_to_a_state_the_table_cannot_enter_is_refused(belote_app: Flask, state_id: int) -> None:
    b = Browser(belote_app.test_client())
    runtime = belote_app.extensions["arena"].runtime
    table_id = runtime.create_table("belote", 4, seed=3)
    before = runtime.get_data(table_id, None)
    r = b.post(f"/table/{table_id}/studio/jump", json={"state_id": state_id})
    assert r.status_code == 409
    error = _json_error(r)
    assert error["code"] == "state_unreachable"
    assert error["message"].startswith(f"The table cannot go to state {state_id} from where it is (nothing changed): ")
    after = runtime.get_data(table_id, None)
    assert after["gamestate"] == before["gamestate"] and after["move"] == before["move"]
    assert [e["action"] for e in runtime.errors(table_id)] == [f"jump_to_state({state_id})"]  # for the developer
    fr = b.client.post(f"/table/{table_id}/studio/jump", json={"state_id": state_id},
                       headers={"X-CSRF-Token": b.token, "Accept-Language": "fr"})
    assert _json_error(fr)["message"].startswith(f"La table ne peut pas aller à l'état {state_id}")


# ------------------------------------------------------------------ a table finished twice
@pytest.mark.all_backends
def test_the_final_move_again_after_a_slot_load_is_answered(backend_app: Flask) -> None:
    b = Browser(backend_app.test_client())
    runtime = backend_app.extensions["arena"].runtime
    table_id = runtime.create_table("labgame", 2, {100: 1, 101: 0}, seed=1)  # one round, no bonus
    first, second = (int(p) for p in runtime.get_data(table_id, None)["playerorder"])
    assert b.act(table_id, first, "pick", number=2).status_code == 200
    assert b.post(f"/table/{table_id}/studio/save/1").status_code == 200
    r = b.act(table_id, second, "pick", number=2)
    assert r.status_code == 200 and r.get_json()["game_over"] is True
    assert b.post(f"/table/{table_id}/studio/load/1").status_code == 200
    r = b.act(table_id, second, "pick", number=3)  # finished a second time, with another result
    assert r.status_code == 200, r.data
    assert r.get_json()["game_over"] is True
    ranking = {row["player_id"]: row["rank"] for row in runtime.ranking(table_id)}
    assert ranking == {second: 1, first: 2}
