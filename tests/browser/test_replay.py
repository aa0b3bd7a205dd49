"""The replay of a finished Belote game in Chromium: it starts from the table as it began (not
over the final table), steps by move and by hand, plays, pauses, changes speed, moves along
its progress bar, shows only what its reader saw, and only shows the final ranking at the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.test_belote_table import wait_until


def position(page: Page) -> int:
    return int(page.locator("#replay-bar").get_attribute("data-position") or -1)


def hand_cards(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("#bt-hand [data-card]", "nodes => nodes.map(n => n.dataset.card)"))


def test_replay_timeline_on_a_finished_belote_game(chromium: Browser, live: dict[str, Any], shots: Path) -> None:
    rt = live["runtime"]
    # Four bots play a whole game of four hands as the table is created.
    table_id = rt.create_table("belote", 4, options={"target": 10}, seed="replay-1", bots=(0, 1, 2, 3))
    assert rt.is_over(table_id)
    me = int(rt.get_data(table_id, None)["playerorder"][0])
    mine = [e for e in rt.events(table_id, me, 0, limit=10_000) if e["type"] == "newHand"]
    first_hand = set(mine[0]["args"]["cards"])
    others = {c for pid in rt.get_data(table_id, None)["playerorder"] if int(pid) != me
              for e in rt.events(table_id, int(pid), 0, limit=10_000) if e["type"] == "newHand"
              for c in e["args"]["cards"]}

    context = chromium.new_context(viewport={"width": 1300, "height": 950}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live['url']}/table/{table_id}?as={me}")
    expect(page.locator("#bt-final")).to_be_visible()
    expect(page.locator("#replay-open")).to_be_visible()  # a finished table offers its replay

    with page.expect_response(lambda r: "/replay" in r.url) as answer:
        page.click("#replay-open")
    body = answer.value.json()
    # Only what I could see: my own dealt cards, never another player's private deal.
    assert all(e["type"] != "newHand" or set(e["args"]["cards"]) <= set().union(*(set(m["args"]["cards"])
               for m in mine)) for e in body["events"])
    assert not [e for e in body["events"] if e["private"] and e["type"] == "newHand"
                and set(e["args"]["cards"]) & (others - {c for m in mine for c in m["args"]["cards"]})]

    bar = page.locator("#replay-bar")
    expect(bar).to_be_visible()
    expect(page.locator("#replay-tag")).to_have_text("Replay")  # the status bar says so
    expect(bar.locator(".replay-badge")).to_be_visible()
    assert page.title().startswith("Replay")
    length = int(bar.get_attribute("data-length") or 0)
    assert length > 40
    # The start: no final ranking, no score sheet, scores at zero, no card dealt yet.
    assert position(page) == 0
    expect(page.locator("#bt-final")).to_be_hidden()
    expect(page.locator("#bt-sheet-table")).to_contain_text("No hand")
    expect(page.locator("#bt-team-score-0")).to_have_text("0")
    assert hand_cards(page) == set()
    page.screenshot(path=str(shots / "replay-start.png"))

    # One move: the deal, my five cards (as I saw them), nobody else's.
    page.click("#replay-next")
    wait_until(lambda: position(page) == 1, what="one move forward")
    wait_until(lambda: hand_cards(page) == first_hand, what="my first hand")
    assert not hand_cards(page) & (others - first_hand)

    # The next deal: one line on the score sheet; one move back: that hand is not scored yet;
    # the deal before: the first one again.
    page.click("#replay-next-hand")
    wait_until(lambda: position(page) > 1, what="the next hand")
    second = position(page)
    expect(page.locator("#bt-sheet-table tr")).to_have_count(2)  # a header and one hand
    expect(page.locator("#bt-final")).to_be_hidden()
    page.click("#replay-prev")
    wait_until(lambda: position(page) == second - 1, what="one move back")
    expect(page.locator("#bt-sheet-table")).to_contain_text("No hand")
    page.click("#replay-prev-hand")
    wait_until(lambda: position(page) == 1, what="back to the first deal")

    # Play at ×8, then pause: the position moves on, then holds.
    page.select_option("#replay-speed", "8")
    page.click("#replay-play")
    expect(bar).to_have_attribute("data-playing", "1")
    wait_until(lambda: position(page) >= 4, timeout=20, what="playing")
    page.click("#replay-play")
    expect(bar).to_have_attribute("data-playing", "0")
    held = position(page)
    page.wait_for_timeout(400)
    assert position(page) == held

    # The progress bar: halfway, then the end, where the final ranking appears.
    page.eval_on_selector("#replay-progress", "(n, v) => { n.value = v; n.dispatchEvent(new Event('change')); }",
                          str(length // 2))
    wait_until(lambda: position(page) == length // 2, what="halfway")

    expect(page.locator("#replay-position")).to_contain_text(f"{length // 2}")
    expect(page.locator("#bt-final")).to_be_hidden()
    page.screenshot(path=str(shots / "replay-halfway.png"))
    page.click("#replay-last")
    wait_until(lambda: position(page) == length, what="the end")
    expect(page.locator("#bt-final")).to_be_visible()
    expect(page.locator("#bt-sheet-table tr")).to_have_count(5)
    page.screenshot(path=str(shots / "replay-end.png"))

    # Nobody can act in a replay; back to the table as it is.
    assert page.evaluate("Arena.gui.isCurrentPlayerActive()") is False
    page.click("#replay-exit")
    expect(bar).to_have_count(0)
    page.wait_for_function("() => !document.body.classList.contains('replaying')")
    expect(page.locator("#bt-final")).to_be_visible()
    # The tab's title is redrawn once the table's own state has loaded again (asynchronously).
    page.wait_for_function("() => !document.title.startsWith('Replay')", timeout=10_000)
    assert page.title().startswith("End of game")

    # The lobby's finished tables link to their replay.
    page.goto(live["url"] + "/")
    page.click(f'#finished a.review[href^="/table/{table_id}?"]')
    expect(page.locator("#replay-bar")).to_be_visible()
    expect(page.locator("#bt-final")).to_be_hidden()
    assert not errors, json.dumps(errors)
    context.close()
