"""Wake-ups across processes: a commit in one worker wakes the event streams of that table
in every worker.

PostgreSQL: each write transaction sends ``NOTIFY arena_<site>, '<table id> <sender>'`` in
its own COMMIT round trip (delivered only if it commits); one listening connection per
process wakes the table's listeners. SQLite and MariaDB: while streams wait on tables, one
thread per process reads those tables' last gamelog id every ``interval`` seconds (one
statement for all tables on MariaDB) and wakes a table whose id moved.

A wake-up only tells a stream to read the gamelog after the last id it sent, so a late,
doubled or spurious wake-up can never lose, double or reorder a notification.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from framework.runtime import Runtime
from framework.storage.base import TableStore

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_S = 0.05


class Notifier:
    """The per-process listener; started by the first stream that waits (``ensure_running``)."""

    def __init__(self, runtime: Runtime, store: TableStore, interval: float | None = None) -> None:
        self.runtime = runtime
        self.store = store
        env = os.environ.get("ARENA_NOTIFY_POLL_S")
        default = float(getattr(store, "poll_interval_s", DEFAULT_INTERVAL_S))
        self.interval = interval if interval is not None else float(env) if env else default
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._alive = False  # the thread runs (set before it starts, cleared as it ends)
        self._pid: int | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._seen: dict[int, int] = {}  # table -> last gamelog id the poller saw
        self.wakeups = 0  # tables woken for another process's commit (tests, monitoring)

    @property
    def mode(self) -> str:
        return "listen" if self.store.dialect == "postgresql" else "poll"

    def ensure_running(self) -> None:
        """Start the listener thread once per process (again in a forked child). Called
        before every wait: a flag, not ``Thread.is_alive`` (a lock under gevent)."""
        if self._alive and self._pid == os.getpid():
            return
        with self._lock:
            if self._alive and self._pid == os.getpid():
                return
            self._stop = threading.Event()
            self._ready = threading.Event()
            self._pid = os.getpid()
            self._alive = True
            self._thread = threading.Thread(target=self._run, name=f"arena-notify-{self.mode}", daemon=True)
            self._thread.start()
        # The first stream waits until the listener listens: a commit made after this returns
        # is heard (one made before is in the log the stream has just read, or woken below).
        self._ready.wait(5)

    def _run(self) -> None:
        try:
            (self._listen if self.mode == "listen" else self._poll)()
        finally:
            self._alive = False

    def stop(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and self._pid == os.getpid():
            thread.join(timeout=5)
        self._thread = None
        self._alive = False

    # ------------------------------------------------------------------ polling (SQLite, MariaDB)
    def poll_once(self) -> list[int]:
        """Read the watched tables' last gamelog ids; wake those that moved. Returns them."""
        watched = self.runtime.watched_tables()
        if not watched:
            return []
        latest: dict[int, int] = self.store.latest_packets(watched)  # type: ignore[attr-defined]
        mine = self.runtime.committed_max
        moved = []
        for tid, last in latest.items():
            if self._seen.get(tid) == last:
                continue
            self._seen[tid] = last
            # This process's own commit up to ``last``: its streams were woken already. A
            # table seen for the first time is woken anyway (its stream may have read the log
            # just before a commit that this first look includes).
            if mine.get(tid) != last:
                moved.append(tid)
                self.runtime.wake(tid)
        self.wakeups += len(moved)
        if len(self._seen) > 100_000:
            self._seen = {tid: self._seen[tid] for tid in watched if tid in self._seen}
        return moved

    def _poll(self) -> None:
        self._ready.set()
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.poll_once()
            except Exception:  # a poll that fails is tried again; streams also time out
                log.exception("polling the gamelog for other processes' commits failed")
            # At most a tenth of a core for polling: with many tables watched, a round takes
            # longer and the next one waits longer (streams also re-read on their own timeout).
            spent = time.monotonic() - started
            self._stop.wait(max(self.interval - spent, 9 * spent))

    # ------------------------------------------------------------------ LISTEN (PostgreSQL)
    def _listen(self) -> None:
        import psycopg

        store: Any = self.store
        backoff = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(store.conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f'LISTEN "{store.channel}"')
                    backoff = 0.1
                    # Commits made while we were not listening: wake every stream of this
                    # process, waiting or about to wait.
                    for tid in self.runtime.listened_tables():
                        self.runtime.wake(tid)
                    self._ready.set()
                    me = store.sender
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            table, _, sender = note.payload.partition(" ")
                            if sender != me and table.isdigit():
                                self.wakeups += 1
                                self.runtime.wake_if_listened(int(table))
            except Exception as exc:
                self._ready.set()  # streams still time out and read the log themselves
                if self._stop.is_set():
                    return
                log.warning("LISTEN connection lost (%s); listening again in %.1fs", exc, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)
