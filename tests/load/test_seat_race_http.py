"""The seat race over HTTP (issue 16, finding 2): two gevent workers of the production server,
an open Belote table with three players seated, and two more signed-in players who
``POST /open/N/join`` at the same instant, 50 rounds. Each round starts exactly one table, the
one who sat is sent to it, and the other is told, in the answer, that the table is full (or
has started)."""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from bench.server import ServerProcess
from framework.platform.models import GameTableRecord, OpenTable, Player
from framework.releases.builds import build
from framework.releases.deploy import deploy
from framework.site import Site

pytest.importorskip("gunicorn")
pytest.importorskip("gevent")

ROUNDS = 50
NAMES = ["ann", "bob", "cid", "dan", "eve"]  # ann opens, bob and cid sit, dan and eve race
CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')


@dataclass
class Visitor:
    """One browser: its cookie and CSRF token, talking to the server over HTTP."""

    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode({**form, "csrf_token": self.token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            text = answer.read().decode()
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";")[0]
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text
        finally:
            conn.close()

    def sign_in(self, name: str) -> None:
        _, _, page = self.send("GET", "/login")
        found = CSRF.search(page.encode())
        assert found
        self.token = found.group(1).decode()
        status, headers, _ = self.send("POST", "/login", {"name": name, "password": "secret"})
        assert status == 302, (name, status)
        _, _, page = self.send("GET", "/")
        found = CSRF.search(page.encode())
        assert found and f">{name}<" in page
        self.token = found.group(1).decode()


@dataclass
class Served:
    site: Site
    visitors: dict[str, Visitor]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    instance = tmp_path_factory.mktemp("seats") / "instance"
    site = Site.open(instance)
    deploy(site, "belote", build(site, "belote", check_git=False)["version"])
    for name in NAMES:
        pid = site.runtime.ensure_player(name, is_test=False)
        with Session(site.platform) as s, s.begin():
            player = s.get(Player, pid)
            assert player is not None
            player.password_hash = generate_password_hash("secret")
    server = ServerProcess.start(instance, 2)
    try:
        visitors = {name: Visitor(server.host, server.port) for name in NAMES}
        for name, visitor in visitors.items():
            visitor.sign_in(name)
        yield Served(site, visitors)
    finally:
        server.stop()
        site.close()


def _tables(site: Site) -> int:
    with Session(site.platform) as s:
        return int(s.scalar(select(func.count()).select_from(GameTableRecord)) or 0)


def _last_open(site: Site) -> int:
    with Session(site.platform) as s:
        return int(s.scalar(select(func.max(OpenTable.id))) or 0)


def test_two_racers_for_the_last_seat_start_one_table(served: Served) -> None:
    site, v = served.site, served.visitors
    for n in range(ROUNDS):
        before = _tables(site)
        status, _, _ = v["ann"].send("POST", "/tables", {"game": "belote", "players": "4", "mode": "production"})
        assert status == 302
        open_id = _last_open(site)
        for name in ("bob", "cid"):
            status, _, _ = v[name].send("POST", f"/open/{open_id}/join", {})
            assert status == 302
        barrier = threading.Barrier(2)
        answers: dict[str, tuple[int, dict[str, str], str]] = {}

        def race(name: str, open_id: int = open_id, barrier: threading.Barrier = barrier,
                 answers: dict[str, tuple[int, dict[str, str], str]] = answers) -> None:
            barrier.wait()
            answers[name] = v[name].send("POST", f"/open/{open_id}/join", {})

        threads = [threading.Thread(target=race, args=(name,)) for name in ("dan", "eve")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert _tables(site) == before + 1, (n, answers)
        sat = [name for name, (status, _, _) in answers.items() if status == 302]
        assert len(sat) == 1, (n, {k: a[0] for k, a in answers.items()})
        winner, loser = sat[0], ({"dan", "eve"} - set(sat)).pop()
        where = answers[winner][1]["location"]
        table_id = int(where.rsplit("/table/", 1)[1])
        status, _, page = answers[loser]
        # full (it was being started) or started already: either way told so, in the answer
        assert (status, "This table is full" in page) == (409, True) or \
            (status, "This table is no longer open" in page) == (404, True), (n, status, page[-500:])
        players = {p["name"] for p in site.runtime.get_data(table_id, None)["players"].values()}
        assert players == {"ann", "bob", "cid", winner}, n
