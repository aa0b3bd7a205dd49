"""Every page meets the Content-Security-Policy in Chromium: the lobby, a Belote table being
played (its client builds the board), the studio tools and the game's studio page report no
violation, and what used to be inline (the client's start, the language menu) still runs."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

# Runs before any page script (Playwright injects it; the page's policy does not apply to it).
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _violations(page: Page, console: list[str]) -> list[str]:
    seen: list[str] = page.evaluate("window.__csp")
    return seen + [m for m in console if "Content Security Policy" in m or "Refused to" in m]


def test_pages_meet_the_content_security_policy(chromium: Browser, live: dict[str, Any]) -> None:
    rt = live["runtime"]
    table_id = rt.create_table("belote", 4, seed="csp-1", bots={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    me = int(rt.get_data(table_id, None)["playerorder"][0])
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    response = page.goto(f"{live['url']}/")
    assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector("form.create")
    assert _violations(page, console) == []

    page.goto(f"{live['url']}/table/{table_id}?as={me}")
    page.wait_for_selector(".bt-in-hand")  # the client started (from page.js) and drew the hand
    page.wait_for_selector(".bt-nameplate")  # names coloured with style attributes, which the policy allows
    page.click("#studio-tools button[data-studio='errors']")
    page.wait_for_selector("#studio-output:not([hidden])")
    assert _violations(page, console) == []

    page.goto(f"{live['url']}/studio/belote")
    page.wait_for_load_state("load")
    assert _violations(page, console) == []

    # The language menu (once an inline onchange) still sends its form.
    page.goto(f"{live['url']}/")
    with page.expect_navigation():
        page.select_option("form.lang-switch select[name=lang]", "fr")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert _violations(page, console) == []
    assert errors == []
    context.close()
