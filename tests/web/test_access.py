"""Who may do what (issue 16, finding 1): every route of the app, walked as anonymous, a player,
a developer of another game, the game's developer and an admin, on production settings."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from framework.core.errors import ConfigError
from framework.engine.studio_tools import snapshot
from framework.game.registry import GameRegistry
from framework.platform.models import BugReport, GameRecord
from framework.web import create_app
from framework.web.access import NEEDS, RULES, Need
from tests.backends import PlatformTemplate
from tests.web.sites import ROLES, Visitor, account_id, denied, production_app, visitor

DOCS = Path(__file__).resolve().parents[2] / "docs" / "security.md"

EVERYONE = frozenset(ROLES)
SIGNED_IN = EVERYONE - {"anonymous"}
DEVELOPERS = frozenset({"other_dev", "developer", "admin"})
GAME_TEAM = frozenset({"developer", "admin"})

#: what each role may reach, written out here (not derived from access.RULES): "endpoint" or
#: "endpoint@studio" / "endpoint@production" for routes of a table or of table creation
EXPECTED: dict[str, frozenset[str]] = {
    "static": EVERYONE, "auth.login": EVERYONE, "auth.logout": EVERYONE, "auth.register": EVERYONE,
    "language.set_language": EVERYONE, "lobby.index": EVERYONE, "lobby.favicon": EVERYONE, "gamehelp.index": EVERYONE,
    "gamehelp.page": EVERYONE, "control.news": EVERYONE,
    "auth.password": SIGNED_IN, "players.me": SIGNED_IN, "players.player": SIGNED_IN,
    "preferences.set_preference": SIGNED_IN,
    "lobby.join": SIGNED_IN, "lobby.leave_open": SIGNED_IN,
    "lobby.create_table@studio": GAME_TEAM, "lobby.create_table@production": SIGNED_IN,
    **{f"control.{e}": GAME_TEAM for e in ("game_page", "build", "check", "deploy", "rollback", "block",
                                           "status")},
    "studio.bugs": DEVELOPERS, "studio.bug": GAME_TEAM, "studio.reopen": GAME_TEAM,
    **{f"studio.{e}@{mode}": GAME_TEAM for e in ("save", "load", "jump", "bot", "errors", "database",
                                                 "report_bug") for mode in ("studio", "production")},
    **{f"play.{e}@studio": GAME_TEAM for e in ("act", "leave", "table_page", "data", "events", "game_log",
                                               "replay", "game_static", "players")},
    "play.act@production": SIGNED_IN, "play.leave@production": SIGNED_IN,
    **{f"play.{e}@production": EVERYONE for e in ("table_page", "data", "events", "game_log", "replay",
                                                  "game_static", "players")},
    "live_reload.table_status@studio": GAME_TEAM, "live_reload.table_status@production": EVERYONE,
    **{f"{e}@studio": GAME_TEAM for e in ("chat.lines", "chat.write", "chat.hide", "play.last_trick",
                                          "play.end_statistics")},
    **{f"{e}@production": EVERYONE for e in ("chat.lines", "chat.write", "play.last_trick",
                                             "play.end_statistics")},
    "chat.hide@production": GAME_TEAM,
}


@dataclass
class World:
    app: Flask
    studio_table: int
    production_table: int
    bug_id: int
    open_id: int
    player_id: int


@pytest.fixture
def world(tmp_path: Path, registry: GameRegistry, platform_template: PlatformTemplate) -> Iterator[World]:
    app = production_app(tmp_path, registry, platform_template)
    site = app.extensions["arena"]
    rt = site.runtime
    studio_table = rt.create_table("labgame", 3, seed=1)
    production_table = rt.create_table("labgame", ["pat", "dave", "ada"], seed=2, mode="production")
    with Session(site.platform) as s, s.begin():
        bug = BugReport(table_id=studio_table, game="labgame", text="it broke", state_name="x",
                        snapshot=json.dumps(snapshot(rt, studio_table)), log="[]")
        s.add(bug)
        s.flush()
        bug_id = bug.id
    open_id = rt.open_tables.open("labgame", 3, {}, "olga", account_id(app, "olga"))
    yield World(app, studio_table, production_table, bug_id, open_id, account_id(app, "pat"))
    site.close()


def _cases(world: World) -> list[tuple[str, str, str, dict[str, str]]]:
    """(key of EXPECTED, method, URL, form) for every route and method of the app."""
    cases = []
    for rule in world.app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            variants: list[tuple[str, dict[str, str]]] = [("", {})]
            if "table_id" in rule.arguments:
                variants = [("@studio", {"table_id": str(world.studio_table)}),
                            ("@production", {"table_id": str(world.production_table)})]
            elif rule.endpoint == "lobby.create_table":
                variants = [("@studio", {}), ("@production", {})]
            for suffix, values in variants:
                path = rule.rule
                for name, value in {**values, "game": "labgame", "bug_id": str(world.bug_id),
                                    "open_id": str(world.open_id), "slot": "1", "action": "nosuchaction",
                                    "filename": "arena.js" if rule.endpoint == "static" else "labgame.js",
                                    "player_id": str(world.player_id), "line_id": "1"}.items():
                    path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
                assert "<" not in path, f"the walk cannot fill {rule.rule}: teach it the new argument"
                form = {}
                if rule.endpoint == "lobby.create_table":
                    form = {"game": "labgame", "players": "3", "mode": suffix[1:]}
                cases.append((rule.endpoint + suffix, method, path, form))
    # signing out last: it ends the session the other requests use
    return sorted(cases, key=lambda c: c[0] == "auth.logout")


def test_every_route_states_its_rule_and_the_walk_knows_it(world: World) -> None:
    endpoints = {rule.endpoint for rule in world.app.url_map.iter_rules()}
    assert endpoints - RULES.keys() == set(), "routes without a rule in framework.web.access.RULES"
    assert RULES.keys() - endpoints == set(), "rules of routes that no longer exist"
    walked = {key for key, _, _, _ in _cases(world)}
    assert walked - EXPECTED.keys() == set(), "routes this test does not expect: add them to EXPECTED"


@pytest.mark.parametrize("role", ROLES)
def test_each_role_reaches_exactly_what_it_may(world: World, role: str) -> None:
    who: Visitor = visitor(world.app, role)
    wrong = []
    for key, method, path, form in _cases(world):
        if method == "GET":
            answer = who.get(path)
        elif path.startswith("/table/") and "/studio/" in path and not path.endswith("/bug"):
            answer = who.post(path, json={"player_id": 1, "state_id": 2})
        else:
            answer = who.post(path, data=dict(form))
        assert answer.status_code != 500, (key, method, path, answer.data[:300])
        allowed = role in EXPECTED[key]
        if allowed != (denied(answer) is None):
            wrong.append((key, method, path, answer.status_code, "allowed" if allowed else "denied expected"))
    assert wrong == []


def test_anonymous_and_players_cannot_block_deploy_or_roll_back(world: World) -> None:
    """Finding 1: with the page's CSRF token and no rights, nothing is accepted."""
    site = world.app.extensions["arena"]
    for role in ("anonymous", "player", "other_dev"):
        who = visitor(world.app, role)
        for path, form in [("/studio/labgame/block", {"blocked": "1"}), ("/studio/labgame/status", {"status": "gold"}),
                           ("/studio/labgame/deploy", {"version": "261129-1200"}), ("/studio/labgame/rollback", {})]:
            assert denied(who.post(path, data=form)) is not None, (role, path)
        assert denied(who.post(f"/table/{world.studio_table}/act/pick?as=1", json={"number": 1})) is not None
    with Session(site.platform) as s:
        game = s.get(GameRecord, "labgame")
        assert game is None or (not game.blocked and game.status == "alpha")
    assert not site.runtime.is_blocked("labgame", max_age=0)


def test_a_developer_blocks_their_game(world: World) -> None:
    dave = visitor(world.app, "developer")
    assert dave.post("/studio/labgame/block", data={"blocked": "1"}).status_code == 302
    assert world.app.extensions["arena"].runtime.is_blocked("labgame", max_age=0)


def test_spectating_can_need_an_account(tmp_path: Path, registry: GameRegistry,
                                        platform_template: PlatformTemplate) -> None:
    app = production_app(tmp_path, registry, platform_template, ARENA_SPECTATORS="signed-in")
    try:
        table = app.extensions["arena"].runtime.create_table("labgame", ["pat", "dave", "ada"], mode="production")
        assert denied(visitor(app, "anonymous").get(f"/table/{table}/data")) == "sign in"
        assert denied(visitor(app, "other_dev").get(f"/table/{table}/data")) is None
    finally:
        app.extensions["arena"].close()


def test_the_lobby_shows_studio_tables_to_their_developers_only(world: World) -> None:
    link = f"/table/{world.studio_table}".encode()
    assert link not in visitor(world.app, "anonymous").get("/").data
    assert link not in visitor(world.app, "other_dev").get("/").data
    assert link in visitor(world.app, "developer").get("/").data


def test_the_local_studio_keeps_every_right_without_an_account(app: Flask, table_id: int) -> None:
    anyone = Visitor(app)
    assert anyone.get(f"/table/{table_id}/studio/errors").status_code == 200
    assert anyone.get("/studio/labgame").status_code == 200
    assert anyone.post("/tables", data={"game": "labgame", "players": "3"}).status_code == 302


def test_docs_list_every_rule() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for endpoint, need in RULES.items():
        assert re.search(rf"\|\s*`{re.escape(endpoint)}`\s*\|[^\n]*`{need.value}`", text), \
            f"docs/security.md does not list {endpoint} ({need.value})"
    for need in Need:
        assert f"`{need.value}`" in text and NEEDS[need] in text, need


def test_the_mode_comes_from_the_environment(tmp_path: Path, registry: GameRegistry,
                                             platform_template: PlatformTemplate,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``arena serve --production`` sets ``ARENA_MODE=production`` for its workers; a wrong
    value stops the start with one clear line."""
    platform_template.seed(tmp_path / "instance", None)
    config = {"TESTING": True, "ARENA_INSTANCE": str(tmp_path / "instance"), "ARENA_REGISTRY": registry,
              "SECRET_KEY": "test"}
    monkeypatch.setenv("ARENA_MODE", "production")
    app = create_app(config)
    try:
        assert app.config["ARENA_MODE"] == "production"
        assert denied(Visitor(app).get("/studio/labgame")) == "sign in"
    finally:
        app.extensions["arena"].close()
    monkeypatch.setenv("ARENA_MODE", "open")
    with pytest.raises(ConfigError, match="ARENA_MODE is 'studio' or 'production'"):
        create_app(config)
