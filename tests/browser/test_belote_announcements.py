"""Announcements shown in the browser: after the first trick the team whose announcements
count shows their cards near its players until the second trick is over, the end-of-hand
summary lists them with their cards, and the other team's announcement cards are shown
nowhere on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from games.belote.rules import Card, compare_announcements, detect_announcements, parse_cards, trump_from_str
from tests.browser.test_belote_table import STEP_TIMEOUT_MS, Table, wait_until

OPTIONS = {"variant": 2, "announcements": 2}  # contrée: all 8 cards are dealt at once
TRUMP = "S"


def _deal(rt: Any, table_id: int) -> tuple[list[int], list[list[Card]]]:
    order = [int(pid) for pid in rt.get_data(table_id, None)["playerorder"]]
    return order, [parse_cards(rt.get_data(table_id, pid)["hand"]) for pid in order]


def _table_where_both_teams_announce(rt: Any) -> tuple[int, int]:
    """(table, team whose announcements count at spades): a deal giving each team an
    announcement, and not an equal best."""
    for n in range(300):
        table_id = rt.create_table("belote", 4, options=OPTIONS, seed=f"announce-{n}")
        order, hands = _deal(rt, table_id)
        declared = [detect_announcements(hand, seat) for seat, hand in enumerate(hands)]
        if not ((declared[0] or declared[2]) and (declared[1] or declared[3])):
            continue
        first = order.index(int(rt.get_data(table_id, None)["dealer"])) + 1
        team = compare_announcements(declared, first % 4, trump_from_str(TRUMP), "nearest")
        if team is not None:
            return table_id, team
    raise AssertionError("no seed deals announcements to both teams")


def _cards_in(page: Page, selector: str) -> set[str]:
    return set(page.eval_on_selector_all(f"{selector} [data-card]",
                                         "nodes => nodes.map(n => n.dataset.card)"))


def _play_cards(rt: Any, table_id: int, count: int) -> None:
    for _ in range(count):
        data = rt.get_data(table_id, None)
        active = int(data["gamestate"]["active_player"])
        legal = rt.get_data(table_id, active)["legal_cards"]
        rt.act(table_id, active, "play_card", {"card": legal[0]})


def test_the_counting_team_shows_its_cards(chromium: Browser, live: dict[str, Any],
                                          shots: Path) -> None:
    rt = live["runtime"]
    table_id, team = _table_where_both_teams_announce(rt)
    order, hands = _deal(rt, table_id)
    declared = [detect_announcements(hand, seat) for seat, hand in enumerate(hands)]
    shown = {order[seat]: {str(card) for item in declared[seat] for card in item.cards}
             for seat in range(4) if seat % 2 == team and declared[seat]}
    hidden_seat = next(seat for seat in range(4) if seat % 2 != team and declared[seat])
    hidden = {str(card) for item in declared[hidden_seat] for card in item.cards}
    viewer = order[(hidden_seat + 1) % 4]  # an opponent of the hidden announcement's holder

    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live['url']}/table/{table_id}?as={viewer}")
    page.wait_for_selector(".bt-in-hand")
    t = Table(live, table_id, {viewer: page})

    # Bidding: 80 spades by the first bidder, three passes.
    first = int(rt.get_data(table_id, None)["gamestate"]["active_player"])
    rt.act(table_id, first, "bid", {"bid": f"80:{TRUMP}"})
    for _ in range(3):
        rt.act(table_id, int(rt.get_data(table_id, None)["gamestate"]["active_player"]), "bid",
               {"bid": "pass"})
    _play_cards(rt, table_id, 4)  # the first trick
    t.settled(viewer)
    for pid, cards in shown.items():
        near = f'.bt-seat[data-player="{pid}"] .bt-shown'
        page.wait_for_selector(near, timeout=STEP_TIMEOUT_MS)
        assert _cards_in(page, near) == cards, pid
    page.screenshot(path=str(shots / "belote-announcements-shown.png"))
    unplayed = hidden - t.public_cards()
    assert unplayed, "the check needs a hidden announcement card not yet played"
    assert not _cards_in(page, "#bt-root") & unplayed
    html = page.content()
    assert not [card for card in unplayed if f'data-card="{card}"' in html]

    # A reload during the second trick shows them again (the page data carries them).
    page.reload()
    page.wait_for_selector(".bt-in-hand")
    for pid, cards in shown.items():
        assert _cards_in(page, f'.bt-seat[data-player="{pid}"] .bt-shown') == cards

    _play_cards(rt, table_id, 4)  # the second trick: the cards go back into the hands
    t.settled(viewer)
    wait_until(lambda: not page.query_selector(".bt-shown"), what="the shown cards put away")

    _play_cards(rt, table_id, 24)
    t.settled(viewer)
    page.wait_for_selector("#bt-summary .bt-summary-shown", timeout=STEP_TIMEOUT_MS)
    listed = {int(pid): set(page.eval_on_selector_all(
        f'#bt-summary .bt-summary-shown li[data-player="{pid}"] [data-card]',
        "nodes => nodes.map(n => n.dataset.card)")) for pid in shown}
    assert listed == shown
    page.screenshot(path=str(shots / "belote-announcements-summary.png"))
    assert not _cards_in(page, "#bt-summary .bt-summary-shown") & hidden
    assert errors == []
    context.close()
