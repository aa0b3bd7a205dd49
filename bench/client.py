"""The HTTP client of the benchmark's players and of the load tests: httpx, keep-alive,
cookies kept, Server-Sent Events read as batches of notifications."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from typing import Any

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
        self.http = httpx.AsyncClient(base_url=f"http://{host}:{port}", timeout=TIMEOUT, trust_env=False)
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
