"""`arena new-game`, then the lobby: a table of the new game is created and played to its
end by clicking, switching test players with the studio's "Play as" links, with no edit of
the scaffolded files. Parametrized by scaffold style."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, BrowserContext, Page, expect

from framework.cli import main
from framework.web.server import registry_with
from tests.browser.conftest import serve_studio
from tests.browser.test_belote_table import STEP_TIMEOUT_MS, wait_until

NAME = "luckydraw"  # not the doc example's pushluck: one module name per game
STYLES = ["classic", "states"]
MAX_MOVES = 400


@pytest.fixture(scope="module", params=STYLES)
def scaffolded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A studio whose games include one just made by ``arena new-game`` in a temporary folder."""
    style = request.param
    games = tmp_path_factory.mktemp(f"games-{style}")
    args = ["new-game", NAME, "--dir", str(games), "--style", style]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert (games / NAME / "static" / f"{NAME}.js").exists()
    instance = tmp_path_factory.mktemp(f"scaffold-{style}") / "instance"
    for site in serve_studio(instance, {"ARENA_REGISTRY": registry_with([games])}):
        yield dict(site, style=style, folder=games / NAME)


def settled(page: Page, runtime: Any, table_id: int, pid: int) -> None:
    """The page has handled every notification the server has for ``pid``."""
    events = runtime.events(table_id, pid, 0, limit=100_000)
    last = int(events[-1]["id"]) if events else 0
    page.wait_for_function(
        "last => window.Arena && Arena.gui && Arena.gui.gamedatas && Arena.lastId >= last "
        "&& Arena.queue.length === 0 && !Arena._processing && !Arena.gui.isInterfaceLocked()",
        arg=last, timeout=STEP_TIMEOUT_MS,
    )


def view(page: Page) -> dict[str, Any]:
    """What a player sees of the table, as data, read in one go once the deck's counter is
    on the page: a reload or the replay's exit builds the table again, and ``settled`` can
    hold before that is done (CI read a null counter between a separate wait and the read)."""
    handle = page.wait_for_function(f"""() => {{
        const counter = document.querySelector("#{NAME}-deck .arena-deck-counter");
        return counter && {{
            deck: counter.textContent,
            discard: [...document.querySelectorAll("#{NAME}-discard .arena-card")].map(n => n.textContent),
            total: document.getElementById("{NAME}-turn-total").dataset.value,
            scores: [...document.querySelectorAll("[id^=player_score_]")].map(n => n.dataset.value),
            turns: [...document.querySelectorAll("[id^=panel_turn_]")].map(n => n.dataset.value),
            pawns: [...document.querySelectorAll(".{NAME}-pawn")].map(n => n.style.left),
            buttons: [...document.querySelectorAll("#generalactions button")].map(b => b.id),
        }};
    }}""", timeout=STEP_TIMEOUT_MS)
    data: dict[str, Any] = handle.json_value()
    return data


def page_for(pages: dict[int, Page], context: BrowserContext, pid: int) -> Page:
    """The tab of test player ``pid``: a new tab at the studio's "Play as" link if needed (the
    link itself switches the tab it is in)."""
    if pid not in pages:
        any_page = next(iter(pages.values()))
        href = any_page.locator(f'#test-players a.seat[data-player="{pid}"]').get_attribute("href") or ""
        page = context.new_page()
        page.goto(urljoin(any_page.url, href))
        page.wait_for_selector(f"#{NAME}-deck")
        pages[pid] = page
    return pages[pid]


def test_a_scaffolded_game_is_played_to_its_end_in_the_browser(chromium: Browser, scaffolded: dict[str, Any],
                                                              shots: Path) -> None:
    runtime = scaffolded["runtime"]
    # bypass_csp: Playwright's wait_for_function polls with eval, which the site's CSP refuses
    # (tests/browser/test_csp.py checks the page under the real policy).
    context = chromium.new_context(viewport={"width": 1300, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    context.on("page", lambda p: p.on("pageerror", lambda exc: errors.append(str(exc))))
    first = context.new_page()

    # The lobby lists the new game; its form creates a 2-player table to 30 points.
    first.goto(scaffolded["url"] + "/")
    form = first.locator(f"#game-{NAME} form.create")
    expect(form).to_be_visible()
    form.locator('input[name="players"]').fill("2")
    form.locator('select[name="option_100"]').select_option("1")
    form.locator("button.primary").click()
    first.wait_for_url(re.compile(r"/table/\d+\?as=\d+"))
    table_id = int(re.search(r"/table/(\d+)", first.url).group(1))  # type: ignore[union-attr]
    me = int(re.search(r"as=(\d+)", first.url).group(1))  # type: ignore[union-attr]
    first.wait_for_selector(f"#{NAME}-deck .arena-card")
    data = runtime.get_data(table_id, None)
    assert data["target"] == 30
    players = [int(p) for p in data["playerorder"]]
    pages = {me: first}

    # Drawn at once: the deck and its count, a pawn per player, the buttons of the state.
    expect(first.locator(f"#{NAME}-deck .arena-deck-counter")).to_have_text(str(data["deck_count"]))
    expect(first.locator(f".{NAME}-pawn")).to_have_count(len(players))

    checked_refusal = clicked_deck = False
    moves = 0
    while runtime.get_data(table_id, None)["gamestate"]["name"] != "gameEnd":
        state = runtime.get_data(table_id, None)["gamestate"]
        active = int(state["active_player"])
        page = page_for(pages, context, active)
        settled(page, runtime, table_id, active)
        for other, other_page in pages.items():
            if other != active:
                settled(other_page, runtime, table_id, other)
                expect(other_page.locator("#generalactions button")).to_have_count(0)
        buttons = page.locator("#generalactions button")
        expect(buttons).to_have_count(2)
        assert sorted(buttons.evaluate_all("bs => bs.map(b => b.id)")) == ["action_bank", "action_draw"]
        total = int(state["args"]["turn_total"])
        assert page.locator(f"#{NAME}-turn-total").get_attribute("data-value") == str(total)

        before = runtime.get_data(table_id, None)["move"]
        if total == 0 and not checked_refusal:
            # Banking nothing is refused with the game's message, and nothing changes.
            page.click("#action_bank")
            expect(page.locator("#message-area .message.error").last).to_contain_text("Draw at least one card")
            assert runtime.get_data(table_id, None)["move"] == before
            checked_refusal = True
        if total >= 8:
            page.click("#action_bank")
        elif not clicked_deck:
            page.click(f"#{NAME}-deck")  # the deck itself is a way to draw
            clicked_deck = True
        else:
            page.click("#action_draw")
        wait_until(lambda b=before: runtime.get_data(table_id, None)["move"] > b, what="the move")
        moves += 1
        assert moves < MAX_MOVES
        if moves == 3:
            page.screenshot(path=str(shots / f"scaffold-{scaffolded['style']}-table.png"))
        if moves == 5:
            # A reload shows the same table.
            settled(page, runtime, table_id, active)
            before_view = view(page)
            page.reload()
            page.wait_for_selector(f"#{NAME}-deck .arena-card")
            settled(page, runtime, table_id, active)
            assert view(page) == before_view

    # Every page shows the end: scores as the server has them, the winner's lane marked,
    # the last card on the discard pile, no button left.
    final = runtime.get_data(table_id, None)
    scores = {pid: int(final["players"][str(pid)]["score"]) for pid in players}
    assert max(scores.values()) >= 30
    winner = max(scores, key=lambda pid: scores[pid])
    for pid in players:
        page = page_for(pages, context, pid)
        settled(page, runtime, table_id, pid)
        expect(page.locator("#pagemaintitletext")).to_contain_text("End of game")
        expect(page.locator("#generalactions button")).to_have_count(0)
        for other, score in scores.items():
            expect(page.locator(f"#player_score_{other}")).to_have_text(str(score))
        expect(page.locator(f'.{NAME}-lane[data-player="{winner}"]')).to_have_class(re.compile(f"{NAME}-winner"))
        top = final["last_card"]
        expect(page.locator(f"#{NAME}-discard .arena-card")).to_have_count(1)
        expect(page.locator(f"#{NAME}-discard .arena-card")).to_have_text(str(top["type_arg"]))
        expect(page.locator(f"#{NAME}-deck .arena-deck-counter")).to_have_text(str(final["deck_count"]))
        handled = page.evaluate("Arena.processedIds")
        assert len(handled) == len(set(handled)), f"page of {pid} handled a notification twice"
    first.screenshot(path=str(shots / f"scaffold-{scaffolded['style']}-end.png"))

    # The studio's replay plays every notification again from the start up to the end,
    # then the table comes back as it is.
    end_view = view(first)
    first.click('button[data-studio="replay"]')
    first.wait_for_function("() => document.body.classList.contains('replaying')")
    first.click("#replay-last")
    first.wait_for_function("() => (b => b && b.dataset.position === b.dataset.length)(document.getElementById('replay-bar'))",
                            timeout=60_000)
    first.click("#replay-exit")
    first.wait_for_function("() => !document.body.classList.contains('replaying') && Arena.gui.gamedatas",
                            timeout=60_000)
    settled(first, runtime, table_id, me)
    assert view(first) == end_view
    assert checked_refusal and clicked_deck
    assert not errors
    context.close()
