"""What the runtime hands a ``Table`` for one request (``ActionContext``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from framework.core.clock import utcnow
from framework.game.feed import Packet
from framework.storage.base import TableConnection

TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"


def datetime_text(moment: datetime) -> str:
    """``moment`` as DATETIME columns store it (``TIME_FORMAT``); for the naive UTC times
    the framework keeps, ``isoformat`` makes the same text several times faster."""
    if moment.tzinfo is not None:
        return moment.strftime(TIME_FORMAT)
    return moment.isoformat(" ", "microseconds")


@dataclass
class ActionContext:
    """What the runtime hands to a Table for one request."""

    db: TableConnection
    #: Who sent the request: a player of the table, a spectator signed in (not seated), or
    #: None (a game state, a zombie or bot turn, setup, a visitor not signed in).
    current_player_id: int | None = None
    now: Callable[[], datetime] = utcnow
    #: The table keeps its own writes (globals) until ``Table.flush_writes``, which the
    #: caller runs before the commit (the action gatekeeper does).
    defer_writes: bool = False
    # Filled by the table during the request, read by the runtime afterwards.
    savepoint_requested: bool = False
    last_packet_id: int | None = None  # id of the last notification written in this request
    active_at_start: frozenset[int] | None = None
    restore_requested: bool = False
    entered_states: list[int] = field(default_factory=list)
    # The notifications written in this request, handed to the event streams after the
    # commit (``framework.game.feed``).
    packets: list[Packet] = field(default_factory=list)
    _now_text: str | None = None

    def now_text(self) -> str:
        """The request's time as stored in DATETIME columns (one value per request)."""
        if self._now_text is None:
            self._now_text = datetime_text(self.now())
        return self._now_text
