"""Every route, fed unknown ids and garbage, answers with a client error, never a 500."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.web.conftest import Browser

GARBAGE_BODIES: list[object] = [{}, {"state_id": "x", "player_id": [], "kind": {"a": 1}, "text": 7}, [1], "text", None]


def _urls(app: Flask, table_id: int) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            # a known table, an unknown id, and one no database column can hold
            for fill in (str(table_id), "999999", str(2**63)):
                url = rule.rule
                url = re.sub(r"<int:table_id>", fill, url)
                url = re.sub(r"<int:[a-z_]+>", "1" if fill == str(table_id) else fill, url)
                url = re.sub(r"<path:[a-z_]+>", "../../etc/passwd", url)
                url = re.sub(r"<[a-z_:]+>", "zz%00<script>", url)
                out.append((method, url))
    return sorted(set(out))


def test_no_route_gives_a_500(app: Flask, browser: Browser, table_id: int) -> None:
    urls = _urls(app, table_id)
    assert len(urls) > 30
    for method, url in urls:
        for query in ("", "?as=abc", "?as=-1&after=-5&limit=abc&copies=1", "?as=99999999999999999999"):
            if method == "GET":
                r = browser.get(url + query)
                assert r.status_code < 500, (method, url + query, r.status_code)
                continue
            for body in GARBAGE_BODIES:
                r = browser.post(url + query, json=body)
                assert r.status_code < 500 or r.get_json()["error"]["code"] == "game_error", (
                    method, url + query, body, r.status_code, r.data[:200])
            r = browser.post(url + query, data={"players": "x" * 5000, "game": "\x00", "option_1": "y"})
            assert r.status_code < 500, (method, url, r.status_code)


@pytest.mark.parametrize("raw", ["/table/1/act/pick?as=1", "/table/1/studio/jump", "/table/1/studio/bot",
                                 "/table/1/studio/bug"])
def test_non_json_bodies(browser: Browser, table_id: int, raw: str) -> None:
    r = browser.client.post(raw, data=b"\x00\xff{", headers={"X-CSRF-Token": browser.token,
                                                             "Content-Type": "application/json"})
    assert 400 <= r.status_code < 500
