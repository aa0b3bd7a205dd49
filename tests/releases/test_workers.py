"""Finding 1 of issue 17 for real: the production server (two gevent workers) plays a
production table while ``arena release deploy --block``, a lazy deploy and ``arena release
rollback`` run from the command line between two moves; every move runs the table's
release of that moment, whichever worker takes it, on every backend."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from urllib.parse import urlencode

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from bench.client import HttpClient, Response
from bench.server import ServerProcess
from framework.platform.models import Player
from framework.releases.builds import build
from framework.releases.deploy import deploy
from tests.releases.conftest import GAME, Workspace, arena
from tests.releases.test_release_sync import make_two

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 29, 10, 0)
PASSWORD = "secret-pw"


class SignedIn:
    """A signed-in player's cookies; each request goes on a new connection (so gunicorn
    hands them to either worker)."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}
        login = self.call("GET", "/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', login.text)
        assert token, login.text[:500]
        body = urlencode({"name": name, "password": PASSWORD, "csrf_token": token.group(1)}).encode()
        answer = self.call("POST", "/login", {"Content-Type": "application/x-www-form-urlencoded"}, body)
        assert answer.status_code == 302, answer.text[:500]

    def call(self, method: str, path: str, headers: dict[str, str] | None = None,
             body: bytes = b"") -> Response:
        client = HttpClient(self.server.host, self.server.port)
        client.cookies = dict(self.cookies)
        try:
            answer = client.send(method, path, headers, body, True)
        finally:
            client.close()
        self.cookies = client.cookies
        return answer

    def draw(self, table_id: int) -> None:
        page = self.call("GET", f"/table/{table_id}")
        token = re.search(r'"csrf": ?"([^"]+)"', page.text)
        assert token
        answer = self.call("POST", f"/table/{table_id}/act/draw",
                           {"X-CSRF-Token": token.group(1), "Content-Type": "application/json"}, b"{}")
        assert answer.status_code == 200, answer.text



def test_two_workers_run_each_move_on_the_release_the_cli_moved_the_table_to(
        workspace: Workspace) -> None:
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tid = site.runtime.create_table(GAME, ["ann", "bob"], {"target": 3}, seed=11, mode="production")
    with Session(site.platform) as s, s.begin():
        for p in s.scalars(select(Player).where(Player.name.in_(["ann", "bob"]))):
            p.password_hash = generate_password_hash(PASSWORD)
    make_two(workspace)
    workspace.commit("two: a statistic, another word")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    workspace.edit("game.py", "pulls a ${value}", "grabs a ${value}")
    workspace.commit("three: yet another word")
    v3 = build(site, GAME, now=T0.replace(hour=12))["version"]

    server = ServerProcess.start(site.instance_path, 2, None if site.database_url.startswith("sqlite")
                                 else site.database_url, [workspace.folder.parent])
    try:
        players = {name: SignedIn(server, name) for name in ("ann", "bob")}
        by_id = {int(pid): players[p["name"]] for pid, p in site.runtime.get_data(tid, None)["players"].items()}

        def move() -> None:
            active = int(site.runtime.get_data(tid, None)["gamestate"]["active_player"])
            by_id[active].draw(tid)

        def words_since(count: int) -> list[str]:
            """The verb of every card drawn (not a 1) in the log after its first ``count`` events."""
            events = site.runtime.events(tid, None)[count:]
            return [e["log"].split()[1] for e in events if e["type"] == "draw"]

        # Both workers read the table (and cache its row) before anything changes.
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda _: players["ann"].call("GET", f"/table/{tid}/data"), range(24)))
        for _ in range(4):
            move()

        for step, command, word in ((v2, ("release", "deploy", GAME, v2, "--block"), "pulls"),
                                    (v3, ("release", "deploy", GAME, v3), "grabs"),
                                    (v2, ("release", "rollback", GAME), "pulls")):
            arena(workspace, *command)
            count = len(site.runtime.events(tid, None))
            # This process reads afresh: what is checked is what the server's workers ran.
            site.runtime.forget_table(tid)
            with site.runtime.read(tid) as t:  # v2 or v3 by now: both count draws
                counted = sum(int(t.get_stat("draws_two", p)) for p in t.load_players_basic_infos())
            draws = 0
            while not words_since(count) or draws < 6:
                move()
                draws += 1
            assert set(words_since(count)) == {word}, (command, words_since(count))
            site.runtime.forget_table(tid)
            with site.runtime.read(tid) as t:
                assert t.meta("release") == step
                # every draw since the command counted in v2's (and v3's) new statistic
                assert sum(int(t.get_stat("draws_two", p)) for p in t.load_players_basic_infos()) \
                    == counted + draws
    finally:
        server.stop()
