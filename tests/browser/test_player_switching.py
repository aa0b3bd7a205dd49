"""Studio test players in one tab (BGA's "see as" links) on Belote: switching reloads the same
tab as the other player, "follow the active player" switches to whoever must act, the tab's
title and favicon say whose turn it is, and "Go to state" confirms what it did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect


def seen_as(page: Page) -> int:
    """The player the tab shows the table as (its ``?as=``)."""
    found = re.search(r"[?&]as=(\d+)", page.evaluate("location.search"))
    return int(found.group(1)) if found else -1


def test_one_tab_switches_players_and_follows_the_active_one(chromium: Browser, live: dict[str, Any],
                                                             shots: Path) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, seed="switching-1")
    data = rt.get_data(table_id, None)
    players = [int(p) for p in data["playerorder"]]
    names = {int(pid): p["name"] for pid, p in data["players"].items()}
    active = int(data["gamestate"]["active_player"])
    other = next(p for p in players if p != active)

    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live['url']}/table/{table_id}?as={other}")
    page.wait_for_selector(".bt-in-hand")
    # Someone else's turn: the tab names them, and the favicon is drawn in their colour.
    expect(page).to_have_title(re.compile(rf"^{names[active]} to play · Belote #{table_id}"))
    icon = page.locator("link[rel~='icon']").get_attribute("href") or ""
    assert icon.startswith("data:image/svg+xml") and data["players"][str(active)]["color"] in icon
    assert page.evaluate("document.body.dataset.turn") == str(active)

    # "Play as" the active player: the same tab reloads as them; it is their turn.
    page.click(f'#test-players a.seat[data-player="{active}"]')
    page.wait_for_url(re.compile(rf"as={active}\b"))
    page.wait_for_selector(".bt-in-hand")
    assert len(context.pages) == 1
    expect(page).to_have_title(re.compile(rf"^▶ Your turn · Belote #{table_id}"))
    expect(page.locator(f'#test-players a.seat[data-player="{active}"]')).to_have_class(re.compile(r"\bcurrent\b"))
    page.screenshot(path=str(shots / "switching-your-turn.png"))

    # Back to another player, then "follow the active player": the tab goes to whoever must act.
    page.click(f'#test-players a.seat[data-player="{other}"]')
    page.wait_for_url(re.compile(rf"as={other}\b"))
    page.wait_for_selector(".bt-in-hand")
    page.click("#follow-active")  # the tab leaves at once: no waiting for the box to look checked
    page.wait_for_url(re.compile(rf"as={active}\b"))
    page.wait_for_selector(".bt-in-hand")
    expect(page).to_have_title(re.compile(r"^▶ Your turn"))
    expect(page.locator("#follow-active")).to_be_checked()  # kept across the reload

    # Each player passes in turn: the one tab follows the turn round the table.
    for _ in range(2):
        now = int(rt.get_data(table_id, None)["gamestate"]["active_player"])
        page.wait_for_url(re.compile(rf"as={now}$"))
        page.wait_for_selector("#generalactions button")
        rt.act(table_id, now, "bid", {"bid": "pass"})
        nxt = int(rt.get_data(table_id, None)["gamestate"]["active_player"])
        assert nxt != now
        page.wait_for_url(re.compile(rf"as={nxt}$"))
        page.wait_for_selector(".bt-in-hand")
    assert len(context.pages) == 1

    # Unchecked: the tab stays with its player when the turn moves on.
    page.uncheck("#follow-active")
    stay = seen_as(page)
    page.wait_for_selector("#generalactions button")
    rt.act(table_id, stay, "bid", {"bid": "pass"})
    expect(page).to_have_title(re.compile(r"to play · Belote"))
    assert seen_as(page) == stay and len(context.pages) == 1

    # "Go to state" says what happened.
    bidding = next(st["id"] for st in rt.get_data(table_id, None)["gamestates"].values() if st["name"] == "playerBid")
    page.select_option("#jump-state", str(bidding))
    page.click('button[data-studio="jump"]')
    expect(page.locator("#message-area .message").last).to_contain_text(f"The table went to state {bidding} playerBid")
    expect(page.locator("#studio-output")).to_contain_text("playerBid")
    assert not errors
    context.close()
