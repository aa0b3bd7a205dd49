"""An open table page reloads when another process moves its table to another release
(issue 17, findings 1 and 11), in the machine's Chromium: the page's script answers the
``releaseChanged`` notification, and the reloaded page shows the release's notice."""

from __future__ import annotations

import threading
from datetime import datetime

from framework.releases.builds import build
from framework.releases.deploy import deploy
from framework.web import create_app
from tests.browser.conftest import CHROMIUM, _skip_reason
from tests.releases.conftest import GAME, Workspace

T0 = datetime(2026, 11, 29, 10, 0)


def test_an_open_page_reloads_on_a_new_release(workspace: Workspace) -> None:
    import pytest

    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=3, mode="production")
    app = create_app({"ARENA_INSTANCE": str(site.instance_path), "ARENA_REGISTRY": site.registry,
                      "SECRET_KEY": "browser-tests", "SSE_POLL": 0.1, "SSE_KEEPALIVE": 1.0})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM),
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/table/{tid}")
            page.wait_for_selector('#connection[data-state="online"]')
            page.evaluate("window.loadedBefore = true")
            assert page.locator("#release-notice").count() == 0

            workspace.edit("game.py", '"${player_name} banks ${points} points"',
                           '"${player_name} banks ${points} points!"')
            workspace.commit("punctuation")
            v2 = build(site, GAME, notes="Clearer banks", now=T0.replace(hour=11))["version"]
            deploy(site, GAME, v2, block=True)  # this site is another process to the server's

            notice = page.wait_for_selector("#release-notice", timeout=20_000)
            assert notice is not None and "Clearer banks" in notice.inner_text()
            assert page.evaluate("window.loadedBefore === undefined")  # a reload, not a redraw
            browser.close()
    finally:
        server.shutdown()
        app.extensions["arena"].close()
