"""One developer alone at a studio table: bots at the other seats, then at their own;
save and load, replay, error log, bug report and the language switcher, in the browser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.test_belote_table import STEP_TIMEOUT_MS, wait_until


def test_a_developer_plays_alone_with_bots_and_studio_tools(chromium: Browser, live: dict[str, Any],
                                                            shots: Path) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, options={"target": 10}, seed="studio-1",
                               bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    me = int(rt.get_data(table_id, None)["playerorder"][0])
    # bypass_csp: Playwright's wait_for_function polls with eval, which the site's CSP refuses
    # (tests/browser/test_csp.py plays the same tools under the CSP)
    context = chromium.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live['url']}/table/{table_id}?as={me}")
    page.wait_for_selector(".bt-in-hand")
    expect(page.locator(f"#player_board_{me}")).not_to_have_class("bot")

    # The bots bid until it is my turn; I save the table there.
    wait_until(lambda: rt.get_data(table_id, None)["gamestate"]["active_player"] == me, what="my turn")
    page.wait_for_selector("#generalactions button", timeout=STEP_TIMEOUT_MS)
    hand = sorted(rt.get_data(table_id, me)["hand"])
    page.click('button[data-studio="save"][data-slot="1"]')
    expect(page.locator("#message-area .message").last).to_contain_text("Saved")

    # My seat goes to a bot: the bots play the game to its end without me.
    page.select_option(f'#bot-seats select[data-player="{me}"]', "beginner")
    wait_until(lambda: rt.get_data(table_id, None)["gamestate"]["name"] == "gameEnd", timeout=30,
               what="the bots finishing the game")
    expect(page.locator("#bt-final")).to_be_visible(timeout=30_000)
    expect(page.locator("#bt-final .bt-ranking li")).to_have_count(2)
    expect(page.locator(f"#player_board_{me}")).to_have_class(re.compile(r"\bbot\b"))
    expect(page.locator("#bt-sheet-table tr")).to_have_count(5)  # a header and four hands
    # the game is over: the server closed the stream for good and the page stays closed
    expect(page.locator("#connection")).to_have_attribute("data-state", "ended")
    page.screenshot(path=str(shots / "belote-final-ranking.png"))

    # Load slot 1: the table, and the page, are back where I saved.
    page.click('button[data-studio="load"][data-slot="1"]')
    wait_until(lambda: rt.get_data(table_id, None)["hands_played"] == 0, what="the slot loaded")
    page.wait_for_function("h => [...document.querySelectorAll('#bt-hand [data-card]')]"
                           ".map(n => n.dataset.card).sort().join() === h", arg=",".join(hand))
    expect(page.locator("#bt-sheet-table")).to_contain_text("No hand")
    expect(page.locator("#connection")).to_have_attribute("data-state", "online")  # streaming again

    # Replay from the start, the error log, a bug report.
    page.click('button[data-studio="replay"]')
    expect(page.locator("#replay-bar")).to_be_visible()
    page.click("#replay-exit")
    page.wait_for_function("() => !document.body.classList.contains('replaying') && Arena.gui.gamedatas", timeout=30_000)
    page.wait_for_selector("#generalactions button", timeout=STEP_TIMEOUT_MS)
    page.click('button[data-studio="errors"]')
    expect(page.locator("#studio-output")).to_contain_text("No error")
    page.fill("#bug-text", "the jack looks sad")
    page.click('button[data-studio="bug"]')
    expect(page.locator("#studio-output")).to_contain_text("/bugs/")
    page.goto(f"{live['url']}/bugs")
    expect(page.locator("#bug-reports")).to_contain_text("the jack looks sad")

    # The language switcher takes effect at once.
    page.goto(f"{live['url']}/table/{table_id}?as={me}")
    page.wait_for_selector(".bt-in-hand")
    page.select_option(".lang-switch select", "fr")
    page.wait_for_selector('html[lang="fr"]')
    page.wait_for_selector(".bt-in-hand")
    page.screenshot(path=str(shots / "belote-studio-fr.png"), full_page=True)
    assert not errors
    context.close()
