"""BGA's database helpers of ``Table`` (``DbQuery``, ``getCollectionFromDB``...): SQL in MySQL's
dialect with ``%s`` parameters, translated for the table's backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framework.core.errors import GameSystemError
from framework.game.table_context import ActionContext
from framework.storage.base import Result, TableConnection
from framework.storage.game_statements import run_game_statement
from framework.storage.sql.game_statement import StatementKind, translate_game_statement
from framework.storage.sql.translate import translate_query
from framework.storage.sql.writes import analyse_writes
from framework.storage.table_shapes import shapes_of

# Columns of ``player`` that the players helpers cache for the request.
CACHED_PLAYER_COLUMNS = (
    "player_id", "player_name", "player_color", "player_no", "player_zombie",
    "player_eliminated", "player_ai", "player_is_multiactive",
    "player_remaining_reflexion_time", "player_start_reflexion_time",
)
# Kept apart: a game writes scores often, and only the event streams' status reads them.
SCORE_COLUMNS = ("player_score", "player_score_aux")

#: The ``arena_meta`` key naming the release whose schema the table's database was last
#: made or checked to have (``framework.releases.upgrade``), tables and copies alike. Any
#: DDL a game sends deletes it first, so it only ever names a schema that still holds; it
#: starts with ``release`` so that restoring a copy's rows (undo, save slots) keeps the
#: live value (``framework.engine.copies.KEPT_META``).
SCHEMA_STAMP_KEY = "release_schema"
_FORGET_STAMP = f"DELETE FROM arena_meta WHERE meta_key = '{SCHEMA_STAMP_KEY}'"


def _check_params(helper: str, params: Any, flag: str | None) -> None:
    """``params`` are SQL parameters, never BGA's positional flag (``getCollectionFromDB($sql,
    true)``): a bool there is refused with the keyword to use instead.

    Raises:
        GameSystemError: ``params`` is a bool, or not a sequence of parameters.
    """
    if type(params) in (tuple, list):  # the usual case, decided without the ABC check below
        return
    if isinstance(params, bool):
        hint = f"pass {flag}={params} by keyword" if flag else "this helper takes no flag"
        raise GameSystemError(
            f"{helper}(sql, {params}): the second argument is the SQL parameters (a tuple for "
            f"the %s marks), not BGA's flag; {hint}"
        )
    if isinstance(params, str | bytes) or not isinstance(params, Sequence):
        raise GameSystemError(
            f"{helper}: the SQL parameters must be a tuple or a list, not {type(params).__name__}"
        )


class TableDatabase:
    """The table's own database, one transaction per request, with the request's caches of
    the ``global`` and ``player`` rows (a statement that may change either drops it)."""

    def __init__(self, ctx: ActionContext) -> None:
        self._ctx = ctx
        self._db: TableConnection = ctx.db
        # Per-request caches of the global and player tables; a statement of the game's
        # that writes either table drops the matching cache.
        self._globals: dict[int, int | None] | None = None
        self._players: dict[int, dict[str, Any]] | None = None
        # Each player's clock (remaining seconds, start of the running turn as stored),
        # read with the players' rows.
        self._clocks: dict[int, tuple[Any, Any]] = {}
        # Each player's score and score_aux, read with the players' rows.
        self._scores: dict[int, tuple[int, int]] | None = None
        # Globals set in this request, written back at its end (``flush_writes``).
        self._pending_globals: dict[int, int] = {}
        # The write token of the kept state this request started from without reading the
        # table (``framework.game.kept``): its first write of the globals checks it.
        self._unchecked_token: int | None = None
        self._stale: bool | None = None  # what the check found (None: not made yet)
        # Notifications of this request (their rows, ids given), written at its end.
        self._pending_log: list[tuple[Any, ...]] = []
        # ``arena_meta`` values read or written in this request (None: no such key).
        self._metas: dict[str, str | None] = {}
        #: The game's own state derived from its rows (a replayed hand, its rules...): kept
        #: by the worker for the table's next action while no one else writes the table
        #: (``framework.game.kept``); a game keeps it in step with the rows it writes.
        self.kept: dict[str, Any] = {}

    @property
    def context(self) -> ActionContext:
        """The request this table serves (``framework.engine`` reads what it collected)."""
        return self._ctx

    def forget_cached_rows(self) -> None:
        """Drop the request's caches of ``global``, ``player`` and ``arena_meta`` and the
        game's kept state (their rows were replaced behind the table's back, e.g. by an undo
        restore)."""
        self._globals = self._players = self._scores = None
        self._metas.clear()
        self.kept.clear()

    def db_query(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Run one statement written in MySQL's dialect (``%s`` for parameters), translated
        with what the table's schema says (``docs/sql.md``): upserts on its keys, ``RAND()``
        seeded from the table's random source, MySQL's answers in ``affected`` and
        ``insert_id``."""
        _check_params("db_query", params, None)
        if (self._pending_globals or self._pending_log) and "global" in sql.lower() \
                or self._pending_log and "gamelog" in sql.lower():
            self.flush_writes()  # the statement may read or write them
        writes = analyse_writes(sql)
        if writes is not None:
            if writes.may_change("global"):
                self._globals = None
            if writes.may_change("player", CACHED_PLAYER_COLUMNS):
                self._players = None
            if self._scores is not None and writes.may_change("player", SCORE_COLUMNS):
                self._scores = None
            if self._metas and writes.may_change("arena_meta"):
                self._metas.clear()
        statement = translate_game_statement(sql, self._db.dialect, shapes_of(self._db))
        if statement.kind == StatementKind.DDL:
            # Before the DDL: MariaDB commits the transaction at once for it.
            self._db.execute(_FORGET_STAMP)
            self._metas.pop(SCHEMA_STAMP_KEY, None)
        return run_game_statement(self._db, statement, params, self.sql_random_seed)

    def update_matched_rows(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one of the framework's own UPDATEs (the deck's, the statistics') and return the
        rows it matched, their "is the row there" test. Unlike ``db_query`` it does not count
        the rows changed as mysqli would (on SQLite a second statement, on PostgreSQL a
        self-join): those UPDATEs run on every move and never report that count."""
        _check_params("update_matched_rows", params, None)
        writes = analyse_writes(sql)
        if writes is not None and writes.may_change("player", CACHED_PLAYER_COLUMNS):
            self._players = None
        if writes is not None and writes.may_change("player", SCORE_COLUMNS):
            self._scores = None
        return self._db.execute(translate_query(sql, self._db.dialect), params).rowcount

    def flush_writes(self) -> None:
        """Write what the request keeps for later (``TableValues`` keeps the globals)."""

    def sql_random_seed(self) -> int:
        """The seed of a statement's ``RAND()`` calls: from the table's random source
        (``Table`` overrides this with its per-move ``random``), so a table replays.

        Raises:
            GameSystemError: this database helper has no random source.
        """
        raise GameSystemError("RAND() needs the table's random source (use it from a Table)")

    def db_get_last_id(self, result: Result) -> int:
        """The id the INSERT of ``result`` generated, as mysqli gives it on BGA
        (``DbGetLastId``): the first one of a multi-row INSERT, the id of the row an upsert
        updated, 0 when none (an ignored row, a table without AUTO_INCREMENT)."""
        if result.insert_id is not None:
            return result.insert_id
        return int(result.lastrowid or 0)

    def db_affected_row(self, result: Result) -> int:
        """The rows the statement of ``result`` affected, as mysqli counts them on BGA
        (``DbAffectedRow``): 2 for a row an upsert or REPLACE replaced, 0 for an ignored or
        unchanged one (see docs/sql.md for the backends that count an UPDATE's matched rows)."""
        return result.affected if result.affected is not None else result.rowcount

    @staticmethod
    def escape_string_for_db(text: str) -> str:
        """``text`` with its quotes and backslashes escaped for a MySQL string literal.

        Prefer ``%s`` parameters, which need no escaping; this exists for SQL a game builds
        as text (BGA's ``escapeStringForDB``).

        >>> TableDatabase.escape_string_for_db("it's")
        "it\\\\'s"
        """
        if not isinstance(text, str):
            raise GameSystemError(f"escape_string_for_db: expected a str, not {type(text).__name__}")
        out = text.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"')
        return out.replace("\0", "\\0").replace("\n", "\\n").replace("\r", "\\r").replace("\x1a", "\\Z")

    def get_object_list_from_db(
        self, sql: str, params: Sequence[Any] = (), *, single_column: bool = False
    ) -> list[Any]:
        """Every row (``single_column``: the first column's values), in order."""
        _check_params("get_object_list_from_db", params, "single_column")
        rows = self.db_query(sql, params).rows
        if single_column:
            return [next(iter(r.values())) for r in rows]
        return rows

    def get_object_from_db(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        """The one row the query returns, or None.

        Raises:
            GameSystemError: the query returned more than one row.
        """
        _check_params("get_object_from_db", params, None)
        rows = self.db_query(sql, params).rows
        if len(rows) > 1:
            raise GameSystemError(f"get_object_from_db: {len(rows)} rows for {sql!r}")
        return rows[0] if rows else None

    def get_non_empty_object_from_db(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any]:
        """The one row the query returns.

        Raises:
            GameSystemError: no row, or more than one.
        """
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
        self, sql: str, params: Sequence[Any] = (), *, single: bool = False
    ) -> dict[Any, Any]:
        """Rows keyed by their first column (``single``: first column -> second column).

        Raises:
            GameSystemError: two rows share a key (BGA silently keeps the last one), or a
                flag was passed where the SQL parameters go.
        """
        _check_params("get_collection_from_db", params, "single")
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

    def get_non_empty_collection_from_db(
        self, sql: str, params: Sequence[Any] = (), *, single: bool = False
    ) -> dict[Any, Any]:
        """``get_collection_from_db``, never empty.

        Raises:
            GameSystemError: the query returned no row.
        """
        _check_params("get_non_empty_collection_from_db", params, "single")
        out = self.get_collection_from_db(sql, params, single=single)
        if not out:
            raise GameSystemError(f"get_non_empty_collection_from_db: no row for {sql!r}")
        return out

    def get_double_key_collection_from_db(
        self, sql: str, params: Sequence[Any] = (), *, single: bool = False
    ) -> dict[Any, dict[Any, Any]]:
        """Rows keyed by their first then second column (``single``: the third column)."""
        _check_params("get_double_key_collection_from_db", params, "single")
        out: dict[Any, dict[Any, Any]] = {}
        for row in self.db_query(sql, params).rows:
            values = list(row.values())
            out.setdefault(values[0], {})[values[1]] = values[2] if single else row
        return out

    def apply_db_upgrade_to_all_db(self, sql: str) -> None:
        """Change the schema of the live tables during a release upgrade; the replay and undo
        copies follow once ``upgrade_table_db`` returns (BGA's ``applyDbUpgradeToAllDB``;
        ``DBPREFIX_`` before a table name, as BGA writes it, is dropped).

        Raises:
            GameSystemError: called outside ``upgrade_table_db`` (a move never changes the
                schema).
        """
        migrate = getattr(self, "migrate", None)
        if migrate is None:
            raise GameSystemError(
                "apply_db_upgrade_to_all_db: only inside upgrade_table_db (a release upgrade "
                "changes the schema of every copy; a move must not)"
            )
        statement = sql.replace("DBPREFIX_", "")
        self.db_query(statement)
        migrate.changed.append(f"apply_db_upgrade_to_all_db: {statement.strip()[:120]}")
