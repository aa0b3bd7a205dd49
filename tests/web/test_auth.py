"""Accounts: hashed passwords, signed sessions, the language saved on the account."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.platform.models import Player
from tests.web.conftest import Browser


def test_register_sign_in_and_out(app: Flask, browser: Browser) -> None:
    assert browser.get("/register").status_code == 200
    assert browser.get("/login").status_code == 200
    r = browser.post("/register", data={"name": "carol", "password": "hunter22", "next": "//evil.example"})
    assert r.status_code == 302 and r.headers["Location"] == "/"
    with Session(app.extensions["arena"].platform) as s:
        rec = s.scalar(select(Player).where(Player.name == "carol"))
        assert rec is not None and rec.password_hash and "hunter22" not in rec.password_hash
    browser.refresh_token()
    assert "carol" in browser.get("/").data.decode()
    assert browser.post("/logout").status_code == 302
    browser.refresh_token()
    assert browser.post("/login", data={"name": "carol", "password": "wrong!!"}).status_code == 401
    assert browser.post("/login", data={"name": "nobody", "password": "wrong!!"}).status_code == 401
    r = browser.post("/login", data={"name": "carol", "password": "hunter22", "next": "/gamehelp"})
    assert r.status_code == 302 and r.headers["Location"] == "/gamehelp"


def test_bad_registrations(browser: Browser) -> None:
    assert browser.post("/register", data={"name": "x", "password": "longenough"}).status_code == 400
    assert browser.post("/register", data={"name": "<script>", "password": "longenough"}).status_code == 400
    assert browser.post("/register", data={"name": "dave", "password": "123"}).status_code == 400
    assert browser.post("/register", data={"name": "dave", "password": "longenough"}).status_code == 302
    other = Browser(browser.client.application.test_client())
    r = other.post("/register", data={"name": "dave", "password": "longenough"})
    assert r.status_code == 400 and b"taken" in r.data


def test_session_cookie_is_signed(app: Flask, browser: Browser) -> None:
    browser.post("/register", data={"name": "erin", "password": "longenough"})
    client = app.test_client()
    client.set_cookie("session", "eyJhY2NvdW50X2lkIjoxfQ.forged.signature")
    assert "erin" not in client.get("/").data.decode()


def test_language_switcher_takes_effect_and_is_saved(app: Flask, browser: Browser) -> None:
    r = browser.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert '<html lang="it">' in r.data.decode()
    assert '<html lang="en">' in browser.get("/", headers={"Accept-Language": "de"}).data.decode()
    r = browser.post("/lang", data={"lang": "fr", "next": "/gamehelp"})
    assert r.status_code == 302 and r.headers["Location"] == "/gamehelp"
    assert '<html lang="fr">' in browser.get("/gamehelp", headers={"Accept-Language": "it"}).data.decode()
    browser.post("/lang", data={"lang": "klingon", "next": "https://evil.example/"})
    assert '<html lang="fr">' in browser.get("/").data.decode()
    browser.post("/register", data={"name": "fay", "password": "longenough"})
    browser.refresh_token()
    browser.post("/lang", data={"lang": "hu"})
    with Session(app.extensions["arena"].platform) as s:
        assert s.scalar(select(Player.language).where(Player.name == "fay")) == "hu"
    fresh = Browser(app.test_client())
    fresh.post("/login", data={"name": "fay", "password": "longenough"})
    assert '<html lang="hu">' in fresh.get("/", headers={"Accept-Language": "en"}).data.decode()
