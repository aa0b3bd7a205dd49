"""What the Redis and PostgreSQL buses share: one listener thread (a greenlet under gevent)
that alone talks to the server's subscriptions, ``subscribe`` calls that wait until the
listener confirms, a clean close, and reconnecting with a backoff after a lost connection."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import ClassVar

from framework.live.channels import BusClosedError, Handler, Subscriptions, validate_channel

log = logging.getLogger(__name__)

BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 5.0


class ListeningBus:
    """The base of a bus whose subclass runs ``_run`` on its listener thread.

    A subclass says how the listener is woken (``_wake_listener``), how a ``subscribe``
    call waits for it (``_add_waiter``), and what it closes (``_close_connections``); its
    ``_run`` calls ``_reconnected`` once listening again after a lost connection and
    ``_retry_after`` between attempts.
    """

    label: ClassVar[str]  # the server's name in log messages

    def __init__(self, *, on_reconnect: Callable[[], None] | None, subscribe_timeout_s: float,
                 poll_s: float) -> None:
        self.on_reconnect = on_reconnect
        self.subscribe_timeout_s = subscribe_timeout_s
        self.poll_s = poll_s  # how long a read waits: a stuck connection or a stop is seen after it
        self._subscriptions = Subscriptions()
        self._control = f"arena.bus.{secrets.token_hex(8)}"  # the listener's own wake-up channel
        self._stop = threading.Event()
        self._closed = False
        self.reconnects = 0  # connections lost and made again (tests, monitoring)
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"arena-bus-{self.label.lower()}")

    def _start(self) -> None:
        """Start the listener (once the subclass has made what ``_run`` uses)."""
        self._thread.start()

    # ------------------------------------------------------------------ the Bus interface
    def subscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("subscribe on a closed bus")
        with self._subscriptions.lock:
            if not self._subscriptions.add(channel, handler):
                return
            confirmed = threading.Event()
            self._add_waiter(channel, confirmed)
        self._wake_listener()
        if threading.current_thread() is self._thread:
            return  # a handler subscribes: the listener confirms once the handler returns
        if not confirmed.wait(self.subscribe_timeout_s):
            log.warning("the %s bus has not confirmed listening to %r in %.0f s; it will once "
                        "connected", self.label, channel, self.subscribe_timeout_s)

    def unsubscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        if self._subscriptions.remove(channel, handler) and not self._closed:
            self._wake_listener()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._wake_listener()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=self.poll_s + 5)
        self._close_connections()

    # ------------------------------------------------------------------ for the subclass
    def _run(self) -> None:
        raise NotImplementedError

    def _wake_listener(self) -> None:
        raise NotImplementedError

    def _add_waiter(self, channel: str, event: threading.Event) -> None:
        """Keep ``event`` to set once the listener listens to ``channel`` (lock held)."""
        raise NotImplementedError

    def _close_connections(self) -> None:
        raise NotImplementedError

    def _retry_after(self, backoff: float, exc: BaseException, expected: bool) -> float:
        """Log the lost connection (``expected``: the server's or the network's error, a
        WARNING; anything else with its traceback), wait ``backoff`` unless stopping, and
        return the next wait (doubling up to ``BACKOFF_MAX_S``)."""
        if expected:
            log.warning("%s bus connection lost (%s); connecting again in %.1f s", self.label, exc, backoff)
        else:
            log.error("the %s bus listener failed; connecting again in %.1f s", self.label, backoff,
                      exc_info=exc)
        self._stop.wait(backoff)
        return min(backoff * 2, BACKOFF_MAX_S)

    def _reconnected(self) -> None:
        self.reconnects += 1
        log.warning("%s bus listening again; messages published meanwhile were lost", self.label)
        if self.on_reconnect is not None:
            try:
                self.on_reconnect()
            except Exception:
                log.exception("the %s bus's on_reconnect hook failed", self.label)
