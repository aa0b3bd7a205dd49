"""The production server's gevent worker: gunicorn's ``gevent_pywsgi`` worker with the
limits gevent's WSGI server lacks, so that slow or half-open connections cannot hold every
slot of a worker.

gevent's ``pywsgi`` reads a request's head with no time limit and ignores gunicorn's
``keepalive`` and ``limit_request_*`` settings (gunicorn's own parser, which applies them,
is not used by this worker). Here each connection gets:

- a deadline for its request line and headers together (``ARENA_HEADER_TIMEOUT``, from the
  first byte of the request; a client sending one byte a second does not reset it);
- ``keepalive`` seconds, between two requests of a kept-alive connection, for the next one
  to begin;
- a timeout on every read and write once the head is in (``ARENA_CLIENT_TIMEOUT``: a body
  or an event stream whose client stopped reading);
- gunicorn's ``limit_request_line`` (414), ``limit_request_fields`` and
  ``limit_request_field_size`` (431).
"""

from __future__ import annotations

import os
import re
from io import BytesIO
from typing import Any

from gevent import Timeout
from gevent.pywsgi import OldMessage
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler

#: Defaults of the worker's own settings (environment variables, in seconds).
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_CLIENT_TIMEOUT = 60.0
#: Bytes of the read buffer of each connection, held for the connection's life (an event
#: stream's too): a request's head is read through it (one that is longer takes more reads),
#: a body past it is read directly. gevent's default, 8 KiB, cost a waiting stream ~3 KiB
#: more of resident memory.
READ_BUFFER = 1024

#: Bytes of an answer's first body chunk that are sent in one send with its head (a
#: larger one, a replay's events say, is not copied for it: gevent sends the two apart).
ONE_SEND_MAX = 64 * 1024

_TOO_LONG = b"HTTP/1.1 414 URI Too Long\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
              b"Content-Length: 0\r\n\r\n")


#: A header line the direct path takes: a token, a colon, a value of printable ASCII.
_PLAIN_HEADER = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([\x20-\x7e\t]*)\r?\n")


def plain_headers(lines: list[bytes]) -> Any:
    """The message gevent's parser makes of ``lines`` (each ending with its line break, the
    last one empty) when each is a plain ``Name: value`` line; None when one is not."""
    message = OldMessage()
    for line in lines[:-1]:
        match = _PLAIN_HEADER.fullmatch(line)
        if match is None:
            return None
        message[match[1].decode("ascii")] = match[2].decode("ascii")
    return message


class HeadTimeout(TimeoutError):
    """The request's line and headers did not all arrive in time."""


class RequestLimitError(ValueError):
    """The request's head is over one of the limits; ``answer`` is what the client is sent."""

    def __init__(self, status: str, answer: bytes) -> None:
        super().__init__(status)
        self.status = status
        self.answer = answer


def env_seconds(name: str, default: float) -> float:
    """A number of seconds from the environment (``default`` when unset or empty)."""
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


class ArenaHandler(PyWSGIHandler):  # type: ignore[misc]
    """One connection: gevent's handler with the deadlines and limits above (set on the
    class by ``ArenaWorker`` from gunicorn's configuration)."""

    header_timeout = DEFAULT_HEADER_TIMEOUT
    client_timeout = DEFAULT_CLIENT_TIMEOUT
    keepalive = 2.0
    limit_request_line = 4094
    limit_request_fields = 100
    limit_request_field_size = 8190

    _served = False
    _line_too_long = False
    _head_timer: Any = None
    _held: bytearray | None = None  # the answer's head, while it waits for its first body chunk

    def __init__(self, sock: Any, address: Any, server: Any, rfile: Any = None) -> None:
        super().__init__(sock, address, server, sock.makefile("rb", READ_BUFFER) if rfile is None else rfile)

    def handle(self) -> None:
        self.socket.settimeout(self.client_timeout or None)
        try:
            super().handle()
        finally:
            timer, self._head_timer = self._head_timer, None
            if timer is not None:
                timer.close()

    def handle_one_request(self) -> Any:
        try:
            return super().handle_one_request()
        finally:
            self._stop_head_timer()

    def read_requestline(self) -> str:
        if self._served and not self._next_request_begins():
            return ""  # closed, or idle longer than keepalive: the connection ends
        self._served = True
        timer = self._head_timer  # one per connection, started for each request's head
        if timer is None:
            timer = self._head_timer = Timeout(self.header_timeout, HeadTimeout("request head too slow"))
        timer.start()
        limit = self.limit_request_line or 8190
        line: bytes = self.rfile.readline(limit + 1)
        self._line_too_long = len(line) > limit and not line.endswith(b"\n")
        return line.decode("latin-1")

    def _next_request_begins(self) -> bool:
        """Wait at most ``keepalive`` seconds for the first byte of the next request."""
        self.socket.settimeout(self.keepalive)
        try:
            return bool(self.rfile.peek(1))
        except OSError:
            return False
        finally:
            self.socket.settimeout(self.client_timeout or None)

    def read_request(self, raw_requestline: str) -> Any:
        try:
            if self._line_too_long:
                raise RequestLimitError("414", _TOO_LONG)
            return super().read_request(raw_requestline)
        finally:
            self._stop_head_timer()

    def MessageClass(self, fp: Any, *args: Any) -> Any:  # noqa: N802 (gevent's name)
        """The headers, read under gunicorn's limits. Plain ``Name: value`` lines make the
        message directly (what ``http.client.parse_headers`` makes of them, without its
        e-mail parser, a tenth of the cost); anything else (folded lines, a name that is
        not a token, bytes outside ASCII) goes through gevent's parser as before."""
        size, count = self.limit_request_field_size or 65536, self.limit_request_fields or 32768
        lines: list[bytes] = []
        while True:
            line: bytes = fp.readline(size + 3)
            if len(line) > size + 2:
                raise RequestLimitError("431", _TOO_LARGE)
            if line in (b"\r\n", b"\n", b""):
                lines.append(line)
                break
            lines.append(line)
            if len(lines) > count:
                raise RequestLimitError("431", _TOO_LARGE)
        message = plain_headers(lines)
        if message is None:
            return super().MessageClass(BytesIO(b"".join(lines)), *args)
        return message

    def _write_with_headers(self, data: bytes) -> None:
        """The answer's head and its first body chunk in one send (gevent sends the head on
        its own, then the chunk: a move's answer cost two system calls and two TCP segments,
        and woke the client twice). A chunk over ``ONE_SEND_MAX`` goes after the head as
        gevent sends it, not copied behind it."""
        if len(data) > ONE_SEND_MAX:
            super()._write_with_headers(data)
            return
        self._held = bytearray()
        try:
            super()._write_with_headers(data)
        finally:
            held, self._held = self._held, None
        if held:
            super()._sendall(held)

    def _sendall(self, data: bytes) -> None:
        if self._held is not None:
            self._held += data
            return
        super()._sendall(data)

    def log_request(self) -> None:
        """gunicorn's access log line, when there is one (``--access-logfile``): without it
        gunicorn's handler would still gather the request's headers and times for nothing."""
        if self.server.log.access_log_enabled:
            super().log_request()

    def _handle_client_error(self, ex: Exception) -> Any:
        if isinstance(ex, RequestLimitError):
            return (ex.status, ex.answer)
        if isinstance(ex, OSError):  # the head timed out or the client went away: just close
            return None
        return super()._handle_client_error(ex)

    def _stop_head_timer(self) -> None:
        timer = self._head_timer
        if timer is not None:
            timer.cancel()


class ArenaWorker(GeventPyWSGIWorker):  # type: ignore[misc]
    """gunicorn's ``gevent_pywsgi`` worker whose connections are ``ArenaHandler``s, with
    gunicorn's ``keepalive`` and ``limit_request_*`` settings and the worker's own
    ``ARENA_HEADER_TIMEOUT`` / ``ARENA_CLIENT_TIMEOUT``."""

    def init_process(self) -> None:
        cfg = self.cfg
        self.wsgi_handler = type("ConfiguredArenaHandler", (ArenaHandler,), {
            "header_timeout": env_seconds("ARENA_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT),
            "client_timeout": env_seconds("ARENA_CLIENT_TIMEOUT", DEFAULT_CLIENT_TIMEOUT),
            "keepalive": float(cfg.keepalive),
            "limit_request_line": int(cfg.limit_request_line),
            "limit_request_fields": int(cfg.limit_request_fields),
            "limit_request_field_size": int(cfg.limit_request_field_size),
        })
        super().init_process()
