"""The production command: gunicorn with gevent workers serves the event stream, and a
commit made by another process reaches a waiting stream (the gamelog is polled)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from framework.site import Site

pytest.importorskip("gunicorn")
pytest.importorskip("gevent")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_sse_under_gunicorn_gevent_workers(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    site = Site.open(instance)
    table_id = site.runtime.create_table("belote", 4, seed=11)
    port = _free_port()
    env = {**os.environ, "ARENA_INSTANCE": str(instance)}
    server = subprocess.Popen(
        # a short graceful timeout: a closed stream is only noticed at its next write
        [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "2", "-b", f"127.0.0.1:{port}",
         "--graceful-timeout", "3", "framework.web:create_app()"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError("gunicorn did not start") from None
                time.sleep(0.3)
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
        server.terminate()
        server.wait(timeout=20)
        site.close()
