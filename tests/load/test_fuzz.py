"""Random and malformed requests to every route of a site with production Belote tables:
actions, arguments, ids, cookies and headers from hypothesis, legal moves mixed in so the
games move on. The server never answers 500 to a client mistake, never shows a player
another player's cards or private notifications, and the tables stay whole."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from bench.server import check_gamelogs
from framework.platform.models import Player
from framework.releases.builds import build
from framework.releases.deploy import deploy
from framework.site import Site
from framework.web import create_app
from framework.web.auth import ACCOUNT_KEYS, account_of, signed_in_session

NAMES = ["ann", "bob", "cat", "dan", "eve"]  # eve is signed in but seated nowhere
CARD = re.compile(r'"([789TJQKA][SHDC])"')
ACTIONS = ["bid", "play_card", "leave", "__init__", "act_bid", "bot_turn", "get_all_datas", "zombie_turn",
           "st_new_hand", "pass", "BID", "bid/../../data"]
BIDS = ["pass", "take", "coinche", "surcoinche", "80S", "160H", "capotD", "X", "", "S", "take:S"]


@dataclass
class World:
    app: Flask
    site: Site
    tables: list[int]
    ids: dict[str, int]
    clients: dict[str | None, FlaskClient]
    rules: list[tuple[str, str]]


def _client(app: Flask, account: int | None, token: str) -> FlaskClient:
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf"] = token
        if account is not None:
            session.update(_signed_in(app.extensions["arena"], account))
    return client


def _signed_in(site: Site, account: int) -> dict[str, Any]:
    """The session keys of ``account`` signed in now (a previous example may have signed out,
    which ends its sessions: the account's session version moved on)."""
    row = account_of(site.platform, account)
    assert row is not None
    return signed_in_session(account, row["session_version"])


def _play(site: Site, table_id: int, moves: int) -> None:
    """A few legal moves, so the fuzz meets bidding and card play."""
    for _ in range(moves):
        data = site.runtime.get_data(table_id, None)
        active = data["gamestate"]["active_player"]
        mine = site.runtime.get_data(table_id, active)
        if mine["legal_bids"]:
            site.runtime.act(table_id, active, "bid", {"bid": "take" if "take" in mine["legal_bids"] else "pass"})
        elif mine["legal_cards"]:
            site.runtime.act(table_id, active, "play_card", {"card": mine["legal_cards"][0]})


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(root / "instance"), "SECRET_KEY": "fuzz",
                      "SSE_MAX_SECONDS": 0.05, "SSE_POLL": 0.01, "SSE_KEEPALIVE": 0.02})
    site: Site = app.extensions["arena"]
    version = build(site, "belote", check_git=False)["version"]
    deploy(site, "belote", version)
    ids = {name: site.runtime.ensure_player(name, is_test=False) for name in NAMES}
    with Session(site.platform) as s, s.begin():
        for pid in ids.values():
            rec = s.get(Player, pid)
            assert rec is not None
            rec.password_hash = generate_password_hash("secret")
    tables = [site.runtime.create_table("belote", NAMES[:4], seed=i, mode="production") for i in range(2)]
    _play(site, tables[1], 9)  # one table in card play, one in bidding
    clients: dict[str | None, FlaskClient] = {name: _client(app, ids[name], f"token-{name}") for name in NAMES}
    clients[None] = _client(app, None, "token-anonymous")
    rules = sorted((method, rule.rule) for rule in app.url_map.iter_rules()
                   for method in (rule.methods or set()) - {"HEAD", "OPTIONS"})
    yield World(app, site, tables, ids, clients, rules)
    site.close()


def _values(world: World) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from([str(i) for i in world.ids.values()] + [str(t) for t in world.tables]),
        st.integers(-(2**70), 2**70).map(str),
        st.text(max_size=12),
        st.sampled_from(["", "0", "-1", "1e9", "NaN", "null", "[]", "%00", "../../etc/passwd"]),
        st.sampled_from(ODD_VALUES),
    )


#: NUL bytes, long seeds, digits that are not ASCII, and header-injection attempts.
ODD_VALUES = ["\x00", "a\x00b", "s" * 64, "s" * 65, "s" * 300, "²", "٣", "1\r\nX-Injected: 1",
              "fr\r\nSet-Cookie: session=forged", "\r\n\r\n<script>alert(1)</script>"]
#: Form fields of every form of the site, and odd ones (``option_²`` once answered 500).
FORM_KEYS = ["game", "players", "mode", "seed", "name", "password", "text", "lang", "state_id", "player_id",
             "kind", "version", "status", "option_100", "option_101", "option_²", "option_٣", "option_-1",
             "option_", "option_\x00", "bot_0", "bot_²", "\x00", "csrf_token"]
# (``next`` with a line break is the redirect fix of the roles work, tested there.)
FORM_VALUES = ["belote", "labgame", "nosuchgame", "4", "2", "studio", "production", "secret", "gold", "0",
               "lab\x00game", *ODD_VALUES]
#: Request headers a client controls, with line breaks and NULs (``environ`` keys: the test
#: client refuses to build such headers itself, a raw client would not).
INJECTED_HEADERS = ["HTTP_ACCEPT_LANGUAGE", "HTTP_X_ARENA_MOVE", "HTTP_LAST_EVENT_ID", "HTTP_REFERER",
                    "HTTP_X_CSRF_TOKEN", "HTTP_ACCEPT", "HTTP_USER_AGENT"]


def _fill(rule: str, world: World, data: st.DataObject) -> str:
    def table_id(_: Any) -> str:
        return str(data.draw(st.one_of(st.sampled_from(world.tables),
                                       st.sampled_from([0, 999_999, 2**63, 2**80]))))

    path = re.sub(r"<int:table_id>", table_id, rule)
    path = re.sub(r"<int:[a-z_]+>", lambda _: str(data.draw(st.integers(0, 2**64))), path)
    path = re.sub(r"<path:[a-z_]+>", lambda _: data.draw(st.sampled_from(
        ["belote.js", "../../etc/passwd", "x" * 300, "%2e%2e/secret_key", "a/b/c.css"])), path)
    path = re.sub(r"<action>", lambda _: data.draw(st.one_of(
        st.sampled_from(ACTIONS), st.text(alphabet="abcxyz_0./%", max_size=15))), path)
    # the control panel of a real game would build releases from the working tree: never "belote" there
    game = st.sampled_from(["nosuchgame", "zz%3Cscript%3E", "-", "a" * 80, "lab%00game", "x\x00"])
    path = re.sub(r"<game>", lambda _: data.draw(game), path)
    return path


def _form(data: st.DataObject) -> bytes:
    fields = data.draw(st.lists(st.tuples(st.one_of(st.sampled_from(FORM_KEYS), st.text(max_size=8)),
                                          st.one_of(st.sampled_from(FORM_VALUES), st.text(max_size=8))),
                                max_size=6))
    return urlencode(fields).encode()


def _nested(data: st.DataObject) -> bytes:
    depth = data.draw(st.sampled_from([31, 33, 1000, 10_000, 100_000]))
    if data.draw(st.booleans()):
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


def _body(data: st.DataObject) -> bytes:
    kind = data.draw(st.sampled_from(["none", "bid", "card", "json", "bytes", "nested", "nul", "form"]))
    if kind == "none":
        return b""
    if kind == "nested":
        return _nested(data)
    if kind == "nul":
        return json.dumps(data.draw(st.sampled_from([
            {"bid": "pass\x00"}, {"card": "7S\x00"}, {"text": "a\x00b"}, {"\x00": 1}, {"state_id": "\x00"},
            ["\x00"]]))).encode()
    if kind == "form":
        return _form(data)
    if kind == "bid":
        return json.dumps({"bid": data.draw(st.sampled_from(BIDS))}).encode()
    if kind == "card":
        card = data.draw(st.sampled_from(["7S", "AH", "TD", "JC", "1S", "", "QQ"]))
        return json.dumps({"card": card, **data.draw(st.dictionaries(st.text(max_size=5), st.integers(),
                                                                     max_size=1))}).encode()
    if kind == "json":
        value = data.draw(st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
            max_leaves=8))
        return json.dumps(value).encode()
    return data.draw(st.binary(max_size=64))


def _legal_request(world: World, data: st.DataObject) -> tuple[str | None, str, str, bytes]:
    """A legal move of the player whose turn it is (so the games move on)."""
    table_id = data.draw(st.sampled_from(world.tables))
    state = world.site.runtime.get_data(table_id, None)
    active = state["gamestate"]["active_player"]
    name = next((n for n, pid in world.ids.items() if pid == active), None)
    mine = world.site.runtime.get_data(table_id, active)
    # an index drawn the same way whatever the table holds (hypothesis replays draws)
    pick = data.draw(st.integers(0, 999))
    if mine["legal_bids"]:
        action, args = "bid", {"bid": mine["legal_bids"][pick % len(mine["legal_bids"])]}
    elif mine["legal_cards"]:
        action, args = "play_card", {"card": mine["legal_cards"][pick % len(mine["legal_cards"])]}
    else:
        action, args = "bid", {}
    return name, "POST", f"/table/{table_id}/act/{action}", json.dumps(args).encode()


def _hands(site: Site, table_id: int) -> dict[int, set[str]]:
    data = site.runtime.get_data(table_id, None)
    return {int(p): set(site.runtime.get_data(table_id, int(p))["hand"]) for p in data["playerorder"]}


def _private_ids(site: Site, table_id: int, player: int | None) -> set[int]:
    if player is None:
        return set()
    with site.store.connect(table_id, write=False) as db:
        rows = db.execute("SELECT gamelog_packet_id AS i FROM gamelog WHERE gamelog_private = 1 "
                          "AND gamelog_player = ?", (player,)).rows
    return {int(r["i"]) for r in rows}


def _check_table(site: Site, table_id: int) -> None:
    with site.store.connect(table_id, write=False) as db:
        assert db.execute("SELECT COUNT(*) AS n FROM card").rows[0]["n"] == 32
    assert check_gamelogs(site, [table_id]) == []  # ids 1..n, no gap
    hands = _hands(site, table_id)
    held = [card for hand in hands.values() for card in hand]
    assert len(held) == len(set(held))  # no card in two hands


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_and_malformed_requests(world: World, data: st.DataObject) -> None:
    site = world.site
    mode = data.draw(st.integers(0, 3))
    if mode == 0:
        who, method, path, body = _legal_request(world, data)
        query: dict[str, str] = {}
        headers: dict[str, str] = {"Content-Type": "application/json"}
    elif mode == 1:  # what players see: the views that could leak
        who = data.draw(st.sampled_from([*NAMES, None]))
        view = data.draw(st.sampled_from(["data", "log", "events", "players", ""]))
        method, path, body = "GET", f"/table/{data.draw(st.sampled_from(world.tables))}/{view}".rstrip("/"), b""
        query = data.draw(st.dictionaries(st.sampled_from(["as", "after", "limit"]), _values(world), max_size=2))
        headers = {}
    else:
        method, rule = data.draw(st.sampled_from(world.rules))
        if data.draw(st.integers(0, 9)) == 0:
            method = data.draw(st.sampled_from(["PUT", "DELETE", "PATCH"]))
        who = data.draw(st.sampled_from([*NAMES, None]))
        path = _fill(rule, world, data)
        query = data.draw(st.dictionaries(
            st.sampled_from(["as", "after", "limit", "lang", "next", "copies"]), _values(world), max_size=3))
        headers = data.draw(st.dictionaries(
            st.sampled_from(["Content-Type", "Last-Event-ID", "X-Arena-Move", "Accept-Language",
                             "X-CSRF-Token", "Cookie", "Accept"]),
            st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40), max_size=3))
        body = _body(data)
        if body and not body.startswith((b"{", b"[")) and "Content-Type" not in headers and data.draw(st.booleans()):
            headers["Content-Type"] = "application/x-www-form-urlencoded"
    environ = data.draw(st.dictionaries(st.sampled_from(INJECTED_HEADERS), st.sampled_from(ODD_VALUES), max_size=2))
    client = world.clients[who]
    with client.session_transaction() as session:  # a previous example may have logged out
        session["csrf"] = f"token-{who or 'anonymous'}"
        for key in ACCOUNT_KEYS:
            session.pop(key, None)
        if who is not None:
            session.update(_signed_in(site, world.ids[who]))
    if "X-CSRF-Token" not in headers and data.draw(st.integers(0, 4)) > 0:
        headers["X-CSRF-Token"] = f"token-{who or 'anonymous'}"
    table = re.match(r"/table/(\d+)(/[a-z]+)?", path)
    table_id = int(table.group(1)) if table and int(table.group(1)) in world.tables else None
    viewer = world.ids.get(who) if who else None
    hands = _hands(site, table_id) if table_id is not None and method == "GET" else {}
    turned = site.runtime.get_data(table_id, None)["turned"] if table_id is not None else None

    answer = client.open(path, method=method, query_string=query, headers=headers, data=body,
                         environ_overrides=environ)
    text = answer.get_data(as_text=True)

    assert answer.status_code < 500, (method, path, query, headers, environ, body[:200], answer.status_code,
                                      text[:500])
    for name, value in answer.headers.items():  # nothing a client sent became a header of the answer
        assert name.lower() != "x-injected" and not set(value) & {"\r", "\n", "\x00"}, (name, value)
        assert "forged" not in value, (name, value)
    if table_id is not None and method == "GET" and answer.status_code == 200:
        kind = table.group(2) if table else None
        seated = viewer if viewer in hands else None
        if kind == "/data":
            others = set().union(*(h for p, h in hands.items() if p != seated)) - {turned}
            shown = set(CARD.findall(text))
            assert not shown & others, f"{who} sees {shown & others} of another player"
        if kind in ("/log", "/events"):
            rows = ([json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {")]
                    if kind == "/events" else json.loads(text)["events"])
            private = {int(r["id"]) for r in rows if r.get("private")}
            assert private <= _private_ids(site, table_id, seated), f"{who} got another's private rows"
    for tid in world.tables:
        _check_table(site, tid)
