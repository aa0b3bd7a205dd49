"""A live studio server and the machine's Chromium, driven by Playwright.

Never downloads a browser: the tests skip with the reason when /usr/bin/chromium or the
playwright package is missing. Screenshots go to build/screenshots/ (ignored by git).

``page.wait_for_function`` takes an arrow function ("() => ..."), never a bare expression:
Playwright ``eval``s its text in the page, once for a function (inside its DevTools call,
which the page's Content-Security-Policy lets through) but at every poll for an expression,
which the policy (no ``unsafe-eval``) refuses as soon as the first look was not true.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium"))
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"

try:
    from playwright.sync_api import Browser, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]


def _skip_reason() -> str | None:
    if sync_playwright is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def serve_studio(instance: Path, extra: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """The studio on a free port of 127.0.0.1, served by threads (one per SSE stream);
    ``extra``: more app configuration (an ``ARENA_REGISTRY`` with more games...)."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from werkzeug.serving import make_server

    from framework.web import create_app

    app = create_app({
        "ARENA_INSTANCE": str(instance), "SECRET_KEY": "browser-tests",
        # Short streams: every page reconnects several times during a hand (resume is exercised).
        "SSE_MAX_SECONDS": 6.0, "SSE_POLL": 0.25, "SSE_KEEPALIVE": 2.0, **(extra or {}),
    })
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"app": app, "runtime": app.extensions["arena"].runtime,
           "url": f"http://127.0.0.1:{server.server_port}"}
    server.shutdown()
    app.extensions["arena"].close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The studio with the installed games."""
    yield from serve_studio(tmp_path_factory.mktemp("browser") / "instance")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    assert sync_playwright is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
