"""The HTTP client of the benchmark's players and of the load tests: the standard library's
``http.client`` (keep-alive, cookies kept, Server-Sent Events read as batches of
notifications). The bots call it blocking, each on its own thread; the tests' coroutines
await it (a request runs on its client's thread, an event stream on a thread of its own)."""

from __future__ import annotations

import asyncio
import codecs
import http.client
import json
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from http.cookies import SimpleCookie
from typing import Any

#: a kept-alive connection the server had closed, or a connection that broke mid-answer
#: (``RemoteDisconnected`` is a ``ConnectionResetError``; ``IncompleteRead`` and a garbled
#: status line are ``HTTPException``s)
BROKEN = (http.client.HTTPException, ConnectionResetError, ConnectionAbortedError, BrokenPipeError)


class TransportError(OSError):
    """A request could not be answered (the connection failed or broke)."""


class Response:
    """An answer: status, headers (``http.client.HTTPMessage``: names in any case), body."""

    def __init__(self, status_code: int, headers: http.client.HTTPMessage, content: bytes) -> None:
        self.status_code, self.headers, self.content = status_code, headers, content

    @cached_property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)


class HttpClient:
    """One player's client: its cookies, a keep-alive connection for requests and one for
    its event stream.

    ``http.client`` sends a request's head and (bytes) body in one write, so the server
    wakes once per request; no header goes but those a request needs (the server parses
    every header of every request).
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self.retries = 0  # requests sent again on a new connection
        self.conn = http.client.HTTPConnection(host, port)
        # one thread: the connection's requests go one after the other, as on a browser's
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-http")

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"", retry: bool = True) -> Response:
        """Send once; when the connection breaks, once more on a new one (unless ``retry``
        is False). Actions carry ``X-Arena-Move``, so a retry never applies one twice.

        Raises:
            TransportError: the request could not be answered.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, self.send, method, path, headers, body, retry)

    def send(self, method: str, path: str, headers: dict[str, str] | None, body: bytes,
             retry: bool) -> Response:
        """``request``, blocking (on the client's thread)."""
        for attempt in (1, 2) if retry else (2,):
            try:
                self.put(method, path, headers, body)
                answer = self.conn.getresponse()
                content = answer.read()
            except BROKEN as exc:
                self.conn.close()  # the next request connects again
                self.retries += 1
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    print("connection broke:", method, path, repr(exc), file=sys.stderr)
                if attempt == 2:
                    raise TransportError(f"{method} {path}: {exc!r}") from exc
                continue
            except OSError as exc:
                self.conn.close()
                raise TransportError(f"{method} {path}: {exc!r}") from exc
            self.keep_cookies(answer.headers)
            return Response(answer.status, answer.headers, content)
        raise AssertionError("unreachable")

    def put(self, method: str, path: str, headers: dict[str, str] | None, body: bytes) -> None:
        """Send a request: its head and body in one write (``endheaders``), with ``Host``,
        the headers given, the cookies and ``Content-Length`` when there is a body (or the
        method expects one); no ``Accept-Encoding`` (the server compresses nothing)."""
        conn = self.conn
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in self.head(headers).items():
            conn.putheader(name, value)
        if body or method in ("POST", "PUT", "PATCH"):
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)

    def head(self, headers: dict[str, str] | None) -> dict[str, str]:
        if not self.cookies:
            return headers or {}
        kept = list(self.cookies.items())  # one step: the stream's thread may be reading them
        cookie = "; ".join(f"{name}={value}" for name, value in kept)
        return {**(headers or {}), "Cookie": cookie}

    def keep_cookies(self, headers: http.client.HTTPMessage) -> None:
        for line in headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(line).items():
                if morsel.value == "" or morsel["max-age"] in ("0", "-1"):
                    self.cookies.pop(name, None)  # the server deletes it
                else:
                    self.cookies[name] = morsel.value

    def read_events(self, path: str, headers: dict[str, str],
                    on_events: Callable[[list[dict[str, Any]]], None],
                    is_stopped: Callable[[], bool]) -> int:
        """Read a Server-Sent Events stream on a connection of its own, blocking; ``on_events``
        gets each batch of notifications (a ``reset`` event as ``{"type": "_reset"}``).
        Returns the HTTP status once the server ends the stream, or at the first read after
        ``is_stopped()`` became true.

        Raises:
            TransportError: the stream could not be opened or broke.
        """
        conn = http.client.HTTPConnection(self.host, self.port)
        try:
            conn.request("GET", path, headers=self.head({**headers, "Accept": "text/event-stream"}))
            answer = conn.getresponse()
            if answer.status != 200:
                answer.read()
                return answer.status
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            buffer = ""
            while not is_stopped():
                chunk = answer.read1(65536)
                if not chunk:
                    break
                buffer += decoder.decode(chunk)
                batch, buffer = parse_events(buffer)
                if batch:
                    on_events(batch)
            return answer.status
        except (OSError, http.client.HTTPException) as exc:
            raise TransportError(f"GET {path}: {exc!r}") from exc
        finally:
            conn.close()

    async def stream(self, path: str, headers: dict[str, str],
                     on_events: Callable[[list[dict[str, Any]]], None], stop: asyncio.Event) -> int:
        """``read_events`` on a thread of its own, ``on_events`` called on the loop; the
        stream ends when the server or ``stop`` ends it.

        Raises:
            TransportError: the stream could not be opened or broke.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[int] = loop.create_future()
        reader = StreamThread(self, path, headers, loop, on_events, done)
        threading.Thread(target=reader.run, name="bench-events", daemon=True).start()
        stopped = asyncio.ensure_future(stop.wait())
        waiting: list[asyncio.Future[Any]] = [done, stopped]
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return done.result() if done.done() else 200
        finally:
            # A stream left early (stopped, cancelled) ends its thread at its next read.
            reader.abandoned = True
            stopped.cancel()
            done.cancel()

    def close(self) -> None:
        """Close the request connection (no request may be in flight)."""
        self.conn.close()
        self.worker.shutdown(wait=False)

    async def aclose(self) -> None:
        """Close the request connection once its last request is answered."""
        self.worker.submit(self.conn.close)
        self.worker.shutdown(wait=False)


class StreamThread:
    """An event stream read on its own thread for a coroutine: each batch is handed to the
    loop."""

    def __init__(self, client: HttpClient, path: str, headers: dict[str, str],
                 loop: asyncio.AbstractEventLoop, on_events: Callable[[list[dict[str, Any]]], None],
                 done: asyncio.Future[int]) -> None:
        self.client, self.path, self.headers = client, path, headers
        self.loop, self.on_events, self.done = loop, on_events, done
        self.abandoned = False

    def run(self) -> None:
        try:
            status = self.client.read_events(self.path, self.headers,
                                             lambda batch: self.call(self.deliver, batch),
                                             lambda: self.abandoned)
        except TransportError as exc:
            self.call(self.finish, 0, exc)
        else:
            self.call(self.finish, status, None)

    def call(self, callback: Callable[..., None], *args: Any) -> None:
        if self.abandoned:
            return
        try:
            self.loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed: nobody waits for this stream any more
            self.abandoned = True

    def deliver(self, batch: list[dict[str, Any]]) -> None:
        if not self.abandoned:
            self.on_events(batch)

    def finish(self, status: int, error: BaseException | None) -> None:
        if self.done.done():
            return
        if error is not None:
            self.done.set_exception(error)
        else:
            self.done.set_result(status)


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
