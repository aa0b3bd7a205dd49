"""Four players in four browser contexts play a full hand of Belote by clicking.

Along the way: only legal cards are enabled; no page, /data answer or event stream of a
player ever holds another player's cards; a reload mid-trick shows the same table; a lost
connection resumes with every notification exactly once; an illegal action shows its
message and changes nothing. Screenshots of each card-face style and of the end-of-hand
summary are written to build/screenshots/.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

STEP_TIMEOUT_MS = 15_000
PAGE_ERRORS: list[str] = []  # uncaught errors of any page


def wait_until(check: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}")


def strings_in(value: Any) -> set[str]:
    """Every string inside a JSON value (keys and values)."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            out |= strings_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= strings_in(v)
    return out


class Table:
    """The table seen from the server (in-process runtime) and from four pages."""

    def __init__(self, live: dict[str, Any], table_id: int, pages: dict[int, Page]) -> None:
        self.rt = live["runtime"]
        self.url = live["url"]
        self.id = table_id
        self.pages = pages

    def data(self, pid: int | None = None) -> dict[str, Any]:
        return self.rt.get_data(self.id, pid)  # type: ignore[no-any-return]

    def last_id(self) -> int:
        return int(self.data()["notifications"]["last_packet_id"])

    def hands(self) -> dict[int, set[str]]:
        return {pid: set(self.data(pid)["hand"]) for pid in self.pages}

    def public_cards(self) -> set[str]:
        """Cards anyone may have seen: the turned-up card and every card played so far."""
        cards = set()
        for e in self.rt.events(self.id, None, 0):
            if e["type"] == "playCard":
                cards.add(e["args"]["card"])
            if e["type"] == "newDeal" and e["args"].get("turned"):
                cards.add(e["args"]["turned"])
        return cards

    def last_id_for(self, pid: int) -> int:
        """The last notification ``pid`` may see (others' private rows left out)."""
        events = self.rt.events(self.id, pid, max(0, self.last_id() - 200), limit=10_000)
        return int(events[-1]["id"]) if events else 0

    def settled(self, pid: int) -> None:
        """The player's page has handled every notification the server has for them."""
        self.pages[pid].wait_for_function(
            "last => window.Arena && Arena.gui && Arena.gui.gamedatas && Arena.lastId >= last "
            "&& Arena.queue.length === 0 && !Arena._processing",
            arg=self.last_id_for(pid), timeout=STEP_TIMEOUT_MS,
        )

    def settle_all(self) -> None:
        for pid in self.pages:
            self.settled(pid)


def open_players(chromium: Browser, live: dict[str, Any], table_id: int) -> dict[int, Page]:
    pages = {}
    for pid in live["runtime"].get_data(table_id, None)["playerorder"]:
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.on("pageerror", lambda exc: PAGE_ERRORS.append(str(exc)))
        page.goto(f"{live['url']}/table/{table_id}?as={pid}")
        page.wait_for_selector(".bt-in-hand")
        pages[int(pid)] = page
    return pages


def assert_nothing_hidden_leaks(t: Table) -> None:
    """No page, /data answer or event stream of a player holds another player's cards."""
    hands = t.hands()
    public = t.public_cards()
    for viewer, page in t.pages.items():
        others = set().union(*(h for pid, h in hands.items() if pid != viewer)) - public
        assert others, "the check needs cards still hidden"
        in_dom = set(page.eval_on_selector_all("[data-card]", "nodes => nodes.map(n => n.dataset.card)"))
        assert not in_dom & others, f"page of {viewer} shows {in_dom & others}"
        html = page.content()
        assert not any(f'data-card="{c}"' in html for c in others)
        answer = page.request.get(f"{t.url}/table/{t.id}/data?as={viewer}")
        assert answer.ok
        assert not strings_in(answer.json()) & others, f"/data of {viewer} leaks"
        # The event stream, read from the start the way the page reads it.
        stream = page.evaluate(
            """([url]) => new Promise(resolve => {
                 const got = []; const es = new EventSource(url);
                 es.onmessage = ev => got.push(JSON.parse(ev.data));
                 setTimeout(() => { es.close(); resolve(got); }, 1200);
               })""",
            [f"{t.url}/table/{t.id}/events?after=0&as={viewer}"],
        )
        assert stream and [e["id"] for e in stream] == sorted({e["id"] for e in stream})
        assert not strings_in(stream) & others, f"event stream of {viewer} leaks"
        assert any(e["type"] == "newHand" for e in stream)  # their own private deal is there


def page_view(page: Page) -> dict[str, Any]:
    """What a player sees of the table, as data."""
    return page.evaluate("""() => ({
        hand: [...document.querySelectorAll('#bt-hand [data-card]')].map(n => n.dataset.card),
        legal: [...document.querySelectorAll('#bt-hand .bt-legal')].map(n => n.dataset.card),
        trick: Object.fromEntries([...document.querySelectorAll('.bt-slot')].map(
            s => [s.dataset.pos, s.querySelector('[data-card]') ? s.querySelector('[data-card]').dataset.card : null])),
        backs: Object.fromEntries([...document.querySelectorAll('.bt-seat')].map(
            s => [s.id, s.querySelectorAll('.bt-back').length])),
        contract: document.getElementById('bt-contract').innerText,
        scores: document.getElementById('bt-scores').innerText,
        status: document.getElementById('pagemaintitletext').innerText,
        panels: [...document.querySelectorAll('[id^=player_score_]')].map(n => n.innerText),
    })""")


def test_four_players_play_a_full_hand(chromium: Browser, live: dict[str, Any], shots: Path) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, options={"variant": 1, "announcements": 2}, seed="browser-1")
    pages = open_players(chromium, live, table_id)
    t = Table(live, table_id, pages)
    t.settle_all()
    start_ids = {pid: page.evaluate("Arena.lastId") for pid, page in pages.items()}

    # Bidding: the first bidder passes, the second takes, by clicking the status bar.
    first = t.data()["gamestate"]["active_player"]
    pages[first].click("#bt-bid-pass", timeout=STEP_TIMEOUT_MS)
    wait_until(lambda: t.data()["gamestate"]["active_player"] != first, what="the pass")
    second = t.data()["gamestate"]["active_player"]
    t.settled(second)
    expect(pages[second].locator("#bt-bid-take")).to_be_visible()
    pages[second].click("#bt-bid-take")
    wait_until(lambda: t.data()["gamestate"]["name"] == "playerTurn", what="the contract")
    t.settle_all()
    assert t.data()["contract"]["taker"] == second
    assert_nothing_hidden_leaks(t)

    checked_illegal = reloaded = went_offline = False
    faces_done = False
    for play in range(32):
        data = t.data()
        assert data["gamestate"]["name"] == "playerTurn", data["gamestate"]["name"]
        active = int(data["gamestate"]["active_player"])
        page = pages[active]
        t.settle_all()
        legal_server = sorted(t.data(active)["legal_cards"])
        view = page_view(page)
        assert sorted(view["legal"]) == legal_server, "the enabled cards are exactly the legal ones"
        illegal = sorted(set(view["hand"]) - set(view["legal"]))
        assert page.eval_on_selector_all(".bt-illegal", "n => n.map(x => x.dataset.card).sort()") == illegal
        for other, other_page in pages.items():
            if other != active:
                assert page_view(other_page)["legal"] == [], "only the active player has enabled cards"

        if illegal and not checked_illegal:
            # An illegal card, forced past the interface: a specific message, nothing changes.
            before_id, before_hand = t.last_id(), t.data(active)["hand"]
            page.evaluate("card => gameui.performAction('play_card', {card}).catch(() => null)", illegal[0])
            message = page.locator("#message-area .message.error").last
            expect(message).to_contain_text("You must")
            assert t.last_id() == before_id and t.data(active)["hand"] == before_hand
            assert page_view(page)["hand"] == view["hand"]
            checked_illegal = True

        trick_size = len(data["trick"])
        if play >= 8 and trick_size == 2 and not reloaded:
            # A reload in the middle of a trick shows the same table, for a waiting player.
            watcher = next(pid for pid in pages if pid != active)
            before = page_view(pages[watcher])
            pages[watcher].reload()
            pages[watcher].wait_for_selector(".bt-in-hand")
            t.settled(watcher)
            after = page_view(pages[watcher])
            assert after == before
            start_ids[watcher] = None  # its notification history restarts with the reload
            reloaded = True

        if play >= 12 and trick_size == 1 and not faces_done:
            for style in ("french", "german", "traditional"):
                page.select_option("#bt-faces", style)
                page.wait_for_selector(f"#bt-root.faces-{style}")
                page.screenshot(path=str(shots / f"belote-table-{style}.png"))
            page.select_option("#bt-faces", "french")
            faces_done = True

        offline_pid = None
        if play >= 16 and trick_size == 0 and not went_offline:
            # This player's connection drops while two cards are played.
            offline_pid = next(pid for pid in pages if pid != active)
            pages[offline_pid].context.set_offline(True)

        card = legal_server[0]
        before_id = t.last_id()
        page.locator(f'#bt-hand .bt-legal[data-card="{card}"]').click()
        wait_until(lambda before=before_id: t.last_id() > before, what=f"card {card}")
        if offline_pid is not None:
            went_offline = True
            time.sleep(1.5)
            pages[offline_pid].context.set_offline(False)

    t.settle_all()
    assert checked_illegal and reloaded and went_offline and faces_done
    assert t.data()["hands_played"] == 1

    # Everybody sees the end-of-hand summary; its hand scores are the server's.
    line = t.data()["score_sheet"][0]
    for page in pages.values():
        summary = page.locator("#bt-summary")
        expect(summary).to_be_visible()
        text = summary.inner_text()
        for points in line["points"]:
            assert str(points) in text
        assert ("made" in text.lower()) or ("failed" in text.lower()) or ("contention" in text.lower())
    pages[second].screenshot(path=str(shots / "belote-hand-summary.png"))
    expect(pages[second].locator("#bt-sheet-table tr")).to_have_count(2)
    expect(pages[second].locator("#bt-chart svg polyline")).to_have_count(2)

    # Every page handled every notification for its player exactly once, in order.
    for pid, page in pages.items():
        handled = page.evaluate("Arena.processedIds")
        assert len(handled) == len(set(handled)) and handled == sorted(handled), f"player {pid}"
        if start_ids[pid] is not None:
            expected = [e["id"] for e in rt.events(table_id, pid, start_ids[pid], limit=10_000)]
            assert handled == expected, f"player {pid} missed or doubled notifications"
    assert not PAGE_ERRORS
    for page in pages.values():
        page.context.close()


def test_contree_bidding_box_coinche_and_surcoinche(chromium: Browser, live: dict[str, Any]) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, options={"variant": 2}, seed="browser-2")
    pages = open_players(chromium, live, table_id)
    t = Table(live, table_id, pages)
    t.settle_all()
    bidder = t.data()["gamestate"]["active_player"]
    page = pages[bidder]
    expect(page.locator("#bt-bidbox")).to_be_visible()
    page.click('#bt-bidbox [data-amount="90"]')
    move_before = t.data()["move"]
    with page.expect_request(lambda r: "/act/bid" in r.url) as sent_info:
        page.click('#bt-bidbox [data-bid="90:H"]')
    sent = sent_info.value
    assert sent.headers["x-arena-move"] == str(move_before)  # the move the page was at
    wait_until(lambda: t.data()["gamestate"]["active_player"] != bidder, what="the 90 hearts bid")
    # The same request once more (a retry after a lost answer) is refused, not applied twice.
    before = t.data()
    again = page.request.post(sent.url, data=sent.post_data, headers={
        name: sent.headers[name] for name in ("content-type", "x-csrf-token", "x-arena-move")})
    assert again.status == 409 and again.json()["error"]["code"] == "stale_move"
    assert t.data()["move"] == before["move"] and t.data()["gamestate"] == before["gamestate"]
    opponent = t.data()["gamestate"]["active_player"]
    t.settled(opponent)
    pages[opponent].click("#bt-bid-coinche")
    wait_until(lambda: t.data()["gamestate"]["active_player"] != opponent, what="the coinche")
    surcoincher = t.data()["gamestate"]["active_player"]
    assert t.data()["teams"][str(surcoincher)] == t.data()["teams"][str(bidder)]
    t.settled(surcoincher)
    expect(pages[surcoincher].locator("#generalactions")).to_contain_text("Surcoinche")
    pages[surcoincher].click("#bt-bid-surcoinche")
    wait_until(lambda: t.data()["gamestate"]["name"] == "playerTurn", what="the contract")
    t.settle_all()
    contract = pages[bidder].locator("#bt-contract")
    expect(contract).to_contain_text("90")
    expect(contract).to_contain_text("×4")
    logs = json.dumps([e["log"] for e in rt.events(table_id, None, 0)])
    assert "coinches" in logs and "surcoinches" in logs
    assert not PAGE_ERRORS
    for p in pages.values():
        p.context.close()


def test_contree_bidding_box_offers_the_generale_with_its_option(chromium: Browser,
                                                                 live: dict[str, Any]) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, options={"variant": 2, "generale": 2},
                               seed="browser-generale")
    pages = open_players(chromium, live, table_id)
    t = Table(live, table_id, pages)
    t.settle_all()
    bidder = t.data()["gamestate"]["active_player"]
    page = pages[bidder]
    amount = page.locator('#bt-bidbox [data-amount="generale"]')
    expect(amount).to_have_text("Générale")  # the highest bid, after capot
    page.click('#bt-bidbox [data-amount="generale"]')
    page.click('#bt-bidbox [data-bid="generale:H"]')
    wait_until(lambda: t.data()["gamestate"]["active_player"] != bidder, what="the générale bid")
    logs = [e["log"] for e in rt.events(table_id, None, 0)]
    assert any("bids the générale at hearts" in log for log in logs)
    for _ in range(3):  # the three others pass
        active = int(t.data()["gamestate"]["active_player"])
        t.settled(active)
        move = t.data()["move"]
        pages[active].click("#bt-bid-pass")
        wait_until(lambda move=move: t.data()["move"] != move, what="a pass")
    wait_until(lambda: t.data()["gamestate"]["name"] == "playerTurn", what="the contract")
    t.settle_all()
    expect(pages[bidder].locator("#bt-contract")).to_contain_text("Générale")
    assert not PAGE_ERRORS
    for page in pages.values():
        page.context.close()
