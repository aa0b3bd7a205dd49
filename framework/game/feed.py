"""The recent gamelog of a table, kept in memory by each process for its event streams.

An action's commit hands the notifications it wrote (``Packet``) and the table's status to
the streams of that table in the same process: they send them without reading the
database. A stream woken by another process's commit reads the database once, and what it
read serves the other streams of the table in this process. Each packet is formatted once
per language, not once per stream.

A ``Feed`` holds packets ``base + 1 .. top`` without a gap, and is true as of the table's
wake-up version ``version`` (``Runtime.wake``): every commit whose wake-up came before it
is in the feed. Any wake-up that does not bring its packets (another process's commit, a
studio tool, a player leaving) drops the feed, so a stream never trusts a feed that might
miss a commit; it reads the database instead.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from framework.game.states import END_STATE_ID
from framework.i18n import Translate, format_message

MAX_PACKETS = 256  # per table; a stream further behind reads the database
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def time_text(value: Any) -> str:
    """A notification's time as streams and the log show it, to the second, on every
    backend (SQLite keeps the microseconds, MariaDB's DATETIME does not)."""
    return str(value)[:19]


@dataclass(eq=False, slots=True)
class Packet:
    """One gamelog row; ``args_json`` is the stored JSON text of its args. A feed keeps up to
    ``MAX_PACKETS`` of them per table: slots, not a ``__dict__``, and one copy of each type
    and message text (a game has few)."""

    id: int
    move_id: int
    private: bool
    player: int | None
    time: str
    type: str
    msgid: str
    args_json: str
    _args: dict[str, Any] | None = field(default=None, repr=False)
    _sse: dict[Any, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # however the packet was made (a row, a bus message, a notification just written);
        # str() because a game's log may be a str subclass (a plural message), as no row is
        self.type, self.msgid = sys.intern(str(self.type)), sys.intern(str(self.msgid))

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> Packet:
        player = r["gamelog_player"]
        return cls(int(r["gamelog_packet_id"]), int(r["gamelog_move_id"] or 0), bool(r["gamelog_private"]),
                   None if player is None else int(player), time_text(r["gamelog_time"]),
                   str(r["gamelog_type"]), str(r["gamelog_log"]), str(r["gamelog_args"]))

    def visible_to(self, player_id: int | None) -> bool:
        """Public packets for everyone; a private one only for its player."""
        return not self.private or (player_id is not None and self.player == player_id)

    def ends_game(self) -> bool:
        """The notification of the game's move to its end state."""
        return self.type == "gameStateChange" and self.args.get("id") == END_STATE_ID

    @property
    def args(self) -> dict[str, Any]:
        if self._args is None:
            self._args = json.loads(self.args_json)
        return self._args

    def event(self, translate: Translate | None) -> dict[str, Any]:
        """The notification as the client gets it (``Runtime.events``, the stream)."""
        args = json.loads(self.args_json)  # the caller's own dict, not the cached one
        return {"id": self.id, "move_id": self.move_id, "type": self.type, "private": self.private,
                "log": format_message(self.msgid, args, translate, strict=False), "msgid": self.msgid,
                "args": args, "time": self.time}

    def sse(self, key: Any, translate: Translate | None) -> str:
        """The packet as one Server-Sent Event, formatted once per ``key`` (a language)."""
        text = self._sse.get(key)
        if text is None:
            log = format_message(self.msgid, self.args, translate, strict=False)
            text = (f'id: {self.id}\ndata: {{"id":{self.id},"move_id":{self.move_id},'
                    f'"type":{_dumps(self.type)},"private":{"true" if self.private else "false"},'
                    f'"log":{_dumps(log)},"msgid":{_dumps(self.msgid)},"args":{self.args_json},'
                    f'"time":{_dumps(self.time)}}}\n\n')
            self._sse[key] = text
        return text


@dataclass(eq=False)
class Feed:
    """Packets ``base + 1 .. top`` of one table and its status after ``top``."""

    base: int
    packets: list[Packet]
    status: dict[str, Any]
    version: int
    _status_sse: str | None = field(default=None, repr=False)

    @property
    def top(self) -> int:
        return self.base + len(self.packets)

    def covers(self, after: int) -> bool:
        return self.base <= after <= self.top

    def since(self, after: int, limit: int) -> list[Packet]:
        start = after - self.base
        return self.packets[start:start + limit]

    def status_sse(self) -> str:
        if self._status_sse is None:
            self._status_sse = f"event: status\ndata: {_dumps(self.status)}\n\n"
        return self._status_sse

    def extend(self, packets: list[Packet], status: dict[str, Any], version: int) -> bool:
        """Add the packets of the commit that follows ``top`` (none: only ``version``
        moves); False (nothing changed) when they do not follow it without a gap."""
        if not contiguous(packets, self.top):
            return False
        self.packets.extend(packets)
        if len(self.packets) > MAX_PACKETS:
            drop = len(self.packets) - MAX_PACKETS
            del self.packets[:drop]
            self.base += drop
        if status is not self.status:
            self.status, self._status_sse = status, None
        self.version = version
        return True


def contiguous(packets: list[Packet], after: int) -> bool:
    """The packets are ``after + 1, after + 2, ...`` in order."""
    return all(p.id == after + 1 + i for i, p in enumerate(packets))
