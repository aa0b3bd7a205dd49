"""The production command: gunicorn with gevent workers serves the event stream, and a
commit made by another process reaches a waiting stream (the gamelog is polled); Arena's
worker writes gunicorn's access log when one is asked for; a worker whose move waits for a
table another process holds goes on serving its other requests meanwhile."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bench.client import HttpClient
from bench.server import ServerProcess, free_port
from framework.site import Site

pytest.importorskip("gunicorn")
pytest.importorskip("gevent")


def test_sse_under_gunicorn_gevent_workers(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    site = Site.open(instance)
    table_id = site.runtime.create_table("belote", 4, seed=11)
    port = free_port()
    env = {**os.environ, "ARENA_INSTANCE": str(instance)}
    log_path = tmp_path / "gunicorn.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", "gevent_pywsgi", "-w", "2", "-b", f"127.0.0.1:{port}",
             "framework.web:create_app()"], env=env, stdout=log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    try:
        server.wait_ready(60, workers=2)
        data = site.runtime.get_data(table_id, None)
        active, last = data["gamestate"]["active_player"], data["notifications"]["last_packet_id"]
        assert last >= 1  # the deal is logged: the stream's backlog is that row
        seen: list[dict[str, object]] = []

        async def listen() -> None:
            client, stop = HttpClient("127.0.0.1", port), asyncio.Event()

            def on_events(batch: list[dict[str, object]]) -> None:
                seen.extend(batch)
                if any(e.get("type") == "bid" for e in seen):
                    stop.set()

            async def commit_once_streaming() -> None:
                while not seen:  # the stream's first read is done: its backlog came
                    await asyncio.sleep(0.02)
                site.runtime.act(table_id, active, "bid", {"bid": "pass"})  # committed by this process

            path = f"/table/{table_id}/events?as={active}&after={last - 1}"
            committing = asyncio.create_task(commit_once_streaming())
            try:
                await asyncio.wait_for(client.stream(path, {}, on_events, stop), 20)
            finally:
                committing.cancel()
                await client.aclose()

        asyncio.run(listen())
        ids = [e["id"] for e in seen]
        assert ids == sorted(set(ids)) and ids[0] == last and ids[-1] > last
        assert any(e["type"] == "bid" and "passes" in str(e["log"]) for e in seen)
    finally:
        server.stop()  # quick shutdown: gunicorn does not wait for the open event streams
        site.close()


def test_the_arena_worker_writes_the_access_log_when_asked(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    Site.open(instance).close()
    port, access = free_port(), tmp_path / "access.log"
    env = {**os.environ, "ARENA_INSTANCE": str(instance)}
    log_path = tmp_path / "gunicorn.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", "framework.web.worker.ArenaWorker", "-w", "1",
             "-b", f"127.0.0.1:{port}", "--access-logfile", str(access), "framework.web:create_app()"],
            env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    try:
        server.wait_ready(60)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/gamehelp", timeout=10) as answer:
            assert answer.status == 200
        deadline = time.monotonic() + 10
        while "GET /gamehelp" not in (access.read_text() if access.exists() else ""):
            assert time.monotonic() < deadline, "no access log line"
            time.sleep(0.05)
        assert '" 200 ' in access.read_text()
    finally:
        server.stop()


def test_a_worker_whose_move_waits_for_a_busy_table_serves_other_requests(tmp_path: Path) -> None:
    """Another process holds the table's write lock (as a checkpoint does while it copies):
    the move waits for it without stopping the worker's event loop (SQLite's own busy
    handler would sleep in C for up to its timeout, and the one worker could answer
    nothing), and it is applied once the lock goes."""
    instance = tmp_path / "instance"
    site = Site.open(instance)
    table_id = site.runtime.create_table("belote", 4, seed=11)
    active = site.runtime.get_data(table_id, None)["gamestate"]["active_player"]
    table_file = site.runtime.store.path(table_id)  # type: ignore[attr-defined]
    site.close()
    port = free_port()
    env = {**os.environ, "ARENA_INSTANCE": str(instance)}
    log_path = tmp_path / "gunicorn.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", "framework.web.worker.ArenaWorker", "-w", "1",
             "-b", f"127.0.0.1:{port}", "framework.web:create_app()"],
            env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    base = f"http://127.0.0.1:{port}"
    holder = sqlite3.connect(str(table_file), isolation_level=None, check_same_thread=False)
    try:
        server.wait_ready(60)
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = opener.open(f"{base}/table/{table_id}?as={active}", timeout=10).read().decode()
        found = re.search(r'"csrf": ?"([^"]+)"', page)
        assert found is not None
        move = urllib.request.Request(
            f"{base}/table/{table_id}/act/bid?as={active}", data=json.dumps({"bid": "pass"}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": found.group(1)}, method="POST")
        answers: dict[str, object] = {}

        def send_move() -> None:
            with opener.open(move, timeout=60) as answer:
                answers["status"], answers["at"] = answer.status, time.monotonic()

        holder.execute("BEGIN IMMEDIATE")
        mover = threading.Thread(target=send_move)
        mover.start()
        time.sleep(0.5)  # the move reaches the table's lock and waits there
        with urllib.request.urlopen(f"{base}/gamehelp", timeout=10) as other:  # frozen: times out
            assert other.status == 200
        assert mover.is_alive() and "status" not in answers  # still waiting for the table
        released = time.monotonic()
        holder.execute("ROLLBACK")
        mover.join(30)
        assert answers.get("status") == 200
        assert float(answers["at"]) >= released  # type: ignore[arg-type]
        check = Site.open(instance)
        try:
            assert check.runtime.get_data(table_id, None)["gamestate"]["active_player"] != active
        finally:
            check.close()
    finally:
        holder.close()
        server.stop()
