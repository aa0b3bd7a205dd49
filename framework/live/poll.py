"""The poll for commits of other processes where the bus does not reach them (MariaDB
without Redis: the processes of other machines; ``ARENA_BUS_URL=memory:``: every other
process): the last gamelog id of each table a stream waits on, read every few
milliseconds; a table whose id moved, and for which no commit of this process or message
of the bus woke the streams already, is woken."""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Protocol

from framework.storage.base import TableStore

log = logging.getLogger(__name__)


class Watched(Protocol):
    """What the poll needs of the streams (``framework.live.streams.Streams``)."""

    known_top: dict[int, int]  # table -> the last gamelog id its streams were woken for

    def watched_tables(self) -> list[int]: ...

    def wake(self, table_id: int) -> None: ...


class LogPoller:
    """One thread per process, started by the first stream that waits (``start``)."""

    def __init__(self, store: TableStore, streams: Watched, interval: float) -> None:
        self.store = store
        self.streams = streams
        self.interval = interval
        self.wakeups = 0  # tables woken for another process's commit (tests, monitoring)
        self._seen: dict[int, int] = {}  # table -> last gamelog id the poll saw
        self._stop = threading.Event()
        self._pid: int | None = None

    def start(self) -> None:
        """Start the thread in this process (again in a forked child)."""
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        self._stop = threading.Event()
        threading.Thread(target=self._run, args=(self._stop,), name="arena-log-poll", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        self._pid = None

    def poll_once(self) -> list[int]:
        """Read the watched tables' last gamelog ids; wake those that moved. Returns them."""
        watched = self.streams.watched_tables()
        if not watched:
            return []
        mine = self.streams.known_top
        moved = []
        for tid, last in self.store.latest_packets(watched).items():
            if self._seen.get(tid) == last:
                continue
            self._seen[tid] = last
            # This process's own commit up to ``last``, or another's heard on the bus: its
            # streams were woken already. A table seen for the first time is woken anyway
            # (its stream may have read the log just before a commit that this first look
            # includes).
            if mine.get(tid) != last:
                moved.append(tid)
                self.streams.wake(tid)
        self.wakeups += len(moved)
        if len(self._seen) > 100_000:
            self._seen = {tid: self._seen[tid] for tid in watched if tid in self._seen}
        return moved

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                self.poll_once()
            except Exception:  # a poll that fails is tried again; streams also time out
                log.exception("polling the gamelog for other processes' commits failed")
            # At most a tenth of a core for polling: with many tables watched, a round takes
            # longer and the next one waits longer (streams also re-read on their own timeout).
            spent = time.monotonic() - started
            stop.wait(max(self.interval - spent, 9 * spent))
