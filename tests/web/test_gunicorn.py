"""The production command: gunicorn with gevent workers serves the event stream, and a
commit made by another process reaches a waiting stream (the gamelog is polled)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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
            [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "2", "-b", f"127.0.0.1:{port}",
             "framework.web:create_app()"], env=env, stdout=log_file, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    try:
        server.wait_ready(60, workers=2)
        data = site.runtime.get_data(table_id, None)
        active, last = data["gamestate"]["active_player"], data["notifications"]["last_packet_id"]
        stream = urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/table/{table_id}/events?as={active}",
            headers={"Last-Event-ID": str(last)}), timeout=20)
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        site.runtime.act(table_id, active, "bid", {"bid": "pass"})  # committed by this process
        seen: list[dict[str, object]] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(e.get("type") == "bid" for e in seen):
            line = stream.readline().decode()
            if line.startswith("data: ") and '"id"' in line:
                seen.append(json.loads(line[6:]))
        stream.close()
        assert [e["id"] for e in seen][0] == last + 1
        assert any(e["type"] == "bid" and "passes" in str(e["log"]) for e in seen)
    finally:
        server.stop()  # quick shutdown: gunicorn does not wait for the open event streams
        site.close()
