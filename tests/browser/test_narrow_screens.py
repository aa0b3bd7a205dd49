"""Phones (360 and 412 px wide): the lobby, a Belote table (bidding, then play) and the
studio pages fit the width (no sideways scroll), "Sign in" is on screen, and Belote's
seats, contract and score boxes and hand are visible and do not cover each other.
Screenshots of each go to pytest's tmp_path (and build/screenshots/)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

Box = dict[str, float]


def no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{page.url}: {width} px wide in a {inner} px window"


def box(page: Page, selector: str) -> Box:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def overlap(a: Box, b: Box) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def inside(inner: Box, outer: Box) -> bool:
    return (inner["x"] >= outer["x"] - 1 and inner["y"] >= outer["y"] - 1
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1)


def shoot(page: Page, tmp_path: Path, shots: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, shots / path.name)


def check_felt(page: Page) -> None:
    """Every seat, the contract and score boxes and the hand are inside the felt, none over another."""
    felt = box(page, "#bt-felt")
    parts = {name: box(page, sel) for name, sel in {
        "top": "#bt-seat-top .bt-nameplate", "left": "#bt-seat-left .bt-nameplate",
        "right": "#bt-seat-right .bt-nameplate", "bottom": "#bt-seat-bottom .bt-nameplate",
        "scores": "#bt-scores", "hand": "#bt-hand",
    }.items()}
    if page.locator("#bt-contract").is_visible():
        parts["contract"] = box(page, "#bt-contract")
    for name, b in parts.items():
        assert inside(b, felt), f"{name} sticks out of the felt: {b} / {felt}"
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(parts[a], parts[b]), f"{a} covers {b}: {parts[a]} / {parts[b]}"
    cards = page.locator("#bt-hand [data-card]")
    for n in range(cards.count()):
        card = cards.nth(n).bounding_box()
        assert card is not None and inside(card, felt), f"card {n} of the hand is cut off"


@pytest.mark.parametrize("width", [360, 412])
def test_pages_fit_a_phone(chromium: Browser, live: dict[str, Any], tmp_path: Path, shots: Path,
                           width: int) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, seed=f"phone-{width}")
    data = rt.get_data(table_id, None)
    me = int(data["playerorder"][0])
    context = chromium.new_context(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True,
                                   device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(live["url"] + "/")
    no_sideways_scroll(page)
    sign_in = page.get_by_role("link", name="Sign in")
    assert sign_in.is_visible()
    b = sign_in.bounding_box()
    assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= width
    shoot(page, tmp_path, shots, f"phone-{width}-lobby")

    # Bidding: the turned-up card in the middle, my five cards.
    page.goto(f"{live['url']}/table/{table_id}?as={me}")
    page.wait_for_selector(".bt-in-hand")
    no_sideways_scroll(page)
    check_felt(page)
    shoot(page, tmp_path, shots, f"phone-{width}-bidding")

    # Someone takes: the contract box, eight cards in my hand, the trick in play.
    taker = int(data["gamestate"]["active_player"])
    rt.act(table_id, taker, "bid", {"bid": "take"})
    expect(page.locator("#bt-hand [data-card]")).to_have_count(8)
    page.wait_for_selector("#bt-contract:not([hidden])")
    page.wait_for_timeout(400)  # the dealt cards' slide
    no_sideways_scroll(page)
    check_felt(page)
    shoot(page, tmp_path, shots, f"phone-{width}-playing")

    for url in ("/studio/belote", "/bugs"):
        page.goto(live["url"] + url)
        no_sideways_scroll(page)
        shoot(page, tmp_path, shots, f"phone-{width}-{url.strip('/').replace('/', '-')}")
    assert not errors
    context.close()
