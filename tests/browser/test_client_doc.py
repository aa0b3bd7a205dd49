"""The complete example of docs/client.md is a test: its blocks become the client of a
scaffolded game, which is played in Chromium by clicking."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from framework.scaffold import new_game
from framework.web.server import registry_with
from tests.browser.conftest import serve_studio
from tests.browser.test_belote_table import wait_until

DOC = Path(__file__).resolve().parents[2] / "docs" / "client.md"
EXAMPLE = re.compile(r"<!-- example: (?P<path>[\w/.]+) -->\n```\w+\n(?P<code>.*?)\n```", re.S)


def example_files() -> dict[str, str]:
    """The doc's example blocks, by the game file each one is."""
    found = {m["path"]: m["code"] + "\n" for m in EXAMPLE.finditer(DOC.read_text(encoding="utf-8"))}
    assert set(found) == {"templates/pushluck.html", "static/pushluck.js"}, "docs/client.md lost its example"
    return found


@pytest.fixture(scope="module")
def doc_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    games = tmp_path_factory.mktemp("doc-games")
    folder = new_game("pushluck", games)
    for path, code in example_files().items():
        (folder / path).write_text(code, encoding="utf-8")
    yield from serve_studio(tmp_path_factory.mktemp("doc") / "instance", {"ARENA_REGISTRY": registry_with([games])})


def settle(page: Page, runtime: Any, table_id: int, pid: int) -> None:
    events = runtime.events(table_id, pid, 0, limit=100_000)
    page.wait_for_function(
        "last => window.Arena && Arena.gui && Arena.gui.gamedatas && Arena.lastId >= last "
        "&& Arena.queue.length === 0 && !Arena._processing && !Arena.gui.isInterfaceLocked()",
        arg=int(events[-1]["id"]) if events else 0,
    )


def test_the_client_doc_example_plays(chromium: Browser, doc_site: dict[str, Any]) -> None:
    rt = doc_site["runtime"]
    table_id = rt.create_table("pushluck", 2, options={"target": 1}, seed="doc-example")
    context = chromium.new_context()
    errors: list[str] = []
    context.on("page", lambda p: p.on("pageerror", lambda exc: errors.append(str(exc))))
    pages: dict[int, Page] = {}
    for pid in rt.get_data(table_id, None)["playerorder"]:
        pages[int(pid)] = context.new_page()
        pages[int(pid)].goto(f"{doc_site['url']}/table/{table_id}?as={pid}")
    busts = banks = 0
    for _move in range(200):
        data = rt.get_data(table_id, None)
        if (busts and banks) or data["gamestate"]["name"] == "gameEnd":
            break
        active = int(data["gamestate"]["active_player"])
        page = pages[active]
        settle(page, rt, table_id, active)
        total = int(data["gamestate"]["args"]["turn_total"])
        expect(page.locator("#pl-total")).to_have_attribute("data-value", str(total))
        expect(page.locator("#pl-deck .arena-deck-counter")).to_have_text(str(data["deck_count"]))
        bank = page.locator("#pl-bank")
        if total == 0:
            expect(bank).to_be_disabled()
        before = data["move"]
        drawn_before = page.locator("#pl-drawn .arena-card").count()
        page.click("#pl-bank" if total >= 6 else "#pl-draw")
        wait_until(lambda b=before: rt.get_data(table_id, None)["move"] > b, what="the move")
        settle(page, rt, table_id, active)
        last = rt.events(table_id, active, 0, limit=100_000)
        kinds = [e["type"] for e in last if e["type"] in ("draw", "bust", "bank")]
        if kinds[-1] == "draw":
            # The drawn card joined the row, face up, with its value.
            expect(page.locator("#pl-drawn .arena-card")).to_have_count(drawn_before + 1)
            card = next(e for e in reversed(last) if e["type"] == "draw")["args"]["card"]
            expect(page.locator(f"#pl-card-{card['id']}")).to_have_text(str(card["type_arg"]))
        else:
            # A bust fades the row out; a bank sends it to the panel and counts the score.
            expect(page.locator("#pl-drawn .arena-card")).to_have_count(0)
            score = rt.get_data(table_id, None)["players"][str(active)]["score"]
            expect(page.locator(f"#player_score_{active}")).to_have_text(str(score))
            busts += kinds[-1] == "bust"
            banks += kinds[-1] == "bank"
    assert banks, "the example banked at least once"
    assert not errors
    context.close()
