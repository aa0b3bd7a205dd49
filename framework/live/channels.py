"""Channels of the bus: which names are valid, and which handlers each channel calls.

Shared by every bus, so that a name refused by one is refused by all and handlers are
called the same way whichever bus runs.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

Handler = Callable[[str], None]

MAX_CHANNEL_LENGTH = 63  # PostgreSQL's identifier limit (NAMEDATALEN - 1): LISTEN names one
CHANNEL_PATTERN = re.compile(rf"[A-Za-z0-9_.:\-]{{1,{MAX_CHANNEL_LENGTH}}}")


class BusClosedError(RuntimeError):
    """A bus was used after ``close()``."""


def validate_channel(channel: str) -> str:
    """The channel name, when every bus accepts it: 1 to 63 letters, digits, ``_ . : -``.

    >>> validate_channel("arena.table:42")
    'arena.table:42'

    Raises:
        ValueError: the name is empty, too long or has another character.
    """
    if not isinstance(channel, str) or CHANNEL_PATTERN.fullmatch(channel) is None:
        raise ValueError(
            f"invalid bus channel {channel!r}: 1 to {MAX_CHANNEL_LENGTH} letters, digits, "
            "'_', '.', ':' or '-'"
        )
    return channel


class Subscriptions:
    """The handlers of each channel, in the order they subscribed; safe for threads.

    ``dispatch`` holds ``lock`` while it calls the handlers, so once ``remove`` has returned
    the handler removed is never called again (unless it is added again). The lock is
    re-entrant: a handler may subscribe or unsubscribe. A handler that raises is logged
    and the next handlers are still called.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._handlers: dict[str, dict[Handler, None]] = {}  # a dict keeps the order

    def add(self, channel: str, handler: Handler) -> bool:
        """Subscribe ``handler`` (again: no change). True when the channel had no handler."""
        with self.lock:
            handlers = self._handlers.setdefault(channel, {})
            first = not handlers
            handlers[handler] = None
            return first

    def remove(self, channel: str, handler: Handler) -> bool:
        """Unsubscribe ``handler`` (not subscribed: no change). True when the channel has
        no handler left after it."""
        with self.lock:
            handlers = self._handlers.get(channel)
            if handlers is None:
                return False
            handlers.pop(handler, None)
            if handlers:
                return False
            del self._handlers[channel]
            return True

    def channels(self) -> set[str]:
        """The channels that have at least one handler."""
        with self.lock:
            return set(self._handlers)

    def dispatch(self, channel: str, message: str) -> int:
        """Call each handler of ``channel`` with ``message``; returns how many were called."""
        called = 0
        with self.lock:
            handlers = self._handlers.get(channel)
            if not handlers:
                return 0
            for handler in list(handlers):
                if handler not in handlers:  # unsubscribed by a handler called before it
                    continue
                called += 1
                try:
                    handler(message)
                except Exception:
                    log.exception("a handler of bus channel %r failed", channel)
        return called
