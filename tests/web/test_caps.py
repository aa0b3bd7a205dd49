"""Test player names never seat a real account (issue 16, finding 10), and studio tables, bug
reports and releases need the developer role and have caps per account and per site (finding 11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from framework.core.errors import UserError
from framework.game.registry import GameRegistry
from framework.platform.models import BugReport, GameTableRecord, Player, ReleaseRecord, TableSeat
from framework.site import Site
from tests.backends import PlatformTemplate
from tests.web.sites import Visitor, account_id, denied, production_app

FRENCH = {"Accept-Language": "fr"}


# ------------------------------------------------------------------ test player names (finding 10)
@pytest.mark.parametrize("name", ["player1", "Player2", "PLAYER10"])
def test_test_player_names_cannot_be_registered(tmp_path: Path, registry: GameRegistry,
                                                platform_template: PlatformTemplate, name: str) -> None:
    app = production_app(tmp_path, registry, platform_template)
    try:
        answer = Visitor(app).post("/register", data={"name": name, "password": "long-enough"})
        assert answer.status_code == 400 and b"kept for the studio&#39;s test players" in answer.data
        french = Visitor(app).post("/register", data={"name": name, "password": "long-enough"}, headers=FRENCH)
        assert french.status_code == 400 and b"kept for the studio" not in french.data
        table = app.extensions["arena"].runtime.create_table("labgame", 3)
        with Session(app.extensions["arena"].platform) as s:
            seated = s.query(Player).join(TableSeat, TableSeat.player_id == Player.id) \
                .filter(TableSeat.table_id == table).all()
            assert seated and all(p.is_test and p.password_hash is None for p in seated)
    finally:
        app.extensions["arena"].close()


def test_an_account_named_like_a_test_player_is_never_seated_at_a_studio_table(site: Site) -> None:
    """A site that had an account ``player1`` before names were kept: a studio table refuses
    to seat it, rather than giving its seat (and hand) to anyone at the studio."""
    with Session(site.platform) as s, s.begin():
        s.add(Player(name="player1", password_hash=generate_password_hash("secret-pw"), is_test=False))
    with pytest.raises(UserError) as caught:
        site.runtime.create_table("labgame", 3)
    assert caught.value.code == "account_not_test_player"
    with Session(site.platform) as s:
        assert s.query(TableSeat).count() == 0


# ----------------------------------------------------------------------------- caps (finding 11)
def _app(tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate, **caps: Any) -> Any:
    return production_app(tmp_path, registry, platform_template, **caps)


def test_studio_tables_have_a_cap_per_account_and_per_site(tmp_path: Path, registry: GameRegistry,
                                                           platform_template: PlatformTemplate) -> None:
    app = _app(tmp_path, registry, platform_template, ARENA_MAX_STUDIO_TABLES_PER_ACCOUNT=2,
               ARENA_MAX_STUDIO_TABLES=3)
    try:
        dave, ada = Visitor(app, "dave"), Visitor(app, "ada")
        form = {"game": "labgame", "players": "3"}
        assert denied(Visitor(app, "pat").post("/tables", data=form)) == "forbidden"  # not a developer
        assert [dave.post("/tables", data=form).status_code for _ in range(2)] == [302, 302]
        third = dave.post("/tables", data=form, headers=FRENCH)
        assert third.status_code == 409 and b"limit_reached" in third.data
        assert b"studio" in third.data and b"You have 2 studio tables" not in third.data  # in French
        assert b"You have 2 studio tables" in dave.post("/tables", data=form).data
        assert ada.post("/tables", data=form).status_code == 302  # ada's own count
        site_full = ada.post("/tables", data=form)
        assert site_full.status_code == 409 and b"This site has 3 studio tables" in site_full.data
        with Session(app.extensions["arena"].platform) as s:
            owners = {r.created_by for r in s.query(GameTableRecord).all()}
            assert owners == {account_id(app, "dave"), account_id(app, "ada")}
    finally:
        app.extensions["arena"].close()


def test_bug_reports_have_a_cap_per_account_and_per_site(tmp_path: Path, registry: GameRegistry,
                                                         platform_template: PlatformTemplate) -> None:
    app = _app(tmp_path, registry, platform_template, ARENA_MAX_BUG_REPORTS_PER_ACCOUNT=1,
               ARENA_MAX_BUG_REPORTS=2)
    try:
        table = app.extensions["arena"].runtime.create_table("labgame", 3)
        url = f"/table/{table}/studio/bug?as=1"
        assert denied(Visitor(app).post(url, json={"text": "broken"})) == "sign in"
        assert denied(Visitor(app, "olga").post(url, json={"text": "broken"})) == "forbidden"
        dave, ada = Visitor(app, "dave"), Visitor(app, "ada")
        assert dave.post(url, json={"text": "broken"}).status_code == 200
        again = dave.post(url, json={"text": "still broken"})
        assert again.status_code == 409 and again.get_json()["error"]["code"] == "limit_reached"
        assert ada.post(url, json={"text": "broken too"}).status_code == 200
        full = Visitor(app, "ada").post(url, json={"text": "and again"}, headers=FRENCH)
        assert full.status_code == 409
        assert "This site keeps" not in full.get_json()["error"]["message"]  # translated
        with Session(app.extensions["arena"].platform) as s:
            assert s.query(BugReport).count() == 2
    finally:
        app.extensions["arena"].close()


def test_releases_have_a_cap_per_account_and_per_site(tmp_path: Path, registry: GameRegistry,
                                                      platform_template: PlatformTemplate) -> None:
    app = _app(tmp_path, registry, platform_template, ARENA_MAX_RELEASES_PER_ACCOUNT=1, ARENA_MAX_RELEASES=2)
    try:
        site = app.extensions["arena"]
        dave_id = account_id(app, "dave")
        assert denied(Visitor(app, "pat").post("/studio/labgame/build")) == "forbidden"
        with Session(site.platform) as s, s.begin():
            s.add(ReleaseRecord(game="labgame", version="261201-0900", notes="", manifest={}, built_by=dave_id))
        mine = Visitor(app, "dave").post("/studio/labgame/build")
        assert mine.status_code == 409 and b"You have built 1 releases" in mine.data
        with Session(site.platform) as s, s.begin():
            s.add(ReleaseRecord(game="labgame", version="261201-0901", notes="", manifest={}))
        full = Visitor(app, "ada").post("/studio/labgame/build")
        assert full.status_code == 409 and b"This site keeps 2 releases" in full.data
        with Session(site.platform) as s:
            assert s.query(ReleaseRecord).count() == 2
    finally:
        app.extensions["arena"].close()


def test_the_local_studio_has_no_caps(app: Any) -> None:
    app.config["ARENA_MAX_STUDIO_TABLES"] = 0
    studio = Visitor(app)
    assert studio.post("/tables", data={"game": "labgame", "players": "3"}).status_code == 302
