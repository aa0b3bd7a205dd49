"""Sessions that end (issue 16, finding 3), login throttling and enumeration (finding 7), safe
redirects (finding 4), on production settings."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from flask import Flask

from framework.game.registry import GameRegistry
from framework.platform import accounts
from framework.web.auth import signed_in_session
from tests.backends import PlatformTemplate
from tests.web.sites import PASSWORD, Visitor, account_id, denied, production_app

EVIL = ["/%09/evil.example/", "//evil.example/", "/\\evil.example", "/%0D%0AX:1", "/%0d%0aSet-Cookie:x=1",
        "https://evil.example/", "/\t/evil.example/", "%2F%2Fevil.example"]


@pytest.fixture
def site_app(tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> Iterator[Flask]:
    app = production_app(tmp_path, registry, platform_template, ARENA_LOGIN_LIMIT_ACCOUNT="5 per hour",
                         ARENA_LOGIN_LIMIT_ADDRESS="12 per hour")
    yield app
    app.extensions["arena"].close()


def _production_table(app: Flask) -> int:
    return int(app.extensions["arena"].runtime.create_table("labgame", ["pat", "dave", "ada"], seed=3,
                                                            mode="production"))


def _notifications(app: Flask, table: int) -> int:
    return len(app.extensions["arena"].runtime.events(table, None, 0, limit=10_000))


# ------------------------------------------------------------------------- sessions (finding 3)
def test_a_copied_cookie_cannot_play_after_logout(site_app: Flask) -> None:
    table = _production_table(site_app)
    name = "pat"  # the lab game starts with everyone picking a number
    player = Visitor(site_app, name)
    cookie = player.client.get_cookie("session")
    assert cookie is not None
    assert player.post("/logout").status_code == 302

    thief = Visitor(site_app)
    thief.client.set_cookie("session", cookie.value)
    thief.token = player.token  # the CSRF token of the copied session
    before = _notifications(site_app, table)
    answer = thief.post(f"/table/{table}/act/pick", json={"number": 1})
    assert answer.status_code == 401 and answer.get_json()["error"]["code"] == "sign_in_required"
    assert _notifications(site_app, table) == before  # nothing applied
    # and signing in again works
    again = Visitor(site_app, name)
    assert again.post(f"/table/{table}/act/pick", json={"number": 1}).status_code == 200


def test_a_new_password_ends_the_other_sessions(site_app: Flask) -> None:
    phone, laptop = Visitor(site_app, "pat"), Visitor(site_app, "pat")
    answer = laptop.post("/password", data={"current": PASSWORD, "password": "another-pw"})
    assert answer.status_code == 302
    assert denied(phone.get("/me")) == "sign in"
    assert denied(laptop.get("/me")) is None  # the session that changed it goes on
    accounts.set_password(site_app.extensions["arena"].platform, "pat", "third-pw")  # arena user password
    assert denied(laptop.get("/me")) == "sign in"


def test_a_wrong_current_password_changes_nothing(site_app: Flask) -> None:
    pat = Visitor(site_app, "pat")
    assert pat.post("/password", data={"current": "guess", "password": "another-pw"}).status_code == 401
    answer = Visitor(site_app).post("/login", data={"name": "pat", "password": PASSWORD})
    assert answer.status_code == 302  # the old password still signs in


def _with_session(app: Flask, **keys: object) -> Visitor:
    who = Visitor(app)
    with who.client.session_transaction() as session:
        session.update(keys)
    return who


def test_idle_and_old_sessions_end(site_app: Flask) -> None:
    pat = account_id(site_app, "pat")
    now = time.time()
    fresh = signed_in_session(pat, 0, now)
    assert denied(_with_session(site_app, **fresh).get("/me")) is None
    idle = {**fresh, "seen": now - site_app.config["ARENA_SESSION_IDLE_S"] - 5}
    assert denied(_with_session(site_app, **idle).get("/me")) == "sign in"
    old = {**fresh, "since": now - site_app.config["ARENA_SESSION_MAX_S"] - 5}
    assert denied(_with_session(site_app, **old).get("/me")) == "sign in"
    no_version = {"account_id": pat}  # a cookie of before the session versions
    assert denied(_with_session(site_app, **no_version).get("/me")) == "sign in"


def test_the_cookie_is_secure_on_https(tmp_path: Path, registry: GameRegistry,
                                       platform_template: PlatformTemplate) -> None:
    def set_cookie(app: Flask, **kw: object) -> str:
        answer = app.test_client().get("/login", **kw)  # type: ignore[arg-type]
        return ";".join(answer.headers.getlist("Set-Cookie"))

    plain = production_app(tmp_path / "a", registry, platform_template)
    behind = production_app(tmp_path / "b", registry, platform_template, ARENA_PROXY_FIX=1)
    forced = production_app(tmp_path / "c", registry, platform_template, ARENA_SECURE_COOKIES="1")
    try:
        assert "Secure" not in set_cookie(plain)
        assert "Secure" in set_cookie(plain, base_url="https://localhost")
        assert "Secure" not in set_cookie(plain, headers={"X-Forwarded-Proto": "https"})  # no proxy trusted
        assert "Secure" in set_cookie(behind, headers={"X-Forwarded-Proto": "https"})
        assert "Secure" in set_cookie(forced)
    finally:
        for app in (plain, behind, forced):
            app.extensions["arena"].close()


# ------------------------------------------------------------------------ throttling (finding 7)
def test_wrong_passwords_are_throttled_per_account(site_app: Flask) -> None:
    guesser = Visitor(site_app)
    for _ in range(5):
        assert guesser.post("/login", data={"name": "pat", "password": "guess"}).status_code == 401
    answer = guesser.post("/login", data={"name": "pat", "password": PASSWORD})
    assert answer.status_code == 429 and b"Too many attempts" in answer.data
    assert denied(guesser.get("/me")) == "sign in"  # the right password did not sign in meanwhile
    # another account from the same address is not locked by pat's count
    assert Visitor(site_app).post("/login", data={"name": "dave", "password": PASSWORD}).status_code == 302


def test_wrong_passwords_are_throttled_per_address(site_app: Flask) -> None:
    guesser = Visitor(site_app)
    for i in range(12):
        assert guesser.post("/login", data={"name": f"nobody{i}", "password": "guess"}).status_code == 401
    answer = guesser.post("/login", data={"name": "dave", "password": PASSWORD})
    assert answer.status_code == 429
    other_address = Visitor(site_app)
    ok = other_address.client.post("/login", data={"name": "dave", "password": PASSWORD,
                                                   "csrf_token": other_address.token},
                                   environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert ok.status_code == 302


def test_an_unknown_name_checks_a_password_hash_too(site_app: Flask) -> None:
    """Equal time without timing: the dummy hash is checked for a name nobody has."""
    accounts.dummy_hash()
    before = accounts.dummy_hash.cache_info().hits
    assert Visitor(site_app).post("/login", data={"name": "nobody", "password": "x"}).status_code == 401
    assert accounts.dummy_hash.cache_info().hits == before + 1
    assert Visitor(site_app).post("/login", data={"name": "pat", "password": "x"}).status_code == 401
    assert accounts.dummy_hash.cache_info().hits == before + 1  # a real hash was checked instead


def test_registration_tells_only_that_a_name_is_taken(site_app: Flask) -> None:
    answer = Visitor(site_app).post("/register", data={"name": "pat", "password": "whatever-pw"})
    assert answer.status_code == 400 and b"This name is taken" in answer.data
    answer = Visitor(site_app).post("/register", data={"name": "PAT", "password": "whatever-pw"})
    assert answer.status_code == 400 and b"This name is taken" in answer.data


def test_registrations_are_throttled_per_address(tmp_path: Path, registry: GameRegistry,
                                                 platform_template: PlatformTemplate) -> None:
    app = production_app(tmp_path, registry, platform_template, ARENA_REGISTER_LIMIT="3 per hour")
    try:
        who = Visitor(app)
        for i in range(3):
            assert who.post("/register", data={"name": "pat", "password": f"pw-{i}-long"}).status_code == 400
        assert who.post("/register", data={"name": "fresh", "password": "long-enough"}).status_code == 429
    finally:
        app.extensions["arena"].close()


def test_player_pages_need_an_account(site_app: Flask) -> None:
    pat = account_id(site_app, "pat")
    assert denied(Visitor(site_app).get(f"/player/{pat}")) == "sign in"
    page = Visitor(site_app, "dave").get(f"/player/{pat}")
    assert page.status_code == 200 and b"pat" in page.data


def test_throttle_counts_are_shared_through_redis(tmp_path: Path, registry: GameRegistry,
                                                  platform_template: PlatformTemplate) -> None:
    url = os.environ.get("ARENA_TEST_REDIS_URL")
    if not url:
        pytest.skip("set ARENA_TEST_REDIS_URL=redis://127.0.0.1:6379/0 to test the throttle's Redis storage")
    apps = [production_app(tmp_path / name, registry, platform_template, ARENA_THROTTLE_STORAGE=url,
                           ARENA_LOGIN_LIMIT_ACCOUNT="3 per hour") for name in ("w1", "w2")]
    # two workers of one site share its bus channel (these two sites' files differ: give them one)
    shared = apps[0].extensions["arena_throttle_key"]
    apps[1].extensions["arena_throttle_key"] = shared
    try:
        for i in range(3):
            assert Visitor(apps[i % 2]).post("/login", data={"name": "pat", "password": "x"}).status_code == 401
        assert Visitor(apps[1]).post("/login", data={"name": "pat", "password": PASSWORD}).status_code == 429
    finally:
        for app in apps:  # the counts' keys name this test's site: they expire on their own
            app.extensions["arena"].close()


# --------------------------------------------------------------------------- redirects (finding 4)
def test_sign_in_never_sends_the_browser_elsewhere(site_app: Flask) -> None:
    for target in EVIL:
        who = Visitor(site_app)
        page = who.client.get(f"/login?next={target}")
        assert page.status_code == 200, target
        answer = who.post("/login", data={"name": "pat", "password": PASSWORD,
                                          "next": page.request.args.get("next", "")})
        assert answer.status_code == 302 and answer.headers["Location"] == "/", target


def test_the_language_switch_never_sends_the_browser_elsewhere(site_app: Flask) -> None:
    who = Visitor(site_app)
    for target in EVIL:
        answer = who.post("/lang", data={"lang": "fr", "next": unquote(target)})
        assert answer.status_code == 302 and answer.headers["Location"] == "/", target
    answer = who.post("/lang", data={"lang": "fr"}, headers={"Referer": "https://evil.example/x"})
    assert answer.headers["Location"] == "/"


def test_a_path_of_the_site_is_kept(site_app: Flask) -> None:
    who = Visitor(site_app)
    assert who.post("/lang", data={"lang": "fr", "next": "/gamehelp?x=1"}).headers["Location"] == "/gamehelp?x=1"
    answer = who.post("/lang", data={"lang": "it"}, headers={"Referer": "http://localhost/gamehelp"})
    assert answer.headers["Location"] == "/gamehelp"
    answer = who.post("/login", data={"name": "pat", "password": PASSWORD, "next": "/gamehelp"})
    assert answer.headers["Location"] == "/gamehelp"


def test_a_move_sends_the_cookie_again_only_when_the_session_changed(site_app: Flask) -> None:
    """A signed-in player's answers carry no new cookie while their session is unchanged
    (nothing to sign again on every move); once its last use is due to move on (at most once
    a minute), the answer carries the cookie, and the session still speaks for the player."""
    table = _production_table(site_app)
    pat = Visitor(site_app, "pat")
    answer = pat.get(f"/table/{table}/data")
    assert answer.status_code == 200 and answer.headers.getlist("Set-Cookie") == []
    with pat.client.session_transaction() as session:
        session["seen"] = int(time.time()) - 120
    answer = pat.post(f"/table/{table}/act/pick", json={"number": 1})
    assert answer.status_code == 200
    cookies = answer.headers.getlist("Set-Cookie")
    assert len(cookies) == 1 and cookies[0].startswith("session=")
    with pat.client.session_transaction() as session:
        assert time.time() - session["seen"] < 60
    assert denied(pat.get("/me")) is None
