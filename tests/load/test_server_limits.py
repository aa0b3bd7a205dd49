"""The production server (gunicorn, two gevent workers) against hostile connections: half-open
connections cannot starve it, a chunked body over the limit is refused before it is applied,
and request heads over gunicorn's limits are refused."""

from __future__ import annotations

import http.client
import json
import re
import socket
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import pytest

from bench.server import ServerProcess
from framework.site import Site

pytest.importorskip("gunicorn")
pytest.importorskip("gevent")

WORKER_CONNECTIONS = 400  # per worker: two workers hold 800 connections at most
HALF_OPEN = 1500  # more than both workers hold, so without a head deadline nobody else is served
HEADER_TIMEOUT = 3.0
KEEPALIVE = 1
DEADLINE = 90.0
CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')  # "answered at all": generous, far above the head deadline


@dataclass
class Server:
    site: Site
    process: ServerProcess
    table_id: int
    player_id: int

    def request(self, method: str, path: str, body: bytes | Iterable[bytes] | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30.0,
                chunked: bool = False) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.process.host, self.process.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()

    def session(self) -> dict[str, str]:
        """The headers of a browser's session: its cookie and CSRF token."""
        conn = http.client.HTTPConnection(self.process.host, self.process.port, timeout=30)
        try:
            conn.request("GET", "/")
            answer = conn.getresponse()
            page = answer.read()
            cookie = answer.getheader("Set-Cookie", "").split(";")[0]
        finally:
            conn.close()
        found = CSRF.search(page)
        assert found and cookie
        return {"Cookie": cookie, "X-CSRF-Token": found.group(1).decode()}

    def connect(self) -> socket.socket:
        return socket.create_connection((self.process.host, self.process.port), timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    instance = tmp_path_factory.mktemp("limits") / "instance"
    site = Site.open(instance)
    table_id = site.runtime.create_table("belote", 4, seed=5)
    active = int(site.runtime.get_data(table_id, None)["gamestate"]["active_player"])
    process = ServerProcess.start(instance, 2, env={
        "ARENA_WORKER_CONNECTIONS": str(WORKER_CONNECTIONS), "ARENA_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
        "ARENA_KEEPALIVE": str(KEEPALIVE)})
    try:
        yield Server(site, process, table_id, active)
    finally:
        process.stop()
        site.close()


def _move(server: Server) -> int:
    return int(server.site.runtime.get_data(server.table_id, None)["move"])


def test_half_open_connections_do_not_starve_the_server(server: Server) -> None:
    sockets = []
    try:
        for _ in range(HALF_OPEN):
            s = server.connect()
            s.sendall(b"GET / HTTP/1.1\r\n")  # and nothing more
            sockets.append(s)
        started = time.monotonic()
        status, _ = server.request("GET", "/", timeout=DEADLINE)
        waited = time.monotonic() - started
        assert status == 200
        print(f"answered after {waited:.1f}s behind {HALF_OPEN} half-open connections")
        # The server closed the half-open ones it held (each one reads its end of file).
        sockets[0].settimeout(DEADLINE)
        assert sockets[0].recv(100) == b""
    finally:
        for s in sockets:
            s.close()


@pytest.mark.parametrize("after_an_answer", [False, True], ids=["first request", "next request"])
def test_a_head_sent_byte_by_byte_is_cut_off(server: Server, after_an_answer: bool) -> None:
    """A client that keeps sending one header byte at a time does not keep its slot: the
    deadline runs from the request's first byte, for each request of a kept-alive
    connection (the connection's one timer is started again for the next head)."""
    with server.connect() as s:
        if after_an_answer:
            _read_page(s)
        s.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
        deadline = time.monotonic() + DEADLINE
        closed = False
        while time.monotonic() < deadline and not closed:
            try:
                s.sendall(b"a")
            except OSError:
                closed = True
                break
            s.settimeout(0.5)
            try:
                closed = s.recv(100) == b""
            except TimeoutError:
                pass
        assert closed


def _read_page(s: socket.socket) -> None:
    """Ask for the lobby on ``s`` (kept alive) and read the whole answer."""
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    s.settimeout(DEADLINE)
    received = b""
    while b"</html>" not in received:
        chunk = s.recv(65536)
        assert chunk, "closed before the answer"
        received += chunk
    assert received.startswith(b"HTTP/1.1 200")


def test_an_idle_kept_alive_connection_is_closed(server: Server) -> None:
    with server.connect() as s:
        _read_page(s)
        rest = s.recv(100)  # nothing more comes: after keepalive seconds the server closes
        assert rest == b""


def _chunked(size: int) -> Iterator[bytes]:
    piece = b" " * 65536
    sent = 0
    yield b'{"bid": "pass"'
    while sent < size:
        yield piece
        sent += len(piece)
    yield b"}"


def test_a_chunked_body_over_the_limit_is_refused_and_not_applied(server: Server) -> None:
    before = _move(server)
    session = server.session()
    path = f"/table/{server.table_id}/act/bid?as={server.player_id}"
    conn = http.client.HTTPConnection(server.process.host, server.process.port, timeout=60)
    try:
        conn.putrequest("POST", path)
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Transfer-Encoding", "chunked")
        for name, value in session.items():
            conn.putheader(name, value)
        conn.endheaders()
        try:
            for chunk in _chunked(3 * 1024 * 1024):
                conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            conn.send(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and closed before reading it all
        answer = conn.getresponse()
        status, body = answer.status, answer.read()
    finally:
        conn.close()
    assert status == 413, body[:300]
    assert json.loads(body)["error"]["message"] == "This request is too large"
    assert _move(server) == before
    # A small chunked body is read and applied as any other.
    status, body = server.request("POST", path, body=iter([b'{"bid": ', b'"pass"}']),
                                  headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked", **session},
                                  chunked=True)
    assert status == 200, body[:300]
    assert _move(server) == before + 1


def _raw(server: Server, head: bytes) -> bytes:
    with server.connect() as s:
        s.sendall(head)
        s.settimeout(DEADLINE)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_request_heads_over_the_limits_are_refused(server: Server) -> None:
    assert _raw(server, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 414")
    many = b"".join(b"X-H%d: 1\r\n" % i for i in range(101))
    assert _raw(server, b"GET / HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n").startswith(b"HTTP/1.1 431")
    big = b"X-Big: " + b"b" * 9000 + b"\r\n"
    assert _raw(server, b"GET / HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n").startswith(b"HTTP/1.1 431")
    fine = b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100) for i in range(50))
    answer = _raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + fine + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 200")
