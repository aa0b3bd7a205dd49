"""``arena bench server``: the production server (gunicorn, gevent workers) and bots that play
whole tables over HTTP on loopback, as browsers do: each player reads its event stream and
acts when the game waits for it. Also the driver of the load and fault tests.

Each player is a small asyncio client (keep-alive HTTP/1.1, Server-Sent Events) in this
process; the server runs in another process (``python -m framework.web.server``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.runtime import BENCH_GAME, percentile, scaffold_registry
from framework.game.registry import GameRegistry
from framework.site import Site
from framework.web.server import settle_heap

_CSRF = re.compile(r'"csrf": ?"([^"]+)"')


# ---------------------------------------------------------------------------------- the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    """``python -m framework.web.server`` in a child process (gunicorn master + gevent workers)."""

    proc: subprocess.Popen[bytes]
    host: str
    port: int
    log_path: Path

    @classmethod
    def start(cls, instance: Path, workers: int, database_url: str | None = None,
              extra_games: Sequence[Path] = (), env: dict[str, str] | None = None,
              timeout: float = 90.0) -> ServerProcess:
        port = free_port()
        child_env = {**os.environ, "ARENA_INSTANCE": str(instance), **(env or {})}
        child_env.pop("ARENA_DATABASE_URL", None)
        if database_url:
            child_env["ARENA_DATABASE_URL"] = database_url
        if extra_games:
            child_env["ARENA_EXTRA_GAMES"] = ":".join(str(p) for p in extra_games)
        log_path = Path(instance) / "server.log"
        log_file = open(log_path, "ab")  # noqa: SIM115 - the child writes it until it stops
        proc = subprocess.Popen(
            [sys.executable, "-m", "framework.web.server", "127.0.0.1", str(port), str(workers)],
            env=child_env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
        log_file.close()
        server = cls(proc, "127.0.0.1", port, log_path)
        server.wait_ready(timeout, workers)
        return server

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def wait_ready(self, timeout: float, workers: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start:\n{self.log()[-4000:]}")
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=5) as answer:
                    if answer.status == 200 and len(self.worker_pids()) >= workers:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start in {timeout}s:\n{self.log()[-4000:]}")
            time.sleep(0.2)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def worker_pids(self) -> list[int]:
        """The gunicorn workers (children of the master), from /proc."""
        pids = []
        for entry in Path("/proc").iterdir():
            fields = _proc_stat(entry.name) if entry.name.isdigit() else None
            if fields is not None and len(fields) > 1 and int(fields[1]) == self.proc.pid:
                pids.append(int(entry.name))
        return sorted(pids)

    def cpu_seconds(self) -> float | None:
        """User + system CPU the master and its workers have used so far (from /proc), or
        None where /proc cannot tell."""
        total = 0
        for pid in [self.proc.pid, *self.worker_pids()]:
            fields = _proc_stat(str(pid))
            if fields is None:
                return None
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Quick shutdown (SIGINT: gunicorn does not wait for the open event streams)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def _proc_stat(pid: str) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state, ppid, ...), or None
    when that process is gone or /proc is missing."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2:].split()


# ---------------------------------------------------------------------------------- HTTP
@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class HttpConnection:
    """One keep-alive HTTP/1.1 connection (reopened when the server closes it)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookies: dict[str, str] = {}
        self.retries = 0  # requests sent again on a new connection

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self.reader, self.writer

    def _head(self, method: str, path: str, headers: dict[str, str] | None, length: int) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {length}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"", retry: bool = True) -> Response:
        """Send once; when the connection breaks, once more on a new one (unless ``retry``
        is False). Actions carry ``X-Arena-Move``, so a retry never applies one twice."""
        for attempt in (1, 2) if retry else (2,):
            reader, writer = await self._open()
            try:
                writer.write(self._head(method, path, headers, len(body)) + body)
                status, head = await self._read_head(reader)
                data = await self._read_body(reader, head)
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                self.retries += 1
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    print("connection broke:", method, path, repr(exc), file=sys.stderr)
                self.close()
                # A keep-alive connection the server had closed: send once more on a new one.
                if attempt == 2 or not isinstance(exc, (ConnectionResetError, asyncio.IncompleteReadError,
                                                         BrokenPipeError)):
                    raise
                continue
            if head.get("connection", "").lower() == "close":
                self.close()
            return Response(status, head, data)
        raise ConnectionError("unreachable")

    async def _read_head(self, reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[1].isdigit():
            raise ConnectionError(f"bad status line {lines[0]!r}")
        status = int(parts[1])
        head: dict[str, str] = {}
        for line in lines[1:]:
            if not line:
                break
            name, _, value = line.partition(":")
            key, value = name.strip().lower(), value.strip()
            if key == "set-cookie":
                cookie = value.split(";", 1)[0]
                cname, _, cvalue = cookie.partition("=")
                self.cookies[cname.strip()] = cvalue.strip()
            head[key] = value
        return status, head

    @staticmethod
    async def _read_body(reader: asyncio.StreamReader, head: dict[str, str]) -> bytes:
        if "content-length" in head:
            return await reader.readexactly(int(head["content-length"]))
        if head.get("transfer-encoding", "").lower() == "chunked":
            out = bytearray()
            while chunk := await _read_chunk(reader):
                out += chunk
            await reader.readuntil(b"\r\n")  # after the last chunk
            return bytes(out)
        return await reader.read()

    async def stream(self, path: str, headers: dict[str, str],
                     on_events: Callable[[list[dict[str, Any]]], None], stop: asyncio.Event) -> int:
        """Read a Server-Sent Events stream; ``on_events`` gets each batch of notifications.
        Returns the HTTP status (the stream ends when the server or ``stop`` ends it)."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._head("GET", path, {**headers, "Accept": "text/event-stream"}, 0))
            status, head = await self._read_head(reader)
            if status != 200:
                await self._read_body(reader, head)
                return status
            chunked = head.get("transfer-encoding", "").lower() == "chunked"
            buffer = ""
            while not stop.is_set():
                if chunked:
                    data = await _read_chunk(reader)
                    if not data:
                        return status
                    buffer += data.decode()
                else:
                    data = await reader.read(65536)
                    if not data:
                        return status
                    buffer += data.decode()
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
                if batch:
                    on_events(batch)
            return status
        finally:
            writer.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body (empty: the last one)."""
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    if size == 0:
        return b""
    data = await reader.readexactly(size + 2)
    return data[:-2]


# ---------------------------------------------------------------------------------- players
@dataclass
class View:
    """What one player knows of the table, from /data and its event stream."""

    state: str = ""
    state_id: int = 0
    active: int = 0
    multiactive: list[int] = field(default_factory=list)
    args: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] | None = None
    move: int = 0
    state_move: int = 0  # the move of the last state event: the view is current when == move
    last_id: int = 0
    over: bool = False

    def acting(self, me: int) -> bool:
        return me in self.multiactive if self.multiactive else self.active == me


Policy = Callable[[View, int, random.Random], "tuple[str, dict[str, Any]] | None"]


def scaffold_policy(view: View, me: int, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The scaffolded game: draw until the turn is worth 12, then bank."""
    if view.state != "playerTurn" or not view.acting(me):
        return None
    return ("bank", {}) if int(view.args.get("turn_total", 0)) >= 12 else ("draw", {})


def belote_policy(view: View, me: int, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Belote: random legal bids (passing most of the time) and random legal cards."""
    if not view.acting(me):
        return None
    bids = view.args.get("legal_bids")
    if bids:
        if "pass" in bids and rng.random() < 0.7:
            return "bid", {"bid": "pass"}
        return "bid", {"bid": rng.choice(bids)}
    if view.state == "playerTurn":
        cards = (view.private or {}).get("legal_cards")
        return ("play_card", {"card": rng.choice(cards)}) if cards else None
    return None


POLICIES: dict[str, Policy] = {BENCH_GAME: scaffold_policy, "belote": belote_policy}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds per action request
    actions: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    commits: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)  # (table, move) -> actor
    received: list[tuple[int, int, int, float]] = field(default_factory=list)  # table, move, player, t
    order_violations: int = 0  # an event id not above the previous one on a stream
    games_finished: int = 0
    retried_applied: int = 0  # requests retried after a lost answer, refused as already applied

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class Bot:
    """One player at one table, over HTTP: its stream, its view, its actions."""

    def __init__(self, run: LoadRun, table_id: int, player_id: int, rng: random.Random) -> None:
        self.run, self.table_id, self.me, self.rng = run, table_id, player_id, rng
        self.http = HttpConnection(run.host, run.port)
        self.view = View()
        self.csrf = ""
        self.in_flight = False
        self.acted: set[int] = set()
        self.done = asyncio.Event()
        self.actions = 0
        self.act_task: asyncio.Task[None] | None = None
        self.received_ids: list[int] = []  # every notification id the stream delivered

    def path(self, suffix: str) -> str:
        return f"/table/{self.table_id}{suffix}{'&' if '?' in suffix else '?'}as={self.me}"

    async def play(self) -> None:
        page = await self.http.request("GET", self.path(""))
        found = _CSRF.search(page.body.decode("utf-8", "replace"))
        self.csrf = found.group(1) if found else ""
        data = (await self.http.request("GET", self.path("/data"))).json()
        gs = data["gamestate"]
        self.view = View(state=gs["name"], state_id=int(gs["id"]), active=int(gs["active_player"] or 0),
                         multiactive=[int(p) for p in gs["multiactive"]], args=dict(gs["args"]),
                         private=gs["args"].get("_private"), move=int(data.get("move", 0)),
                         state_move=int(data.get("move", 0)),
                         last_id=int(data["notifications"]["last_packet_id"]),
                         over=gs["name"] == "gameEnd")
        self.maybe_act()
        while not self.view.over and not self.run.stop.is_set() and not self.done.is_set():
            status = await self.http.stream(
                self.path(f"/events?after={self.view.last_id}"), {}, self.on_events, self.run.stop)
            if status != 200:
                self.run.stats.error(f"events {status}")
                await asyncio.sleep(0.2)
        # self.http stays open: an action may still be waiting for its answer on it (the
        # run closes it once the table's last answers are in).

    def on_events(self, batch: list[dict[str, Any]]) -> None:
        now = time.time()
        view, stats = self.view, self.run.stats
        seen_moves = set()
        for ev in batch:
            if ev.get("type") == "_reset":
                stats.error("reset")
                continue
            if ev["id"] <= view.last_id:
                stats.order_violations += 1
                continue
            view.last_id = ev["id"]
            self.received_ids.append(ev["id"])
            move = int(ev.get("move_id") or 0)
            view.move = max(view.move, move)
            if move not in seen_moves:
                seen_moves.add(move)
                stats.received.append((self.table_id, move, self.me, now))
            args = ev.get("args") or {}
            kind = ev["type"]
            if kind in ("gameStateChange", "gameStateChangePrivateArg", "gameStateMultipleActiveUpdate"):
                view.state_move = move
            if kind == "gameStateChange":
                view.state, view.state_id = args["name"], int(args["id"])
                view.active = int(args.get("active_player") or 0)
                view.multiactive = [int(p) for p in args.get("multiactive") or []]
                view.args, view.private = dict(args.get("args") or {}), None
                if args["name"] == "gameEnd":
                    view.over = True
            elif kind == "gameStateChangePrivateArg" and int(args.get("state_id", -1)) == view.state_id:
                view.private = args.get("args")
            elif kind == "gameStateMultipleActiveUpdate":
                view.multiactive = [int(p) for p in args.get("active") or []]
        if view.over:
            self.done.set()
            self.run.table_over(self.table_id)
        self.maybe_act()

    def maybe_act(self) -> None:
        view = self.view
        if self.in_flight or view.over or self.run.stop.is_set() or view.move in self.acted:
            return
        if view.state_move != view.move:
            return  # the rows of a move are still arriving: wait for its state

        choice = self.run.policy(self.view, self.me, self.rng)
        if choice is None or not self.run.may_act(self.table_id):
            return
        self.in_flight = True
        self.acted.add(self.view.move)
        self.act_task = asyncio.get_running_loop().create_task(self._act(*choice, self.view.move))

    async def _act(self, action: str, args: dict[str, Any], seen: int) -> None:
        stats = self.run.stats
        body = json.dumps(args).encode()
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf, "X-Arena-Move": str(seen)}
        started = time.perf_counter()
        retries = self.http.retries
        try:
            answer = await self.http.request("POST", self.path(f"/act/{action}"), headers, body)
        except (OSError, asyncio.IncompleteReadError) as exc:
            stats.error(type(exc).__name__)
            self.in_flight = False
            return
        elapsed = time.perf_counter() - started
        if answer.status == 200:
            data = answer.json()
            stats.latencies.append(elapsed)
            stats.actions += 1
            self.actions += 1
            stats.commits[(self.table_id, int(data["move"]))] = (self.me, float(data["committed_at"]))
            self.view.move = max(self.view.move, int(data["move"]))
            self.run.acted(self.table_id)
        else:
            code = "?"
            try:
                code = answer.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                pass
            if code == "stale_move" and self.http.retries > retries:
                # The connection broke after the server took the action; the retry was
                # refused, not applied twice: the action counts once, from the stream.
                stats.retried_applied += 1
            else:
                stats.error(f"act {answer.status} {code}")
        self.in_flight = False
        self.maybe_act()


# ---------------------------------------------------------------------------------- a run
class LoadRun:
    """Bots playing ``tables`` (each a list of player ids) at once; ``slots`` of them in play
    at any moment, the next table taking the place of a finished one."""

    def __init__(self, host: str, port: int, tables: Sequence[tuple[int, Sequence[int]]],
                 policy: Policy, slots: int | None = None, max_actions: int | None = None,
                 max_actions_per_table: int | None = None, seed: int = 1) -> None:
        self.host, self.port = host, port
        self.queue = list(tables)
        self.slots = slots or len(self.queue)
        self.policy = policy
        self.max_actions = max_actions
        self.max_per_table = max_actions_per_table
        self.per_table: dict[int, int] = {}
        self.stats = Stats()
        self.rng = random.Random(seed)
        self.stop = asyncio.Event()
        self._finished: dict[int, asyncio.Event] = {}
        self.bots: list[Bot] = []  # every bot of the run (the tests inspect them afterwards)

    def may_act(self, table_id: int) -> bool:
        if self.max_per_table is not None and self.per_table.get(table_id, 0) >= self.max_per_table:
            self.table_over(table_id, finished=False)  # played enough, not to its end
            return False
        return True

    def acted(self, table_id: int) -> None:
        self.per_table[table_id] = self.per_table.get(table_id, 0) + 1
        if self.max_actions is not None and self.stats.actions >= self.max_actions:
            self.stop.set()

    def table_over(self, table_id: int, finished: bool = True) -> None:
        """The bots leave the table: its game ended (``finished``) or the run asks no more."""
        event = self._finished.get(table_id)
        if event is not None and not event.is_set():
            event.set()
            if finished:
                self.stats.games_finished += 1

    async def _slot(self) -> None:
        while self.queue and not self.stop.is_set():
            table_id, players = self.queue.pop(0)
            finished = self._finished[table_id] = asyncio.Event()
            bots = [Bot(self, table_id, pid, random.Random(self.rng.random())) for pid in players]
            self.bots += bots
            tasks = [asyncio.create_task(bot.play()) for bot in bots]
            waiters = [asyncio.create_task(finished.wait()), asyncio.create_task(self.stop.wait())]
            # A bot that fails ends its table too (its error is counted below).
            await asyncio.wait([*waiters, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
            for bot in bots:
                bot.done.set()
            in_flight = [bot.act_task for bot in bots if bot.act_task is not None]
            if in_flight:  # the last answers, before their connections close
                await asyncio.wait(in_flight, timeout=30)
            # the streams end at their next event or keep-alive; do not wait for them
            for task in tasks:
                task.cancel()
            for outcome in await asyncio.gather(*tasks, return_exceptions=True):
                if isinstance(outcome, Exception):  # a cancelled task is not an Exception
                    self.stats.error(f"bot {type(outcome).__name__}")
            for bot in bots:
                bot.http.close()

    async def run(self, timeout: float) -> float:
        """Play; returns the seconds it took (until ``max_actions``, the last table, or timeout)."""
        started = time.perf_counter()
        slots = [asyncio.create_task(self._slot()) for _ in range(self.slots)]
        try:
            await asyncio.wait_for(asyncio.gather(*slots), timeout)
        except TimeoutError:
            self.stop.set()
            for task in slots:
                task.cancel()
            await asyncio.gather(*slots, return_exceptions=True)
        return time.perf_counter() - started

    def notify_latencies(self) -> list[float]:
        """Commit -> event received, for each player other than the one who made the move."""
        out = []
        for table_id, move, player, received in self.stats.received:
            commit = self.stats.commits.get((table_id, move))
            if commit is not None and commit[0] != player:
                out.append(max(0.0, received - commit[1]))
        return out


def summary(run: LoadRun, seconds: float) -> dict[str, Any]:
    lat = run.stats.latencies
    notify = run.notify_latencies()
    return {
        "actions": run.stats.actions,
        "seconds": round(seconds, 2),
        "actions_per_s": round(run.stats.actions / seconds, 1) if seconds else 0.0,
        "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else 0.0,
        "p95_ms": round(percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "notify_p99_ms": round(percentile(notify, 0.99) * 1000, 2),
        "errors": run.stats.errors,
        "error_kinds": dict(sorted(run.stats.error_kinds.items())),
        "games_finished": run.stats.games_finished,
        "retried_applied": run.stats.retried_applied,
    }


# ---------------------------------------------------------------------------------- the bench
def create_tables(site: Site, game: str, count: int, players: int, options: dict[Any, Any],
                  threads: int = 4) -> list[tuple[int, list[int]]]:
    """``count`` studio tables (a few threads: server DDL waits on the disk)."""
    ids: list[int] = []
    lock = threading.Lock()
    seeds = iter(range(count))

    def work() -> None:
        while True:
            with lock:
                seed = next(seeds, None)
            if seed is None:
                return
            table_id = site.runtime.create_table(game, players, options, seed=seed)
            with lock:
                ids.append(table_id)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out = []
    for table_id in sorted(ids):
        data = site.runtime.get_data(table_id, None)
        out.append((table_id, [int(p) for p in data["playerorder"]]))
    return out


def bench_server(tables: int = 20, workers: int = 2, database_url: str | None = None,
                 actions: int = 20000, seconds: float = 60.0, game: str = BENCH_GAME) -> dict[str, Any]:
    """Start the server with ``workers`` gevent workers, play ``tables`` tables at once with
    bots over HTTP, and measure; one JSON-able dict (see the README)."""
    import uuid

    from framework.storage.backends import drop_site, scratch_site_url

    # A server run gets its own schemas / databases on the server, dropped afterwards.
    server_url = scratch_site_url(database_url, f"bench{uuid.uuid4().hex[:8]}") if database_url else None
    try:
        return _bench_server(tables, workers, server_url, actions, seconds, game)
    finally:
        if server_url:
            drop_site(server_url)


def _bench_server(tables: int, workers: int, database_url: str | None, actions: int, seconds: float,
                  game: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        root = Path(tmp)
        instance = root / "instance"
        registry: GameRegistry | None = None
        extra: list[Path] = []
        options: dict[Any, Any] = {}
        players = 4
        if game == BENCH_GAME:
            registry = scaffold_registry(root)
            extra = [root / "scaffold_games"]
            options, players = {"target": 3}, 2
        site = Site.open(instance, database_url=database_url, registry=registry)
        try:
            per_game = 70 if game == BENCH_GAME else 400  # actions a game takes, roughly
            count = tables * (actions // (tables * per_game) + 2)
            specs = create_tables(site, game, count, players, options)
            server = ServerProcess.start(instance, workers, database_url, extra)
            try:
                run = LoadRun(server.host, server.port, specs, POLICIES[game], slots=tables,
                              max_actions=actions)
                settle_heap()  # the bots' process, as the workers do
                server_before = server.cpu_seconds()
                client_before = resource.getrusage(resource.RUSAGE_SELF)
                elapsed = asyncio.run(run.run(timeout=seconds))
                client_after = resource.getrusage(resource.RUSAGE_SELF)
                server_after = server.cpu_seconds()
            finally:
                server.stop()
            result = summary(run, elapsed)
            done = max(1, run.stats.actions)
            result.update({
                "tables": tables, "workers": workers, "game": game, "backend": site.store.dialect,
                # CPU per action during the run: the bots (this process) and the server's
                # processes (not the database server's).
                "client_cpu_ms_per_action": round(_cpu(client_before, client_after) * 1000 / done, 3),
                "server_cpu_ms_per_action": (
                    round((server_after - server_before) * 1000 / done, 3)
                    if server_before is not None and server_after is not None else None),
            })
            return result
        finally:
            site.close()


def _cpu(before: resource.struct_rusage, after: resource.struct_rusage) -> float:
    """User + system seconds between two readings."""
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def check_gamelogs(site: Site, table_ids: Iterable[int]) -> list[str]:
    """Every table's gamelog ids are 1..n with no gap, in order; problems found."""
    problems = []
    for table_id in table_ids:
        with site.store.connect(table_id, write=False) as db:
            q = '"' if db.dialect == "postgresql" else "`"
            ids = [int(r["i"]) for r in db.execute(
                f"SELECT gamelog_packet_id AS i FROM {q}gamelog{q} ORDER BY gamelog_packet_id").rows]
        if ids != list(range(1, len(ids) + 1)):
            missing = sorted(set(range(1, (ids[-1] if ids else 0) + 1)) - set(ids))[:5]
            problems.append(f"table {table_id}: gamelog ids with gaps (missing {missing})")
    return problems
