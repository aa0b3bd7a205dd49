"""One action = one transaction on one table: lock, check, act, run game states, commit.

The runtime is the only way in to a game table, for the web, the CLI and the test harness:
a façade over the parts of ``framework.engine`` (see docs/architecture.md, "One action")
and the tables' event streams.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from framework.core.clock import utcnow
from framework.core.errors import ArenaError, GameCodeError, GameSystemError
from framework.core.kinds import TableMode
from framework.engine.copies import create_copies, live_tables
from framework.engine.creation import TableFactory, default_tables_sql
from framework.engine.directory import TableDirectory, TableInfo
from framework.engine.errorlog import ErrorLog
from framework.engine.gatekeeper import ActionResult, Gatekeeper
from framework.engine.hooks import RuntimeHooks
from framework.engine.notices import TableNotices, table_notices
from framework.engine.open_tables import OpenTables
from framework.engine.records import GameRecords
from framework.engine.seats import Seats
from framework.engine.settle import StateDriver
from framework.engine.slots import SaveSlots
from framework.engine.views import TableViews
from framework.game.feed import Packet
from framework.game.registry import GameDefinition, GameRegistry
from framework.game.table import Table
from framework.i18n import Translate
from framework.live.streams import Streams
from framework.storage.base import TableConnection, TableStore

__all__ = [
    "ActionResult", "GameCodeError", "Runtime", "RuntimeHooks", "TableInfo",
    "default_tables_sql",
]

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
        streams: Streams | None = None,
    ) -> None:
        self.platform = platform
        self.store = store
        self.registry = registry
        self.now = now
        self.hooks = hooks or RuntimeHooks()
        # The event streams of this process's tables, and the bus to the others (live).
        self.streams = streams if streams is not None else Streams(store, self._clock)
        self.directory = TableDirectory(platform, store, registry, self.hooks.game_loader)
        self.errorlog = ErrorLog(platform)
        self.driver = StateDriver()
        self.records = GameRecords(platform, self.directory, self._clock)
        self.views = TableViews(self.directory, self._clock)
        self.factory = TableFactory(platform, self.directory, self.driver, self._clock,
                                    self.hooks.production_release, self._record_finish)
        self.gatekeeper = Gatekeeper(self.directory, self.driver, self.errorlog, self._clock,
                                     self.hooks.before_action, self.streams.wants_packets)
        self.seats = Seats(self.directory, self.driver, self.views, self._clock, self._after_commit,
                           self.errorlog)
        self.open_tables = OpenTables(platform, self.create_table)
        self.slots = SaveSlots(platform, self.directory, self._clock, self.changed)

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

    def forget_kept(self, table_id: int) -> None:
        """Drop what this process keeps of the table between actions (``framework.game.kept``):
        for a writer of this process that does not give the table a new write token (a
        test's own writes)."""
        self.gatekeeper.kept.forget(table_id)

    def game_for(self, info: TableInfo) -> GameDefinition:
        return self.directory.game_for(info)

    def is_blocked(self, game: str, max_age: float = 1.0) -> bool:
        return self.directory.is_blocked(game, max_age)

    def forget_blocked(self, game: str | None = None) -> None:
        self.directory.forget_blocked(game)

    def notices(self, table_id: int) -> TableNotices:
        """What the table's page tells its players: blocked, moved to another release."""
        return table_notices(self.directory, table_id)

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
        mode: str = TableMode.STUDIO,
        bots: Sequence[int] | Mapping[int, str] = (),
        release_version: str | None = None,
        definition: GameDefinition | None = None,
        simulated: bool = False,
    ) -> int:
        """Create a table of ``game`` and run its setup; returns the table id.

        ``players`` is a count (test players ``player1``.. are used) or a list of names;
        ``bots`` lists seats (0-based) played by the game's ``bot_turn``, or maps seats to a
        bot kind the game knows (``Table.get_bot_kind``). ``simulated``: played by ``arena
        simulate --keep``, left out of what players see (lobby, player pages, ratings).

        Raises:
            NotFoundError: unknown game.
            UserError: wrong player count, unknown option or value, bad mode.
            ConfigError: the game's files are invalid (dbmodel.sql: file, line, statement).
        """
        return self.factory.create_table(game, players, options, seed, mode, bots,
                                         release_version, definition, simulated)

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
        self._after_commit(result.table_id, result.game_over, published, result.last_notification_id)
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
                      published: tuple[list[Packet], dict[str, Any]] | None = None,
                      top: int | None = None) -> None:
        """Wake the table's streams here and in the other processes (``Streams.committed``);
        ``published``: the notifications the commit wrote and the status after it, handed to
        this process's streams in memory; ``top``: the log's last id after it."""
        if game_over:
            self._record_finish(table_id)
        self.streams.committed(table_id, top, published)

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
        """``get_all_datas(player_id)`` plus the framework's keys (BGA's ``gamedatas``).

        Raises:
            GameCodeError: the game's code failed (``get_all_datas``, an ``arg_*``); the
                error is in the table's error log.
        """
        try:
            return self.views.get_data(table_id, player_id, translate)
        except Exception as exc:
            if isinstance(exc, ArenaError) and not isinstance(exc, GameSystemError):
                raise  # the framework's own answer (unknown table, storage down...)
            self.log_error(table_id, player_id, "get_all_datas", exc)
            raise GameCodeError("The game hit an error while reading the table; it is in the "
                                "table's error log", "game_error") from exc

    def events(
        self, table_id: int, player_id: int | None, after: int = 0,
        translate: Translate | None = None, limit: int = 1000,
    ) -> list[dict[str, Any]]:
        """Notifications after packet ``after`` that ``player_id`` may see, in order
        (``Streams.events``).

        Public rows for everyone; private rows only for their player (spectators: none).
        """
        return self.streams.events(self.table_info(table_id).id, player_id, after, translate, limit)

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
