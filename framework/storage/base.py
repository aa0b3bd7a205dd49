"""The interface of a per-table database, implemented by each backend."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from framework.storage.sql.errors import Target as Target  # the backends import it from here
from framework.storage.sql.shapes import SchemaShapes

COPY_PREFIXES = ("zz_replay1_", "zz_replay2_", "zz_replay3_", "zz_savepoint_")
SLOT_PREFIXES = {1: "zz_replay1_", 2: "zz_replay2_", 3: "zz_replay3_"}
SAVEPOINT_PREFIX = "zz_savepoint_"


class DDLNeededError(RuntimeError):
    """An upgrade begun with ``upgrading(ddl=False)`` tried to change the schema; nothing of
    it was kept: run it again with ``ddl=True``."""


@dataclass
class Result:
    """Rows of one statement (as dicts, in column order) and what it changed.

    ``rowcount`` counts the rows an UPDATE matched on every backend (the framework's "update,
    else insert" relies on it). ``affected`` and ``insert_id``, when set, are mysqli's answers
    on BGA (``DbAffectedRow``: rows changed, 2 for a row an upsert or REPLACE replaced;
    ``DbGetLastId``: the first id generated, 0 when none), as a game's ``db_query`` gives them.
    """

    rows: list[dict[str, Any]]
    rowcount: int
    lastrowid: int | None
    affected: int | None = None
    insert_id: int | None = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)


class TableConnection(Protocol):
    """One open connection to one game table's database, inside a transaction (the
    framework numbers the game log itself, ``MAX + 1`` under the table's lock, so its ids
    have no gaps whatever the backend's counters do)."""

    dialect: Target
    table_id: int
    #: The shapes of this database's tables (``framework.storage.table_shapes``), kept until
    #: the next DDL statement on it; None when not read yet.
    schema_shapes: SchemaShapes | None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Run one statement written in this backend's own dialect."""

    def table_names(self) -> list[str]:
        """Every table in this game table's database, sorted."""

    def column_names(self, table: str) -> list[str]:
        """The columns of ``table``, in order."""

    def copy_structure(self, source: str, target: str) -> None:
        """Create ``target`` with the columns of ``source`` (no rows)."""

    def dbapi_connection(self) -> Any:
        """The raw DB-API connection (for Alembic's operations)."""

    def first_rows(self, sql: str) -> list[dict[str, Any]] | None:
        """The rows of ``sql`` when it is the ``first_read`` this transaction was opened
        with and the backend read it with the lock (``TableStore.connect``), once; else None
        (then run it)."""

    def written_elsewhere(self) -> bool | None:
        """Inside a write transaction: whether another connection may have written the
        table since this one last committed (False: surely not), when the backend tells
        without a statement; None when it cannot tell. A hint for what a worker keeps of a
        table (``framework.game.kept``), never the check itself."""


class TableStore(Protocol):
    """Where the game tables' databases live: files, schemas or databases.

    For the event streams of other processes (``framework.live``): ``notify_conninfo`` is
    the libpq connection string of a backend whose own LISTEN/NOTIFY can carry the site's
    bus (None for the others), and ``latest_packets`` with ``poll_interval_s`` is how the
    log poll finds other processes' commits when no bus reaches them.
    """

    dialect: Target
    notify_conninfo: str | None
    poll_interval_s: float

    def latest_packets(self, table_ids: list[int]) -> dict[int, int]:
        """The last gamelog id of each table (0 for an empty log)."""

    def exists(self, table_id: int) -> bool: ...

    def create(self, table_id: int) -> AbstractContextManager[TableConnection]:
        """A new, empty database for ``table_id``, in a transaction: removed on failure."""

    def connect(self, table_id: int, write: bool = True,
                first_read: str | None = None) -> AbstractContextManager[TableConnection]:
        """The table's database in a transaction (locked for writing when ``write``).
        ``first_read``: a SELECT without parameters, in the backend's dialect, that the
        transaction starts with: the servers send it in the lock's round trip (its rows
        from ``first_rows``); SQLite, with no round trips to save, leaves it to the caller."""

    def upgrading(self, table_id: int, ddl: bool = True) -> AbstractContextManager[TableConnection]:
        """A write transaction in which DDL is all-or-nothing too (an upgrade): the store's
        own transaction on SQLite and PostgreSQL; a copy swapped in on success on MariaDB.
        With ``ddl=False`` MariaDB upgrades in place, in an ordinary transaction, and refuses
        DDL: the first DDL statement rolls everything back and ``DDLNeededError`` leaves the
        block, whatever the body did with the error it got."""

    def rehearsal(self, table_id: int) -> AbstractContextManager[TableConnection]:
        """A write transaction on a throw-away copy of the table (or the table itself, always
        rolled back, where DDL is transactional): nothing done in it ever reaches the table."""

    def drop(self, table_id: int) -> None: ...

    def table_ids(self) -> list[int]:
        """Every game table that has a database in this store."""

    def scratch(self, tag: str) -> TableStore:
        """Another store on the same backend, for throw-away tables (``drop_all`` it)."""

    def drop_all(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class AddsColumnsInPlace(Protocol):
    """A store whose DDL is not transactional but which can add columns to the live tables
    all-or-nothing (MariaDB, ``storage/mysql_columns.py``)."""

    def adding_columns(self, table_id: int) -> AbstractContextManager[TableConnection]:
        """A write transaction of an upgrade in place whose only DDL adds columns; anything
        else raises ``DDLNeededError`` with everything undone (then ``upgrading``)."""
