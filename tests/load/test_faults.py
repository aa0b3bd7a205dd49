"""Faults: a worker killed in the middle of an action, the database connection dropped in
the middle of a transaction, game code that raises, a full disk or a read-only table file.
Each time the action is applied whole or not at all, the client hears why, and its retry
(the same request, same ``X-Arena-Move``) works."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bench.client import HttpClient, Response, TransportError
from framework.core.errors import StorageUnavailableError
from framework.site import Site
from framework.testing import GameHarness
from framework.web import create_app
from tests.load.conftest import Served, load_registry, new_fault_table, step_kinds


async def csrf(conn: HttpClient, table_id: int, player: int) -> str:
    page = await conn.request("GET", f"/table/{table_id}?as={player}")
    found = re.search(r'"csrf": ?"([^"]+)"', page.text)
    assert found
    return found.group(1)


async def post(conn: HttpClient, table_id: int, player: int, action: str, args: dict[str, Any],
               move: int, retry: bool = True) -> Response:
    token = await csrf(conn, table_id, player)
    return await conn.request(
        "POST", f"/table/{table_id}/act/{action}?as={player}",
        {"X-CSRF-Token": token, "X-Arena-Move": str(move), "Content-Type": "application/json"},
        json.dumps(args).encode(), retry=retry)


async def wait_for(path: Path, timeout: float = 30) -> int:
    for _ in range(int(timeout / 0.02)):
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        await asyncio.sleep(0.02)
    raise AssertionError("the action never started")


def test_a_worker_killed_in_the_middle_of_an_action(served: Served) -> None:
    site = served.site
    table_id, (a, _) = new_fault_table(site)
    move = site.runtime.get_data(table_id, a)["move"]
    served.pid_file.unlink(missing_ok=True)

    async def go() -> tuple[BaseException | Response, Response]:
        conn = served.client()
        slow = asyncio.create_task(post(conn, table_id, a, "slow", {"seconds": 60}, move, retry=False))
        worker = await wait_for(served.pid_file)  # the action has written, not committed
        assert worker in served.server.worker_pids()
        os.kill(worker, signal.SIGKILL)
        try:
            first: BaseException | Response = await slow
        except TransportError as exc:
            first = exc
        await conn.aclose()
        # the client's retry: the same request on a new connection (another worker)
        again = served.client()
        try:
            return first, await post(again, table_id, a, "slow", {"seconds": 0}, move)
        finally:
            await again.aclose()

    first, retried = asyncio.run(go())
    assert not isinstance(first, Response), "the killed worker answered"
    assert retried.status_code == 200, retried.content
    assert step_kinds(site, table_id) == ["slow"]  # applied once: the killed attempt left nothing
    assert site.runtime.get_data(table_id, a)["move"] == move + 1
    assert len(served.server.worker_pids()) >= 1


def _kill_lock_holder(site: Site, table_id: int) -> None:
    """End the server session that holds the table's lock, as a network cut would."""
    store: Any = site.store
    if store.dialect == "postgresql":
        with _admin(site) as run:
            run("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                f"AND classid = {store.lock_space} AND objid = {int(table_id)} AND objsubid = 2")
    else:
        with _admin(site) as run:
            holder = run(f"SELECT IS_USED_LOCK('{store.database(table_id)}') AS c")[0][0]
            assert holder, "nobody holds the table's lock"
            run(f"KILL {int(holder)}")


class _admin:
    """A plain connection to the site's server (outside the store's pool)."""

    def __init__(self, site: Site) -> None:
        self.store: Any = site.store

    def __enter__(self) -> Any:
        if self.store.dialect == "postgresql":
            import psycopg

            self.conn = psycopg.connect(self.store.conninfo, autocommit=True)
            return lambda sql: self.conn.execute(sql).fetchall()
        import pymysql

        self.conn = pymysql.connect(**self.store.connect_args, autocommit=True)

        def run(sql: str) -> Any:
            with self.conn.cursor() as cur:
                cur.execute(sql)
                return cur.fetchall()

        return run

    def __exit__(self, *exc: Any) -> None:
        self.conn.close()


def test_the_database_connection_dropped_mid_transaction(served: Served) -> None:
    site = served.site
    if site.store.dialect == "sqlite":
        pytest.skip("an SQLite table has no connection to drop")
    table_id, (a, _) = new_fault_table(site)
    move = site.runtime.get_data(table_id, a)["move"]
    served.pid_file.unlink(missing_ok=True)

    async def go() -> tuple[Response, Response]:
        conn = served.client()
        try:
            slow = asyncio.create_task(post(conn, table_id, a, "slow", {"seconds": 1.5}, move, retry=False))
            await wait_for(served.pid_file)
            _kill_lock_holder(site, table_id)
            first = await slow
            return first, await post(conn, table_id, a, "slow", {"seconds": 0}, move)
        finally:
            await conn.aclose()

    first, retried = asyncio.run(go())
    assert first.status_code == 503, first.content
    assert first.json()["error"]["code"] == "storage_unavailable"
    assert int(first.headers["retry-after"]) > 0
    assert retried.status_code == 200, retried.content
    assert step_kinds(site, table_id) == ["slow"]


def test_an_exception_in_game_code_changes_nothing(served: Served) -> None:
    site = served.site
    table_id, (a, _) = new_fault_table(site)
    move = site.runtime.get_data(table_id, a)["move"]

    async def go() -> tuple[Response, Response]:
        conn = served.client()
        try:
            crashed = await post(conn, table_id, a, "crash", {}, move)
            return crashed, await post(conn, table_id, a, "step", {}, move)
        finally:
            await conn.aclose()

    crashed, stepped = asyncio.run(go())
    assert crashed.status_code == 500 and crashed.json()["error"]["code"] == "game_error"
    assert "error log" in crashed.json()["error"]["message"]
    assert stepped.status_code == 200
    assert step_kinds(site, table_id) == ["step"]  # the crash's own write was rolled back
    errors = site.runtime.errors(table_id)
    assert errors and "fails on purpose" in errors[-1]["traceback"]


# ------------------------------------------------------------------------- SQLite's own faults
@pytest.fixture
def harness(tmp_path: Path) -> Any:
    with GameHarness("faultgame", tmp_path, registry=load_registry()) as h:
        yield h


def test_a_full_disk_applies_nothing_and_says_so(harness: GameHarness) -> None:
    t = harness.create_table(players=2)
    a = t.active_player
    raw = _raw_for(harness.site, t.id)
    pages = raw.execute("PRAGMA page_count").fetchone()[0]
    raw.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    refused = None
    for _ in range(2000):
        before = t.snapshot()
        try:
            t.act(a, "step")
        except StorageUnavailableError as exc:
            refused = exc
            break
    assert refused is not None, "the table never ran out of space"
    assert refused.code == "storage_full" and refused.http_status == 503
    assert "disk is full" in str(refused)
    assert t.snapshot() == before  # nothing half-written
    raw.execute("PRAGMA max_page_count = 1073741823")  # space again: the same action goes through
    t.act(a, "step")
    assert len(t.snapshot()["step"]) == len(before["step"]) + 1


def test_a_read_only_table_file_applies_nothing_and_answers_503(harness: GameHarness, tmp_path: Path) -> None:
    t = harness.create_table(players=2)
    a = t.active_player
    before = t.snapshot()
    raw = _raw_for(harness.site, t.id)
    raw.execute("PRAGMA query_only = 1")  # writes refused as for a read-only file
    with pytest.raises(StorageUnavailableError) as caught:
        t.act(a, "step")
    assert caught.value.code == "storage_read_only"
    assert t.snapshot() == before
    # the web answer: 503 with Retry-After, and the player's view still loads
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(harness.site.instance_path),
                      "ARENA_REGISTRY": harness.site.registry, "SECRET_KEY": "x", "CSRF_DISABLED": True})
    site = app.extensions["arena"]
    try:
        _raw_for(site, t.id).execute("PRAGMA query_only = 1")
        client = app.test_client()
        answer = client.post(f"/table/{t.id}/act/step?as={a}", json={})
        assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
        assert answer.get_json()["error"]["code"] == "storage_read_only"
        assert client.get(f"/table/{t.id}/data?as={a}").status_code == 200
    finally:
        site.close()
    raw.execute("PRAGMA query_only = 0")
    t.act(a, "step")


def _raw_for(site: Site, table_id: int) -> sqlite3.Connection:
    conn: Any = site.store._checkout(table_id)  # type: ignore[attr-defined]
    return conn.raw  # type: ignore[no-any-return]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
def test_a_table_file_made_read_only(harness: GameHarness) -> None:
    t = harness.create_table(players=2)
    a = t.active_player
    path: Path = harness.site.store.path(t.id)  # type: ignore[attr-defined]
    harness.site.store.close()
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.chmod(0o444)
    try:
        with pytest.raises(StorageUnavailableError):
            t.act(a, "step")
    finally:
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(path) + suffix)
            if p.exists():
                p.chmod(0o644)
