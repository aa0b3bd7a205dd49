"""BGA's game state values of ``Table``: integer globals by label (10..89), the table's
options (100..199), and Arena's ``arena_meta`` values (seed, release, bots...)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from framework.core.errors import GameSystemError
from framework.game.globals import (
    GAME_GLOBAL_MAX,
    GAME_GLOBAL_MIN,
    GLOBAL_MOVE,
    GLOBAL_WRITE_TOKEN,
    OPTION_GLOBAL_MAX,
    OPTION_GLOBAL_MIN,
)
from framework.game.kept import KeptState, StaleKeptState, new_token
from framework.game.table_context import ActionContext
from framework.game.table_database import TableDatabase
from framework.storage.sql.errors import Target
from framework.storage.sql.translate import translate_query
from framework.storage.sql.upserts import guarded_upsert_sql, keyed_upsert_sql

if TYPE_CHECKING:
    from framework.game.definition_protocol import GameDefinitionProtocol


#: The ``global`` rows and, as row 0, the log's last id (the framework numbers an action's
#: notifications itself: ``TableNotifications._notify``): one read per request, which the
#: engine asks the store to send with the table's lock (``TableStore.connect``'s ``first_read``).
GLOBALS_READ = ("SELECT global_id, global_value FROM global UNION ALL "
                "SELECT 0, MAX(gamelog_packet_id) FROM gamelog")


@functools.lru_cache(maxsize=4)
def globals_read(dialect: Target) -> str:
    """``GLOBALS_READ`` in ``dialect``."""
    return translate_query(GLOBALS_READ, dialect)


class TableValues(TableDatabase):
    """Globals by label, options, and the table's meta values."""

    definition: ClassVar[GameDefinitionProtocol]
    #: label -> global id (10..89) of the game's own globals; options are added by key.
    GLOBALS: ClassVar[Mapping[str, int]] = {}
    #: label -> the value an upgrade gives a global that is new in a release to tables in
    #: progress (default 0); set it in ``upgrade_table_db`` when the part already played
    #: should have made it something else (docs/releases.md).
    GLOBAL_DEFAULTS: ClassVar[Mapping[str, int]] = {}

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx)
        self._labels: dict[str, int] = dict(_class_labels(type(self)))

    def init_game_state_labels(self, labels: Mapping[str, int]) -> None:
        """Give globals their labels (BGA's ``initGameStateLabels``); ``GLOBALS`` does it for
        the whole class."""
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

    def _load_globals(self) -> dict[int, int | None]:
        sql = globals_read(self._db.dialect)
        rows = self._db.first_rows(sql)  # read with the table's lock, on the servers
        if rows is None:
            rows = self._db.execute(sql).rows
        values: dict[int, int | None] = {}
        for r in rows:
            gid = int(r["global_id"])
            value = None if r["global_value"] is None else int(r["global_value"])
            if gid == 0:
                if self._ctx.last_packet_id is None:
                    self._ctx.last_packet_id = value or 0
            else:
                values[gid] = value
        values.update(self._pending_globals)  # set in this request, not written yet
        self._globals = values
        return values

    def _write_global(self, gid: int, value: int) -> None:
        """Write global ``gid``; in a request that defers its writes (an action:
        ``ActionContext.defer_writes``), kept and written back with the others at its end
        (``flush_writes``), or before a statement of the game's that names them."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameSystemError(f"globals hold integers; got {value!r} for global {gid}")
        self._pending_globals[gid] = value
        if self._globals is not None:
            self._globals[gid] = value
        if not self._ctx.defer_writes:
            self.flush_writes()

    def flush_writes(self) -> None:
        """Write what the request keeps for later (the globals it set) in one statement;
        the engine calls it before the commit.

        Raises:
            StaleKeptState: the request started from a kept state, and the write found that
                the table is no longer the one it was kept from (nothing was kept written).
        """
        pending = self._pending_globals
        if not pending:
            return
        expected = self._unchecked_token
        if expected is not None:  # a new token, last: the write shows whether the check held
            pending.pop(GLOBAL_WRITE_TOKEN, None)
            pending[GLOBAL_WRITE_TOKEN] = token = new_token()
            if self._globals is not None:
                self._globals[GLOBAL_WRITE_TOKEN] = token
        params: list[Any] = []
        for gid, value in pending.items():
            params += (gid, value)
        dialect = self._db.dialect
        if expected is None:
            self._db.execute(keyed_upsert_sql("global", "global_id", ("global_value",), len(pending),
                                              dialect), params)
        else:
            rows = self._db.execute(guarded_upsert_sql("global", "global_id", "global_value",
                                                       len(pending), dialect),
                                    [*params, GLOBAL_WRITE_TOKEN, expected]).rows
            written = any(int(r["global_id"]) == GLOBAL_WRITE_TOKEN and r["global_value"] is not None
                          and int(r["global_value"]) == token for r in rows)
            if not written:
                self._stale = True
                raise StaleKeptState(f"the table's write token is not {expected}")
            self._unchecked_token, self._stale = None, False
        pending.clear()

    def kept_was_stale(self) -> bool:
        """Whether this request started from a kept state that was not the table's (read
        once, when the request failed before its write checked it). True when the check
        itself fails: playing the request again from the rows is always right."""
        if self._stale is None:
            if self._unchecked_token is None:
                return False
            try:
                token = self._db.execute(translate_query(
                    "SELECT global_value FROM global WHERE global_id = %s", self._db.dialect),
                    (GLOBAL_WRITE_TOKEN,)).rows
            except Exception:
                self._stale = True
            else:
                self._stale = not token or token[0]["global_value"] is None \
                    or int(token[0]["global_value"]) != self._unchecked_token
        return self._stale

    def _read_global(self, gid: int) -> int | None:
        values = self._globals
        if values is None:
            values = self._load_globals()
        return values.get(gid)

    def meta(self, key: str) -> str | None:
        """The table's ``arena_meta`` value for ``key`` (seed, game, release, bot kinds...)."""
        metas = self._metas
        if key in metas:
            return metas[key]
        value = self.get_unique_value_from_db(
            "SELECT meta_value FROM arena_meta WHERE meta_key = %s", (key,)
        )
        metas[key] = None if value is None else str(value)
        return metas[key]

    def set_meta(self, key: str, value: str) -> None:
        """Write the table's ``arena_meta`` value for ``key``."""
        self._db.execute(keyed_upsert_sql("arena_meta", "meta_key", ("meta_value",), 1, self._db.dialect),
                         (key, value))
        self._metas[key] = value

    def delete_meta(self, key: str) -> None:
        """Remove the table's ``arena_meta`` value for ``key`` (if any)."""
        self.db_query("DELETE FROM arena_meta WHERE meta_key = %s", (key,))
        self._metas[key] = None

    # ------------------------------------------------------------------ kept between actions
    def touch(self) -> None:
        """Give the table a new write token: a worker's kept state of it is stale from now on
        (``framework.game.kept``). Every action does it; so must every other write."""
        self._write_global(GLOBAL_WRITE_TOKEN, new_token())

    def keep(self, release: str | None, definition: object) -> KeptState:
        """What the next action of this worker may reuse, as this request leaves the table
        (after ``touch`` and ``flush_writes``)."""
        written = self._globals is not None and not self._pending_globals
        return KeptState(
            token=int(self._read_global(GLOBAL_WRITE_TOKEN) or 0),
            move=int(self._read_global(GLOBAL_MOVE) or 0),
            release=release, definition=definition,
            players=self._players, clocks=self._clocks, scores=self._scores, metas=self._metas,
            game=self.kept,
            globals=dict(self._globals) if written and self._globals is not None else None,
            last_packet_id=self._ctx.last_packet_id if written else None,
        )

    def adopt(self, kept: KeptState | None, release: str | None, definition: object) -> bool:
        """Take ``kept`` over: at once when it holds the ``global`` rows and the connection
        says no one else wrote the table since this worker's last commit (the request's
        first write of the globals checks it all the same: ``flush_writes``), else when its
        token and move are the ones the ``global`` rows hold now; whether it was taken."""
        if kept is None or not kept.same_code(release, definition):
            return False
        elsewhere = self._db.written_elsewhere()
        if elsewhere:
            return False  # another worker's action: this copy is behind
        if elsewhere is False and kept.globals is not None and self._globals is None \
                and not self._pending_globals:
            self._globals = dict(kept.globals)
            self._ctx.last_packet_id = kept.last_packet_id
            self._unchecked_token, self._stale = kept.token, None
        elif not kept.matches(self._read_global(GLOBAL_WRITE_TOKEN), self._read_global(GLOBAL_MOVE)):
            return False
        if kept.players is not None:
            self._players, self._clocks, self._scores = kept.players, kept.clocks, kept.scores
        self._metas, self.kept = kept.metas, kept.game
        return True

    def metas_like(self, prefix: str) -> dict[str, str]:
        """Every ``arena_meta`` value whose key starts with ``prefix``, by key."""
        rows = self.db_query(
            "SELECT meta_key, meta_value FROM arena_meta WHERE meta_key LIKE %s", (prefix + "%",)
        ).rows
        return {str(r["meta_key"]): str(r["meta_value"]) for r in rows}


def _class_labels(cls: type[TableValues]) -> dict[str, int]:
    """Option keys and the class's ``GLOBALS``: label -> id (computed once per class)."""
    definition = cls.definition
    cached: Any = cls.__dict__.get("_label_cache")
    if cached is None or cached[0] is not definition:
        labels = {opt.key: opt.id for opt in definition.options.options.values()}
        labels.update(cls.GLOBALS)
        cached = (definition, labels)
        cls._label_cache = cached  # type: ignore[attr-defined]
    result: dict[str, int] = cached[1]
    return result
