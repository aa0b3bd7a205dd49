"""The bus on PostgreSQL LISTEN/NOTIFY: every process of every machine that uses the same
database hears every message, with no other server to run.

Import it only after gevent has patched the process (``open_bus`` does it lazily): psycopg
chooses how it waits for the socket when it is first imported.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool

from framework.live.channels import BusClosedError, validate_channel
from framework.live.listening import BACKOFF_FIRST_S, ListeningBus

log = logging.getLogger(__name__)

MAX_PAYLOAD_BYTES = 7999  # NOTIFY refuses a payload of 8000 bytes or more
# A listener whose machine or network vanished is noticed by TCP keepalives.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}


def to_conninfo(url: str) -> str:
    """A libpq connection string for a ``postgresql://`` or SQLAlchemy-style
    ``postgresql+psycopg://`` URL.

    >>> to_conninfo("postgresql+psycopg://postgres@db:5432/arena")
    'postgresql://postgres@db:5432/arena'
    """
    scheme, sep, rest = url.partition("://")
    if sep and scheme.lower() in ("postgresql+psycopg", "postgres"):
        return f"postgresql://{rest}"
    return url


def check_payload(message: str) -> bytes:
    """The message in UTF-8, when NOTIFY accepts it.

    Raises:
        ValueError: ``MAX_PAYLOAD_BYTES`` exceeded, or a NUL character (text in
            PostgreSQL cannot hold one).
    """
    payload = message.encode("utf-8")
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"a PostgreSQL bus message is at most {MAX_PAYLOAD_BYTES} bytes in UTF-8; "
                         f"this one has {len(payload)}")
    if b"\0" in payload:
        raise ValueError("a PostgreSQL bus message cannot contain a NUL character")
    return payload


class PostgresBus(ListeningBus):
    """Publishing with ``SELECT pg_notify(channel, message)`` on a small pool of autocommit
    connections; listening on one autocommit connection read by one thread (a greenlet
    under gevent), which alone runs LISTEN and UNLISTEN.

    Messages are at most 7999 bytes of UTF-8 (PostgreSQL's limit; longer ones raise
    ValueError and are not sent); the database must be in UTF-8. ``subscribe`` returns once
    the listener has run LISTEN (or after ``subscribe_timeout_s``, logged, while it is
    reconnecting): a message published after it returns is delivered. Handlers run on the
    listener thread, one message at a time, in commit order; they should be quick. After a
    lost connection the listener logs a WARNING, connects again (backoff 0.1 s doubling to
    5 s), listens to every channel again and calls ``on_reconnect``. A publish whose
    connection turns out to be lost is sent once more on another: it may be delivered twice.
    """

    label = "PostgreSQL"

    def __init__(self, url: str, *, on_reconnect: Callable[[], None] | None = None,
                 pool_size: int = 4, subscribe_timeout_s: float = 5.0, poll_s: float = 5.0) -> None:
        super().__init__(on_reconnect=on_reconnect, subscribe_timeout_s=subscribe_timeout_s, poll_s=poll_s)
        self.conninfo = to_conninfo(url)
        # A malformed URL fails here, not in the thread; the URL's own keepalives win.
        self._listen_conninfo = make_conninfo("", **{**KEEPALIVES, **conninfo_to_dict(self.conninfo)})
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            self.conninfo, min_size=1, max_size=pool_size, open=False, name="arena-bus",
            kwargs={"autocommit": True, "prepare_threshold": None})
        self._pool.open(wait=False)
        self._waiters: list[threading.Event] = []  # subscribe() calls waiting for LISTEN
        self.listener_pid: int | None = None  # the listening connection's server process
        self._start()

    # ------------------------------------------------------------------ the Bus interface
    def publish(self, channel: str, message: str) -> None:
        """Raises: ValueError (channel name, message too long), BusClosedError,
        psycopg.Error and psycopg_pool.PoolTimeout (database)."""
        validate_channel(channel)
        check_payload(message)
        if self._closed:
            raise BusClosedError("publish on a closed bus")
        self._notify(channel, message)

    def _add_waiter(self, channel: str, event: threading.Event) -> None:
        self._waiters.append(event)

    def _close_connections(self) -> None:
        self._pool.close()

    # ------------------------------------------------------------------ publishing
    def _notify(self, channel: str, message: str) -> None:
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    conn.execute("SELECT pg_notify(%s, %s)", (channel, message))
                return
            except psycopg.OperationalError as exc:
                # A pooled connection the server closed (restart, pg_terminate_backend): the
                # pool drops it; once more on a fresh one.
                if attempt == 2:
                    raise
                log.warning("PostgreSQL bus publish failed (%s); trying once more", exc)

    def _wake_listener(self) -> None:
        """Tell the listener to compare its LISTENs with the handlers' channels."""
        try:
            self._notify(self._control, "")
        except (psycopg.Error, OSError) as exc:  # the listener is reconnecting: it will compare then
            log.warning("cannot wake the PostgreSQL bus listener (%s)", exc)

    # ------------------------------------------------------------------ the listener thread
    def _run(self) -> None:
        # Under gevent this thread is a greenlet: psycopg, imported after the patch, waits
        # for the socket with the patched ``select``, so
        # ``notifies(timeout=...)`` lets the other greenlets run while it waits.
        backoff = BACKOFF_FIRST_S
        connected_before = False
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._listen_conninfo, autocommit=True, connect_timeout=10) as conn:
                    self.listener_pid = conn.info.backend_pid
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._control)))
                    listening: set[str] = set()
                    self._reconcile(conn, listening)
                    backoff = BACKOFF_FIRST_S
                    if connected_before:
                        self._reconnected()
                    connected_before = True
                    while not self._stop.is_set():
                        # stop_after=1: back after each batch of notifications (never in the
                        # middle of one), to LISTEN to channels subscribed meanwhile.
                        for note in conn.notifies(timeout=self.poll_s, stop_after=1):
                            if note.channel != self._control:
                                self._subscriptions.dispatch(note.channel, note.payload)
                        self._reconcile(conn, listening)
            except psycopg.Error as exc:
                if self._stop.is_set():
                    break
                backoff = self._retry_after(backoff, exc, expected=True)
            except Exception as exc:
                backoff = self._retry_after(backoff, exc, expected=False)
            finally:
                self.listener_pid = None
        with self._subscriptions.lock:
            for event in self._waiters:  # closed: nobody waits for a LISTEN
                event.set()
            self._waiters.clear()

    def _reconcile(self, conn: psycopg.Connection[Any], listening: set[str]) -> None:
        """LISTEN to the channels that have handlers, UNLISTEN the others; then release the
        ``subscribe`` calls that waited (their channel is listened to, or gone)."""
        with self._subscriptions.lock:
            wanted = self._subscriptions.channels()
            waiters, self._waiters = self._waiters, []
        try:
            for channel in sorted(wanted - listening):
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                listening.add(channel)
            for channel in sorted(listening - wanted):
                conn.execute(sql.SQL("UNLISTEN {}").format(sql.Identifier(channel)))
                listening.discard(channel)
        except BaseException:
            with self._subscriptions.lock:  # released by the next connection's LISTENs
                self._waiters[:0] = waiters
            raise
        for event in waiters:
            event.set()
