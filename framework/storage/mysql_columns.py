"""MariaDB's upgrade that only adds columns, in place (``MySQLStore.adding_columns``).

MariaDB adds a column at once (``ALGORITHM=INSTANT``: the rows are not rewritten) and drops
it again as fast, but commits the transaction around each ``ALTER TABLE``. An upgrade whose
DDL is only plain ``ALTER TABLE t ADD [COLUMN] c <definition>`` statements, sent before it
has written anything, so runs on the live database instead of a copy, and stays
all-or-nothing by undoing:

- each column is first written down in ``arena_meta`` (``UNDO_KEY``: the ``[table, column]``
  pairs added so far), in the same round trip as its ``ALTER`` and the ``START
  TRANSACTION`` that follows it, so the journal is committed with the ``ALTER``'s implicit
  commit, before the column exists;
- on success the journal row is deleted in the upgrade's last transaction (with the new
  release and the players' notice), so both are committed together;
- on any failure the transaction is rolled back and every column written down is dropped
  again (``DROP COLUMN IF EXISTS``), the journal with them;
- if the process or the connection dies in between, the next upgrade of that table finds
  the journal under the table's lock (read in the same round trip as the lock) and drops
  those columns first.

Any other DDL, DDL after a write, a column that exists already, a failed ``ALTER`` or
Alembic's raw connection ends the attempt with ``DDLNeededError`` (everything undone), and
the caller runs the upgrade again on a copy (``MySQLStore.upgrading``). Readers that take no
lock may see a column added before the upgrade's last commit (for a few milliseconds, with
the old release's rows): the table's writers wait for its lock as before.
"""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from framework.storage.base import DDLNeededError
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import SchemaShapes

UNDO_KEY = "arena_upgrade_undo"
#: Read with the lock of an upgrade (``MySQLTableConnection.open``'s probe).
UNDO_PROBE = f"SELECT meta_value FROM arena_meta WHERE meta_key = '{UNDO_KEY}'"
DELETE_UNDO = f"DELETE FROM arena_meta WHERE meta_key = '{UNDO_KEY}'"

_READS = {"SELECT", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "DO", "SET"}
_NAME = r"`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*"
_ADD = re.compile(rf"\s*ALTER\s+TABLE\s+({_NAME})\s+ADD\s+(?:COLUMN\s+)?({_NAME})\s+(\S.*?)\s*;?\s*\Z",
                  re.IGNORECASE | re.DOTALL)
# Words after ADD that start something other than a column (a key, a constraint...).
_NOT_COLUMNS = {"INDEX", "KEY", "UNIQUE", "PRIMARY", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL",
                "CHECK", "PERIOD", "SYSTEM", "IF", "PARTITION", "COLUMN"}
_STRINGS = re.compile(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\"|`(?:[^`]|``)*`", re.DOTALL)


def quote(name: str) -> str:
    return quote_identifier(name, "mysql")


def _unquoted(name: str) -> str:
    return name[1:-1].replace("``", "`") if name.startswith("`") else name


def plain_add_column(sql: str) -> tuple[str, str] | None:
    """(table, column) when ``sql`` is one ``ALTER TABLE`` adding one column and nothing
    else (no second clause, no comment), else None.

    >>> plain_add_column("ALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT 0")
    ('player', 'player_luck')
    >>> plain_add_column("ALTER TABLE card ADD COLUMN card_note DECIMAL(10,2) DEFAULT '1,5'")
    ('card', 'card_note')
    >>> [plain_add_column(s) for s in ("ALTER TABLE t ADD INDEX (a)", "ALTER TABLE t ADD a INT, ADD b INT",
    ...                                "ALTER TABLE t ADD a INT -- x", "ALTER TABLE t DROP a")]
    [None, None, None, None]
    """
    match = _ADD.match(sql)
    if match is None:
        return None
    table, column, rest = match.groups()
    if not column.startswith("`") and column.upper() in _NOT_COLUMNS:
        return None
    bare = _STRINGS.sub("''", rest)
    if any(mark in bare for mark in (";", "--", "#", "/*")):
        return None
    depth = 0
    for char in bare:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0 or (char == "," and depth == 0):
            return None
    return _unquoted(table), _unquoted(column)


def read_undo(text: str | None) -> list[tuple[str, str]]:
    """The ``[table, column]`` pairs of a journal row (what an unfinished upgrade added).

    Raises:
        ValueError: the row is not a journal this module wrote.
    """
    if not text:
        return []
    pairs = json.loads(text)
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
        raise ValueError(f"{UNDO_KEY}: not a list of [table, column] pairs: {text[:80]!r}")
    return [(p[0], p[1]) for p in pairs]


def undo_statements(pairs: list[tuple[str, str]], database: str | None = None) -> list[str]:
    """Dropping again the columns of ``pairs`` (last added first), then the journal row;
    names qualified with ``database`` when given."""
    prefix = "" if database is None else quote(database) + "."
    out = [f"ALTER TABLE {prefix}{quote(t)} DROP COLUMN IF EXISTS {quote(c)}" for t, c in reversed(pairs)]
    out.append(DELETE_UNDO.replace("FROM arena_meta", f"FROM {prefix}arena_meta"))
    return out


class Connection(Protocol):
    """What this module needs of ``storage/mysql.py``'s connection (which imports it)."""

    schema_shapes: SchemaShapes | None

    def run_statement(self, sql: str, params: Any) -> Any: ...

    def run_several(self, sql: str) -> None: ...

    def forget_shapes(self) -> None: ...


class InPlaceColumns:
    """One upgrade's columns added in place: what it added (to undo), whether it has
    written yet, and whether it wanted something this mode does not do (``refused``)."""

    def __init__(self) -> None:
        self.added: list[tuple[str, str]] = []
        self.pending: list[tuple[str, str, str]] = []  # (statement, table, column), not sent yet
        self.wrote = False
        self.refused: str | None = None
        self._columns: dict[str, set[str]] | None = None

    def refuse(self, why: str) -> DDLNeededError:
        self.refused = self.refused or why
        return DDLNeededError(f"not a plain column added in place: {why}")

    def note(self, sql: str) -> None:
        """A statement of the body that is no DDL: a write ends the DDL this mode allows."""
        word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if word not in _READS:
            self.wrote = True

    def add(self, conn: Connection, sql: str, params: Any) -> None:
        """One DDL statement of the body: a plain column added, held until the body's next
        statement (``flush``); anything else refused.

        Raises:
            DDLNeededError: not a plain ``ADD COLUMN``, sent after a write, a column that
                exists, or parameters.
        """
        added = plain_add_column(sql)
        if added is None or self.refused is not None:  # this attempt is over anyway
            raise self.refuse(sql[:80])
        if self.wrote:
            raise self.refuse(f"DDL after a write: {sql[:80]}")
        if params:
            raise self.refuse(f"DDL with parameters: {sql[:80]}")
        table, column = added
        columns = self._known(conn).get(table.lower())
        if columns is None or column.lower() in columns:
            raise self.refuse(f"{table}.{column} exists, or {table} does not: {sql[:80]}")
        columns.add(column.lower())
        conn.forget_shapes()  # as any DDL does, though it is sent later
        self.pending.append((sql if params is None else sql.replace("%%", "%"), table, column))  # as sent

    def flush(self, conn: Connection) -> None:
        """The columns held so far added, in one round trip: the journal written (committed
        by the first ``ALTER``), each ``ALTER``, and a new transaction.

        Raises:
            DDLNeededError: an ``ALTER`` failed (on a copy it fails, or not, as MariaDB makes
                it); what ran is undone with the rest.
        """
        if self.refused is not None:
            self.pending = []
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        self.added += [(table, column) for _, table, column in pending]  # the journal holds them all
        journal = json.dumps([list(pair) for pair in self.added])
        literal = "'" + journal.replace("\\", "\\\\").replace("'", "''") + "'"
        conn.forget_shapes()
        try:
            conn.run_several("; ".join([
                f"INSERT INTO arena_meta (meta_key, meta_value) VALUES ('{UNDO_KEY}', {literal}) "
                "ON DUPLICATE KEY UPDATE meta_value = VALUES(meta_value)",
                *(sql for sql, _, _ in pending), "START TRANSACTION"]))
        except Exception as exc:
            raise self.refuse(f"{pending[0][0][:80]}: {exc}") from exc

    def _known(self, conn: Connection) -> dict[str, set[str]]:
        """The columns of every table (lower case), from the shapes the upgrade has read, else
        the catalog (one statement)."""
        if self._columns is None:
            shapes = conn.schema_shapes
            if shapes is not None and shapes.tables:
                self._columns = {t.name.lower(): {c.name.lower() for c in t.columns} for t in shapes.tables}
            else:
                rows = conn.run_statement(
                    "SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS "
                    "WHERE TABLE_SCHEMA = DATABASE()", None).fetchall()
                self._columns = {}
                for table, column in rows:
                    self._columns.setdefault(str(table).lower(), set()).add(str(column).lower())
        return self._columns
