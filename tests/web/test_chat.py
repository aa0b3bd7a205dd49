"""A table's chat through its routes: who may write and hide, what a line may be (length,
one line of text, never HTML), the rate limit; refused lines store nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from framework.game.registry import GameRegistry
from framework.platform import chat
from tests.backends import PlatformTemplate
from tests.web.conftest import Browser
from tests.web.sites import Visitor, account_id, production_app


def lines(browser: Browser, table_id: int, query: str = "") -> dict[str, Any]:
    answer = browser.get(f"/table/{table_id}/chat{query}")
    assert answer.status_code == 200, answer.data[:300]
    return answer.get_json()  # type: ignore[no-any-return]


def say(browser: Browser, table_id: int, body: Any, as_: int | None = None) -> Any:
    suffix = f"?as={as_}" if as_ is not None else ""
    return browser.post(f"/table/{table_id}/chat{suffix}", json={"body": body})


def error_code(answer: Any) -> str:
    return str(answer.get_json()["error"]["code"])


def test_players_write_and_every_viewer_reads_lines_as_text(browser: Browser, table_id: int,
                                                            players: list[int]) -> None:
    first = say(browser, table_id, "  hello\r\n   table  ", as_=players[0])
    assert first.status_code == 200, first.data
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    assert say(browser, table_id, hostile, as_=players[1]).status_code == 200
    seen = lines(browser, table_id)  # a spectator reads too
    assert [(line["author_id"], line["body"]) for line in seen["lines"]] == [
        (players[0], "hello table"), (players[1], hostile)]
    assert seen["lines"][0]["author"] == "player1"
    assert seen["can_write"] is False and seen["closed"] == "Only the players of this table can chat"
    assert lines(browser, table_id, f"?as={players[2]}")["can_write"] is True
    after = lines(browser, table_id, f"?after={first.get_json()['line']['id']}")
    assert [line["body"] for line in after["lines"]] == [hostile]


def test_bad_lines_are_refused_and_store_nothing(browser: Browser, table_id: int, players: list[int]) -> None:
    too_long = say(browser, table_id, "x" * (chat.MAX_LENGTH + 1), as_=players[0])
    assert too_long.status_code == 400 and error_code(too_long) == "chat_too_long"
    assert "at most 500 characters (this one has 501)" in too_long.get_json()["error"]["message"]
    assert error_code(say(browser, table_id, " \n\t ", as_=players[0])) == "chat_empty"
    assert error_code(say(browser, table_id, ["not", "text"], as_=players[0])) == "chat_bad_message"
    spectator = say(browser, table_id, "hi", as_=0)
    assert spectator.status_code == 403 and error_code(spectator) == "chat_not_player"
    assert lines(browser, table_id)["lines"] == []
    assert say(browser, table_id, "x" * chat.MAX_LENGTH, as_=players[0]).status_code == 200


def test_the_rate_limit_refuses_a_flood(app: Flask, browser: Browser, table_id: int, players: list[int]) -> None:
    app.config["ARENA_CHAT_LIMIT"] = "3 per minute"
    answers = [say(browser, table_id, f"line {n}", as_=players[0]).status_code for n in range(4)]
    assert answers == [200, 200, 200, 429]
    assert say(browser, table_id, "another writer", as_=players[1]).status_code == 200
    assert [line["body"] for line in lines(browser, table_id)["lines"]] == [
        "line 0", "line 1", "line 2", "another writer"]


def test_the_studio_developer_hides_a_line_from_everyone(browser: Browser, table_id: int,
                                                         players: list[int]) -> None:
    line_id = say(browser, table_id, "rude words", as_=players[0]).get_json()["line"]["id"]
    say(browser, table_id, "kind words", as_=players[1])
    assert lines(browser, table_id)["moderator"] is True
    assert browser.post(f"/table/{table_id}/chat/{line_id}/hide", json={}).status_code == 200
    seen = lines(browser, table_id)
    assert seen["hidden"] == [line_id]
    assert [line["body"] for line in seen["lines"] if not line["hidden"]] == ["kind words"]
    assert "rude words" not in str(seen)
    missing = browser.post(f"/table/{table_id}/chat/{line_id + 99}/hide", json={})
    assert missing.status_code == 404 and error_code(missing) == "chat_no_line"


def test_production_players_chat_spectators_wait_and_only_developers_hide(
        tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> None:
    app = production_app(tmp_path, registry, platform_template)
    try:
        runtime = app.extensions["arena"].runtime
        table_id = runtime.create_table("labgame", ["pat", "dave", "ada"], seed=2, mode="production")
        pat, olga, dave = Visitor(app, "pat"), Visitor(app, "olga"), Visitor(app, "dave")
        anonymous = Visitor(app)
        written = say(pat, table_id, "good luck")
        assert written.status_code == 200
        line_id = written.get_json()["line"]["id"]
        assert [line["body"] for line in lines(anonymous, table_id)["lines"]] == ["good luck"]
        refused = say(olga, table_id, "I watch")
        assert refused.status_code == 403 and error_code(refused) == "chat_spectator"
        assert say(anonymous, table_id, "hi").status_code == 403
        as_someone_else = say(pat, table_id, "as dave", as_=account_id(app, "dave"))
        assert as_someone_else.status_code == 403
        # the table opens its chat to spectators (a game's set_meta, or a studio tool)
        runtime.apply_change(table_id, lambda table: table.set_meta("chat_spectators", "1"), "test: meta")
        assert say(olga, table_id, "I watch").status_code == 200
        assert lines(olga, table_id)["moderator"] is False
        forbidden = pat.post(f"/table/{table_id}/chat/{line_id}/hide", json={})
        assert forbidden.status_code == 403
        assert dave.post(f"/table/{table_id}/chat/{line_id}/hide", json={}).status_code == 200
        assert lines(pat, table_id)["hidden"] == [line_id]
    finally:
        app.extensions["arena"].close()

