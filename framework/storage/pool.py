"""A small bounded pool of DB-API connections (MariaDB's, one per process; PostgreSQL uses
``psycopg_pool``), and helpers the server backends share."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from framework.core.errors import StorageUnavailableError

log = logging.getLogger(__name__)

C = TypeVar("C")


class ConnectionPool(Generic[C]):
    """At most ``size`` connections checked out at once; idle ones are kept for reuse.

    ``checkout(prefer)`` hands back an idle connection whose ``namespace`` attribute equals
    ``prefer`` when there is one (MariaDB's ``USE`` then changes nothing on the server). A
    connection that failed (``broken``), or whose block was interrupted by a
    ``BaseException`` that is not an ``Exception``, is closed instead of being put back. Threads and gevent
    greenlets alike wait on the semaphore (gevent patches ``threading``). After a fork the
    child never reuses its parent's sockets.
    """

    def __init__(self, connect: Callable[[], C], close: Callable[[C], None], size: int = 8,
                 wait_s: float = 30.0) -> None:
        self._connect = connect
        self._close = close
        self.size = size
        self.wait_s = wait_s
        self._slots = threading.BoundedSemaphore(size)
        self._idle: list[C] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _take_idle(self, prefer: str | None) -> C | None:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's connections are not ours
                self._idle.clear()
                self._pid = os.getpid()
            if not self._idle:
                return None
            if prefer is not None:
                for i in range(len(self._idle) - 1, -1, -1):
                    if getattr(self._idle[i], "namespace", None) == prefer:
                        return self._idle.pop(i)
            return self._idle.pop()

    @contextmanager
    def checkout(self, prefer: str | None = None) -> Iterator[C]:
        """A connection for the duration of the block.

        Raises:
            StorageUnavailableError: every connection stayed busy for ``wait_s`` seconds,
                or the server cannot be reached.
        """
        if not self._slots.acquire(timeout=self.wait_s):
            raise StorageUnavailableError(
                "The server is too busy to take your move; it was not applied. Try again.",
                "storage_busy",
            )
        try:
            conn = self._take_idle(prefer)
            if conn is None:
                try:
                    conn = self._connect()
                except StorageUnavailableError:
                    raise
                except Exception as exc:
                    log.error("cannot connect to the database: %s", exc)
                    raise StorageUnavailableError(
                        "The game server cannot reach its database; your move was not applied. "
                        "Try again.", "storage_unavailable",
                    ) from exc
            # An error of the block (a refused move, rolled back by the store) keeps the
            # connection unless it failed; an interruption (a greenlet killed, a timeout in
            # the middle of a statement) may leave a reply half read: never reused.
            healthy = False
            try:
                yield conn
                healthy = True
            except Exception:
                healthy = True
                raise
            finally:
                healthy = healthy and not getattr(conn, "broken", False)
                if healthy:
                    with self._lock:
                        self._idle.append(conn)
                else:
                    self.discard(conn)
        finally:
            self._slots.release()

    def discard(self, conn: C) -> None:
        try:
            self._close(conn)
        except Exception as exc:  # a dead socket may refuse to close cleanly
            log.debug("closing a broken connection: %s", exc)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            self.discard(conn)


def lock_namespace(text: str) -> int:
    """A stable 31-bit number for ``text`` (the first key of PostgreSQL advisory locks).

    >>> lock_namespace("arena") == lock_namespace("arena"), 0 <= lock_namespace("x") < 2**31
    (True, True)
    """
    import zlib

    return zlib.crc32(text.encode()) & 0x7FFFFFFF


def parse_flag(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
