"""Security headers (issue 16, finding 9): every answer carries the policy and the others;
what is one player's (pages, game data, move answers, event streams) is never stored, while
static files keep their own caching."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from werkzeug.datastructures import Headers

from framework.web.headers import CONTENT_SECURITY_POLICY, SecurityHeaders
from tests.web.conftest import Browser


def test_every_answer_has_the_security_headers(app: Flask, browser: Browser, table_id: int,
                                               players: list[int]) -> None:
    answers = {
        "lobby": browser.get("/"),
        "table page": browser.get(f"/table/{table_id}?as={players[0]}"),
        "data": browser.get(f"/table/{table_id}/data?as={players[0]}"),
        "log": browser.get(f"/table/{table_id}/log?as={players[0]}"),
        "events": browser.get(f"/table/{table_id}/events?as={players[0]}"),
        "move": browser.act(table_id, players[0], "pick", number=2),
        "refused move": browser.act(table_id, players[0], "pick", number=9),
        "not found": browser.get("/nothing/here"),
        "static": browser.get("/static/arena/arena.js"),
    }
    for what, r in answers.items():
        assert r.status_code < 500, what
        assert r.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, what
        assert r.headers["X-Content-Type-Options"] == "nosniff", what
        assert r.headers["X-Frame-Options"] == "DENY", what
        assert r.headers["Referrer-Policy"] == "same-origin", what
    for what in ("lobby", "table page", "data", "log", "events", "move", "refused move", "not found"):
        assert answers[what].headers["Cache-Control"] == "no-store", what
    assert "no-store" not in answers["static"].headers.get("Cache-Control", "")
    policy = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert policy["script-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy["script-src"] + policy["style-src"]


def test_no_page_has_inline_script(app: Flask, browser: Browser, table_id: int, players: list[int]) -> None:
    for url in ("/", f"/table/{table_id}?as={players[0]}", "/login", "/register", "/gamehelp", "/bugs",
                "/studio/labgame"):
        html = browser.get(url).data.decode()
        scripts = html.split("<script")[1:]
        for tag in scripts:
            head, _, rest = tag.partition(">")
            inline = rest.split("</script>")[0].strip()
            # a script is a file, or data (the table's config), never code in the page
            assert "src=" in head or 'type="application/json"' in head, (url, tag[:80])
            assert "src=" not in head or not inline, (url, tag[:80])
        assert " onchange=" not in html and " onclick=" not in html and "javascript:" not in html, url


def test_a_header_the_view_set_is_kept_once(app: Flask) -> None:
    def view(environ: dict[str, object], start_response: Callable[..., object]) -> list[bytes]:
        start_response("200 OK", [("X-Frame-Options", "SAMEORIGIN"),
                                  ("content-security-policy", "default-src 'none'"),
                                  ("Cache-Control", "max-age=60")])
        return [b"x"]

    sent: list[tuple[str, list[tuple[str, str]]]] = []
    wrapped = SecurityHeaders(view, CONTENT_SECURITY_POLICY)
    assert list(wrapped({}, lambda status, headers, exc_info=None: sent.append((status, headers)))) == [b"x"]
    answer = Headers(sent[0][1])
    assert answer.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert answer.getlist("Content-Security-Policy") == ["default-src 'none'"]
    assert answer.getlist("Cache-Control") == ["max-age=60"]  # it said how it may be cached
    assert answer["X-Content-Type-Options"] == "nosniff"


def test_the_icon_keeps_its_own_caching(browser: Browser) -> None:
    answer = browser.get("/favicon.ico")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "public, max-age=86400"
    assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
