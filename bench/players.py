"""The benchmark's players: bots that each play one seat of a table over HTTP as a browser
does (read the event stream, act when the game waits for them), and a run of many tables
with its statistics.

Each bot is a thread that reads its stream and, when the game waits for it, sends its move
and reads the answer before it reads on: blocking ``http.client`` calls, no event loop
between a socket and the bot."""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import threading
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.client import HttpClient
from bench.policies import Policy, View
from bench.runtime import percentile

#: the page's CSRF token, in the client's configuration
CSRF = re.compile(r'"csrf": ?"([^"]+)"')


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds per action request
    actions: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    # (table, move) -> (actor, time.time() when the actor's answer arrived)
    answered: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)
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
        self.http = HttpClient(run.host, run.port)
        self.view = View()
        self.csrf = ""
        self.in_flight = False
        self.acted: set[int] = set()
        self.done = threading.Event()
        self.actions = 0
        self.received_ids: list[int] = []  # every notification id the stream delivered

    def path(self, suffix: str) -> str:
        return f"/table/{self.table_id}{suffix}{'&' if '?' in suffix else '?'}as={self.me}"

    def play(self) -> None:
        """The bot's thread: its page, its view, then its stream until the table is over."""
        try:
            self._play()
        except Exception as exc:
            if self.done.is_set() or self.run.stop.is_set():
                return  # the bot had left (its stream broke as the table or the run ended)
            with self.run.lock:  # counted; the table ends (see LoadRun._slot)
                self.run.stats.error(f"bot {type(exc).__name__}")
            if os.environ.get("ARENA_BENCH_DEBUG"):
                traceback.print_exc()
        finally:
            self.done.set()
            self.run.bot_left(self.table_id)

    def _play(self) -> None:
        page = self.http.send("GET", self.path(""), None, b"", True)
        found = CSRF.search(page.text)
        self.csrf = found.group(1) if found else ""
        data = self.http.send("GET", self.path("/data"), None, b"", True).json()
        gs = data["gamestate"]
        self.view = View(state=gs["name"], state_id=int(gs["id"]), active=int(gs["active_player"] or 0),
                         multiactive=[int(p) for p in gs["multiactive"]], args=dict(gs["args"]),
                         private=gs["args"].get("_private"), move=int(data.get("move", 0)),
                         state_move=int(data.get("move", 0)),
                         last_id=int(data["notifications"]["last_packet_id"]),
                         over=gs["name"] == "gameEnd")
        self.maybe_act()
        while not self.leaving():
            status = self.http.read_events(
                self.path(f"/events?after={self.view.last_id}"), {}, self.on_events, self.leaving)
            if status != 200 and not self.leaving():
                with self.run.lock:
                    self.run.stats.error(f"events {status}")
                time.sleep(0.2)
        self.http.close()

    def leaving(self) -> bool:
        return self.view.over or self.run.stop.is_set() or self.done.is_set()

    def on_events(self, batch: list[dict[str, Any]]) -> None:
        with self.run.lock:
            self._take_events(batch)
        self.maybe_act()

    def _take_events(self, batch: list[dict[str, Any]]) -> None:
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

    def maybe_act(self) -> None:
        """Play while the game waits for this bot (its answer may say it waits again)."""
        while self.may_act():
            choice = self.run.policy(self.view, self.me, self.rng)
            if choice is None or not self.run.may_act(self.table_id):
                return
            self.acted.add(self.view.move)
            self._act(*choice, self.view.move)

    def may_act(self) -> bool:
        view = self.view
        if view.over or self.run.stop.is_set() or view.move in self.acted:
            return False
        return view.state_move == view.move  # else its rows are still arriving: wait for its state

    def _act(self, action: str, args: dict[str, Any], seen: int) -> None:
        run, stats = self.run, self.run.stats
        body = json.dumps(args).encode()
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf, "X-Arena-Move": str(seen)}
        started = time.perf_counter()
        retries = self.http.retries
        self.in_flight = True
        try:
            answer = self.http.send("POST", self.path(f"/act/{action}"), headers, body, True)
        except OSError as exc:  # TransportError among them
            with run.lock:
                stats.error(type(exc).__name__)
            return
        finally:
            self.in_flight = False
        elapsed = time.perf_counter() - started
        with run.lock:
            if answer.status_code == 200:
                data = answer.json()
                stats.latencies.append(elapsed)
                stats.actions += 1
                self.actions += 1
                stats.answered[(self.table_id, int(data["move"]))] = (self.me, time.time())
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
    at any moment, the next table taking the place of a finished one. The bots' threads
    share ``lock`` for the statistics and the run's bookkeeping."""

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
        self.stop = threading.Event()
        self.lock = threading.RLock()
        self._finished: dict[int, threading.Event] = {}
        self.bots: list[Bot] = []  # every bot of the run (the tests inspect them afterwards)

    def may_act(self, table_id: int) -> bool:
        with self.lock:
            if self.max_per_table is not None and self.per_table.get(table_id, 0) >= self.max_per_table:
                self.table_over(table_id, finished=False)  # played enough, not to its end
                return False
            return True

    def acted(self, table_id: int) -> None:
        with self.lock:
            self.per_table[table_id] = self.per_table.get(table_id, 0) + 1
            if self.max_actions is not None and self.stats.actions >= self.max_actions:
                self.stop.set()

    def table_over(self, table_id: int, finished: bool = True) -> None:
        """The bots leave the table: its game ended (``finished``) or the run asks no more."""
        with self.lock:
            event = self._finished.get(table_id)
            if event is not None and not event.is_set():
                event.set()
                if finished:
                    self.stats.games_finished += 1

    def bot_left(self, table_id: int) -> None:
        """A bot's thread ended (a failed bot ends its table too; its error is counted)."""
        with self.lock:
            event = self._finished.get(table_id)
        if event is not None:
            event.set()

    def _slot(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                if not self.queue:
                    return
                table_id, players = self.queue.pop(0)
                finished = self._finished[table_id] = threading.Event()
                bots = [Bot(self, table_id, pid, random.Random(self.rng.random())) for pid in players]
                self.bots += bots
            for bot in bots:
                threading.Thread(target=bot.play, name=f"bot-{table_id}-{bot.me}", daemon=True).start()
            while not finished.wait(0.05) and not self.stop.is_set():
                pass
            for bot in bots:
                bot.done.set()
            # The last answers come in on the bots' threads; a bot blocked in its stream
            # leaves at the stream's next event or keep-alive: not waited for.
            deadline = time.monotonic() + 30
            while any(bot.in_flight for bot in bots) and time.monotonic() < deadline:
                time.sleep(0.005)

    def run(self, timeout: float) -> float:
        """Play; returns the seconds it took (until ``max_actions``, the last table, or timeout)."""
        started = time.perf_counter()
        slots = [threading.Thread(target=self._slot, name="slot", daemon=True) for _ in range(self.slots)]
        for slot in slots:
            slot.start()
        deadline = started + timeout
        for slot in slots:
            slot.join(max(0.0, deadline - time.perf_counter()))
        self.stop.set()
        elapsed = time.perf_counter() - started
        for slot in slots:  # the answers in flight at the end
            slot.join(30)
        return elapsed

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
