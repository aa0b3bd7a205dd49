"""The event streams of each table in one process: wait and wake, the feed of recent
packets, and the bus message that tells the other processes and machines a table moved.

A commit of this process wakes its streams with the packets it wrote (they send them from
memory), then publishes a ``CommitMessage`` on the site's bus channel. A process that hears
another's message wakes that table's streams, which read the game log after the last id
they sent; so a late, doubled or lost message never loses, doubles or reorders a
notification (a stream that hears nothing reads the log after ``SSE_POLL`` seconds anyway).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import make_url

from framework.game.feed import Feed, Packet, contiguous
from framework.game.table import table_status
from framework.i18n import Translate
from framework.live.bus import Bus
from framework.live.poll import LogPoller
from framework.storage.base import TableConnection, TableStore
from framework.storage.sql.translate import translate_query

log = logging.getLogger(__name__)

MAX_FEEDS = 2000  # tables whose recent gamelog a process keeps for its streams
PACKET_COLUMNS = ("gamelog_packet_id, gamelog_move_id, gamelog_private, gamelog_player, gamelog_time, "
                  "gamelog_type, gamelog_log, gamelog_args")

#: Opens the bus of this process; called with what to do after the bus lost messages
#: (it reconnected), once per process, on first use (after a fork: again, in the child).
BusOpener = Callable[[Callable[[], None]], Bus]


def site_channel(database_url: str) -> str:
    """The bus channel of a site: every process and machine on the same databases shares
    it, whatever driver or password its URL names.

    >>> site_channel("postgresql+psycopg://u:secret@DB:5432/arena") == site_channel("postgresql://u@db:5432/arena")
    True
    >>> site_channel("sqlite:////srv/a/platform.sqlite") == site_channel("sqlite:////srv/b/platform.sqlite")
    False
    """
    url = make_url(database_url)
    prefix = url.query.get("arena_prefix", "")
    key = "|".join([url.get_backend_name(), (url.host or "").lower(), str(url.port or ""),
                    url.username or "", url.database or "", str(prefix)])
    return "arena." + hashlib.sha256(key.encode()).hexdigest()[:16]


#: the longest commit message that carries the commit's notifications (a PostgreSQL NOTIFY
#: payload is under 8000 bytes; the text is ASCII): a longer one says only what changed
MAX_CARRIED = 7000


@dataclass(frozen=True)
class CommitMessage:
    """What a process publishes after a commit on a table: the table, the last gamelog id
    the commit left (None: unknown, or the log may have gone back, as after a slot load),
    who sent it (a process hears its own messages on some buses), and, when they are
    short enough, the commit's packets and the status after them (``carried``: JSON, see
    ``carry``), so that the other processes' streams of the table send them from their
    feed instead of reading the database."""

    table_id: int
    top: int | None
    sender: str
    carried: str | None = None

    def to_text(self) -> str:
        """The message's text: its head, and what it carries on a line of its own.

        >>> CommitMessage(12, 345, "host/1/ab").to_text()
        '12 345 host/1/ab'
        >>> CommitMessage(12, 345, "host/1/ab", '{"packets":[]}').to_text()
        '12 345 host/1/ab\\n{"packets":[]}'
        """
        head = f"{self.table_id} {'-' if self.top is None else self.top} {self.sender}"
        return head if self.carried is None else f"{head}\n{self.carried}"

    @classmethod
    def from_text(cls, text: str) -> CommitMessage:
        """``to_text``'s inverse.

        >>> CommitMessage.from_text("12 - host/1/ab")
        CommitMessage(table_id=12, top=None, sender='host/1/ab', carried=None)

        Raises:
            ValueError: not a commit message.
        """
        head, _, carried = text.partition("\n")
        table, top, sender = head.split(" ", 2)
        if not table.isdigit() or not (top == "-" or top.isdigit()) or not sender:
            raise ValueError(f"not a commit message: {text[:80]!r}")
        return cls(int(table), None if top == "-" else int(top), sender, carried or None)

    @staticmethod
    def carry(packets: list[Packet], status: dict[str, Any]) -> str:
        """The JSON a message carries: the packets as rows and the status."""
        rows = [[p.id, p.move_id, p.private, p.player, p.time, p.type, p.msgid, p.args_json] for p in packets]
        return json.dumps({"packets": rows, "status": status}, separators=(",", ":"))

    def carried_packets(self) -> tuple[list[Packet], dict[str, Any]] | None:
        """The packets and status the message carries (``carry``), or None.

        Raises:
            ValueError: what it carries is not ``carry``'s JSON.
        """
        if self.carried is None:
            return None
        try:
            data = json.loads(self.carried)
            packets = [Packet(int(i), int(move), bool(private), None if player is None else int(player),
                              str(time_), str(kind), str(msgid), str(args))
                       for i, move, private, player, time_, kind, msgid, args in data["packets"]]
            status = data["status"]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a commit message carries no packets: {self.carried[:80]!r}") from exc
        if not isinstance(status, dict):
            raise ValueError("a commit message's status is not an object")
        return packets, status


@dataclass
class _Listeners:
    """One table's streams in this process.

    ``lock`` guards ``version`` and ``feed``; ``changed`` is the event of the current
    version, set (and replaced by a new one) when the version moves: the table's waiting
    streams all wake on one event, where a condition would make and release a lock for each
    waiter at every commit."""

    # Made with threading's names looked up when made, not when this module is imported:
    # gunicorn's master imports it before a gevent worker patches ``threading``.
    lock: threading.Lock = field(default_factory=lambda: threading.Lock())
    changed: threading.Event = field(default_factory=lambda: threading.Event())
    version: int = 0
    waiting: int = 0  # streams blocked in ``wait`` right now
    feed: Feed | None = None  # the table's recent gamelog (framework.game.feed), true at ``version``
    read_at: float = float("-inf")  # time.monotonic() of this process's last read of the log

    def moved(self) -> None:
        """The version moved (call with ``lock`` held): wake the streams waiting on it."""
        self.version += 1
        changed, self.changed = self.changed, threading.Event()
        changed.set()


@dataclass
class StreamBatch:
    """What one wake-up of an event stream sends (``Streams.batch``)."""

    packets: list[Packet]  # those the player may see
    status: str | None  # the status event, when there are packets
    top: int  # the last gamelog id looked at (the log's last id when nothing was new)
    more: bool  # the limit was reached: more are waiting


def event_rows(db: TableConnection, player_id: int | None, after: int, translate: Translate | None,
               limit: int) -> list[dict[str, Any]]:
    """Notifications after packet ``after`` that ``player_id`` may see, in order, read in
    the caller's transaction: public rows for everyone, private rows only for their player
    (spectators: none)."""
    sql = translate_query(
        f"SELECT {PACKET_COLUMNS} FROM gamelog WHERE gamelog_packet_id > %s "
        "AND (gamelog_private = 0 OR gamelog_player = %s) ORDER BY gamelog_packet_id LIMIT %s",
        db.dialect,
    )
    rows = db.execute(sql, (int(after), -1 if player_id is None else int(player_id), int(limit))).rows
    return [Packet.from_row(r).event(translate) for r in rows]


class Streams:
    """The listeners of each table of this process, their feeds, and the site's bus.

    ``bus`` opens the bus (lazily: its threads start in the process that uses it, after
    gunicorn forked); ``channel`` is the site's (``site_channel``). ``poll_s``: also read
    the last gamelog id of the tables streams wait on every ``poll_s`` seconds, for a bus
    that does not reach the other processes (``InProcessBus``).
    """

    def __init__(self, store: TableStore, now: Callable[[], datetime], bus: BusOpener | None = None,
                 channel: str = "arena.local", poll_s: float | None = None) -> None:
        self.store = store
        self.now = now
        self.channel = channel
        self._open_bus = bus
        self._bus: Bus | None = None
        self._pid: int | None = None  # the process whose bus (and sender name) this is
        self._sender = ""
        self._listening = False  # subscribed in this process
        self._closed = False  # the site closed: no bus is opened again
        self._start_lock = threading.Lock()
        self._listeners: dict[int, _Listeners] = {}
        self._listeners_lock = threading.Lock()
        self._fed: OrderedDict[int, None] = OrderedDict()  # tables with a feed, oldest first
        # table -> the last gamelog id this process woke the table's streams for: its own
        # commit's, or another process's heard on the bus (the poll wakes them for no other)
        self.known_top: dict[int, int] = {}
        self.poller = LogPoller(store, self, poll_s) if poll_s is not None else None
        self.published = 0  # commit messages sent (tests, monitoring)
        self.heard = 0  # commit messages of other processes heard
        self.publish_errors = 0

    # ------------------------------------------------------------------ the bus
    def _bus_of_process(self) -> Bus | None:
        """This process's bus, opened on first use (a forked child opens its own: the
        parent's threads did not come along); None when the streams have no bus."""
        if self._closed:
            return None
        pid = os.getpid()
        if self._pid != pid:
            with self._start_lock:
                if self._pid != pid:
                    self._bus = None if self._open_bus is None else self._open_bus(self._lost_messages)
                    self._sender = f"{socket.gethostname()}/{pid}/{secrets.token_hex(4)}"
                    self._listening = False
                    self._pid = pid
        return self._bus

    @property
    def listening(self) -> bool:
        """This process hears the other processes' commits (its first wait subscribed)."""
        return self._listening and self._pid == os.getpid() and not self._closed

    def listen(self) -> None:
        """Hear the other processes' commits from now on (called before every wait: a flag
        once done). The first call subscribes, and starts the poll if there is one."""
        if self._listening and self._pid == os.getpid() or self._closed:
            return
        bus = self._bus_of_process()
        with self._start_lock:
            if self._listening and self._pid == os.getpid() or self._closed:
                return
            if bus is not None:
                try:
                    bus.subscribe(self.channel, self._heard)  # returns once subscribed
                except Exception:
                    log.exception("subscribing to the bus failed: streams read the log on their timeout")
            if self.poller is not None:
                self.poller.start()
            self._listening = True
        # A commit made before the subscription and after a stream's read was not heard.
        self._lost_messages()

    def _lost_messages(self) -> None:
        """Messages may have been missed (not yet subscribed, or the bus reconnected): every
        stream of this process reads the log."""
        for table_id in self.listened_tables():
            self.wake(table_id)

    def _heard(self, text: str) -> None:
        """A message on the site's channel: another process's commit wakes that table's
        streams here, if this process has any."""
        try:
            message = CommitMessage.from_text(text)
        except ValueError:
            log.warning("a malformed message on bus channel %s was ignored", self.channel)
            return
        if message.sender == self._sender:
            return  # our own commit: its streams were woken at once
        self.heard += 1
        entry = self._listeners.get(message.table_id)
        if entry is None:
            return
        carried = None
        if message.carried is not None and entry.feed is not None:
            try:
                carried = message.carried_packets()
            except ValueError:
                log.warning("a commit message of table %s carried what is not packets", message.table_id)
        if message.top is not None:
            self.known_top[message.table_id] = message.top
        with entry.lock:
            entry.moved()
            feed = entry.feed
            if feed is not None and message.top is not None and feed.top >= message.top:
                feed.version = entry.version  # it holds the commit already (a stream read it)
            elif feed is None or carried is None or message.top is None:
                entry.feed = None
            else:
                # the packets it carries join the feed if they follow its top
                packets, status = carried
                fresh = [p for p in packets if p.id > feed.top]
                if not (fresh and fresh[-1].id == message.top and feed.extend(fresh, status, entry.version)):
                    entry.feed = None

    def committed(self, table_id: int, top: int | None,
                  published: tuple[list[Packet], dict[str, Any]] | None = None) -> None:
        """A commit of this process on the table: wake its streams here (with the packets it
        wrote and the status after it, when given), then tell the other processes. ``top``
        is the log's last id after it (None: unknown, or it may have gone back)."""
        if top is not None:
            self.known_top[table_id] = top
        if published is None:
            self.wake(table_id)
        else:
            self._apply_commit(self._listeners_for(table_id), *published)
        bus = self._bus_of_process()
        if bus is None:
            return
        text = CommitMessage(table_id, top, self._sender).to_text()
        if published is not None and top is not None:
            carried = CommitMessage.carry(*published)
            if len(text) + 1 + len(carried) <= MAX_CARRIED:
                text = f"{text}\n{carried}"
        try:
            bus.publish(self.channel, text)
            self.published += 1
        except Exception:  # the commit stands; the others' streams read the log on their timeout
            self.publish_errors += 1
            log.exception("publishing the commit of table %s on the bus failed", table_id)

    def close(self) -> None:
        self._closed = True
        if self.poller is not None:
            self.poller.stop()
        if self._bus is not None and self._pid == os.getpid():
            try:
                self._bus.close()
            except Exception:
                log.exception("closing the bus failed")
        self._bus, self._pid, self._listening = None, None, False

    # ------------------------------------------------------------------ reading
    def events(self, table_id: int, player_id: int | None, after: int = 0,
               translate: Translate | None = None, limit: int = 1000) -> list[dict[str, Any]]:
        """``event_rows`` in a read transaction of its own."""
        with self.store.connect(table_id, write=False) as db:
            return event_rows(db, player_id, after, translate, limit)

    def batch(self, table_id: int, player_id: int | None, after: int, seen_version: int,
              key: Any, translate: Translate | None, limit: int,
              from_database: bool = False) -> StreamBatch:
        """What an event stream sends after packet ``after``, the stream having read the
        table's wake-up version ``seen_version`` before calling (``version``).

        From the table's feed when it holds ``after`` and is true at ``seen_version``, else
        (or with ``from_database``) from the database; a read that reaches the log's end
        becomes the feed if no wake-up came in the meantime. ``key`` names ``translate``
        (the language): each packet is formatted once per key.
        """
        entry = self._listeners_for(table_id)
        feed = entry.feed
        if not from_database and feed is not None and feed.version >= seen_version and feed.covers(after):
            packets = feed.since(after, limit)
        else:
            feed, packets = self._read_feed(table_id, entry, after, seen_version, limit)
        top = packets[-1].id if packets else feed.top
        visible = [p for p in packets if p.visible_to(player_id)]
        return StreamBatch(visible, feed.status_sse() if visible else None, top, len(packets) >= limit)

    def _read_feed(self, table_id: int, entry: _Listeners, after: int, seen_version: int,
                   limit: int) -> tuple[Feed, list[Packet]]:
        """Every player's packets after ``after`` (at most ``limit``) and the status, in one
        read transaction. They become the table's feed when they reach the log's end, have
        no gap, and no wake-up came since ``seen_version``; with no packets, the feed's top
        is the log's last id."""
        entry.read_at = time.monotonic()
        with self.store.connect(table_id, write=False) as db:
            rows = db.execute(translate_query(
                f"SELECT {PACKET_COLUMNS} FROM gamelog WHERE gamelog_packet_id > %s "
                "ORDER BY gamelog_packet_id LIMIT %s", db.dialect), (int(after), int(limit))).rows
            packets = [Packet.from_row(r) for r in rows]
            if packets:
                feed = Feed(after, packets, table_status(db, self.now()), seen_version)
            else:
                top = db.execute(translate_query("SELECT MAX(gamelog_packet_id) AS last_id FROM gamelog",
                                                 db.dialect)).rows[0]["last_id"]
                feed = Feed(int(top or 0), [], {}, seen_version)
        if len(packets) < limit and contiguous(packets, after):
            with entry.lock:
                if entry.version == seen_version:
                    self._keep_feed(table_id, entry, feed)
        return feed, packets

    def needs_read(self, table_id: int, seen_version: int, within: float) -> bool:
        """A stream that heard nothing for a while must read the log itself (the safety net
        under the bus), unless this process read it less than ``within`` seconds ago and
        the feed it made is still true at ``seen_version``: then every stream of the table
        here may send from that feed, and the database is read once per table, not once
        per stream."""
        entry = self._listeners.get(table_id)
        if entry is None or entry.feed is None or entry.feed.version < seen_version:
            return True
        return time.monotonic() - entry.read_at >= within

    def wants_packets(self, table_id: int) -> bool:
        """A commit's notifications and status are worth handing over: this process keeps a
        feed of the table (its commit message then carries them too)."""
        entry = self._listeners.get(table_id)
        return entry is not None and entry.feed is not None

    @staticmethod
    def _apply_commit(entry: _Listeners, packets: list[Packet], status: dict[str, Any]) -> None:
        """Wake the table's streams for a commit, whose packets join the feed: those the
        feed does not hold yet (a stream may have read them already) must follow its top;
        otherwise the feed is dropped and the streams read. Always a wake-up: a stream that
        read the packets on its own did not wake the others."""
        with entry.lock:
            entry.moved()
            feed = entry.feed
            if feed is not None:
                fresh = [p for p in packets if p.id > feed.top]
                if not feed.extend(fresh, status if fresh else feed.status, entry.version):
                    entry.feed = None

    def _keep_feed(self, table_id: int, entry: _Listeners, feed: Feed) -> None:
        entry.feed = feed
        with self._listeners_lock:
            self._fed[table_id] = None
            self._fed.move_to_end(table_id)
            while len(self._fed) > MAX_FEEDS:
                oldest, _ = self._fed.popitem(last=False)
                other = self._listeners.get(oldest)
                if other is not None:
                    other.feed = None  # a plain assignment: safe without its lock

    def feed(self, table_id: int) -> Feed | None:
        """The table's feed in this process, if it keeps one (tests, monitoring)."""
        entry = self._listeners.get(table_id)
        return None if entry is None else entry.feed

    # ------------------------------------------------------------------ wake-ups
    def _listeners_for(self, table_id: int) -> _Listeners:
        entry = self._listeners.get(table_id)  # a dict read needs no lock
        if entry is not None:
            return entry
        with self._listeners_lock:
            return self._listeners.setdefault(table_id, _Listeners())

    def wake(self, table_id: int) -> None:
        """Wake the table's streams: something they have not seen changed (the feed, which
        may not hold it, is dropped)."""
        entry = self._listeners_for(table_id)
        with entry.lock:
            entry.moved()
            entry.feed = None

    def wait(self, table_id: int, seen_version: int, timeout: float) -> int:
        """Block until the table changes after ``seen_version`` (or timeout); new version.

        Commits of this process wake it at once; those of other processes through the bus
        (or the poll)."""
        self.listen()
        entry = self._listeners_for(table_id)
        with entry.lock:
            if entry.version != seen_version:
                return entry.version
            changed = entry.changed  # set when the version moves past ``seen_version``
            entry.waiting += 1
        try:
            changed.wait(timeout)
        finally:
            with entry.lock:
                entry.waiting -= 1
        return entry.version

    def watched_tables(self) -> list[int]:
        """Tables that a stream of this process is waiting on now."""
        with self._listeners_lock:
            return [tid for tid, entry in self._listeners.items() if entry.waiting]

    def listened_tables(self) -> list[int]:
        """Tables that a stream of this process has waited on (or is about to)."""
        with self._listeners_lock:
            return list(self._listeners)

    def version(self, table_id: int) -> int:
        return self._listeners_for(table_id).version

