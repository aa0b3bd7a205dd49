"""One action = one transaction on one table: lock, check, act, run game states, commit.

The runtime is the only way in to a game table, for the web, the CLI and the test harness.
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, bindparam, insert, select, update
from sqlalchemy.orm import Session

from framework.core.errors import (
    ArenaError,
    BlockedError,
    GameOverError,
    GameSystemError,
    NotFoundError,
    NotYourTurnError,
    StaleMoveError,
    UserError,
)
from framework.game.actions import bind_action_args
from framework.game.feed import Packet
from framework.game.registry import GameDefinition, GameRegistry
from framework.game.states import END_STATE_ID, SETUP_STATE_ID, State, StateType
from framework.game.table import (
    GLOBAL_ACTIVE_PLAYER,
    GLOBAL_MOVE,
    GLOBAL_PROGRESSION,
    GLOBAL_STATE,
    ActionContext,
    Table,
    utcnow,
)
from framework.i18n import Translate, clienttranslate, clienttranslate_plural, format_message
from framework.live.streams import Streams
from framework.platform.models import (
    GameRecord,
    GameTableRecord,
    Player,
    StatRecord,
    TableErrorRecord,
    TableSeat,
)
from framework.storage.base import (
    COPY_PREFIXES,
    SAVEPOINT_PREFIX,
    SLOT_PREFIXES,
    TableConnection,
    TableStore,
)
from framework.storage.dialect import SQLError, translate_dbmodel

log = logging.getLogger(__name__)

MAX_STATE_STEPS = 10_000


def default_tables_sql() -> str:
    """The framework's own tables (``global``, ``stats``, ``gamelog``, ``player``...), in
    MySQL's dialect like a game's dbmodel.sql."""
    from importlib.resources import files

    return files("framework.storage").joinpath("default_tables.sql").read_text(encoding="utf-8")


class GameCodeError(UserError):
    """Game code raised an unexpected exception: the action was cancelled and logged."""

    http_status = 500


@dataclass(frozen=True)
class TableInfo:
    """What the runtime keeps of a table's registry row (never changes during play)."""

    id: int
    game: str
    mode: str
    release_version: str | None


@dataclass
class ActionResult:
    """What an action changed, for the caller (the web answers with it)."""

    table_id: int
    state: str
    last_notification_id: int
    game_over: bool
    move: int = 0  # the table's move number after the action (send it back as ``seen_move``)
    committed_at: float = 0.0  # time.time() just after the commit (notification latency)


class Runtime:
    """Creates tables and applies actions, each in one transaction on the table's database."""

    def __init__(
        self,
        platform: Engine,
        store: TableStore,
        registry: GameRegistry,
        now: Callable[[], datetime] = utcnow,
        game_loader: Callable[[TableInfo], GameDefinition] | None = None,
        streams: Streams | None = None,
    ) -> None:
        self.platform = platform
        self.store = store
        self.registry = registry
        self.now = now
        self._tables: dict[int, TableInfo] = {}
        self.automatic_turns = 0  # bot and zombie turns played, for simulations
        self._blocked: dict[str, tuple[float, bool]] = {}
        # The event streams of this process's tables, and the bus to the others (live).
        self.streams = streams if streams is not None else Streams(store, now)
        # Production tables load their release's stored code (set by the releases package).
        self.game_loader = game_loader
        # game -> (production version, its definition); set by the site.
        self.production_release: Callable[[str], tuple[str, GameDefinition] | None] | None = None
        # Run before each action (lazy upgrades, blocked tables); set by the site.
        self.before_action: Callable[[TableInfo], TableInfo] | None = None

    # ------------------------------------------------------------------ lookups
    def table_info(self, table_id: int) -> TableInfo:
        info = self._tables.get(table_id)
        if info is not None:
            return info
        with Session(self.platform) as s:
            # An id no database column can hold (the URL's int converter takes any size) is
            # simply no table.
            valid = _is_int(table_id) and 0 < int(table_id) < 2**62
            rec = s.get(GameTableRecord, int(table_id)) if valid else None
            if rec is None or not self.store.exists(rec.id):
                raise NotFoundError("There is no table ${table_id}", "unknown_table", table_id=str(table_id))
            info = TableInfo(rec.id, rec.game, rec.mode, rec.release_version)
        self._tables[info.id] = info
        return info

    def forget_table(self, table_id: int) -> None:
        self._tables.pop(table_id, None)

    def game_for(self, info: TableInfo) -> GameDefinition:
        if info.mode == "production" and self.game_loader is not None:
            return self.game_loader(info)
        return self.registry.get(info.game)

    def is_blocked(self, game: str, max_age: float = 1.0) -> bool:
        cached = self._blocked.get(game)
        now = time.monotonic()
        if cached is not None and now - cached[0] < max_age:
            return cached[1]
        with Session(self.platform) as s:
            rec = s.get(GameRecord, game)
            blocked = bool(rec and rec.blocked)
        self._blocked[game] = (now, blocked)
        return blocked

    def forget_blocked(self, game: str | None = None) -> None:
        if game is None:
            self._blocked.clear()
        else:
            self._blocked.pop(game, None)

    # ------------------------------------------------------------------ players
    def ensure_player(self, name: str, is_test: bool = True) -> int:
        from sqlalchemy.exc import IntegrityError

        for attempt in (1, 2):
            try:
                with Session(self.platform) as s, s.begin():
                    rec = s.scalar(select(Player).where(Player.name == name))
                    if rec is None:
                        rec = Player(name=name, is_test=is_test)
                        s.add(rec)
                        s.flush()
                    return rec.id
            except IntegrityError:
                if attempt == 2:
                    raise
                # another request created the same player at the same moment: read it
        raise AssertionError("unreachable")

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
        if mode not in ("studio", "production"):
            raise UserError("A table is 'studio' or 'production', not ${mode}", "bad_mode", mode=mode)
        if mode == "production" and definition is None:
            self.registry.get(game)  # an unknown game is reported as such
            found = self.production_release(game) if self.production_release else None
            if found is None:
                raise UserError(
                    "No release of ${game} is in production: build and deploy one first",
                    "no_release", game=game,
                )
            release_version, definition = found
        gdef = definition or self.registry.get(game)
        names = [f"player{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        gdef.check_player_count(len(names))
        if len(set(names)) != len(names):
            raise UserError("A player cannot take two seats", "duplicate_player")
        bot_kinds = dict(bots) if isinstance(bots, Mapping) else {seat: "default" for seat in bots}
        for seat in bot_kinds:
            if not isinstance(seat, int) or not 0 <= seat < len(names):
                raise UserError("There is no seat ${seat} for a bot", "bad_seat", seat=seat)
        chosen = gdef.options.resolve(options or {})
        seed_text = str(seed) if seed is not None else secrets.token_hex(8)
        player_ids = [self.ensure_player(n, is_test=(mode == "studio")) for n in names]
        with Session(self.platform) as s, s.begin():
            rec = GameTableRecord(
                game=gdef.name, mode=mode, status="setup", seed=seed_text,
                options={str(k): v for k, v in chosen.items()}, release_version=release_version,
                progression=0, blocked=False,
            )
            s.add(rec)
            s.flush()
            table_id = rec.id
            for no, pid in enumerate(player_ids):
                s.add(TableSeat(table_id=table_id, player_id=pid, player_no=no + 1, is_bot=no in bots))
        try:
            with self.store.create(table_id) as db:
                self._create_schema(gdef, db)
                table = gdef.table_class(ActionContext(db=db, now=self.now))
                self._setup(table, gdef, names, player_ids, chosen, seed_text, bot_kinds, release_version)
                self._settle(table, gdef)
        except BaseException as exc:
            with Session(self.platform) as s, s.begin():
                s.query(TableSeat).filter_by(table_id=table_id).delete()
                s.query(GameTableRecord).filter_by(id=table_id).delete()
            if isinstance(exc, ArenaError):
                raise
            if isinstance(exc, Exception):
                tb = traceback.format_exc()
                log.error("setup of %s failed:\n%s", gdef.name, tb)
                raise GameSystemError(f"setup of {gdef.name} failed: {exc!r}") from exc
            raise
        with Session(self.platform) as s, s.begin():
            rec2 = s.get(GameTableRecord, table_id)
            assert rec2 is not None
            rec2.status = "finished" if table.gamestate.is_game_over() else "playing"
        if table.gamestate.is_game_over():
            self._record_finish(table_id)
        return table_id

    def _create_schema(self, gdef: GameDefinition, db: TableConnection) -> None:
        for sql in _translated(default_tables_sql(), db.dialect, "default_tables.sql", frozenset()):
            db.execute(sql)
        if gdef.dbmodel.strip():
            try:
                statements = _translated(gdef.dbmodel, db.dialect, f"games/{gdef.name}/dbmodel.sql", None)
            except SQLError as exc:
                from framework.core.errors import ConfigError

                raise ConfigError(f"game {gdef.name!r}: {exc}") from exc
            for sql in statements:
                try:
                    db.execute(sql)
                except Exception as exc:
                    from framework.core.errors import ConfigError

                    raise ConfigError(
                        f"game {gdef.name!r}: games/{gdef.name}/dbmodel.sql: the database refused "
                        f"{sql.splitlines()[0][:120]!r}: {exc}"
                    ) from exc
        self.create_copies(db)

    @staticmethod
    def live_tables(db: TableConnection) -> list[str]:
        return [t for t in db.table_names() if not t.startswith(COPY_PREFIXES)]

    def create_copies(self, db: TableConnection) -> None:
        """Every live table gets its ``zz_replayN_`` and ``zz_savepoint_`` copies."""
        existing = set(db.table_names())
        for name in self.live_tables(db):
            for prefix in COPY_PREFIXES:
                if prefix + name not in existing:
                    db.copy_structure(name, prefix + name)

    def _setup(
        self, table: Table, gdef: GameDefinition, names: list[str], player_ids: list[int],
        options: Mapping[int, int], seed: str, bots: Mapping[int, str], release: str | None,
    ) -> None:
        colors = gdef.info.player_colors
        for no, (pid, name) in enumerate(zip(player_ids, names, strict=True)):
            table.db_query(
                "INSERT INTO player (player_id, player_no, player_name, player_color, player_ai, "
                "player_remaining_reflexion_time) VALUES (%s, %s, %s, %s, %s, %s)",
                (pid, no + 1, name, colors[no % len(colors)], 1 if no in bots else 0,
                 gdef.info.reflexion_time_s),
            )
        for gid in (GLOBAL_STATE, GLOBAL_ACTIVE_PLAYER, GLOBAL_MOVE, GLOBAL_PROGRESSION):
            table.db_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)",
                           (gid, SETUP_STATE_ID if gid == GLOBAL_STATE else 0))
        for oid, value in options.items():
            table.db_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)", (oid, value))
        table._set_meta("seed", seed)
        table._set_meta("game", gdef.name)
        for seat, kind in bots.items():
            table._set_meta(f"bot:{player_ids[seat]}", str(kind))
        if release:
            table._set_meta("release", release)
        table.gamestate.change_active_player(player_ids[0])
        infos = table.load_players_basic_infos()
        table.setup_new_game(infos, dict(options))
        table._ctx.entered_states.clear()
        setup = gdef.states[SETUP_STATE_ID]
        target = setup.transitions.get("", next(iter(setup.transitions.values())))
        table.gamestate.jump_to_state(target)

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
        info = self.table_info(table_id)
        gdef = self.game_for(info)
        if info.mode == "production" and self.is_blocked(info.game):
            raise BlockedError(
                "${game} is being updated; your move was not sent. Try again in a minute.",
                "game_blocked", game=gdef.info.display_name,
            )
        if self.before_action is not None:
            info = self.before_action(info)
            gdef = self.game_for(info)
        try:
            with self.store.connect(info.id) as db:
                ctx = ActionContext(db=db, current_player_id=player_id, now=self.now)
                table = gdef.table_class(ctx)
                state = table.gamestate.state()
                if state.id == END_STATE_ID:
                    raise GameOverError("This game is over", "game_over")
                if seen_move is not None:
                    self._check_fresh(table, player_id, seen_move)
                method = getattr(table, f"act_{action}", None) if _is_name(action) else None
                declared = isinstance(action, str) and action in gdef.states.all_actions
                if method is None or not declared:
                    raise NotFoundError("Unknown action ${action}", "unknown_action", action=str(action)[:64])
                if action not in state.possible_actions:
                    raise UserError(
                        "You cannot ${action} now: the game is waiting for ${state}",
                        "not_allowed_in_state", action=action, state=state.name,
                    )
                if player_id not in table._player_rows():
                    raise NotYourTurnError("You are not playing at this table", "not_a_player")
                active = table.gamestate.get_active_player_list()
                if player_id not in active:
                    raise NotYourTurnError("It is not your turn", "not_your_turn")
                ctx.active_at_start = frozenset(active)
                kwargs = bind_action_args(action, method, args or {})
                self._begin_move(table)
                try:
                    method(**kwargs)
                    self._settle(table, gdef)
                except ArenaError:
                    raise
                except Exception as exc:
                    self.log_error(info.id, player_id, action, exc)
                    raise GameCodeError(
                        "The game hit an error and your move was cancelled; it is in the "
                        "table's error log", "game_error",
                    ) from exc
                if seen_move is not None:
                    table._set_meta(f"acted:{player_id}", str(seen_move))
                result = ActionResult(
                    info.id, table.gamestate.state().name, self._last_packet(table),
                    table.gamestate.is_game_over(), int(table._read_global(GLOBAL_MOVE) or 0),
                )
                # for the streams of the table in this process (its feed): only when one takes them
                published = (ctx.packets, table._status()) \
                    if ctx.packets and self.streams.wants_packets(info.id) else None
        except GameSystemError as exc:
            self.log_error(info.id, player_id, action, exc)
            raise GameCodeError(
                "The game hit an error and your move was cancelled; it is in the table's error log",
                "game_error",
            ) from exc
        result.committed_at = time.time()
        self._after_commit(info.id, result.game_over, published, result.last_notification_id)
        return result

    @staticmethod
    def _check_fresh(table: Table, player_id: int, seen_move: int) -> None:
        """Refuse a second action of ``player_id`` sent from the same view of the table."""
        current = int(table._read_global(GLOBAL_MOVE) or 0)
        if not 0 <= seen_move <= current:
            raise UserError("Move ${move} does not exist at this table", "bad_move", move=seen_move)
        last = table._meta(f"acted:{player_id}")
        if last is not None and seen_move <= int(last):
            raise StaleMoveError(
                "This move was already sent; the table has moved on since", "stale_move")

    def _begin_move(self, table: Table) -> None:
        table.inc_game_state_value(GLOBAL_MOVE)

    def _settle(self, table: Table, gdef: GameDefinition) -> None:
        """Run entered states' actions and ``game`` states until a player must act, play
        zombies' and bots' turns, then bookkeeping (clocks, progression, undo)."""
        ctx = table._ctx
        steps = 0
        while True:
            self._run_entered_states(table, gdef)
            state = table.gamestate.state()
            if state.id == END_STATE_ID or not state.is_player_state:
                break
            turn = self._automatic_player(table, state)
            if turn is None:
                break
            pid, kind = turn
            steps += 1
            self.automatic_turns += 1
            if steps > MAX_STATE_STEPS:
                raise GameSystemError(f"zombie/bot turns never end in state {state.name!r}")
            saved = ctx.current_player_id
            ctx.current_player_id = None
            try:
                if kind == "bot" and hasattr(table, "bot_turn"):
                    table.bot_turn(state, pid)
                else:
                    table.zombie_turn(state, pid)
            finally:
                ctx.current_player_id = saved
            if not ctx.entered_states and table.gamestate.state().id == state.id and (
                pid in table.gamestate.get_active_player_list()
                and state.state_type is StateType.ACTIVE_PLAYER
            ):
                raise GameSystemError(
                    f"{kind} turn of player {pid} in state {state.name!r} did not move the game on"
                )
        state = table.gamestate.state()
        if state.update_game_progression or state.id == END_STATE_ID:
            progression = 100 if state.id == END_STATE_ID else int(table.get_game_progression())
            table._write_global(GLOBAL_PROGRESSION, max(0, min(100, progression)))
        table._update_clocks()
        if ctx.restore_requested:
            # The move counter and the moves each player acted from go on from where they
            # are (the undo is a move too): they are what makes each view act once.
            move = int(table._read_global(GLOBAL_MOVE) or 0)
            acted = table.db_query("SELECT meta_key, meta_value FROM arena_meta WHERE meta_key LIKE %s",
                                   ("acted:%",)).rows
            self._copy_tables(ctx.db, SAVEPOINT_PREFIX, to_copy=False, skip=("gamelog",))
            table._globals = table._players = None  # the restored rows, not the cached ones
            table._write_global(GLOBAL_MOVE, move)
            for row in acted:
                table._set_meta(str(row["meta_key"]), str(row["meta_value"]))
            ctx.restore_requested = False
            table.notify_all_players("undoRestore", "")
        if ctx.savepoint_requested:
            self._copy_tables(ctx.db, SAVEPOINT_PREFIX, to_copy=True, skip=("gamelog",))
            ctx.savepoint_requested = False

    def _automatic_player(self, table: Table, state: State) -> tuple[int, str] | None:
        active = table.gamestate.get_active_player_list()
        if not active:
            return None
        flags = table._player_rows()
        for pid in active:
            if int(flags[pid]["player_zombie"]):
                return pid, "zombie"
        for pid in active:
            if int(flags[pid]["player_ai"]):
                return pid, "bot"
        return None

    def _run_entered_states(self, table: Table, gdef: GameDefinition) -> None:
        ctx = table._ctx
        steps = 0
        while ctx.entered_states:
            steps += 1
            if steps > MAX_STATE_STEPS:
                raise GameSystemError("game states loop without ever waiting for a player")
            sid = ctx.entered_states.pop(0)
            state = gdef.states[sid]
            if ctx.entered_states:
                continue  # a later transition in the same step supersedes this one
            if sid == END_STATE_ID:
                self._notify_state(table, state)
                self._finish(table, gdef)
                return
            if state.action:
                getattr(table, state.action)()
            if ctx.entered_states:
                if state.is_player_state:
                    self._notify_state(table, state)
                continue
            if state.state_type is StateType.GAME:
                raise GameSystemError(
                    f"game state {state.name!r}: {state.action} did not call next_state/jump_to_state"
                )
            self._notify_state(table, state)

    def _notify_state(self, table: Table, state: State) -> None:
        args = table._state_args(state)
        private = args.pop("_private", None) if isinstance(args, dict) else None
        table.notify_all_players("gameStateChange", "", {
            "id": state.id, "name": state.name, "type": state.state_type.value,
            "active_player": table.get_active_player_id(),
            "multiactive": table.gamestate.get_active_player_list()
            if state.state_type is StateType.MULTIPLE_ACTIVE_PLAYER else [],
            "args": args,
        })
        if private:
            for key, data in private.items():
                pid = table.get_active_player_id() if key == "active" else int(key)
                table.notify_player(
                    pid, "gameStateChangePrivateArg", "", {"state_id": state.id, "args": data}
                )

    def _finish(self, table: Table, gdef: GameDefinition) -> None:
        table._write_global(GLOBAL_PROGRESSION, 100)
        table.db_query("UPDATE player SET player_is_multiactive = 0")

    def _last_packet(self, table: Table) -> int:
        if table._ctx.last_packet_id is not None:
            return table._ctx.last_packet_id
        value = table.get_unique_value_from_db("SELECT MAX(gamelog_packet_id) FROM gamelog")
        return int(value or 0)

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
        with self.store.connect(table_id, write=False) as db:
            return self._ranking(db)

    @staticmethod
    def _ranking(db: TableConnection) -> list[dict[str, Any]]:
        rows = db.execute(
            "SELECT player_id, player_name, player_score, player_score_aux, player_eliminated "
            "FROM player ORDER BY player_no"
        ).rows
        ordered = sorted(
            rows, key=lambda r: (int(r["player_eliminated"]), -int(r["player_score"]),
                                 -int(r["player_score_aux"]))
        )
        out: list[dict[str, Any]] = []
        for i, r in enumerate(ordered):
            key = (int(r["player_eliminated"]), int(r["player_score"]), int(r["player_score_aux"]))
            if out and out[-1]["_key"] == key:
                rank = out[-1]["rank"]
            else:
                rank = i + 1
            out.append({"player_id": int(r["player_id"]), "player_name": r["player_name"],
                        "score": int(r["player_score"]), "score_aux": int(r["player_score_aux"]),
                        "rank": rank, "_key": key})
        for r in out:
            del r["_key"]
        return out

    def _record_finish(self, table_id: int) -> None:
        """The registry row, the seats' ranks and every statistic of a finished table, in one
        platform transaction of three statements (once only: a second call changes nothing)."""
        info = self.table_info(table_id)
        gdef = self.game_for(info)
        with self.store.connect(table_id, write=False) as db:
            ranking = self._ranking(db)
            stats = db.execute("SELECT stats_type, stats_player_id, stats_value FROM stats").rows
        with self.platform.begin() as conn:
            marked = conn.execute(
                update(GameTableRecord)
                .where(GameTableRecord.id == table_id, GameTableRecord.status != "finished")
                .values(status="finished", finished_at=self.now(), progression=100, state_name="gameEnd")
            )
            if marked.rowcount == 0:
                return  # no such table, or already recorded
            if ranking:
                conn.execute(
                    update(TableSeat)
                    .where(TableSeat.table_id == table_id, TableSeat.player_id == bindparam("b_player"))
                    .values(rank=bindparam("b_rank"), score=bindparam("b_score"),
                            score_aux=bindparam("b_aux")),
                    [{"b_player": r["player_id"], "b_rank": r["rank"], "b_score": r["score"],
                      "b_aux": r["score_aux"]} for r in ranking],
                )
            if stats:
                recorded = self.now()
                conn.execute(insert(StatRecord), [{
                    "table_id": table_id, "game": gdef.name,
                    "scope": "table" if st["stats_player_id"] is None else "player",
                    "stat_id": int(st["stats_type"]),
                    "player_id": None if st["stats_player_id"] is None else int(st["stats_player_id"]),
                    "value": float(st["stats_value"]), "release_version": info.release_version,
                    "recorded_at": recorded,
                } for st in stats])

    # ------------------------------------------------------------------ errors
    def log_error(self, table_id: int, player_id: int | None, action: str | None, exc: BaseException) -> None:
        tb = "".join(traceback.format_exception(exc))
        log.error("table %s, action %s: %s", table_id, action, tb)
        with Session(self.platform) as s, s.begin():
            s.add(TableErrorRecord(table_id=table_id, player_id=player_id, action=action,
                                   message=str(exc)[:2000], traceback=tb))

    def errors(self, table_id: int) -> list[dict[str, Any]]:
        with Session(self.platform) as s:
            recs = s.scalars(select(TableErrorRecord).where(TableErrorRecord.table_id == table_id)
                             .order_by(TableErrorRecord.id)).all()
            return [{"id": r.id, "player_id": r.player_id, "action": r.action, "message": r.message,
                     "traceback": r.traceback, "created_at": r.created_at.isoformat()} for r in recs]

    # ------------------------------------------------------------------ reading
    @contextmanager
    def read(self, table_id: int, player_id: int | None = None) -> Iterator[Table]:
        """A table instance in a read-only transaction (for views and tests)."""
        info = self.table_info(table_id)
        gdef = self.game_for(info)
        with self.store.connect(info.id, write=False) as db:
            yield gdef.table_class(ActionContext(db=db, current_player_id=player_id, now=self.now))

    def get_data(
        self, table_id: int, player_id: int | None, translate: Translate | None = None
    ) -> dict[str, Any]:
        """``get_all_datas(player_id)`` plus the framework's keys (BGA's ``gamedatas``)."""
        with self.read(table_id, player_id) as table:
            players = table.db_query(
                "SELECT player_id, player_name, player_color, player_no, player_score, "
                "player_score_aux, player_zombie, player_eliminated, player_ai, "
                "player_is_multiactive FROM player ORDER BY player_no"
            ).rows
            if player_id is not None and player_id not in {int(p["player_id"]) for p in players}:
                player_id = None  # a spectator
                table._ctx.current_player_id = None
            data = table.get_all_datas(player_id)
            state = table.gamestate.state()
            args = table._state_args(state)
            private = args.pop("_private", None) or {}
            active = table.get_active_player_id()
            mine = None
            if player_id is not None:
                mine = private.get(str(player_id), private.get(player_id))
                if mine is None and player_id == active:
                    mine = private.get("active")
            clocks = {int(p["player_id"]): round(table.get_remaining_time(int(p["player_id"])))
                      for p in players}
            data.update({
                "players": {
                    str(p["player_id"]): {
                        "id": int(p["player_id"]), "name": p["player_name"],
                        "color": p["player_color"], "no": int(p["player_no"]),
                        "score": int(p["player_score"]), "score_aux": int(p["player_score_aux"]),
                        "zombie": int(p["player_zombie"]), "eliminated": int(p["player_eliminated"]),
                        "bot": int(p["player_ai"]), "time_left": clocks[int(p["player_id"])],
                    } for p in players
                },
                "playerorder": [int(p["player_id"]) for p in players],
                "current_player_id": player_id,
                "gamestate": {
                    "id": state.id, "name": state.name, "type": state.state_type.value,
                    "active_player": active,
                    "multiactive": table.gamestate.get_active_player_list(),
                    "args": {**args, **({"_private": mine} if mine is not None else {})},
                    "description": _describe(state.description, args, table, active, translate),
                    "descriptionmyturn": _describe(state.description_my_turn, args, table, active, translate),
                },
                "gamestates": {str(s.id): s.to_json() for s in table.definition.states},
                "progression": int(table._read_global(GLOBAL_PROGRESSION) or 0),
                "notifications": {"last_packet_id": self._last_packet(table)},
                "move": int(table._read_global(GLOBAL_MOVE) or 0),
                "game": table.definition.name,
                "table_id": table_id,
            })
            return data

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
        info = self.table_info(table_id)
        gdef = self.game_for(info)
        with self.store.connect(info.id) as db:
            table = gdef.table_class(ActionContext(db=db, current_player_id=requester_id, now=self.now))
            if table.gamestate.is_game_over():
                raise GameOverError("This game is over", "game_over")
            players = table.load_players_basic_infos()
            if requester_id not in players or players[requester_id]["player_zombie"]:
                raise NotYourTurnError("Only a player of this table can do that", "not_a_player")
            if target_id not in players or target_id == requester_id:
                raise UserError("There is no such opponent at this table", "bad_player")
            if players[target_id]["player_zombie"]:
                raise UserError("${player_name} has already left", "already_zombie",
                                player_name=players[target_id]["player_name"])
            if target_id not in table.gamestate.get_active_player_list():
                raise UserError("${player_name} is not the one the game is waiting for",
                                "not_active", player_name=players[target_id]["player_name"])
            left = table.get_remaining_time(target_id)
            if left > 0:
                raise UserError(
                    clienttranslate_plural("${player_name} still has ${seconds} second to play",
                                           "${player_name} still has ${seconds} seconds to play",
                                           "seconds"),
                    "still_has_time", player_name=players[target_id]["player_name"],
                    seconds=int(left),
                )
            self._begin_move(table)
            self._make_zombie(table, gdef, target_id,
                              clienttranslate("${player_name} ran out of time and was expelled"))
        self._after_commit(info.id, self.is_over(info.id))

    def leave(self, table_id: int, player_id: int) -> None:
        """A player quits: their seat is played by ``zombie_turn`` from now on."""
        info = self.table_info(table_id)
        gdef = self.game_for(info)
        with self.store.connect(info.id) as db:
            table = gdef.table_class(ActionContext(db=db, current_player_id=player_id, now=self.now))
            if table.gamestate.is_game_over():
                raise GameOverError("This game is over", "game_over")
            if player_id not in table.load_players_basic_infos():
                raise NotYourTurnError("You are not playing at this table", "not_a_player")
            self._begin_move(table)
            self._make_zombie(table, gdef, player_id, clienttranslate("${player_name} left the game"))
        self._after_commit(info.id, self.is_over(info.id))

    def _make_zombie(self, table: Table, gdef: GameDefinition, player_id: int, log_msg: str) -> None:
        table.db_query("UPDATE player SET player_zombie = 1 WHERE player_id = %s", (player_id,))
        table.notify_all_players("playerLeft", log_msg, player_id=player_id,
                                 player_name=table.get_player_name_by_id(player_id))
        self._settle(table, gdef)

    def is_over(self, table_id: int) -> bool:
        """The table's game has reached its end state."""
        with self.read(table_id) as table:
            return table.gamestate.is_game_over()

    def give_extra_time(self, table_id: int, player_id: int) -> None:
        info = self.table_info(table_id)
        with self.store.connect(info.id) as db:
            table = self.game_for(info).table_class(ActionContext(db=db, now=self.now))
            table.give_extra_time(player_id)

    # ------------------------------------------------------------------ studio slots
    def _copy_tables(self, db: TableConnection, prefix: str, to_copy: bool, skip: Sequence[str] = ()) -> None:
        for name in self.live_tables(db):
            if name in skip:
                continue
            src, dst = (name, prefix + name) if to_copy else (prefix + name, name)
            cols = ", ".join(_q(c, db.dialect) for c in db.column_names(name))
            db.execute(f"DELETE FROM {_q(dst, db.dialect)}")
            db.execute(f"INSERT INTO {_q(dst, db.dialect)} ({cols}) SELECT {cols} FROM {_q(src, db.dialect)}")

    def save_slot(self, table_id: int, slot: int) -> None:
        """Studio: save the whole table to slot 1..3."""
        prefix = self._slot_prefix(slot)
        with self.store.connect(self.table_info(table_id).id) as db:
            self._copy_tables(db, prefix, to_copy=True)
            db.execute(translate_meta_upsert(db.dialect), (f"slot{slot}", self.now().isoformat()))

    def load_slot(self, table_id: int, slot: int) -> None:
        """Studio: put the table back as it was saved in slot 1..3."""
        prefix = self._slot_prefix(slot)
        info = self.table_info(table_id)
        with self.store.connect(info.id) as db:
            saved = db.execute(
                "SELECT COUNT(*) AS n FROM " + _q(prefix + "player", db.dialect)
            ).rows[0]["n"]
            if not saved:
                raise UserError("Slot ${slot} is empty", "empty_slot", slot=slot)
            self._copy_tables(db, prefix, to_copy=False)
        with Session(self.platform) as s, s.begin():
            rec = s.get(GameTableRecord, info.id)
            if rec is not None and rec.status == "finished":
                rec.status = "playing"
                rec.finished_at = None
        self.changed(info.id)

    @staticmethod
    def _slot_prefix(slot: int) -> str:
        if slot not in SLOT_PREFIXES:
            raise UserError("Save slots are 1, 2 and 3, not ${slot}", "bad_slot", slot=slot)
        return SLOT_PREFIXES[slot]


@functools.lru_cache(maxsize=64)
def _translated(text: str, dialect: str, filename: str, reserved: frozenset[str] | None) -> tuple[str, ...]:
    """A dbmodel's statements for ``dialect``, translated once per process (sqlglot costs
    tens of milliseconds for a whole file; every new table needs them)."""
    if reserved is None:
        return tuple(translate_dbmodel(text, dialect, filename))  # type: ignore[arg-type]
    return tuple(translate_dbmodel(text, dialect, filename, reserved=reserved))  # type: ignore[arg-type]


def translate_meta_upsert(dialect: str) -> str:
    if dialect == "sqlite":
        return "INSERT OR REPLACE INTO arena_meta (meta_key, meta_value) VALUES (?, ?)"
    if dialect == "postgresql":
        return ("INSERT INTO arena_meta (meta_key, meta_value) VALUES (%s, %s) "
                "ON CONFLICT (meta_key) DO UPDATE SET meta_value = excluded.meta_value")
    return "REPLACE INTO arena_meta (meta_key, meta_value) VALUES (%s, %s)"


def _q(name: str, dialect: str) -> str:
    return f"`{name}`" if dialect == "mysql" else f'"{name}"'


def _is_int(value: Any) -> bool:
    try:
        int(value)
        return not isinstance(value, bool)
    except (TypeError, ValueError):
        return False


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and value.isidentifier() and not value.startswith("_")


def _describe(
    text: str, args: Mapping[str, Any], table: Table, active: int, translate: Translate | None
) -> str:
    if not text:
        return ""
    values = dict(args)
    if active:
        try:
            values.setdefault("actplayer", table.get_player_name_by_id(active))
        except KeyError:
            pass
    values.setdefault("you", (translate or (lambda s: s))(clienttranslate("You")))
    return format_message(text, values, translate, strict=False)
