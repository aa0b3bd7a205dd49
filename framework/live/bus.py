"""The bus that carries short text messages between the processes (and machines) of a site:
one interface, ``Bus``, and the choice of its implementation by URL (``open_bus``).

Modelled on boardgame.io's ``GenericPubSub``: the code that publishes never knows which bus
runs. A message published while a bus is reconnecting can be lost, and one retried after a
lost connection can come twice: a message should say "something changed, read it", never
carry the only copy of the change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol
from urllib.parse import urlsplit

from framework.live.channels import BusClosedError, Handler, Subscriptions, validate_channel

REDIS_SCHEMES = ("redis", "rediss")
POSTGRES_SCHEMES = ("postgresql", "postgresql+psycopg", "postgres")
MEMORY_SCHEMES = ("memory",)
SQLITE_SCHEMES = ("sqlite",)


class Bus(Protocol):
    """Publish and subscribe by channel name (see ``validate_channel``)."""

    def publish(self, channel: str, message: str) -> None:
        """Send ``message`` to every handler of ``channel``, in every process listening.

        Raises:
            ValueError: the channel name is invalid, or the message too long for the bus.
            BusClosedError: the bus is closed.
        """

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler(message)`` for each message on ``channel`` from now on."""

    def unsubscribe(self, channel: str, handler: Handler) -> None:
        """Stop calling ``handler`` for ``channel`` (not subscribed: nothing happens)."""

    def close(self) -> None:
        """Stop listening and close the connections (again: nothing happens)."""


class InProcessBus:
    """The bus of one process: ``publish`` calls the handlers itself, in the order of the
    publishes, from any thread.

    A message published by a handler is delivered once the message being handled has
    reached all its handlers (so every handler sees the messages in the same order).
    """

    def __init__(self) -> None:
        self._subscriptions = Subscriptions()
        self._queue: deque[tuple[str, str]] = deque()
        self._dispatching = False
        self._closed = False

    def publish(self, channel: str, message: str) -> None:
        validate_channel(channel)
        with self._subscriptions.lock:
            if self._closed:
                raise BusClosedError("publish on a closed bus")
            self._queue.append((channel, message))
            if self._dispatching:  # a handler of this thread publishes: after the current one
                return
            self._dispatching = True
            try:
                while self._queue:
                    self._subscriptions.dispatch(*self._queue.popleft())
            finally:
                self._dispatching = False

    def subscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("subscribe on a closed bus")
        self._subscriptions.add(channel, handler)

    def unsubscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        self._subscriptions.remove(channel, handler)

    def close(self) -> None:
        with self._subscriptions.lock:
            self._closed = True
            self._queue.clear()


def open_bus(url: str | None, *, on_reconnect: Callable[[], None] | None = None) -> Bus:
    """The bus for ``url``: None or ``memory:`` (one process), ``redis://``/``rediss://``
    (Redis pub/sub), ``postgresql://``/``postgresql+psycopg://`` (LISTEN/NOTIFY),
    ``sqlite:///file`` (the processes of one machine, ``framework.live.bus_sqlite``).

    ``on_reconnect`` is called (on the bus's listener thread) each time the bus listens
    again after a lost connection: messages published meanwhile are lost, so a caller
    re-reads what it watches.

    Raises:
        ValueError: the URL's scheme is none of these.
    """
    scheme = "memory" if url is None else urlsplit(url).scheme.lower()
    # The server buses are imported only when chosen: redis and psycopg are optional (the
    # ``server`` extra), and psycopg must be imported after gevent has patched ``select``.
    if scheme in MEMORY_SCHEMES:
        return InProcessBus()
    assert url is not None
    if scheme in REDIS_SCHEMES:
        from framework.live.bus_redis import RedisBus

        return RedisBus(url, on_reconnect=on_reconnect)
    if scheme in SQLITE_SCHEMES:
        from framework.live.bus_sqlite import SqliteBus

        return SqliteBus(url, on_reconnect=on_reconnect)
    if scheme in POSTGRES_SCHEMES:
        from framework.live.bus_postgres import PostgresBus

        return PostgresBus(url, on_reconnect=on_reconnect)
    accepted = ", ".join(f"{s}:" for s in (*MEMORY_SCHEMES, *REDIS_SCHEMES, *POSTGRES_SCHEMES,
                                           *SQLITE_SCHEMES))
    raise ValueError(f"unknown bus URL scheme {scheme!r} in {_without_password(url)!r}: "
                     f"use None or one of {accepted}")


def _without_password(url: str) -> str:
    """The URL without its password, for an error message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


__all__ = ["Bus", "BusClosedError", "InProcessBus", "open_bus", "validate_channel"]
