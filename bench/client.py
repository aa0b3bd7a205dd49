"""The HTTP client of the benchmark's players and of the load tests, on aiohttp (asyncio):
keep-alive, cookies kept per player, Server-Sent Events read as batches of notifications.

One event loop holds every player: thousands of kept-open event streams cost a socket and a
small task each, not a thread. Players may share a ``Transport`` (two aiohttp sessions: a
bounded pool of kept-alive connections for requests, and one connection per open stream),
so that 16,000 streams do not also hold 16,000 idle request connections; each player keeps
its own cookies (the sessions' jars are off) and sends them itself.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import sys
from collections.abc import Callable
from functools import cached_property
from http.cookies import SimpleCookie
from typing import Any

import aiohttp
from multidict import CIMultiDictProxy

#: a connection that failed, broke mid-answer, or that the server had closed while it was
#: kept alive (``ServerDisconnectedError``), or a request that timed out
BROKEN = (aiohttp.ClientError, OSError, asyncio.TimeoutError)

#: headers aiohttp adds on its own that no request of a player needs (the server parses
#: every header it gets; it compresses nothing)
SKIPPED_HEADERS = ("User-Agent", "Accept-Encoding", "Accept", "Content-Type")

#: seconds: well under the server's ``keepalive`` (5 s by default), so that the pool seldom
#: sends a request on a connection the server is about to close (the server counts from the
#: end of its answer, the pool from when the client got it: a busy client loop is late)
POOL_KEEPALIVE_S = 2.5


class TransportError(OSError):
    """A request could not be answered (the connection failed or broke)."""


class Response:
    """An answer: status, headers (names in any case), body."""

    def __init__(self, status_code: int, headers: CIMultiDictProxy[str], content: bytes) -> None:
        self.status_code, self.headers, self.content = status_code, headers, content

    @cached_property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)


class Transport:
    """The connections of one or many players to one server: ``requests``, a pool of at
    most ``pool`` kept-alive connections, and ``streams``, one connection per open event
    stream (no bound). Made lazily inside the running loop (aiohttp's sessions belong to
    it)."""

    def __init__(self, host: str, port: int, pool: int = 256, request_timeout: float = 60.0,
                 stream_read_timeout: float = 60.0) -> None:
        self.base = f"http://{host}:{port}"
        self.pool = pool
        self.request_timeout = request_timeout
        self.stream_read_timeout = stream_read_timeout
        self._requests: aiohttp.ClientSession | None = None
        self._fresh: aiohttp.ClientSession | None = None
        self._streams: aiohttp.ClientSession | None = None

    def _session(self, limit: int, timeout: aiohttp.ClientTimeout,
                 kept: bool = True) -> aiohttp.ClientSession:
        """A session of at most ``limit`` connections (0: no bound), kept alive between
        requests unless ``kept`` is False (then each request has a connection of its own)."""
        connector = (aiohttp.TCPConnector(limit=limit, limit_per_host=limit,
                                          keepalive_timeout=POOL_KEEPALIVE_S) if kept
                     else aiohttp.TCPConnector(limit=limit, force_close=True))
        return aiohttp.ClientSession(self.base, connector=connector, timeout=timeout,
                                     cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
                                     skip_auto_headers=SKIPPED_HEADERS)

    @property
    def requests(self) -> aiohttp.ClientSession:
        if self._requests is None:
            self._requests = self._session(self.pool, aiohttp.ClientTimeout(total=self.request_timeout))
        return self._requests

    @property
    def fresh(self) -> aiohttp.ClientSession:
        """Requests sent again after a broken connection: each on a new connection (another
        kept one may have been closed by the server just as well)."""
        if self._fresh is None:
            self._fresh = self._session(0, aiohttp.ClientTimeout(total=self.request_timeout), kept=False)
        return self._fresh

    @property
    def streams(self) -> aiohttp.ClientSession:
        if self._streams is None:
            # no total: a stream lasts; a read waits at most ``stream_read_timeout`` (the
            # server sends a keep-alive comment well within it). Each stream on a new
            # connection: an ended stream's connection is never taken again stale.
            self._streams = self._session(0, aiohttp.ClientTimeout(
                total=None, connect=self.request_timeout, sock_read=self.stream_read_timeout),
                kept=False)
        return self._streams

    async def aclose(self) -> None:
        for session in (self._requests, self._fresh, self._streams):
            if session is not None:
                await session.close()
        self._requests = self._fresh = self._streams = None


class HttpClient:
    """One player's client: its cookies, its requests (one after the other, as a browser's
    page sends them) and its event stream, over ``transport`` (shared with other players),
    or over connections of its own when none is given (closed by ``aclose``)."""

    def __init__(self, host: str, port: int, transport: Transport | None = None) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self.retries = 0  # requests sent again on a new connection
        self._own = transport is None
        self.transport = transport or Transport(host, port, pool=4)

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"", retry: bool = True) -> Response:
        """Send once; when the connection breaks, once more on a new connection (unless
        ``retry`` is False). Actions carry ``X-Arena-Move``, so a retry never applies one
        twice. Redirects are answers, not followed.

        Raises:
            TransportError: the request could not be answered.
        """
        attempts = 2 if retry else 1
        for attempt in range(1, attempts + 1):
            session = self.transport.requests if attempt == 1 else self.transport.fresh
            try:
                async with session.request(
                        method, path, headers=self.head(headers), data=body or None,
                        allow_redirects=False) as answer:
                    content = await answer.read()
                    self.keep_cookies(answer.headers)
                    return Response(answer.status, answer.headers, content)
            except BROKEN as exc:
                self.retries += 1
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    print("connection broke:", method, path, repr(exc), file=sys.stderr)
                if attempt == attempts:
                    raise TransportError(f"{method} {path}: {exc!r}") from exc
        raise AssertionError("unreachable")

    def send(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"",
             retry: bool = True) -> Response:
        """``request`` for a caller without an event loop: blocking, on connections of its own
        made and closed for this one request (the cookies are kept).

        Raises:
            TransportError: the request could not be answered.
        """
        async def once() -> Response:
            alone = HttpClient(self.host, self.port)
            alone.cookies = self.cookies
            try:
                return await alone.request(method, path, headers, body, retry)
            finally:
                self.retries += alone.retries
                await alone.aclose()

        return asyncio.run(once())

    def head(self, headers: dict[str, str] | None) -> dict[str, str]:
        if not self.cookies:
            return headers or {}
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return {**(headers or {}), "Cookie": cookie}

    def keep_cookies(self, headers: CIMultiDictProxy[str]) -> None:
        for line in headers.getall("Set-Cookie", ()):
            for name, morsel in SimpleCookie(line).items():
                if morsel.value == "" or morsel["max-age"] in ("0", "-1"):
                    self.cookies.pop(name, None)  # the server deletes it
                else:
                    self.cookies[name] = morsel.value

    async def read_events(self, path: str, headers: dict[str, str],
                          on_events: Callable[[list[dict[str, Any]]], None],
                          on_open: Callable[[], None] | None = None) -> int:
        """Read a Server-Sent Events stream on a connection of its own; ``on_open`` is called
        once the server accepted it (200), ``on_events`` with each batch of notifications (a
        ``reset`` event as ``{"type": "_reset"}``). Returns the HTTP status once the server
        ends the stream; cancel the task to leave earlier.

        Raises:
            TransportError: the stream could not be opened or broke.
        """
        try:
            async with self.transport.streams.get(
                    path, headers=self.head({**headers, "Accept": "text/event-stream"}),
                    allow_redirects=False) as answer:
                if answer.status != 200:
                    await answer.read()
                    return answer.status
                if on_open is not None:
                    on_open()
                decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
                buffer = ""
                while True:
                    chunk = await answer.content.readany()
                    if not chunk:
                        return answer.status
                    buffer += decoder.decode(chunk)
                    batch, buffer = parse_events(buffer)
                    if batch:
                        on_events(batch)
        except BROKEN as exc:
            raise TransportError(f"GET {path}: {exc!r}") from exc

    async def stream(self, path: str, headers: dict[str, str],
                     on_events: Callable[[list[dict[str, Any]]], None], stop: asyncio.Event) -> int:
        """``read_events`` until the server ends the stream or ``stop`` is set (then 200).

        Raises:
            TransportError: the stream could not be opened or broke.
        """
        reading = asyncio.ensure_future(self.read_events(path, headers, on_events))
        stopped = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait([reading, stopped], return_when=asyncio.FIRST_COMPLETED)
            return reading.result() if reading.done() else 200
        finally:
            reading.cancel()
            stopped.cancel()

    def close(self) -> None:
        """Nothing to do for ``send``, whose connections are closed after each request;
        ``aclose`` closes the connections of ``request`` and ``stream``."""

    async def aclose(self) -> None:
        """Close the client's own connections (a shared transport is its owner's to close)."""
        if self._own:
            await self.transport.aclose()


def parse_events(buffer: str) -> tuple[list[dict[str, Any]], str]:
    """The notifications of the complete events at the start of ``buffer``, and what is left.

    >>> parse_events('id: 3\\ndata: {"id": 3}\\n\\nevent: reset\\ndata: {}\\n\\nid: 4\\nda')
    ([{'id': 3}, {'type': '_reset'}], 'id: 4\\nda')
    """
    batch: list[dict[str, Any]] = []
    while "\n\n" in buffer:
        block, buffer = buffer.split("\n\n", 1)
        kind, payload = "message", ""
        for line in block.split("\n"):
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                payload = line[5:].strip()
        if kind == "message" and payload:
            batch.append(json.loads(payload))
        elif kind == "reset":
            batch.append({"type": "_reset"})
    return batch, buffer
