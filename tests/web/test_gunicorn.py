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


# ------------------------------------------------------------------ one send per answer
class _Recorder:
    """A socket that keeps what each ``sendall`` sent."""

    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


@pytest.fixture
def one_send() -> object:
    from gunicorn.http import wsgi

    from framework.web.server import one_send_responses

    original = wsgi.Response
    one_send_responses()
    one_send_responses()  # a second call changes nothing
    assert wsgi.Response.__mro__[1] is original
    yield wsgi
    wsgi.Response = original


def _answer(wsgi: object, raw: bytes, body: list[bytes], status: str = "200 OK",
            length: bool = True) -> list[bytes]:
    """``raw`` parsed by gunicorn and answered with ``body``: the bytes of each send."""
    from gunicorn.config import Config
    from gunicorn.http.parser import RequestParser

    cfg = Config()
    req = next(iter(RequestParser(cfg, iter([raw]), ("127.0.0.1", 9))))
    sock = _Recorder()
    resp, _environ = wsgi.create(req, sock, ("127.0.0.1", 9), ("127.0.0.1", 8000), cfg)  # type: ignore[attr-defined]
    headers = [("Content-Type", "text/plain")]
    if length:
        headers.append(("Content-Length", str(sum(len(b) for b in body))))
    resp.start_response(status, headers)
    for item in body:
        resp.write(item)
    resp.close()
    return sock.sends


def test_an_answer_leaves_in_one_send(one_send: object) -> None:
    sends = _answer(one_send, b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", [b'{"ok": 1}'])
    assert len(sends) == 1
    head, _, body = sends[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n") and b"Content-Length: 9" in head
    assert body == b'{"ok": 1}'


def test_a_stream_sends_its_head_with_the_first_chunk(one_send: object) -> None:
    sends = _answer(one_send, b"GET /events HTTP/1.1\r\nHost: a\r\n\r\n", [b"data: 1\n\n", b"data: 2\n\n"],
                    length=False)
    assert len(sends) == 3
    head, _, first = sends[0].partition(b"\r\n\r\n")
    assert b"Transfer-Encoding: chunked" in head
    assert first == b"9\r\ndata: 1\n\n\r\n"
    assert sends[1:] == [b"9\r\ndata: 2\n\n\r\n", b"0\r\n\r\n"]


def test_an_answer_without_body_still_sends_its_head(one_send: object) -> None:
    sends = _answer(one_send, b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n", [], status="204 No Content")
    assert len(sends) == 1 and sends[0].startswith(b"HTTP/1.1 204 No Content\r\n")
    assert sends[0].endswith(b"\r\n\r\n")
    head_only = _answer(one_send, b"HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n", [b"hello"])
    assert len(head_only) == 1 and b"hello" not in head_only[0]
