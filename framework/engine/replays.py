"""Replays: the table as it was at its start (recorded once, when the table is created), read
back for one reader, so a replay plays the log from there instead of over the final table."""

from __future__ import annotations

import base64
import json
import logging
import zlib
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from framework.core.errors import UserError
from framework.engine.directory import TableDirectory
from framework.engine.views import data_of
from framework.game.table import ActionContext
from framework.i18n import Translate
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.translate import translate_query

log = logging.getLogger(__name__)

#: The ``arena_meta`` key of the recorded start (a save slot or a bug report carries it along).
START_KEY = "replay:start"
#: What ``arena_meta.meta_value`` (TEXT: 64 KiB on MariaDB) holds at most.
MAX_START_CHARS = 60_000


class NoReplayError(UserError):
    """The table has no recorded start (made before replays were recorded, or too large)."""

    http_status = 409


class _ReadOnly(Exception):
    """Raised to roll back the transaction in which the start was put back for a read."""


def table_rows(db: TableConnection, with_copies: bool = False) -> dict[str, dict[str, Any]]:
    """Every table of a game table's database: ``{name: {"columns", "rows"}}``."""
    out = {}
    for name in db.table_names():
        if not with_copies and name.startswith(COPY_PREFIXES):
            continue
        columns = db.column_names(name)
        rows = db.execute(f"SELECT * FROM {quote_identifier(name, db.dialect, keep_case=True)}").rows
        out[name] = {"columns": columns, "rows": rows}
    return out


def write_rows(db: TableConnection, tables: Mapping[str, Mapping[str, Any]],
               keep: Callable[[str], bool]) -> None:
    """Replace the rows of each live table named in ``tables`` (``keep(name)``) by the given
    rows; columns the table no longer has are left out, new ones take their defaults."""
    live = {t for t in db.table_names() if not t.startswith(COPY_PREFIXES)}
    for name, content in tables.items():
        if name not in live or not keep(name):
            continue
        present = set(db.column_names(name))
        columns = [c for c in content["columns"] if c in present]
        db.execute(f"DELETE FROM {quote_identifier(name, db.dialect, keep_case=True)}")
        if not columns:
            continue
        # Written in MySQL's dialect, as all framework SQL, then translated for the backend.
        column_list = ", ".join(quote_identifier(c, "mysql") for c in columns)
        sql = translate_query(f"INSERT INTO {quote_identifier(name, 'mysql')} ({column_list})"
                              f" VALUES ({', '.join('%s' for _ in columns)})", db.dialect)
        for row in content["rows"]:
            db.execute(sql, [row.get(c) for c in columns])


def record_start(db: TableConnection) -> None:
    """Keep the table as it is now (just set up) in its ``arena_meta``, compressed; a table
    too large for it is logged and has no replay."""
    tables = table_rows(db)
    tables.pop("arena_meta", None)  # bookkeeping (release, seats' last moves): never replayed
    text = json.dumps(tables, default=str, separators=(",", ":"))
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    if len(packed) > MAX_START_CHARS:
        log.warning("table %s: its start (%d characters) is too large to record; it has no replay",
                    db.table_id, len(packed))
        return
    db.execute(translate_query("DELETE FROM arena_meta WHERE meta_key = %s", db.dialect), (START_KEY,))
    db.execute(translate_query("INSERT INTO arena_meta (meta_key, meta_value) VALUES (%s, %s)", db.dialect),
               (START_KEY, packed))


def recorded_start(db: TableConnection) -> dict[str, Any] | None:
    """The rows recorded by ``record_start``, or None."""
    rows = db.execute(translate_query("SELECT meta_value FROM arena_meta WHERE meta_key = %s", db.dialect),
                      (START_KEY,)).rows
    if not rows or not rows[0]["meta_value"]:
        return None
    text = zlib.decompress(base64.b64decode(rows[0]["meta_value"])).decode("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def start_data(directory: TableDirectory, table_id: int, player_id: int | None,
               translate: Translate | None, now: Callable[[], datetime]) -> dict[str, Any]:
    """What ``player_id`` (None: a spectator) saw when the table began: ``get_data`` of the
    recorded start, read in a transaction that puts it back and is always rolled back (the
    table itself never changes). ``notifications.last_packet_id`` is where the replay's log
    starts.

    Raises:
        NoReplayError: no start was recorded for this table.
    """
    found: dict[str, Any] = {}
    try:
        with directory.open(table_id) as (_, gdef, db):
            tables = recorded_start(db)
            if tables is None:
                raise NoReplayError("This table has no recorded start, so it cannot be replayed",
                                    "no_replay")
            write_rows(db, tables, keep=lambda name: name != "arena_meta")
            table = gdef.table_class(ActionContext(db=db, current_player_id=player_id, now=now))
            found = data_of(table, table_id, player_id, translate)
            raise _ReadOnly
    except _ReadOnly:
        pass
    return found
