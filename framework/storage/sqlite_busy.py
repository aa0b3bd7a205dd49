"""Waiting for an SQLite file that another connection holds without stopping the process's
other work.

SQLite's own busy handler sleeps inside the C call: under gevent that stops every greenlet
of the worker for as long as it waits (a checkpoint holds a table's writers for the time it
copies and syncs, and first waits up to ``CHECKPOINT_WAIT_S`` for the file's readers). So a
table's connection has no busy timeout of its own: its ``BEGIN IMMEDIATE`` (and a read that
meets a file being recovered) is tried again here, sleeping with ``time.sleep``, which gevent
makes a yield to the event loop, and plain sleep elsewhere.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

#: how long a busy file is waited for before the caller gets SQLite's "database is locked"
BUSY_TIMEOUT_S = 30.0
FIRST_WAIT_S = 0.0005
LONGEST_WAIT_S = 0.008

T = TypeVar("T")


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite's SQLITE_BUSY (any of its extended codes)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


def retry_while_busy(attempt: Callable[[], T], timeout_s: float = BUSY_TIMEOUT_S,
                     sleep: Callable[[float], None] | None = None) -> T:
    """``attempt()``, tried again while it fails with SQLITE_BUSY, waiting 0.5 ms, then twice
    as long each time up to 8 ms, for at most ``timeout_s`` (then its error is raised).
    ``sleep``: ``time.sleep`` as it is when called (gevent patches it)."""
    wait = FIRST_WAIT_S
    deadline: float | None = None
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            now = time.monotonic()
            if deadline is None:
                deadline = now + timeout_s
            if now >= deadline:
                raise
            (sleep or time.sleep)(min(wait, deadline - now))
            wait = min(wait * 2, LONGEST_WAIT_S)
