"""``arena bench streams``: what an open event stream costs a worker, and what the worker
gives back once it closes. Many streams on a few tables (so that the tables' connections
and feeds weigh nothing), each player's stream opened again and again as a browser's
would: the worker's RSS idle, with every stream open, and after they all closed."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.client import HttpClient, Transport
from bench.players import raise_open_files_limit
from bench.server import CLOSED_SETTLE_S, ServerProcess, WorkerMemory, create_tables, stream_env
from framework.site import Site


def bench_streams(streams: int = 2000, tables: int = 10, workers: int = 1,
                  rounds: int = 2) -> dict[str, Any]:
    """Open ``streams`` event streams on ``tables`` Belote tables (the players' seats in turn)
    against ``workers`` workers, ``rounds`` times; the workers' memory at each step."""
    raise_open_files_limit()
    with tempfile.TemporaryDirectory(prefix="arena-bench-streams-") as tmp:
        instance = Path(tmp) / "instance"
        site = Site.open(instance)
        try:
            specs = create_tables(site, "belote", tables, 4, {})
        finally:
            site.close()
        server = ServerProcess.start(instance, workers, env=stream_env(streams, workers))
        try:
            memory = WorkerMemory(server)
            memory.mark("idle")
            out: dict[str, Any] = {"streams": streams, "tables": tables, "workers": workers, "rounds": []}
            for number in range(rounds):
                opened = asyncio.run(_hold(server, specs, streams, memory, f"open{number}"))
                time.sleep(CLOSED_SETTLE_S)
                memory.mark(f"closed{number}")
                out["rounds"].append({"opened": opened, **_round(memory, number, streams)})
            out["load"] = [round(x, 2) for x in os.getloadavg()]
            return out
        finally:
            server.stop()


async def _hold(server: ServerProcess, specs: list[tuple[int, list[int]]], streams: int,
                memory: WorkerMemory, mark: str) -> int:
    """Open the streams, a few at a time; mark the workers' memory; close them all."""
    transport = Transport(server.host, server.port)
    opening = asyncio.Semaphore(64)
    tasks: list[asyncio.Task[int]] = []
    started: list[asyncio.Event] = []
    try:
        for index in range(streams):
            table_id, players = specs[index % len(specs)]
            player = players[(index // len(specs)) % len(players)]
            event = asyncio.Event()
            started.append(event)
            tasks.append(asyncio.create_task(_one(server, transport, table_id, player, opening, event)))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started)), max(120.0, streams / 20))
        await asyncio.sleep(1.0)  # every stream's first read done
        await asyncio.to_thread(memory.mark, mark)
        return sum(1 for t in tasks if not t.done())
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await transport.aclose()


async def _one(server: ServerProcess, transport: Transport, table_id: int, player: int,
               opening: asyncio.Semaphore, started: asyncio.Event) -> int:
    client = HttpClient(server.host, server.port, transport)
    async with opening:
        reading = asyncio.create_task(client.read_events(
            f"/table/{table_id}/events?as={player}", {}, lambda batch: None, started.set))
        waiting = asyncio.create_task(started.wait())
        await asyncio.wait([reading, waiting], return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
    started.set()
    return await reading


def _round(memory: WorkerMemory, number: int, streams: int) -> dict[str, Any]:
    idle, opened, closed = (sum(memory.marks[name].values()) for name in
                            ("idle", f"open{number}", f"closed{number}"))
    return {"rss_idle_mib": round(idle / 1024, 1), "rss_open_mib": round(opened / 1024, 1),
            "rss_closed_mib": round(closed / 1024, 1),
            "open_files": [memory.fds[name] for name in ("idle", f"open{number}", f"closed{number}")],
            "kib_per_open_stream": round((opened - idle) / streams, 1),
            "given_back": round((opened - closed) / (opened - idle), 2) if opened > idle else None}
