"""One action = one transaction on one table: lock, check, act, run game states, commit.

The runtime is the only way in to a game table, for the web, the CLI and the test harness:
a façade over the parts of ``framework.engine`` (see docs/architecture.md, "One action")
and the tables' event streams.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from framework.core.clock import utcnow
from framework.core.errors import GameCodeError
from framework.engine.copies import create_copies, live_tables
from framework.engine.creation import TableFactory, default_tables_sql
from framework.engine.directory import TableDirectory, TableInfo
from framework.engine.errorlog import ErrorLog
from framework.engine.gatekeeper import ActionResult, Gatekeeper
from framework.engine.hooks import RuntimeHooks
from framework.engine.records import GameRecords
from framework.engine.seats import Seats
from framework.engine.settle import StateDriver
from framework.engine.slots import SaveSlots
from framework.engine.views import TableViews
from framework.game.feed import Feed, Packet, contiguous
from framework.game.registry import GameDefinition, GameRegistry
from framework.game.table import Table, table_status
from framework.i18n import Translate
from framework.storage.base import TableConnection, TableStore
from framework.storage.sql.translate import translate_query

__all__ = [
    "ActionResult", "GameCodeError", "Runtime", "RuntimeHooks", "StreamBatch", "TableInfo",
    "default_tables_sql",
]

MAX_FEEDS = 2000  # tables whose recent gamelog a process keeps for its streams
_PACKET_COLUMNS = ("gamelog_packet_id, gamelog_move_id, gamelog_private, gamelog_player, gamelog_time, "
                   "gamelog_type, gamelog_log, gamelog_args")


@dataclass
class _Listeners:
    cond: threading.Condition = field(default_factory=threading.Condition)
    version: int = 0
    waiting: int = 0  # streams blocked in ``wait`` right now
    feed: Feed | None = None  # the table's recent gamelog (framework.game.feed), true at ``version``


@dataclass
class StreamBatch:
    """What one wake-up of an event stream sends (``Runtime.stream_batch``)."""

    packets: list[Packet]  # those the player may see
    status: str | None  # the status event, when there are packets
    top: int  # the last gamelog id looked at (the log's last id when nothing was new)
    more: bool  # the limit was reached: more are waiting


class Runtime:
    """Creates tables and applies actions, each in one transaction on the table's database.

    ``hooks`` are the site's seams (``RuntimeHooks``); ``now`` is read at every use (a test
    may replace it).
    """

    def __init__(
        self,
        platform: Engine,
        store: TableStore,
        registry: GameRegistry,
        now: Callable[[], datetime] = utcnow,
        hooks: RuntimeHooks | None = None,
    ) -> None:
        self.platform = platform
        self.store = store
        self.registry = registry
        self.now = now
        self.hooks = hooks or RuntimeHooks()
        self.directory = TableDirectory(platform, store, registry, self.hooks.game_loader)
        self.errorlog = ErrorLog(platform)
        self.driver = StateDriver()
        self.records = GameRecords(platform, self.directory, self._clock)
        self.views = TableViews(self.directory, self._clock)
        self.factory = TableFactory(platform, self.directory, self.driver, self._clock,
                                    self.hooks.production_release, self._record_finish)
        self.gatekeeper = Gatekeeper(self.directory, self.driver, self.errorlog, self._clock,
                                     self.hooks.before_action, self._wants_packets)
        self.seats = Seats(self.directory, self.driver, self.views, self._clock, self._after_commit)
        self.slots = SaveSlots(platform, self.directory, self._clock, self.changed)
        self.committed_max: dict[int, int] = {}  # table -> last gamelog id of our last commit
        self._listeners: dict[int, _Listeners] = {}
        self._listeners_lock = threading.Lock()
        self._fed: OrderedDict[int, None] = OrderedDict()  # tables with a feed, oldest first
        # Run before a listener waits: starts the wake-ups from other processes
        # (framework.live.notify); set by the site.
        self.before_wait: Callable[[], None] | None = None
        # After each commit of this process: (table, last gamelog id, its notifications and
        # the status after it, or None) -- framework.live.notify tells the other processes.
        self.on_commit: Callable[[int, int | None, list[Packet] | None, dict[str, Any] | None],
                                 None] | None = None
        self.has_peers: Callable[[], bool] | None = None  # other processes hear on_commit

    def _clock(self) -> datetime:
        """``now`` as it is at the call: the parts hold this, not ``now`` itself."""
        return self.now()

    @property
    def automatic_turns(self) -> int:
        """Bot and zombie turns played by this runtime, for simulations."""
        return self.driver.automatic_turns

    # ------------------------------------------------------------------ lookups
    def table_info(self, table_id: int) -> TableInfo:
        return self.directory.table_info(table_id)

    def forget_table(self, table_id: int) -> None:
        self.directory.forget_table(table_id)

    def game_for(self, info: TableInfo) -> GameDefinition:
        return self.directory.game_for(info)

    def is_blocked(self, game: str, max_age: float = 1.0) -> bool:
        return self.directory.is_blocked(game, max_age)

    def forget_blocked(self, game: str | None = None) -> None:
        self.directory.forget_blocked(game)

    # ------------------------------------------------------------------ players
    def ensure_player(self, name: str, is_test: bool = True) -> int:
        return self.factory.ensure_player(name, is_test)

    # ------------------------------------------------------------------ creation
    def create_table(
        self,
        game: str,
        players: int | Sequence[str] = 0,
        options: Mapping[Any, Any] | None = None,
        seed: str | int | None = None,
        mode: str = "studio",
        bots: Sequence[int] | Mapping[int, str] = (),
        release_version: str | None = None,
        definition: GameDefinition | None = None,
    ) -> int:
        """Create a table of ``game`` and run its setup; returns the table id.

        ``players`` is a count (test players ``player1``.. are used) or a list of names;
        ``bots`` lists seats (0-based) played by the game's ``bot_turn``, or maps seats to a
        bot kind the game knows (``Table.get_bot_kind``).

        Raises:
            NotFoundError: unknown game.
            UserError: wrong player count, unknown option or value, bad mode.
            ConfigError: the game's files are invalid (dbmodel.sql: file, line, statement).
        """
        return self.factory.create_table(game, players, options, seed, mode, bots,
                                         release_version, definition)

    @staticmethod
    def live_tables(db: TableConnection) -> list[str]:
        return live_tables(db)

    def create_copies(self, db: TableConnection) -> None:
        """Every live table gets its ``zz_replayN_`` and ``zz_savepoint_`` copies."""
        create_copies(db)

    # ------------------------------------------------------------------ actions
    def act(
        self, table_id: int, player_id: int, action: str, args: Mapping[str, Any] | None = None,
        seen_move: int | None = None,
    ) -> ActionResult:
        """Apply ``player_id``'s ``action`` to the table, in one transaction.

        Checked in this order, each with its own error: unknown table, game blocked, game
        over, move already sent, unknown action, not allowed in this state, not your turn,
        bad arguments.

        ``seen_move`` (optional) is the move number the player's view was at when they acted
        (``move`` in ``get_data``, ``move_id`` of notifications). A player's second request
        for the same ``seen_move`` (a double click, a retry of a request that was applied)
        is refused with ``StaleMoveError`` and applies nothing: each view acts once.
        """
        result, published = self.gatekeeper.act(table_id, player_id, action, args, seen_move)
        result.committed_at = time.time()
        # The log's last id as this process committed it: the cross-process poller need not
        # wake this process's streams again for it (framework.live.notify).
        self.committed_max[result.table_id] = result.last_notification_id
        self._after_commit(result.table_id, result.game_over, published)
        return result

    def apply_change(self, table_id: int, change: Callable[[Table], None], label: str,
                     player_id: int | None = None) -> None:
        """Run ``change(table)`` as a move that is no player's action (a studio tool), then
        let the game move on (states, bots, zombies), in one transaction; the table's
        streams are woken after the commit.

        ``label`` names the change in the error log, against ``player_id`` (who asked).

        Raises:
            ArenaError: what ``change`` or the game raised for the user (nothing applied).
            GameCodeError: any other exception, logged in the table's error log.
        """
        info = self.gatekeeper.apply_change(table_id, change, label, player_id)
        self._after_commit(info.id, self.is_over(info.id))

    def begin_move(self, table: Table) -> None:
        """Inside a table's transaction: a new move (the move counter goes up)."""
        self.driver.begin_move(table)

    def settle(self, table: Table, gdef: GameDefinition) -> None:
        """Inside a table's transaction: run the states entered, then bots and zombies, until
        a person must act (``StateDriver.settle``)."""
        self.driver.settle(table, gdef)

    def _after_commit(self, table_id: int, game_over: bool,
                      published: tuple[list[Packet], dict[str, Any]] | None = None) -> None:
        """Wake the table's streams; ``published``: the notifications the commit wrote and
        the status after it, handed to them in memory."""
        if game_over:
            self._record_finish(table_id)
        if published is None:
            self.wake(table_id)
        else:
            self._publish(table_id, *published)
        if self.on_commit is not None:
            packets, status = published if published is not None else (None, None)
            self.on_commit(table_id, packets[-1].id if packets else None, packets, status)

    def _wants_packets(self, table_id: int) -> bool:
        """A commit's notifications and status are worth handing over: this process keeps a
        feed of the table, or other processes listen (``has_peers``)."""
        entry = self._listeners.get(table_id)
        if entry is not None and entry.feed is not None:
            return True
        return self.has_peers is not None and self.has_peers()

    def changed(self, table_id: int) -> None:
        """A table was written outside an action (a studio tool): wake its streams here and
        in the other processes."""
        self._after_commit(table_id, False)

    # ------------------------------------------------------------------ end of game
    def ranking(self, table_id: int) -> list[dict[str, Any]]:
        """Players by score, then score_aux; equal pairs share a rank."""
        return self.records.ranking(table_id)

    def _record_finish(self, table_id: int) -> None:
        self.records.record_finish(table_id)

    # ------------------------------------------------------------------ errors
    def log_error(self, table_id: int, player_id: int | None, action: str | None, exc: BaseException) -> None:
        self.errorlog.log_error(table_id, player_id, action, exc)

    def errors(self, table_id: int) -> list[dict[str, Any]]:
        return self.errorlog.errors(table_id)

    # ------------------------------------------------------------------ reading
    def read(self, table_id: int, player_id: int | None = None) -> AbstractContextManager[Table]:
        """A table instance in a read-only transaction (for views and tests)."""
        return self.views.read(table_id, player_id)

    def get_data(
        self, table_id: int, player_id: int | None, translate: Translate | None = None
    ) -> dict[str, Any]:
        """``get_all_datas(player_id)`` plus the framework's keys (BGA's ``gamedatas``)."""
        return self.views.get_data(table_id, player_id, translate)

    def events(
        self, table_id: int, player_id: int | None, after: int = 0,
        translate: Translate | None = None, limit: int = 1000,
    ) -> list[dict[str, Any]]:
        """Notifications after packet ``after`` that ``player_id`` may see, in order.

        Public rows for everyone; private rows only for their player (spectators: none).
        """
        with self.store.connect(self.table_info(table_id).id, write=False) as db:
            return self.event_rows(db, player_id, after, translate, limit)

    @staticmethod
    def event_rows(
        db: TableConnection, player_id: int | None, after: int, translate: Translate | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """``events`` inside a transaction the caller holds."""
        sql = translate_query(
            f"SELECT {_PACKET_COLUMNS} FROM gamelog WHERE gamelog_packet_id > %s "
            "AND (gamelog_private = 0 OR gamelog_player = %s) ORDER BY gamelog_packet_id LIMIT %s",
            db.dialect,
        )
        rows = db.execute(sql, (int(after), -1 if player_id is None else int(player_id), int(limit))).rows
        return [Packet.from_row(r).event(translate) for r in rows]

    # ------------------------------------------------------------------ event streams
    def stream_batch(self, table_id: int, player_id: int | None, after: int, seen_version: int,
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
        with self.store.connect(self.table_info(table_id).id, write=False) as db:
            rows = db.execute(translate_query(
                f"SELECT {_PACKET_COLUMNS} FROM gamelog WHERE gamelog_packet_id > %s "
                "ORDER BY gamelog_packet_id LIMIT %s", db.dialect), (int(after), int(limit))).rows
            packets = [Packet.from_row(r) for r in rows]
            if packets:
                feed = Feed(after, packets, table_status(db, self.now()), seen_version)
            else:
                top = db.execute(translate_query("SELECT MAX(gamelog_packet_id) AS last_id FROM gamelog",
                                                 db.dialect)).rows[0]["last_id"]
                feed = Feed(int(top or 0), [], {}, seen_version)
        if len(packets) < limit and contiguous(packets, after):
            with entry.cond:
                if entry.version == seen_version:
                    self._keep_feed(table_id, entry, feed)
        return feed, packets

    def _publish(self, table_id: int, packets: list[Packet], status: dict[str, Any]) -> None:
        """Wake the table's streams with what a commit of this process wrote (see
        ``_apply_commit``)."""
        self._apply_commit(self._listeners_for(table_id), packets, status)

    def publish_remote(self, table_id: int, packets: list[Packet], status: dict[str, Any]) -> None:
        """Another process's commit, announced with its notifications (framework.live.notify),
        for a table this process streams."""
        entry = self._listeners.get(table_id)
        if entry is not None:
            self._apply_commit(entry, packets, status)

    @staticmethod
    def _apply_commit(entry: _Listeners, packets: list[Packet], status: dict[str, Any]) -> None:
        """Wake the table's streams for a commit, whose packets join the feed: those the
        feed does not hold yet (a stream may have read them already) must follow its top;
        otherwise the feed is dropped and the streams read. Always a wake-up: a stream that
        read the packets on its own did not wake the others."""
        with entry.cond:
            entry.version += 1
            feed = entry.feed
            if feed is not None:
                fresh = [p for p in packets if p.id > feed.top]
                if not feed.extend(fresh, status if fresh else feed.status, entry.version):
                    entry.feed = None
            entry.cond.notify_all()

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
        with entry.cond:
            entry.version += 1
            entry.feed = None
            entry.cond.notify_all()

    def wait(self, table_id: int, seen_version: int, timeout: float) -> int:
        """Block until the table changes after ``seen_version`` (or timeout); new version.

        Commits of this process wake it at once; those of other processes through
        ``framework.live.notify`` (PostgreSQL NOTIFY, or the gamelog polled)."""
        if self.before_wait is not None:
            self.before_wait()
        entry = self._listeners_for(table_id)
        with entry.cond:
            if entry.version == seen_version:
                entry.waiting += 1
                try:
                    entry.cond.wait(timeout)
                finally:
                    entry.waiting -= 1
            return entry.version

    def watched_tables(self) -> list[int]:
        """Tables that a listener of this process is waiting on now."""
        with self._listeners_lock:
            return [tid for tid, entry in self._listeners.items() if entry.waiting]

    def listened_tables(self) -> list[int]:
        """Tables that a listener of this process has waited on (or is about to)."""
        with self._listeners_lock:
            return list(self._listeners)

    def wake_if_listened(self, table_id: int) -> None:
        """Wake a table's listeners, if this process ever had one (a wake-up from another
        process must not create entries for every table of the site)."""
        with self._listeners_lock:
            known = table_id in self._listeners
        if known:
            self.wake(table_id)

    def version(self, table_id: int) -> int:
        return self._listeners_for(table_id).version

    # ------------------------------------------------------------------ players leaving
    def expel(self, table_id: int, requester_id: int, target_id: int) -> None:
        """``target_id`` is out of time: another player hands their seat to a zombie.

        Raises:
            UserError: the requester is not at the table, or the target still has time.
        """
        self.seats.expel(table_id, requester_id, target_id)

    def leave(self, table_id: int, player_id: int) -> None:
        """A player quits: their seat is played by ``zombie_turn`` from now on."""
        self.seats.leave(table_id, player_id)

    def is_over(self, table_id: int) -> bool:
        """The table's game has reached its end state."""
        return self.seats.is_over(table_id)

    def give_extra_time(self, table_id: int, player_id: int) -> None:
        self.seats.give_extra_time(table_id, player_id)

    # ------------------------------------------------------------------ studio slots
    def save_slot(self, table_id: int, slot: int) -> None:
        """Studio: save the whole table to slot 1..3."""
        self.slots.save_slot(table_id, slot)

    def load_slot(self, table_id: int, slot: int) -> None:
        """Studio: put the table back as it was saved in slot 1..3."""
        self.slots.load_slot(table_id, slot)
