"""The API a game sees: BGA's ``Table`` class, in snake_case Python.

One instance serves one request inside one transaction on the table's own database;
nothing survives in memory between requests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from framework.core.clock import to_datetime, utcnow
from framework.core.errors import GameSystemError, NotYourTurnError, UserError
from framework.game.feed import Packet, time_text
from framework.game.gamestate import GameStateMachine
from framework.game.globals import (
    GAME_GLOBAL_MAX,
    GAME_GLOBAL_MIN,
    GLOBAL_ACTIVE_PLAYER,
    GLOBAL_MOVE,
    GLOBAL_PROGRESSION,
    OPTION_GLOBAL_MAX,
    OPTION_GLOBAL_MIN,
)
from framework.game.modern.services import ModernServices
from framework.game.states import State
from framework.game.stats import Stat
from framework.i18n import (
    MessageFormatError,
    check_message_args,
    format_message,
    with_plural_args,
)
from framework.storage.base import Result, TableConnection
from framework.storage.sql.translate import translate_query, translate_statements
from framework.storage.sql.writes import analyse_writes

if TYPE_CHECKING:
    from framework.game.registry import GameDefinition


TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"


@dataclass
class ActionContext:
    """What the runtime hands to a Table for one request."""

    db: TableConnection
    current_player_id: int | None = None
    now: Callable[[], datetime] = utcnow
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
            self._now_text = self.now().strftime(TIME_FORMAT)
        return self._now_text


class Table(ModernServices):
    """Base class of a game's table (BGA's ``Table``). Subclass it in ``games/<g>/game.py``.

    Hooks to override: ``setup_new_game``, ``get_all_datas``, ``get_game_progression``,
    ``zombie_turn``, ``upgrade_table_db``. State actions are ``st_*``, state args ``arg_*``,
    player actions ``act_*`` (wired by name from ``possible_actions``, arguments typed).
    """

    definition: ClassVar[GameDefinition]
    #: During ``upgrade_table_db`` only: schema operations applied to every copy too
    #: (``framework.releases.migrate.TableMigrator``); None otherwise.
    migrate: Any = None
    #: label -> global id (10..89) of the game's own globals; options are added by key.
    GLOBALS: ClassVar[Mapping[str, int]] = {}

    def __init__(self, ctx: ActionContext) -> None:
        self._ctx = ctx
        self._db = ctx.db
        self._labels: dict[str, int] = dict(_class_labels(type(self)))
        self._random: random.Random | None = None
        # Per-request caches of the global and player tables; a statement of the game's
        # that writes either table drops the matching cache.
        self._globals: dict[int, int | None] | None = None
        self._players: dict[int, dict[str, Any]] | None = None
        self.gamestate = GameStateMachine(self)

    # ----------------------------------------------------------------- for the runtime
    @property
    def context(self) -> ActionContext:
        """The request this table serves (``framework.engine`` reads what it collected)."""
        return self._ctx

    def forget_cached_rows(self) -> None:
        """Drop the request's caches of ``global`` and ``player`` (their rows were replaced
        behind the table's back, e.g. by an undo restore)."""
        self._globals = self._players = None

    # ----------------------------------------------------------------- hooks for games
    def setup_new_game(self, players: Mapping[int, Mapping[str, Any]], options: Mapping[int, int]) -> Any:
        """Called once, when the table is created; players are already in ``player``.

        May return the first state (a state class, an id or a name; BGA's ``return
        PlayerTurn::class``); None follows state 1's transition."""

    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        """Everything ``player_id`` may see (None: a spectator). Never another's hidden cards."""
        return {}

    def get_game_progression(self) -> int:
        """0..100."""
        return 0

    def zombie_turn(self, state: State, active_player: int) -> None:
        """Play for a player who left: must make the game move on."""
        raise GameSystemError(
            f"{type(self).__name__} does not implement zombie_turn (state {state.name!r})"
        )

    def upgrade_table_db(self, from_version: int) -> None:
        """Bring a table created by an older release up to this one's schema."""

    # ----------------------------------------------------------------- SQL helpers
    def db_query(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Run one statement written in MySQL's dialect (``%s`` for parameters)."""
        writes = analyse_writes(sql)
        if writes is not None:
            if writes.may_change("global"):
                self._globals = None
            if writes.may_change("player", _CACHED_PLAYER_COLUMNS):
                self._players = None
            if writes.is_ddl:
                # DDL can take several statements on the target (SQLite: one ADD each).
                result = Result([], 0, None)
                for statement in translate_statements(sql, self._db.dialect):
                    result = self._db.execute(statement, params)
                return result
        return self._db.execute(translate_query(sql, self._db.dialect), params)

    def db_get_last_id(self, result: Result) -> int | None:
        return result.lastrowid

    def db_affected_row(self, result: Result) -> int:
        return result.rowcount

    def get_object_list_from_db(
        self, sql: str, params: Sequence[Any] = (), single_column: bool = False
    ) -> list[Any]:
        rows = self.db_query(sql, params).rows
        if single_column:
            return [next(iter(r.values())) for r in rows]
        return rows

    def get_object_from_db(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """The one row the query returns, or None.

        Raises:
            GameSystemError: the query returned more than one row.
        """
        rows = self.db_query(sql, params).rows
        if len(rows) > 1:
            raise GameSystemError(f"get_object_from_db: {len(rows)} rows for {sql!r}")
        return rows[0] if rows else None

    def get_non_empty_object_from_db(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any]:
        row = self.get_object_from_db(sql, params)
        if row is None:
            raise GameSystemError(f"get_non_empty_object_from_db: no row for {sql!r}")
        return row

    def get_unique_value_from_db(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the one row returned, or None when no row.

        Raises:
            GameSystemError: more than one row.
        """
        row = self.get_object_from_db(sql, params)
        return None if row is None else next(iter(row.values()))

    def get_collection_from_db(
        self, sql: str, params: Sequence[Any] = (), single: bool = False
    ) -> dict[Any, Any]:
        """Rows keyed by their first column.

        Raises:
            GameSystemError: two rows share a key (BGA silently keeps the last one).
        """
        out: dict[Any, Any] = {}
        for row in self.db_query(sql, params).rows:
            values = list(row.values())
            key = values[0]
            if key in out:
                raise GameSystemError(
                    f"get_collection_from_db: key {key!r} appears twice in {sql!r}"
                )
            out[key] = values[1] if single else row
        return out

    def get_double_key_collection_from_db(
        self, sql: str, params: Sequence[Any] = (), single: bool = False
    ) -> dict[Any, dict[Any, Any]]:
        out: dict[Any, dict[Any, Any]] = {}
        for row in self.db_query(sql, params).rows:
            values = list(row.values())
            out.setdefault(values[0], {})[values[1]] = values[2] if single else row
        return out

    # ----------------------------------------------------------------- globals
    def init_game_state_labels(self, labels: Mapping[str, int]) -> None:
        for label, gid in labels.items():
            if not GAME_GLOBAL_MIN <= gid <= GAME_GLOBAL_MAX and not (
                OPTION_GLOBAL_MIN <= gid <= OPTION_GLOBAL_MAX
            ):
                raise GameSystemError(
                    f"global {label!r}: ids are 10..89 (game) or 100..199 (options), not {gid}"
                )
            self._labels[label] = gid

    def _global_id(self, label: str | int) -> int:
        if isinstance(label, int):
            return label
        try:
            return self._labels[label]
        except KeyError:
            raise GameSystemError(
                f"unknown global {label!r}: declare it in GLOBALS or init_game_state_labels"
            ) from None

    def set_game_state_initial_value(self, label: str | int, value: int) -> None:
        self._write_global(self._global_id(label), value)

    def get_game_state_value(self, label: str | int, default: int | None = None) -> int | None:
        value = self._read_global(label if type(label) is int else self._global_id(label))
        return default if value is None else value

    def _load_globals(self) -> dict[int, int | None]:
        dialect = self._db.dialect
        if not self._db.ids_may_gap:
            sql = "SELECT global_id, global_value FROM global"
        else:
            # The servers number notifications themselves (MAX + 1 under the table's lock,
            # ``_notify``): the log's last id comes in the same round trip, as row 0.
            sql = ("SELECT global_id, global_value FROM global UNION ALL "
                   "SELECT 0, MAX(gamelog_packet_id) FROM gamelog")
        values: dict[int, int | None] = {}
        for r in self._db.execute(translate_query(sql, dialect)).rows:
            gid = int(r["global_id"])
            value = None if r["global_value"] is None else int(r["global_value"])
            if gid == 0:
                if self._ctx.last_packet_id is None:
                    self._ctx.last_packet_id = value or 0
            else:
                values[gid] = value
        self._globals = values
        return values

    def set_game_state_value(self, label: str | int, value: int) -> None:
        self._write_global(self._global_id(label), value)

    def inc_game_state_value(self, label: str | int, delta: int = 1) -> int:
        gid = self._global_id(label)
        value = (self.get_game_state_value(gid) or 0) + delta
        self._write_global(gid, value)
        return value

    def get_option(self, key: str | int) -> int:
        """A game option's value for this table."""
        value = self.get_game_state_value(key)
        if value is None:
            opt = self.definition.options.by_key.get(str(key)) or self.definition.options.options.get(
                key if isinstance(key, int) else -1
            )
            if opt is None:
                raise GameSystemError(f"unknown option {key!r}")
            return opt.default
        return value

    def _write_global(self, gid: int, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameSystemError(f"globals hold integers; got {value!r} for global {gid}")
        res = self._db.execute(
            translate_query("UPDATE global SET global_value = %s WHERE global_id = %s", self._db.dialect),
            (value, gid),
        )
        if res.rowcount == 0:
            self._db.execute(
                translate_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)",
                                self._db.dialect), (gid, value),
            )
        if self._globals is not None:
            self._globals[gid] = value

    def _read_global(self, gid: int) -> int | None:
        values = self._globals
        if values is None:
            values = self._load_globals()
        return values.get(gid)

    # ----------------------------------------------------------------- statistics
    def init_stat(
        self, scope: str, key: str, value: float | int | bool, player_id: int | None = None
    ) -> None:
        """Create a statistic; player scope without ``player_id`` initialises every player."""
        stat = self.definition.stats.get(scope, key)
        stored = stat.coerce(value)
        if scope == "table":
            targets: list[int | None] = [None]
        else:
            targets = [player_id] if player_id is not None else list(self.load_players_basic_infos())
        for pid in targets:
            self.db_query(
                "DELETE FROM stats WHERE stats_type = %s AND stats_player_id "
                + ("IS NULL" if pid is None else "= %s"),
                (stat.id,) if pid is None else (stat.id, pid),
            )
            self.db_query(
                "INSERT INTO stats (stats_type, stats_player_id, stats_value) VALUES (%s, %s, %s)",
                (stat.id, pid, stored),
            )

    def _stat_row(self, key: str, player_id: int | None) -> tuple[Stat, dict[str, Any]]:
        stat = self._stat(key, player_id)
        if player_id is None:
            row = self.get_object_from_db(
                "SELECT stats_id, stats_value FROM stats WHERE stats_type = %s "
                "AND stats_player_id IS NULL", (stat.id,),
            )
        else:
            row = self.get_object_from_db(
                "SELECT stats_id, stats_value FROM stats WHERE stats_type = %s "
                "AND stats_player_id = %s", (stat.id, player_id),
            )
        if row is None:
            who = "" if player_id is None else f" for player {player_id}"
            raise GameSystemError(f"statistic {key!r}{who} was never initialised (init_stat)")
        return stat, row

    def _stat(self, key: str, player_id: int | None) -> Stat:
        return self.definition.stats.get("table" if player_id is None else "player", key)

    def _update_stat(self, stat: Stat, player_id: int | None, assignment: str, value: float) -> None:
        """One UPDATE of the statistic's row (no read first: this runs on every move)."""
        if player_id is None:
            res = self.db_query(
                f"UPDATE stats SET stats_value = {assignment} WHERE stats_type = %s "
                "AND stats_player_id IS NULL", (value, stat.id),
            )
        else:
            res = self.db_query(
                f"UPDATE stats SET stats_value = {assignment} WHERE stats_type = %s "
                "AND stats_player_id = %s", (value, stat.id, player_id),
            )
        if res.rowcount == 0:
            who = "" if player_id is None else f" for player {player_id}"
            raise GameSystemError(f"statistic {stat.key!r}{who} was never initialised (init_stat)")

    def set_stat(self, value: float | int | bool, key: str, player_id: int | None = None) -> None:
        stat = self._stat(key, player_id)
        self._update_stat(stat, player_id, "%s", stat.coerce(value))

    def inc_stat(self, delta: float | int, key: str, player_id: int | None = None) -> None:
        stat = self._stat(key, player_id)
        if stat.type == "bool":
            raise GameSystemError(f"statistic {key!r} is a bool: use set_stat")
        self._update_stat(stat, player_id, "stats_value + %s", stat.coerce(delta))

    def get_stat(self, key: str, player_id: int | None = None) -> float | int | bool:
        stat, row = self._stat_row(key, player_id)
        value: float | int | bool = stat.to_python(float(row["stats_value"]))
        return value

    # ----------------------------------------------------------------- players
    def load_players_basic_infos(self) -> dict[int, dict[str, Any]]:
        """player_id -> id, name, color, no, zombie, eliminated (ordered by player_no)."""
        return {pid: dict(p) for pid, p in self._player_rows().items()}

    def _player_rows(self) -> dict[int, dict[str, Any]]:
        if self._players is None:
            rows = self.db_query(
                "SELECT player_id, player_name, player_color, player_no, player_zombie, "
                "player_eliminated, player_ai, player_is_multiactive FROM player ORDER BY player_no"
            ).rows
            self._players = {
                int(r["player_id"]): {
                    "player_id": int(r["player_id"]),
                    "player_name": r["player_name"],
                    "player_color": r["player_color"],
                    "player_no": int(r["player_no"]),
                    "player_zombie": int(r["player_zombie"]),
                    "player_eliminated": int(r["player_eliminated"]),
                    "player_ai": int(r["player_ai"]),
                    "player_is_multiactive": int(r["player_is_multiactive"]),
                }
                for r in rows
            }
        return self._players

    def get_players_number(self) -> int:
        return int(self.get_unique_value_from_db("SELECT COUNT(*) FROM player"))

    def get_current_player_id(self) -> int:
        """The player who sent this request.

        Raises:
            GameSystemError: no player sent it (a game state, a zombie turn, setup).
        """
        if self._ctx.current_player_id is None:
            raise GameSystemError(
                "get_current_player_id: no current player here (game state, zombie turn or setup)"
            )
        return self._ctx.current_player_id

    def get_current_player_name(self) -> str:
        return str(self.load_players_basic_infos()[self.get_current_player_id()]["player_name"])

    def get_active_player_id(self) -> int:
        return int(self._read_global(GLOBAL_ACTIVE_PLAYER) or 0)

    def get_active_player_name(self) -> str:
        return str(self.load_players_basic_infos()[self.get_active_player_id()]["player_name"])

    def get_player_name_by_id(self, player_id: int) -> str:
        return str(self._player_rows()[player_id]["player_name"])

    def create_next_player_table(self, player_ids: Sequence[int], loop: bool = True) -> dict[int, int]:
        table: dict[int, int] = {}
        ids = list(player_ids)
        for i, pid in enumerate(ids[:-1]):
            table[pid] = ids[i + 1]
        if ids:
            if loop:
                table[ids[-1]] = ids[0]
            table[0] = ids[0]
        return table

    def _seating(self, include_out: bool = False) -> list[int]:
        infos = self._player_rows()
        return [
            pid for pid, p in infos.items()
            if include_out or not p["player_eliminated"]
        ]

    def get_next_player_table(self) -> dict[int, int]:
        """player -> next player in player_no order (key 0: the first player)."""
        return self.create_next_player_table(self._seating(include_out=True))

    def get_prev_player_table(self) -> dict[int, int]:
        return self.create_next_player_table(list(reversed(self._seating(include_out=True))))

    def get_player_after(self, player_id: int) -> int:
        """The next player still in the game after ``player_id`` (eliminated ones skipped)."""
        return self._next_in_game(self._seating(include_out=True), player_id)

    def get_player_before(self, player_id: int) -> int:
        return self._next_in_game(list(reversed(self._seating(include_out=True))), player_id)

    def _next_in_game(self, order: list[int], player_id: int) -> int:
        """The first player after ``player_id`` in ``order`` (round the table) who is not
        eliminated; ``player_id`` when nobody else is left."""
        infos = self._player_rows()
        i = order.index(player_id)
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if not infos[candidate]["player_eliminated"]:
                return candidate
        return player_id

    def active_next_player(self) -> int:
        """Make the next player active (game states only) and return them."""
        nxt = self.get_player_after(self.get_active_player_id() or self._seating()[0])
        self.gamestate.change_active_player(nxt)
        return nxt

    def active_prev_player(self) -> int:
        prev = self.get_player_before(self.get_active_player_id() or self._seating()[0])
        self.gamestate.change_active_player(prev)
        return prev

    def get_bot_kind(self, player_id: int) -> str | None:
        """The kind of bot playing ``player_id`` (None: a person)."""
        if not self._player_rows()[player_id]["player_ai"]:
            return None
        return self.meta(f"bot:{player_id}") or "default"

    def is_zombie(self, player_id: int) -> bool:
        return bool(self._player_rows()[player_id]["player_zombie"])

    def eliminate_player(self, player_id: int) -> None:
        """Take a player out of the game (they keep their score and rank last)."""
        self.db_query("UPDATE player SET player_eliminated = 1, player_is_multiactive = 0 "
                      "WHERE player_id = %s", (player_id,))
        self.notify_all_players(
            "playerEliminated", "${player_name} is eliminated",
            player_id=player_id, player_name=self.get_player_name_by_id(player_id),
        )

    # ----------------------------------------------------------------- scores
    def set_player_score(self, player_id: int, score: int, score_aux: int | None = None) -> None:
        if score_aux is None:
            self.db_query("UPDATE player SET player_score = %s WHERE player_id = %s", (score, player_id))
        else:
            self.db_query(
                "UPDATE player SET player_score = %s, player_score_aux = %s WHERE player_id = %s",
                (score, score_aux, player_id),
            )

    def get_player_scores(self) -> dict[int, tuple[int, int]]:
        rows = self.db_query("SELECT player_id, player_score, player_score_aux FROM player").rows
        return {int(r["player_id"]): (int(r["player_score"]), int(r["player_score_aux"])) for r in rows}

    # ----------------------------------------------------------------- clocks
    def give_extra_time(self, player_id: int, seconds: int | None = None) -> None:
        """Add the game's extra time (or ``seconds``) to a player's clock."""
        extra = self.definition.info.extra_time_s if seconds is None else seconds
        self.db_query(
            "UPDATE player SET player_remaining_reflexion_time = "
            "COALESCE(player_remaining_reflexion_time, 0) + %s WHERE player_id = %s",
            (int(extra), player_id),
        )

    def get_remaining_time(self, player_id: int) -> float:
        """Seconds left on ``player_id``'s clock now (negative when out of time)."""
        row = self.get_non_empty_object_from_db(
            "SELECT player_remaining_reflexion_time, player_start_reflexion_time FROM player "
            "WHERE player_id = %s", (player_id,),
        )
        return self._remaining(row, self._ctx.now())

    @staticmethod
    def _remaining(row: Mapping[str, Any], now: datetime) -> float:
        remaining = float(row["player_remaining_reflexion_time"] or 0)
        started = to_datetime(row["player_start_reflexion_time"])
        if started is not None:
            remaining -= (now - started).total_seconds()
        return remaining

    def stream_status(self) -> dict[str, Any]:
        """What the event stream adds after each batch: progression, and each player's score,
        score_aux and seconds left on the clock (one statement)."""
        return table_status(self._db, self._ctx.now())

    def update_clocks(self) -> None:
        """Run the clocks of active players, stop the others' (after every request)."""
        active = set(self.gamestate.get_active_player_list())
        if self._ctx.active_at_start is not None and active == self._ctx.active_at_start:
            return  # the same clocks keep running
        now = self._ctx.now()
        rows = self.db_query(
            "SELECT player_id, player_remaining_reflexion_time, player_start_reflexion_time FROM player"
        ).rows
        for r in rows:
            pid = int(r["player_id"])
            started = to_datetime(r["player_start_reflexion_time"])
            if pid in active and started is None:
                self.db_query(
                    "UPDATE player SET player_start_reflexion_time = %s WHERE player_id = %s",
                    (now.strftime(TIME_FORMAT), pid),
                )
            elif pid not in active and started is not None:
                used = (now - started).total_seconds()
                remaining = float(r["player_remaining_reflexion_time"] or 0) - used
                self.db_query(
                    "UPDATE player SET player_start_reflexion_time = NULL, "
                    "player_remaining_reflexion_time = %s WHERE player_id = %s",
                    (int(round(remaining)), pid),
                )

    # ----------------------------------------------------------------- randomness
    @property
    def random(self) -> random.Random:
        """This request's random source, seeded from the table's recorded seed and move.

        Never use the global ``random``: a table must replay identically from its seed.
        """
        if self._random is None:
            seed = self.meta("seed") or "0"
            move = self._read_global(GLOBAL_MOVE) or 0
            self._random = random.Random(f"{seed}:{move}")
        return self._random

    def bga_rand(self, low: int, high: int) -> int:
        """A random integer in ``low..high`` inclusive (BGA's ``bga_rand``)."""
        return self.random.randint(low, high)

    def meta(self, key: str) -> str | None:
        """The table's ``arena_meta`` value for ``key`` (seed, game, release, bot kinds...)."""
        value = self.get_unique_value_from_db(
            "SELECT meta_value FROM arena_meta WHERE meta_key = %s", (key,)
        )
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        """Write the table's ``arena_meta`` value for ``key``."""
        res = self.db_query("UPDATE arena_meta SET meta_value = %s WHERE meta_key = %s", (value, key))
        if res.rowcount == 0:
            self.db_query("INSERT INTO arena_meta (meta_key, meta_value) VALUES (%s, %s)", (key, value))

    # ----------------------------------------------------------------- notifications
    def notify_all_players(
        self, notif_type: str, log: str, args: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> None:
        """A public notification: every player and spectator receives it, in their language."""
        self._notify(None, notif_type, log, {**(args or {}), **kwargs})

    def notify_player(
        self, player_id: int, notif_type: str, log: str, args: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """A private notification: only ``player_id`` receives it."""
        self._notify(int(player_id), notif_type, log, {**(args or {}), **kwargs})

    def _notify(self, player_id: int | None, notif_type: str, log: str, args: dict[str, Any]) -> None:
        try:
            if log:
                format_message(log, args)  # every placeholder filled, nested logs too
            else:
                check_message_args(log, args)  # i18n and plural args of an empty log
        except MessageFormatError as exc:
            raise GameSystemError(f"notification {notif_type!r}: {exc}") from None
        args = with_plural_args(log, args)  # a plural log keeps its plural form (framework.i18n)
        try:
            payload = json.dumps(args, separators=(",", ":"), default=_json_default)
        except TypeError as exc:
            raise GameSystemError(f"notification {notif_type!r}: args are not JSON: {exc}") from None
        stamp = time_text(self._ctx.now_text())  # to the second, stored alike by every backend
        move = int(self._read_global(GLOBAL_MOVE) or 0)
        if self._db.ids_may_gap:
            # Ids without gaps on the servers, whose sequences never give back the numbers of a
            # rolled-back action; the table's write lock makes MAX + 1 safe.
            if self._ctx.last_packet_id is None:
                self._ctx.last_packet_id = int(self.get_unique_value_from_db(
                    "SELECT MAX(gamelog_packet_id) FROM gamelog") or 0)
            packet_id = self._ctx.last_packet_id + 1
            self.db_query(
                "INSERT INTO gamelog (gamelog_packet_id, gamelog_move_id, gamelog_private, "
                "gamelog_player, gamelog_time, gamelog_type, gamelog_log, gamelog_args) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (packet_id, move, 0 if player_id is None else 1, player_id, stamp, notif_type, log, payload),
            )
        else:
            res = self.db_query(
                "INSERT INTO gamelog (gamelog_move_id, gamelog_private, gamelog_player, gamelog_time, "
                "gamelog_type, gamelog_log, gamelog_args) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (move, 0 if player_id is None else 1, player_id, stamp, notif_type, log, payload),
            )
            packet_id = int(res.lastrowid or 0)
        self._ctx.last_packet_id = packet_id
        self._ctx.packets.append(Packet(packet_id, move, player_id is not None,
                                        None if player_id is None else int(player_id),
                                        stamp, notif_type, log, payload))

    # ----------------------------------------------------------------- undo
    def undo_savepoint(self) -> None:
        """Keep the table as it is at the end of this request as the undo point."""
        self._ctx.savepoint_requested = True

    def undo_restore_point(self) -> None:
        """Go back to the undo point at the end of this request (this request's changes are lost)."""
        self._ctx.restore_requested = True

    # ----------------------------------------------------------------- actions
    def check_action(self, action: str, can_be_zombie: bool = False) -> None:
        """The current state allows ``action`` and the current player is active.

        Raises:
            UserError: the action is not allowed now, or it is not this player's turn.
        """
        state = self.gamestate.state()
        if action not in state.possible_actions:
            raise UserError(
                "This move is not allowed now (${action} in state ${state})",
                "not_allowed_in_state", action=action, state=state.name,
            )
        pid = self._ctx.current_player_id
        if pid is None:
            return
        if pid not in self.gamestate.get_active_player_list():
            raise NotYourTurnError("It is not your turn", "not_your_turn")

    def is_player_active(self, player_id: int) -> bool:
        return player_id in self.gamestate.get_active_player_list()

    def state_args(self, state: State) -> dict[str, Any]:
        """The ``arg_*`` of ``state`` (private parts under ``_private``), checked to be a dict."""
        if not state.args:
            return {}
        result = getattr(self, state.args)()
        if result is None:
            return {}
        if not isinstance(result, dict):
            raise GameSystemError(f"{state.args} must return a dict, not {type(result).__name__}")
        return result


# Columns of ``player`` that ``Table._player_rows`` caches for the request.
_CACHED_PLAYER_COLUMNS = (
    "player_id", "player_name", "player_color", "player_no", "player_zombie",
    "player_eliminated", "player_ai", "player_is_multiactive",
)


def _class_labels(cls: type[Table]) -> dict[str, int]:
    """Option keys and the class's ``GLOBALS``: label -> id (computed once per class)."""
    definition = cls.definition
    cached = cls.__dict__.get("_label_cache")
    if cached is None or cached[0] is not definition:
        labels = {opt.key: opt.id for opt in definition.options.options.values()}
        labels.update(cls.GLOBALS)
        cached = (definition, labels)
        cls._label_cache = cached  # type: ignore[attr-defined]
    return cached[1]


def _json_default(value: Any) -> Any:
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


_STATUS_SQL = (
    "SELECT player_id, player_score, player_score_aux, player_remaining_reflexion_time, "
    "player_start_reflexion_time, (SELECT global_value FROM global WHERE global_id = %s) "
    "AS progression FROM player"
)


def table_status(db: TableConnection, now: datetime) -> dict[str, Any]:
    """A table's status as event streams send it (``Table._status``), read with ``db``."""
    rows = db.execute(translate_query(_STATUS_SQL, db.dialect), (GLOBAL_PROGRESSION,)).rows
    return {
        "progression": int(rows[0]["progression"] or 0) if rows else 0,
        "scores": {
            str(r["player_id"]): {
                "score": int(r["player_score"]), "score_aux": int(r["player_score_aux"]),
                "time_left": round(Table._remaining(r, now)),
            } for r in rows
        },
    }
