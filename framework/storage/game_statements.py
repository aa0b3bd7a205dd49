"""Running a game's translated statement and giving mysqli's answers on BGA: affected rows
(2 for a row an upsert or REPLACE replaced, 0 for an ignored insert) and the last id (the
first id a multi-row INSERT generated, 0 when it generated none)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from framework.storage.base import Result, TableConnection
from framework.storage.sql.changed_rows import CHANGED_FLAG
from framework.storage.sql.game_statement import INSERTED_FLAG, ROW_ID, GameStatement, StatementKind
from framework.storage.sql.rand import SEED_MARKER
from framework.storage.sqlite_functions import ChangeCounter

_INSERTS = (StatementKind.INSERT, StatementKind.INSERT_IGNORE)


def run_game_statement(db: TableConnection, statement: GameStatement, params: Sequence[Any],
                       draw_seed: Callable[[], int]) -> Result:
    """Run ``statement`` on ``db``; ``draw_seed`` gives the seed of its ``RAND()`` calls.

    ``rowcount`` keeps the backend's count (rows an UPDATE matched); ``affected`` and
    ``insert_id`` are MySQL's.
    """
    texts = statement.statements
    if statement.seeded:
        seed = str(int(draw_seed()))
        texts = tuple(t.replace(SEED_MARKER, seed) for t in texts)
    kind = statement.kind
    if kind in (StatementKind.DDL, StatementKind.TRUNCATE):
        result = Result([], 0, None)
        for text in texts:
            result = db.execute(text, params)
        rowcount = 0 if kind == StatementKind.TRUNCATE else result.rowcount
        return Result(result.rows, rowcount, None, 0 if kind == StatementKind.TRUNCATE
                      else result.affected, 0)
    if db.dialect == "mysql":
        result = db.execute(texts[0], params)
        if result.affected is None:
            result.affected = len(result.rows) if kind == StatementKind.READ else result.rowcount
        if result.insert_id is None:
            result.insert_id = 0
        return result
    if statement.returns_rows_touched:
        return _upsert(db, statement, texts[0], params)
    if statement.counts_changes:
        return _counted_update(db, statement, texts, params)
    result = db.execute(texts[0], params)
    if kind == StatementKind.READ:
        result.affected = len(result.rows)
    else:
        result.affected = result.rowcount
    if kind in _INSERTS or kind in (StatementKind.UPSERT, StatementKind.REPLACE):
        result.insert_id = _first_insert_id(db, statement, result)
    else:
        result.insert_id = 0  # mysqli's insert_id after a statement that inserted nothing
    return result


def _first_insert_id(db: TableConnection, statement: GameStatement, result: Result) -> int:
    if statement.auto_column is None or result.rowcount <= 0 or not result.lastrowid:
        return 0
    if db.dialect == "sqlite" and not statement.auto_given:
        # consecutive ids: the rowid of the last row gives the first one's
        return int(result.lastrowid) - result.rowcount + 1
    return int(result.lastrowid)


def _counted_update(db: TableConnection, statement: GameStatement, texts: Sequence[str],
                    params: Sequence[Any]) -> Result:
    """An UPDATE's matched rows (``rowcount``) and changed rows (``affected``)."""
    if db.dialect == "postgresql":
        flags = db.execute(texts[0], params).rows
        return Result([], len(flags), None, sum(1 for f in flags if f[CHANGED_FLAG]), 0)
    counter: ChangeCounter | None = getattr(db, "change_counter", None)
    if counter is None:
        raise TypeError(f"{type(db).__name__}: an SQLite connection without its change counter")
    values = list(params)
    counter.take()
    matched = db.execute(texts[0], values[:statement.set_params] + values)
    return Result([], matched.rowcount, None, counter.take(), 0)


def _upsert(db: TableConnection, statement: GameStatement, text: str,
            params: Sequence[Any]) -> Result:
    """An ``ON CONFLICT`` upsert with a RETURNING of the rows it inserted or updated."""
    before = rows_before = None
    if db.dialect == "sqlite":
        before = db.execute("SELECT last_insert_rowid() AS id").rows[0]["id"]
        if statement.count_rows:
            rows_before = db.execute(statement.count_rows).rows[0]["n"]
    result = db.execute(text, params)
    touched = result.rows
    if db.dialect == "postgresql":
        inserted = [r for r in touched if r[INSERTED_FLAG]]
        updated = [r for r in touched if not r[INSERTED_FLAG]]
    elif rows_before is not None:
        # SQLite's RETURNING cannot tell inserted rows from updated ones, but the table grew
        # by the rows inserted: the count is exact, which rows they were is a guess (the
        # last id may be another inserted row's, docs/sql.md)
        grown = db.execute(statement.count_rows).rows[0]["n"] - rows_before
        inserted, updated = touched[len(touched) - grown:], touched[:len(touched) - grown]
    elif touched and result.lastrowid != before:
        inserted, updated = touched, []
    else:
        inserted, updated = [], touched
    insert_id = 0
    if statement.auto_column is not None:
        chosen = inserted[0] if inserted else (updated[-1] if updated else None)
        if chosen is not None and chosen.get(ROW_ID) is not None:
            insert_id = int(chosen[ROW_ID])
    affected = len(inserted) + 2 * len(updated)
    if statement.kind == StatementKind.REPLACE:
        # MariaDB counts a row replaced by an equal one once (the upsert left it alone)
        affected += max((statement.value_rows or 0) - len(touched), 0)
    lastrowid = insert_id or None
    return Result([], len(touched), lastrowid, affected, insert_id)
