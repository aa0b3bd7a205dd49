"""The production worker's header reading: plain lines make the message directly, and that
message is the one gevent's own parser makes of them; other lines go through gevent's."""

from __future__ import annotations

import io
import sys

import pytest

pytest.importorskip("gevent")
pytest.importorskip("gunicorn")

from gevent import socket  # noqa: E402
from gevent.pywsgi import headers_factory  # noqa: E402

from framework.web.worker import ONE_SEND_MAX, READ_BUFFER, ArenaHandler, plain_headers  # noqa: E402

PLAIN = [
    b"Host: 127.0.0.1:5000\r\nCookie: session=a.b.c; lang=fr\r\nX-Arena-Move: 12\r\n"
    b"Content-Length: 14\r\nContent-Type: application/json\r\n\r\n",
    b"Host: x\nAccept: */*\n\n",  # bare line feeds
    b"X-Empty:\r\nX-Spaces:   v  \r\nX-Tab:\tt\r\n\r\n",  # no value; spaces kept after it
    b"Set-Twice: 1\r\nset-twice: 2\r\n\r\n",  # repeated names, case kept
    b"\r\n",  # no header at all
]
ODD = [
    b"Host : x\r\n\r\n",  # space before the colon
    b"A: b\r\n  folded\r\n\r\n",  # an obsolete folded line
    "A: caf\u00e9\r\n\r\n".encode("latin-1"),  # a byte outside ASCII
    b"No colon here\r\n\r\n",
]


def lines_of(raw: bytes) -> list[bytes]:
    return list(io.BytesIO(raw))


@pytest.mark.parametrize("raw", PLAIN)
def test_plain_lines_make_the_message_gevents_parser_makes(raw: bytes) -> None:
    ours, theirs = plain_headers(lines_of(raw)), headers_factory(io.BytesIO(raw))
    assert ours is not None
    assert ours.items() == theirs.items() and ours.status == theirs.status == ""
    assert ours.get("content-length") == theirs.get("content-length")
    assert ours.get_all("set-twice") == theirs.get_all("set-twice")


@pytest.mark.parametrize("raw", ODD)
def test_other_lines_are_left_to_gevents_parser(raw: bytes) -> None:
    assert plain_headers(lines_of(raw)) is None


def test_a_connection_reads_through_a_small_buffer_heads_longer_than_it() -> None:
    """Each connection's read buffer (kept as long as it is open: an event stream's too) is
    READ_BUFFER bytes, not gevent's 8 KiB; a longer head still reads whole."""
    ours, theirs = socket.socketpair()
    try:
        handler = ArenaHandler(ours, ("127.0.0.1", 1), None)
        assert READ_BUFFER <= sys.getsizeof(handler.rfile) < READ_BUFFER + 1024
        cookie = b"Cookie: " + b"c" * (3 * READ_BUFFER) + b"\r\n"
        theirs.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + cookie + b"\r\n")
        assert handler.read_requestline() == "GET / HTTP/1.1\r\n"
        message = handler.MessageClass(handler.rfile, 0)
        assert message["Host"] == "x" and message["Cookie"] == "c" * (3 * READ_BUFFER)
        handler._stop_head_timer()
        handler.rfile.close()
    finally:
        ours.close()
        theirs.close()


class _CountingSocket:
    """A connection's socket that records what each send carried."""

    def __init__(self, sock: socket.socket, sent: list[bytes]) -> None:
        self._sock, self._sent = sock, sent

    def sendall(self, data: bytes) -> None:
        self._sent.append(bytes(data))
        self._sock.sendall(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


def _answer_sends(app: object, request: bytes) -> tuple[list[bytes], bytes]:
    """What ``ArenaHandler`` sent, send by send, answering ``request`` with ``app``; and
    what the client received."""
    from gevent.pywsgi import WSGIServer

    sent: list[bytes] = []

    class Counting(ArenaHandler):  # type: ignore[misc]
        def __init__(self, sock: socket.socket, address: object, server: object, rfile: object = None) -> None:
            super().__init__(sock, address, server, rfile)
            self.socket = _CountingSocket(self.socket, sent)

        def log_request(self) -> None:
            pass

    server = WSGIServer(("127.0.0.1", 0), app, handler_class=Counting, log=None, error_log=None)
    server.start()
    try:
        client = socket.create_connection(("127.0.0.1", server.server_port))
        client.sendall(request)
        received = b""
        while not received.endswith((b'{"ok":true}', b"0\r\n\r\n", b"!")):  # each test's last bytes
            chunk = client.recv(65536)
            assert chunk, received
            received += chunk
        client.close()
    finally:
        server.stop(timeout=1)
    return sent, received


def test_an_answer_s_head_goes_out_with_its_body_in_one_send() -> None:
    """gevent sends an answer's head, then its body: two system calls and two segments for
    a move's small answer. The worker's handler sends them together."""
    def app(environ: dict[str, object], start_response: object) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "11")])  # type: ignore[operator]
        return [b'{"ok":true}']

    sent, received = _answer_sends(app, b"POST /act HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                                         b"Connection: close\r\n\r\n")
    assert len(sent) == 1, sent
    assert sent[0].startswith(b"HTTP/1.1 200 OK\r\n") and sent[0].endswith(b'\r\n\r\n{"ok":true}')
    assert received == sent[0]


def test_a_streamed_answer_s_head_goes_out_with_its_first_chunk() -> None:
    """An event stream (chunked): the head with the first chunk, then one send per chunk."""
    def app(environ: dict[str, object], start_response: object) -> object:
        start_response("200 OK", [("Content-Type", "text/event-stream")])  # type: ignore[operator]
        return iter([b"retry: 1000\n\n", b"data: {}\n\n"])

    sent, received = _answer_sends(app, b"GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert sent[0].startswith(b"HTTP/1.1 200 OK\r\n") and sent[0].endswith(b"\r\n\r\nd\r\nretry: 1000\n\n\r\n")
    assert sent[1] == b"a\r\ndata: {}\n\n\r\n"
    assert b"".join(sent) == received and received.endswith(b"0\r\n\r\n")


def test_a_large_body_is_not_copied_behind_its_head() -> None:
    """A first chunk over ``ONE_SEND_MAX`` (a replay's events) goes after the head, as gevent
    sends it, rather than copied into one buffer with it."""
    body = b"z" * ONE_SEND_MAX + b"!"

    def app(environ: dict[str, object], start_response: object) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])  # type: ignore[operator]
        return [body]

    sent, received = _answer_sends(app, b"GET /replay HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert len(sent) == 2 and sent[0].endswith(b"\r\n\r\n") and sent[1] == body
    assert b"".join(sent) == received
