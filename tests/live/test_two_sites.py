"""Two machines of one site: two ``Site`` apps with instance folders of their own on one
database, their commits carried by the site's bus (PostgreSQL LISTEN/NOTIFY, or Redis).
Every notification must reach every event stream on both machines exactly once and in
order, in time, with the streams' own safety-net read kept out of the way."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask

from framework.game.registry import GameRegistry
from framework.site import Site
from framework.web import create_app
from framework.web.play import event_stream
from tests.backends import PostgresRun, require, server_site_url
from tests.web.test_events import parse_sse

SKIP_REDIS = "set ARENA_TEST_REDIS_URL=redis://127.0.0.1:6379/0 to run the Redis bus across two sites"
SHOUTS_PER_SITE = 15
DEADLINE_S = 30.0


def redis_url() -> str:
    """The test Redis, or skip naming the variable."""
    url = os.environ.get("ARENA_TEST_REDIS_URL")
    if not url:
        pytest.skip(SKIP_REDIS)
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis at ARENA_TEST_REDIS_URL is unreachable ({exc}); {SKIP_REDIS}")
    return url


@pytest.fixture(params=[("postgresql", "postgres"), ("postgresql", "redis"), ("mysql", "redis")],
                ids=["postgresql-listen", "postgresql-redis", "mariadb-redis"])
def machines(request: pytest.FixtureRequest, tmp_path: Path, registry: GameRegistry,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Flask, Flask]]:
    """Two apps (machines) on one fresh site database, on the bus the parameter names."""
    kind, bus = request.param
    monkeypatch.delenv("ARENA_BUS_URL", raising=False)
    bus_url = redis_url() if bus == "redis" else None
    require(kind)
    pg_run: PostgresRun | None = request.getfixturevalue("postgres_run") if kind == "postgresql" else None
    for url in server_site_url(kind, pg_run):
        apps = [create_app({
            "TESTING": True, "ARENA_INSTANCE": str(tmp_path / name), "ARENA_DATABASE_URL": url,
            "ARENA_BUS_URL": bus_url, "ARENA_REGISTRY": registry, "SECRET_KEY": "test",
        }) for name in ("machine-a", "machine-b")]
        try:
            for app in apps:
                assert site_of(app).streams.poller is None  # the bus reaches the other machine
            yield apps[0], apps[1]
        finally:
            for app in apps:
                site_of(app).close()


def site_of(app: Flask) -> Site:
    site: Site = app.extensions["arena"]
    return site


@dataclass(eq=False)
class Watcher(threading.Thread):
    """One open event stream (the SSE route's body) of ``player`` on ``app``, collecting
    the notification ids it sends until it has ``expected`` of them."""

    app: Flask
    table_id: int
    player: int | None
    after: int
    expected: int
    ids: list[int] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def run(self) -> None:
        with self.app.app_context():
            # the stream's own read on a timeout (SSE_POLL) is kept out: only wake-ups count
            body = event_stream(self.table_id, self.player, self.after, "en", "labgame",
                                keepalive=60.0, poll=60.0, max_seconds=DEADLINE_S)
            try:
                for chunk in body:
                    self.ready.set()
                    messages, _ = parse_sse(chunk)
                    self.ids += [m["id"] for m in messages]
                    if len(self.ids) >= self.expected:
                        return
            finally:
                body.close()


def test_every_notification_reaches_every_stream_of_both_machines_once_in_order(
        machines: tuple[Flask, Flask]) -> None:
    a, b = (site_of(app) for app in machines)
    table_id = a.runtime.create_table("labgame", players=3, seed=11)
    players = a.runtime.get_data(table_id, None)["playerorder"]
    after = a.runtime.get_data(table_id, None)["notifications"]["last_packet_id"]
    expected = 2 * SHOUTS_PER_SITE  # one public notification per shout
    watchers = [Watcher(app, table_id, player, after, expected)
                for app in machines for player in (None, players[0], players[1])]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        assert watcher.ready.wait(10)  # its stream has started
    deadline = time.monotonic() + 10
    while not (a.streams.listening and b.streams.listening) and time.monotonic() < deadline:
        time.sleep(0.02)  # ...and each machine has subscribed to the bus (under load it can take a while)
    assert a.streams.listening and b.streams.listening

    def shout(site: Site, tag: str) -> None:
        for i in range(SHOUTS_PER_SITE):
            site.runtime.act(table_id, players[i % 3], "shout", {"words": [tag, str(i)]})

    both = [threading.Thread(target=shout, args=(site, tag)) for site, tag in ((a, "a"), (b, "b"))]
    for thread in both:
        thread.start()
    for thread in both:
        thread.join(60)
    for watcher in watchers:
        watcher.join(DEADLINE_S)
    top = a.runtime.get_data(table_id, None)["notifications"]["last_packet_id"]
    assert top == after + expected
    logged = [e["id"] for e in a.runtime.events(table_id, None, after)]
    assert logged == list(range(after + 1, top + 1))  # gap-free, increasing
    shouts = [e["args"]["text"] for e in a.runtime.events(table_id, None, after)]
    assert {s.split()[0] for s in shouts} == {"a", "b"}  # both machines played
    for watcher in watchers:
        assert watcher.ids == logged, (
            f"the stream of player {watcher.player} on {site_of(watcher.app).instance_path.name}")
    assert site_of(machines[0]).streams.heard >= 1 and site_of(machines[1]).streams.heard >= 1
