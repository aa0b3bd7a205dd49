"""The table's features on Belote, in Chromium: the last trick on demand, the chat (a line that
looks like HTML stays text), the turn alert (the beep is counted, the hidden tab's title
flashes and comes back), leaving the game (the zombie plays to the end, the page becomes a
spectator's) and the end-of-game statistics panel. Screenshots go to build/screenshots/.

The contexts bypass the CSP: Playwright's ``wait_for_function`` polls with eval (and without
the CSP an injected ``onerror`` would run, which makes the chat's check stronger).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from framework.engine.debug import Debug

FOUR_HANDS = {"target": 10}
TIMEOUT_MS = 15_000


@pytest.fixture
def contexts(chromium: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def open_page(chromium: Browser, contexts: list[BrowserContext], url: str, errors: list[str]) -> Page:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_function("() => window.Arena && Arena.gui && Arena.gui.gamedatas", timeout=TIMEOUT_MS)
    return page


def test_last_trick_button_shows_the_trick_just_taken(chromium: Browser, live: dict[str, Any],
                                                      contexts: list[BrowserContext], shots: Path) -> None:
    runtime = live["runtime"]
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=21)
    Debug(runtime).play_until(table_id, lambda n, t: t.gamestate.state().name == "playerTurn"
                              and len(t.play_state().tricks) == 2)
    won = [e for e in runtime.events(table_id, None, 0, limit=10_000) if e["type"] == "trickWin"][-1]["args"]
    me = runtime.get_data(table_id, None)["playerorder"][0]
    errors: list[str] = []
    page = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as={me}", errors)
    page.click("#last-trick-button")
    dialog = page.locator("#last-trick-dialog")
    expect(dialog).to_be_visible()
    cards = dialog.locator(".last-trick-card")
    expect(cards).to_have_count(4)
    assert [cards.nth(i).get_attribute("data-card") for i in range(4)] == won["cards"]
    assert dialog.locator(".last-trick-card svg").count() == 4  # drawn by Belote's faces
    winner = dialog.locator(".last-trick-card.winner")
    assert winner.get_attribute("data-player") == str(won["player_id"])
    expect(dialog.locator(".last-trick-summary")).to_contain_text(f"{won['points']} points")
    page.screenshot(path=str(shots / "table-last-trick.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert not errors


def test_chat_lines_reach_the_other_player_as_text(chromium: Browser, live: dict[str, Any],
                                                   contexts: list[BrowserContext], shots: Path) -> None:
    runtime = live["runtime"]
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=22)
    first, second = runtime.get_data(table_id, None)["playerorder"][:2]
    errors: list[str] = []
    writer = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as={first}", errors)
    reader = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as={second}", errors)
    spectator = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as=0", errors)
    hostile = '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"><b>bold</b>'
    writer.fill("#chat-input", hostile)
    writer.press("#chat-input", "Enter")
    expect(writer.locator("#chat-input")).to_have_value("")
    for page in (writer, reader, spectator):
        line = page.locator("#chat-lines .chat-line")
        expect(line).to_have_count(1, timeout=TIMEOUT_MS)  # the others' pages poll for it
        expect(line.locator(".chat-body")).to_have_text(hostile)
        expect(line.locator(".chat-author")).to_have_text("player1")
        assert page.locator("#chat-lines img, #chat-lines script, #chat-lines .chat-body b").count() == 0
        assert page.evaluate("() => window.pwned") is None
    # a studio spectator reads but does not write
    expect(spectator.locator("#chat-form")).to_be_hidden()
    expect(spectator.locator("#chat-closed")).to_have_text("Only the players of this table can chat")
    reader.fill("#chat-input", "x" * 501)  # the field stops at 500: the line goes out cut
    assert len(reader.input_value("#chat-input")) == 500
    reader.screenshot(path=str(shots / "table-chat.png"))
    assert not errors


def make_hidden(page: Page, hidden: bool) -> None:
    """The tab is hidden (or shown), as a browser says it when the player switches tabs."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
        Object.defineProperty(document, 'visibilityState', {configurable: true,
                                                            get: () => hidden ? 'hidden' : 'visible'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)


def test_turn_alert_beeps_and_flashes_the_hidden_tab_title(chromium: Browser, live: dict[str, Any],
                                                           contexts: list[BrowserContext]) -> None:
    runtime = live["runtime"]
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=23)
    data = runtime.get_data(table_id, None)
    order = data["playerorder"]
    active = data["gamestate"]["active_player"]
    following = order[(order.index(active) + 1) % 4]
    errors: list[str] = []
    page = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as={following}", errors)
    page.evaluate("() => { window.beeps = 0; Arena.alerts.onSound(() => { window.beeps += 1; }); }")
    title = page.title()
    assert page.evaluate("() => Arena.alerts.sounds") == 0  # opening the page alerts nobody
    make_hidden(page, True)
    runtime.act(table_id, active, "bid", {"bid": "pass"})
    page.wait_for_function("() => window.beeps === 1 && Arena.alerts.isFlashing()", timeout=TIMEOUT_MS)
    page.wait_for_function("() => document.title.includes('Your turn!')", timeout=TIMEOUT_MS)
    # it flashes: back to the page's own title, which now says it is this player's turn
    page.wait_for_function("() => !document.title.includes('Your turn!')", timeout=TIMEOUT_MS)
    turn_title = page.title()
    assert turn_title != title and turn_title.startswith("▶ Your turn · ")
    make_hidden(page, False)
    assert not page.evaluate("() => Arena.alerts.isFlashing()")
    assert page.title() == turn_title
    # turned off: the next turn makes no sound (the choice is kept in the browser)
    expect(page.locator("#turn-sound-toggle")).to_have_text("Turn sound: on")
    page.click("#turn-sound-toggle")
    expect(page.locator("#turn-sound-toggle")).to_have_text("Turn sound: off")
    assert page.evaluate("() => localStorage.getItem('arena.turnSound')") == "off"
    runtime.act(table_id, following, "bid", {"bid": "pass"})
    page.wait_for_function("() => !document.body.classList.contains('my-turn')", timeout=TIMEOUT_MS)
    for pid in order[(order.index(following) + 1) % 4:] + order[:(order.index(following) + 1) % 4]:
        if pid == following:
            break
        runtime.act(table_id, pid, "bid", {"bid": "pass"})
    page.wait_for_function("() => document.body.classList.contains('my-turn')", timeout=TIMEOUT_MS)
    assert page.evaluate("() => window.beeps") == 1
    assert not errors


def test_leaving_hands_the_seat_to_the_zombie_and_the_end_panel_shows_the_statistics(
        chromium: Browser, live: dict[str, Any], contexts: list[BrowserContext], shots: Path) -> None:
    runtime = live["runtime"]
    table_id = runtime.create_table("belote", 4, FOUR_HANDS, seed=24, bots=[1, 2, 3])
    me = runtime.get_data(table_id, None)["playerorder"][0]
    errors: list[str] = []
    page = open_page(chromium, contexts, f"{live['url']}/table/{table_id}?as={me}", errors)
    expect(page.locator("#end-panel")).to_be_hidden()
    button = page.locator("#concede-button")
    expect(button).to_be_visible()
    button.click()
    page.locator(".arena-dialog [data-answer=no]").click()  # changed their mind: nothing happens
    assert not runtime.is_over(table_id)
    button.click()
    expect(page.locator(".arena-dialog-text")).to_contain_text("A bot plays your seat")
    page.locator(".arena-dialog [data-answer=yes]").click()
    page.wait_for_function("() => Arena.gui.isSpectator", timeout=TIMEOUT_MS)
    assert runtime.is_over(table_id)  # the zombie played every turn of the seat
    expect(button).to_be_hidden()
    expect(page.locator("body")).to_have_class(re.compile(r"\bspectator\b"))
    panel = page.locator("#end-panel")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    expect(panel.locator(".end-ranking tbody tr")).to_have_count(4)
    expect(panel.locator(".end-table-stats [data-stat=hands_played] td")).to_have_text("4")
    expect(panel.locator(".end-table-stats [data-stat=hands_played] th")).to_have_text("Hands played")
    tricks = panel.locator(".end-player-stats [data-stat=tricks_won] td")
    expect(tricks).to_have_count(4)
    assert sum(int(tricks.nth(i).inner_text()) for i in range(4)) == 32
    page.evaluate("() => { const f = document.getElementById('bt-final'); if (f) f.hidden = true; }")
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "table-end-panel.png"), full_page=True)
    assert not errors
