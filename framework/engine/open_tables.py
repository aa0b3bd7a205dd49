"""Production tables that wait in the lobby for their players, and start once full.

Each change of an open table is one platform transaction that first writes the row
(``UPDATE ... SET id = id``: a row lock on PostgreSQL and MariaDB, the database's write lock
on SQLite) and then reads it with ``SELECT ... FOR UPDATE`` (the latest committed row, even
under MariaDB's repeatable read). A join that takes the last seat claims the table in the
same transaction (``STARTING``), so of any number of players joining at once exactly as many
as there are seats sit, each learns whether they did, and only the one who filled the table
starts it; ``Runtime.create_table`` then runs in its own transactions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from framework.core.errors import NotFoundError, UserError
from framework.core.kinds import TableMode
from framework.platform.models import OpenTable

#: ``open_tables.table_id`` while one request creates the table (its real id once created).
STARTING = 0


class TableFullError(UserError):
    """Every seat of the open table is taken."""

    http_status = 409


class Joined(Enum):
    """What a join did."""

    SEATED = "seated"  # the table waits for more players
    FILLED = "filled"  # seated in the last seat: the caller starts the table (``start_claimed``)
    ALREADY_SEATED = "already_seated"


class OpenTables:
    """The lobby's open production tables (``open_tables`` of the platform database)."""

    def __init__(self, platform: Engine, create_table: Callable[..., int]) -> None:
        self.platform = platform
        self.create_table = create_table

    def open(self, game: str, players: int, options: Mapping[int, int], name: str,
             account_id: int) -> int:
        """A new open table of ``game`` with its creator seated; returns its id."""
        with Session(self.platform) as db, db.begin():
            row = OpenTable(game=game, players=players, options={str(k): v for k, v in options.items()},
                            player_names=[name], created_by=account_id)
            db.add(row)
            db.flush()
            return int(row.id)

    def join(self, open_id: int, name: str) -> Joined:
        """Seat ``name`` at the open table; ``Joined.FILLED`` when that took the last seat
        (the table is then claimed: call ``start_claimed``).

        Raises:
            NotFoundError: no such table, or it has started.
            TableFullError: every seat is taken.
        """
        with Session(self.platform) as db, db.begin():
            row = self._lock(db, open_id)
            names = list(row.player_names or []) if row is not None else []
            if row is not None and row.table_id == STARTING:  # full, and being started
                if name in names:
                    return Joined.ALREADY_SEATED
                raise TableFullError("This table is full", "table_full")
            if row is None or row.table_id is not None:
                raise NotFoundError("This table is no longer open", "not_open")
            if name in names:
                return Joined.ALREADY_SEATED
            if len(names) >= row.players:
                raise TableFullError("This table is full", "table_full")
            row.player_names = names + [name]
            if len(names) + 1 < row.players:
                return Joined.SEATED
            row.table_id = STARTING  # claimed with the last seat: no other request starts it
        return Joined.FILLED

    def leave(self, open_id: int, name: str) -> None:
        """``name`` leaves the open table; the last one out removes it.

        Raises:
            NotFoundError: no such table, or it has started.
        """
        with Session(self.platform) as db, db.begin():
            row = self._locked(db, open_id)
            names = [n for n in (row.player_names or []) if n != name]
            if names:
                row.player_names = names
            else:
                db.delete(row)

    def start_if_full(self, open_id: int) -> int | None:
        """Create the production table once every seat is taken: its id, or None while it
        waits (or another request is creating it)."""
        with Session(self.platform) as db, db.begin():
            row = self._lock(db, open_id)
            if row is None:
                raise NotFoundError("This table is no longer open", "not_open")
            if row.table_id is not None:
                return row.table_id if row.table_id != STARTING else None
            if len(list(row.player_names or [])) < row.players:
                return None
            row.table_id = STARTING  # claimed: no other request starts it
        return self.start_claimed(open_id)

    def start_claimed(self, open_id: int) -> int:
        """Create the table this request claimed (``Joined.FILLED``); its id. If that fails
        the claim is given up (the next ``start_if_full`` may try again) and the error raised."""
        with Session(self.platform) as db:
            row = db.get(OpenTable, open_id)
            if row is None or row.table_id != STARTING:
                raise NotFoundError("This table is no longer open", "not_open")
            names: list[str] = list(row.player_names or [])
            game, options = row.game, {int(k): int(v) for k, v in dict(row.options or {}).items()}
        try:
            table_id = self.create_table(game, names, options, mode=TableMode.PRODUCTION)
        except Exception:
            self._set_table(open_id, None)  # not started
            raise
        self._set_table(open_id, table_id)
        return table_id

    def _lock(self, db: Session, open_id: int) -> OpenTable | None:
        db.execute(update(OpenTable).where(OpenTable.id == open_id).values(id=OpenTable.id))
        found = select(OpenTable).where(OpenTable.id == open_id).with_for_update()
        return db.scalars(found.execution_options(populate_existing=True)).one_or_none()

    def _locked(self, db: Session, open_id: int) -> OpenTable:
        row = self._lock(db, open_id)
        if row is None or row.table_id is not None:
            raise NotFoundError("This table is no longer open", "not_open")
        return row

    def _set_table(self, open_id: int, table_id: int | None) -> None:
        with Session(self.platform) as db, db.begin():
            db.execute(update(OpenTable).where(OpenTable.id == open_id).values(table_id=table_id))

