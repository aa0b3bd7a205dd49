"""WAL checkpoints and closes of SQLite files off the request path: one operating-system
thread per process copies a table's WAL back into its file every so many commits and closes
the connections the store lets go, so that their ``fsync`` never blocks a worker's event
loop (under gevent, every greenlet of the worker waits while SQLite syncs)."""

from __future__ import annotations

import _thread
import logging
import os
import resource
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: commits of a connection between two checkpoints of its file: a move writes about eight
#: pages, so a WAL of about 1 MB (SQLite's own ``wal_autocheckpoint`` is 4 MB)
CHECKPOINT_EVERY = 32
#: how long a checkpoint waits for the file's writers and readers (seconds): it holds the
#: file's writers back for as long as it copies, a few milliseconds
CHECKPOINT_WAIT_S = 0.2
#: how often the thread looks for work (seconds)
LOOK_S = 0.05
#: tables kept open per process when the open-files limit is unlimited
MAX_OPEN_UNLIMITED = 100_000


def os_thread_tools() -> tuple[Callable[..., Any], Callable[[float], None]]:
    """The interpreter's own ``start_new_thread`` and ``sleep``, even in a process that
    gevent patched (its ``threading`` would start a greenlet, its ``sleep`` would yield to
    the event loop from a thread that has none)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        return monkey.get_original("_thread", "start_new_thread"), monkey.get_original("time", "sleep")
    return _thread.start_new_thread, time.sleep


def raise_open_files_limit() -> int:
    """Take the process's whole allowance of open files (its soft limit up to the hard one)
    and return the soft limit (``resource.RLIM_INFINITY`` when unlimited)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:  # a hard limit above the kernel's (macOS)
            log.debug("cannot raise the open-files limit from %s to %s: %s", soft, hard, exc)
    return soft


def default_max_open() -> int:
    """Tables a process keeps open when ``ARENA_SQLITE_MAX_OPEN`` is not set: half of its
    open-files allowance (each open table holds three files: the database, its WAL, its
    shared memory; the other half is for sockets), at least 256.

    Raises the process's soft limit to its hard one first (``raise_open_files_limit``).
    """
    soft = raise_open_files_limit()
    if soft == resource.RLIM_INFINITY:
        return MAX_OPEN_UNLIMITED
    return max(256, soft // 6)


class Checkpointer:
    """The thread of one process (started on first use, again in a forked child).

    ``committed`` counts a connection's commits and, every ``every``, asks for a RESTART
    checkpoint of its file, made on a short-lived connection of the thread's own: it waits
    up to ``CHECKPOINT_WAIT_S`` for the file's writer, copies the whole WAL and waits for its
    readers, so that the next commit writes the WAL from its start again. (A PASSIVE one
    never catches up with writers in two processes: the WAL then grows without end, and
    every commit pays the file system for fresh blocks; a busy file waits for the next
    one.) ``close_later`` hands over a connection to close: closing the last connection to a
    file checkpoints it.
    """

    def __init__(self, every: int = CHECKPOINT_EVERY, look_s: float = LOOK_S) -> None:
        self.every = every
        self.look_s = look_s
        self.checkpoints = 0  # checkpoints made (tests, monitoring)
        self.closed = 0  # connections closed
        self._paths: deque[Path] = deque()  # deque: appends and pops are atomic across threads
        self._closing: deque[sqlite3.Connection] = deque()
        self._counts: dict[Path, int] = {}
        self._pid: int | None = None  # the process whose thread runs
        self._token = object()  # the running thread's: a stopped thread sees it changed
        self._start_lock = threading.Lock()

    def committed(self, path: Path) -> None:
        """A write transaction on ``path`` committed (call on the committing thread)."""
        count = self._counts.get(path, 0) + 1
        if count < self.every:
            self._counts[path] = count
            return
        self._counts[path] = 0
        self._paths.append(path)
        self._ensure_thread()

    def close_later(self, raw: sqlite3.Connection) -> None:
        """Close ``raw`` on the thread (the caller no longer uses it)."""
        self._closing.append(raw)
        self._ensure_thread()

    def forget(self, path: Path) -> None:
        """``path`` is gone (a dropped table): no checkpoint is asked for it any more."""
        self._counts.pop(path, None)

    def stop(self) -> None:
        """Stop the thread and do what it had left, here (a later use starts it again)."""
        with self._start_lock:
            self._token, self._pid = object(), None
        self._drain()

    def _ensure_thread(self) -> None:
        if self._pid == os.getpid():
            return
        with self._start_lock:
            if self._pid == os.getpid():
                return
            self._pid, self._token = os.getpid(), object()
            start, sleep = os_thread_tools()
            start(self._run, (sleep, self._token))

    def _run(self, sleep: Callable[[float], None], token: object) -> None:
        while self._token is token:
            sleep(self.look_s)
            try:
                self._drain()
            except Exception:  # the files stay as they are: SQLite checkpoints them on close
                log.exception("the SQLite checkpoint thread failed; it goes on")

    def _drain(self) -> None:
        for raw in _take_all(self._closing):
            try:
                raw.close()
                self.closed += 1
            except sqlite3.Error as exc:
                log.warning("closing an SQLite connection failed: %s", exc)
        for path in dict.fromkeys(_take_all(self._paths)):
            self._checkpoint(path)

    def _checkpoint(self, path: Path) -> None:
        if not path.exists():
            return
        try:
            # mode=rw: a file dropped meanwhile is not made again, empty
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None,
                                   check_same_thread=False, timeout=CHECKPOINT_WAIT_S)
            try:
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            finally:
                conn.close()
            self.checkpoints += 1
        except sqlite3.Error as exc:  # busy, or the file went: the next one will do
            log.debug("checkpoint of %s skipped: %s", path, exc)


def _take_all(queue: deque[Any]) -> list[Any]:
    """Everything in ``queue`` now, taken out (another thread may take from it too)."""
    out = []
    while True:
        try:
            out.append(queue.popleft())
        except IndexError:
            return out
