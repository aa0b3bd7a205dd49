"""The benchmark's players: bots that each play one seat of a table over HTTP as a browser
does (hold the table's event stream, act when the game waits for them), and a run of many
tables with its statistics.

Every bot is a coroutine of one asyncio loop (``bench.client`` on aiohttp): its stream is a
task reading the socket, its turns wait on what the stream brought. With a pace, a bot
thinks before each move for an exponential time of that mean, drawn from a random source
seeded by the run's seed, the table and the seat, so a run's think times replay."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import resource
import statistics
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.client import HttpClient, Transport
from bench.policies import Policy, View
from bench.runtime import percentile

#: the page's CSRF token, in the client's configuration
CSRF = re.compile(r'"csrf": ?"([^"]+)"')

#: errors whose message a run keeps (``Stats.error_details``)
MAX_ERROR_DETAILS = 10

#: bots opening their page, data and stream at the same moment while a run starts
OPENING_AT_ONCE = 64


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds per action request
    actions: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    error_details: list[str] = field(default_factory=list)  # the first few, with their messages
    # (table, move) -> (actor, time.monotonic() when the actor's answer arrived)
    answered: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)
    received: list[tuple[int, int, int, float]] = field(default_factory=list)  # table, move, player, t
    order_violations: int = 0  # an event id not above the previous one on a stream
    games_finished: int = 0
    retried_applied: int = 0  # requests retried after a lost answer, refused as already applied
    loop_lag: list[float] = field(default_factory=list)  # seconds the client's loop was late

    def error(self, kind: str, detail: str = "") -> None:
        """Count an error of ``kind``; the first few ``detail``s are kept to say what it was."""
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1
        if detail and len(self.error_details) < MAX_ERROR_DETAILS:
            self.error_details.append(f"{kind}: {detail}")


class Bot:
    """One player at one table, over HTTP: its stream, its view, its actions."""

    def __init__(self, run: LoadRun, table_id: int, player_id: int, rng: random.Random) -> None:
        self.run, self.table_id, self.me, self.rng = run, table_id, player_id, rng
        # its own source for think times: the policy's draws stay those of a run without pace
        self.think = random.Random(f"think {run.seed} {table_id} {player_id}")
        self.http = HttpClient(run.host, run.port, run.transport)
        self.view = View()
        self.csrf = ""
        self.in_flight = False
        self.acted: set[int] = set()
        self.done = asyncio.Event()
        self.changed = asyncio.Event()  # the stream brought something, or the bot must leave
        self.streaming = asyncio.Event()  # its stream is open (the server answered 200)
        self.actions = 0
        self.received_ids: list[int] = []  # every notification id the stream delivered

    def path(self, suffix: str) -> str:
        return f"/table/{self.table_id}{suffix}{'&' if '?' in suffix else '?'}as={self.me}"

    async def play(self) -> None:
        """The bot: its page, its view, then its stream and its turns until the table is over."""
        try:
            await self._play()
        except Exception as exc:
            if not self.leaving():  # else the bot had left (its stream broke as the run ended)
                self.run.stats.error(f"bot {type(exc).__name__}", str(exc))  # counted; the table ends
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    traceback.print_exc()
        finally:
            self.leave()
            self.streaming.set()  # a bot that could not open counts as opened: the run goes on
            self.run.bot_left(self.table_id)

    def leave(self) -> None:
        self.done.set()
        self.changed.set()

    async def _play(self) -> None:
        async with self.run.opening:
            await self._open_page()
            if not self.run.from_log:  # else the whole log, the stream's first batch, tells it
                await self._load_view()
            reader = await self._open_stream()
        try:
            await self.run.go.wait()
            while not self.leaving():
                if reader.done():
                    reader.result()  # its error is the bot's
                    return
                if self.may_act() and await self._turn():
                    continue
                self.changed.clear()
                if not self.leaving() and not reader.done():
                    await self.changed.wait()
        finally:
            reader.cancel()

    async def _open_stream(self) -> asyncio.Task[None]:
        """Start reading the stream after the view's last id; return once it is open."""
        reader = asyncio.create_task(self._read())
        opened = asyncio.ensure_future(self.streaming.wait())
        await asyncio.wait([reader, opened], return_when=asyncio.FIRST_COMPLETED)
        opened.cancel()
        return reader

    async def _load_view(self) -> None:
        """The view from ``/data``, as the page's client starts."""
        data = (await self.http.request("GET", self.path("/data"))).json()
        gs = data["gamestate"]
        self.view = View(state=gs["name"], state_id=int(gs["id"]), active=int(gs["active_player"] or 0),
                         multiactive=[int(p) for p in gs["multiactive"]], args=dict(gs["args"]),
                         private=gs["args"].get("_private"), move=int(data.get("move", 0)),
                         state_move=int(data.get("move", 0)),
                         last_id=int(data["notifications"]["last_packet_id"]),
                         over=gs["name"] == "gameEnd")

    async def _open_page(self) -> None:
        """The table's page: its CSRF token and the session's cookie. With the run's
        ``one_session``, every bot takes those of the run's first page, as one studio
        developer playing every seat (``?as=``) from one browser."""
        shared = self.run.session
        if shared is not None:
            self.http.cookies, self.csrf = dict((await shared)[0]), (await shared)[1]
            return
        if self.run.one_session:
            shared = self.run.session = asyncio.get_running_loop().create_future()
        try:
            page = await self.http.request("GET", self.path(""))
        except BaseException as exc:
            if shared is not None:
                shared.set_exception(exc)
                self.run.session = None  # the next bot tries again
            raise
        found = CSRF.search(page.text)
        self.csrf = found.group(1) if found else ""
        if shared is not None:
            shared.set_result((dict(self.http.cookies), self.csrf))

    async def _read(self) -> None:
        """The stream, opened again after the server ended it (``SSE_MAX_SECONDS``)."""
        try:
            while not self.leaving():
                status = await self.http.read_events(
                    self.path(f"/events?after={self.view.last_id}"), {}, self.on_events, self.streaming.set)
                if status != 200 and not self.leaving():
                    self.run.stats.error(f"events {status}")
                    await asyncio.sleep(0.2)
        finally:
            self.changed.set()

    def leaving(self) -> bool:
        return self.view.over or self.run.stopping or self.done.is_set()

    def on_events(self, batch: list[dict[str, Any]]) -> None:
        self._take_events(batch)
        self.changed.set()

    def _take_events(self, batch: list[dict[str, Any]]) -> None:
        now = time.monotonic()
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
                if self.run.measuring:
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
            self.leave()
            self.run.table_over(self.table_id)

    async def _turn(self) -> bool:
        """Think (with a pace), then play if the game still waits for this bot; False when
        the policy waits (the bot waits for its stream)."""
        pace = self.run.pace
        if pace:
            try:  # thinking, unless the bot must leave
                await asyncio.wait_for(self.done.wait(), self.think.expovariate(1.0 / pace))
                return True
            except TimeoutError:
                pass
            if not self.may_act():
                return True  # the view moved meanwhile: look again
        choice = self.run.policy(self.view, self.me, self.rng)
        if choice is None or not self.run.may_act(self.table_id):
            return False
        self.acted.add(self.view.move)
        await self._act(*choice, self.view.move)
        return True

    def may_act(self) -> bool:
        view = self.view
        if view.over or self.run.stopping or view.move in self.acted:
            return False
        return view.state_move == view.move  # else its rows are still arriving: wait for its state

    async def _act(self, action: str, args: dict[str, Any], seen: int) -> None:
        run, stats = self.run, self.run.stats
        body = json.dumps(args).encode()
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf, "X-Arena-Move": str(seen)}
        started = time.perf_counter()
        retries = self.http.retries
        self.in_flight = True
        try:
            answer = await self.http.request("POST", self.path(f"/act/{action}"), headers, body, True)
        except OSError as exc:  # TransportError among them
            stats.error(type(exc).__name__, str(exc))
            return
        finally:
            self.in_flight = False
        elapsed = time.perf_counter() - started
        if answer.status_code == 200:
            data = answer.json()
            if run.measuring:
                stats.latencies.append(elapsed)
                stats.answered[(self.table_id, int(data["move"]))] = (self.me, time.monotonic())
            stats.actions += 1
            self.actions += 1
            self.view.move = max(self.view.move, int(data["move"]))
            run.acted(self.table_id)
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
                stats.error(f"act {answer.status_code} {code}")


# ---------------------------------------------------------------------------------- a run
class LoadRun:
    """Bots playing ``tables`` (each a list of player ids) at once; ``slots`` of them in play
    at any moment, the next table taking the place of a finished one.

    A run first opens the bots of its first ``slots`` tables (page, data, event stream; a
    few at a time), then lets them play: the measured part, ``timeout`` seconds at most.
    ``pace``: each bot thinks that many seconds on average (exponential) before each move;
    0 or None: as fast as it can. ``one_session``: the bots share the session (cookie and
    CSRF token) of the run's first page (see ``Bot._open_page``). ``from_log``: a bot learns
    its table from the whole log its stream sends first, not from ``/data`` (one request
    less per bot while a large run opens). ``on_phase`` is told
    ``"open"`` when every first bot holds its stream, ``"played"`` when the measured part
    ends, ``"closed"`` once every stream is closed at the end.
    """

    def __init__(self, host: str, port: int, tables: Sequence[tuple[int, Sequence[int]]],
                 policy: Policy, slots: int | None = None, max_actions: int | None = None,
                 max_actions_per_table: int | None = None, seed: int = 1, pace: float | None = None,
                 on_phase: Callable[[str], None] | None = None, one_session: bool = False,
                 from_log: bool = False) -> None:
        self.host, self.port = host, port
        self.queue = list(tables)
        self.slots = slots or len(self.queue)
        self.policy = policy
        self.max_actions = max_actions
        self.max_per_table = max_actions_per_table
        self.pace = pace or None
        self.on_phase = on_phase
        self.one_session = one_session
        self.from_log = from_log
        self.session: asyncio.Future[tuple[dict[str, str], str]] | None = None
        self.per_table: dict[int, int] = {}
        self.stats = Stats()
        self.seed = seed
        self.rng = random.Random(seed)
        self.stopping = False
        self.measuring = False
        self.open_seconds = 0.0  # how long opening the first bots took
        self._finished: dict[int, asyncio.Event] = {}
        self._bots_of: dict[int, list[Bot]] = {}
        self.bots: list[Bot] = []  # every bot of the run (the tests inspect them afterwards)

    # the loop's objects, made in ``_run``
    transport: Transport
    opening: asyncio.Semaphore
    go: asyncio.Event
    stop: asyncio.Event

    def may_act(self, table_id: int) -> bool:
        if self.max_per_table is not None and self.per_table.get(table_id, 0) >= self.max_per_table:
            self.table_over(table_id, finished=False)  # played enough, not to its end
            return False
        return True

    def acted(self, table_id: int) -> None:
        self.per_table[table_id] = self.per_table.get(table_id, 0) + 1
        if self.max_actions is not None and self.stats.actions >= self.max_actions:
            self.end()

    def end(self) -> None:
        """Every bot leaves (the run's limit or its time is reached)."""
        self.stopping = True
        self.stop.set()
        for bot in self.bots:
            bot.leave()

    def table_over(self, table_id: int, finished: bool = True) -> None:
        """The bots leave the table: its game ended (``finished``) or the run asks no more."""
        event = self._finished.get(table_id)
        if event is not None and not event.is_set():
            event.set()
            if finished:
                self.stats.games_finished += 1
        for bot in self._bots_of.get(table_id, ()):
            bot.leave()

    def bot_left(self, table_id: int) -> None:
        """A bot ended (a failed bot ends its table too; its error is counted)."""
        self.table_over(table_id, finished=False)

    def _seat(self) -> tuple[list[Bot], asyncio.Event] | None:
        if not self.queue or self.stopping:
            return None
        table_id, players = self.queue.pop(0)
        finished = self._finished[table_id] = asyncio.Event()
        bots = [Bot(self, table_id, pid, random.Random(self.rng.random())) for pid in players]
        self._bots_of[table_id] = bots
        self.bots += bots
        return bots, finished

    async def _slot(self, first: tuple[list[Bot], asyncio.Event] | None) -> None:
        seated = first
        while seated is not None:
            bots, finished = seated
            tasks = [asyncio.create_task(bot.play()) for bot in bots]
            await finished.wait()
            # the last answers and streams end with the bots (a bot leaves at once)
            await asyncio.gather(*tasks, return_exceptions=True)
            seated = self._seat()

    async def _lag(self) -> None:
        """How late the client's own loop wakes (a loaded client shows in every latency)."""
        while not self.stopping:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            if self.measuring:
                self.stats.loop_lag.append(max(0.0, time.monotonic() - before - 0.1))

    async def _run(self, timeout: float, open_timeout: float) -> float:
        self.transport = Transport(self.host, self.port)
        self.opening = asyncio.Semaphore(OPENING_AT_ONCE)
        self.go, self.stop = asyncio.Event(), asyncio.Event()
        lag = asyncio.create_task(self._lag())
        try:
            firsts = [self._seat() for _ in range(min(self.slots, len(self.queue)))]
            slots = [asyncio.create_task(self._slot(first)) for first in firsts]
            opened = time.perf_counter()
            streams = [bot.streaming.wait() for bot in self.bots]
            await asyncio.wait_for(asyncio.gather(*streams), open_timeout)
            self.open_seconds = time.perf_counter() - opened
            if self.on_phase is not None:
                await asyncio.to_thread(self.on_phase, "open")
            started = time.perf_counter()
            self.measuring = True
            self.go.set()
            ends: list[asyncio.Future[Any]] = [asyncio.ensure_future(self.stop.wait()),
                                               asyncio.gather(*slots, return_exceptions=True)]
            await asyncio.wait(ends, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            ends[0].cancel()
            elapsed = time.perf_counter() - started
            self.measuring = False
            if self.on_phase is not None:
                self.on_phase("played")  # quick: no thread
            self.end()
            await asyncio.wait(slots, timeout=30)  # the answers in flight
            await self.transport.aclose()  # every stream's connection
            if self.on_phase is not None:
                await asyncio.to_thread(self.on_phase, "closed")
            return elapsed
        finally:
            self.stopping = True
            lag.cancel()
            await self.transport.aclose()

    def run(self, timeout: float, open_timeout: float | None = None) -> float:
        """Open the bots, then play; returns the seconds of play (until ``max_actions``, the
        last table, or ``timeout``).

        Raises:
            TimeoutError: the first bots did not all open their streams in ``open_timeout``
                (default: a second per 10 bots, at least two minutes).
        """
        raise_open_files_limit()
        bots = sum(len(players) for _, players in self.queue[:self.slots])
        return asyncio.run(self._run(timeout, open_timeout or max(120.0, bots / 10)))

    def notify_latencies(self) -> list[float]:
        """Answer -> event, for each player other than the one who made the move: from the
        moment the actor's answer arrived (the client's clock nearest to the commit) to the
        moment another player's stream brought the move; 0 when the event came first."""
        out = []
        for table_id, move, player, received in self.stats.received:
            answered = self.stats.answered.get((table_id, move))
            if answered is not None and answered[0] != player:
                out.append(max(0.0, received - answered[1]))
        return out


def raise_open_files_limit() -> None:
    """The client holds a socket per open stream: take the process's whole allowance of
    open files (its soft limit up to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def summary(run: LoadRun, seconds: float) -> dict[str, Any]:
    lat = run.stats.latencies
    notify = run.notify_latencies()
    ms = 1000
    return {
        "actions": run.stats.actions,
        "seconds": round(seconds, 2),
        "actions_per_s": round(len(lat) / seconds, 1) if seconds else 0.0,
        "p50_ms": round(statistics.median(lat) * ms, 2) if lat else 0.0,
        "p95_ms": round(percentile(lat, 0.95) * ms, 2),
        "p99_ms": round(percentile(lat, 0.99) * ms, 2),
        "notify_p50_ms": round(percentile(notify, 0.50) * ms, 2),
        "notify_p95_ms": round(percentile(notify, 0.95) * ms, 2),
        "notify_p99_ms": round(percentile(notify, 0.99) * ms, 2),
        "notify_max_ms": round(max(notify, default=0.0) * ms, 2),
        "notifications_measured": len(notify),
        "client_loop_lag_p99_ms": round(percentile(run.stats.loop_lag, 0.99) * ms, 2),
        "open_seconds": round(run.open_seconds, 2),
        "errors": run.stats.errors,
        "error_kinds": dict(sorted(run.stats.error_kinds.items())),
        "error_details": run.stats.error_details,
        "games_finished": run.stats.games_finished,
        "retried_applied": run.stats.retried_applied,
    }
