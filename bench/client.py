"""The HTTP client of the benchmark's players and of the load tests: httpx, keep-alive,
cookies kept, Server-Sent Events read as batches of notifications."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import httpcore
import httpx

#: a kept-alive connection the server had closed, or a connection that broke mid-answer
BROKEN = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)

#: actions and streams may wait long (a slow action, an idle stream between keep-alives)
TIMEOUT = httpx.Timeout(connect=30.0, read=None, write=30.0, pool=None)


class HttpClient:
    """One player's client: its cookies, a keep-alive connection for requests and one for
    its event stream."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.http = httpx.AsyncClient(base_url=f"http://{host}:{port}", timeout=TIMEOUT, trust_env=False,
                                      transport=OneWriteTransport())
        # no Accept, Accept-Encoding, Connection or User-Agent of httpx's: the server parses
        # every header of every request, and none of these changes its answers
        self.http.headers.clear()
        self.retries = 0  # requests sent again on a new connection

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"", retry: bool = True) -> httpx.Response:
        """Send once; when the connection breaks, once more on a new one (unless ``retry``
        is False). Actions carry ``X-Arena-Move``, so a retry never applies one twice.

        Raises:
            httpx.TransportError: the request could not be answered.
        """
        for attempt in (1, 2) if retry else (2,):
            try:
                return await self.http.request(method, path, headers=headers, content=body)
            except BROKEN as exc:
                self.retries += 1
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    print("connection broke:", method, path, repr(exc), file=sys.stderr)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def stream(self, path: str, headers: dict[str, str],
                     on_events: Callable[[list[dict[str, Any]]], None], stop: asyncio.Event) -> int:
        """Read a Server-Sent Events stream; ``on_events`` gets each batch of notifications
        (a ``reset`` event as ``{"type": "_reset"}``). Returns the HTTP status (the stream
        ends when the server or ``stop`` ends it)."""
        headers = {**headers, "Accept": "text/event-stream"}
        async with self.http.stream("GET", path, headers=headers) as answer:
            if answer.status_code != 200:
                await answer.aread()
                return answer.status_code
            buffer = ""
            async for text in answer.aiter_text():
                if stop.is_set():
                    break
                buffer += text
                batch, buffer = parse_events(buffer)
                if batch:
                    on_events(batch)
            return answer.status_code

    async def aclose(self) -> None:
        await self.http.aclose()


class OneWriteTransport(httpx.AsyncHTTPTransport):
    """httpx's transport, whose connections send a request's head and body in one write.

    httpcore writes them apart: the server then wakes up twice for one small request (its
    worker read the head, found no body yet, and waited for it), which cost a gevent worker
    about 0.1 ms of CPU per action. httpx takes no network backend, so the pool it made is
    replaced with the same one over ``HeldWrites`` streams (``_pool`` is httpx's own name).
    """

    def __init__(self) -> None:
        super().__init__(trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(network_backend=HeldWritesBackend())


class HeldWritesBackend(httpcore.AsyncNetworkBackend):
    """httpcore's default backend, its TCP streams wrapped in ``HeldWrites``."""

    def __init__(self) -> None:
        self.backend = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        return HeldWrites(await self.backend.connect_tcp(host, port, timeout, local_address, socket_options))

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        return HeldWrites(await self.backend.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self.backend.sleep(seconds)


class HeldWrites(httpcore.AsyncNetworkStream):
    """A stream whose writes wait for its next read and leave together (HTTP/1.1: a client
    writes its whole request, then reads the answer)."""

    def __init__(self, stream: httpcore.AsyncNetworkStream) -> None:
        self.stream = stream
        self.held = b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.held += buffer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        if self.held:
            held, self.held = self.held, b""
            await self.stream.write(held, timeout)
        return await self.stream.read(max_bytes, timeout)

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        return await self.stream.start_tls(ssl_context, server_hostname, timeout)

    def get_extra_info(self, info: str) -> Any:
        return self.stream.get_extra_info(info)


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
