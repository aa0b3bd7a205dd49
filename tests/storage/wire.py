"""What a table connection sends: round trips (the client sent, then waited for the server's
answer) and statements the server ran, read from libpq's protocol trace on PostgreSQL, from
PyMySQL's commands and result sets on MariaDB, and from SQLite's trace callback (no round
trips: the database is in the process)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class WireTrace:
    """Round trips and statements seen on one connection; ``sent`` holds what the client
    sent (PostgreSQL: the protocol messages' text; MariaDB: each command's SQL)."""

    round_trips: int = 0
    statements: int = 0
    sent: list[str] = field(default_factory=list)


def parse_libpq_trace(text: str) -> WireTrace:
    """Count libpq's trace: a round trip is a run of frontend (``F``) messages answered by
    backend (``B``) ones; a statement is a ``CommandComplete`` or an ``ErrorResponse``.

    >>> t = parse_libpq_trace('F\\t9\\tQuery\\t "BEGIN; SELECT 1"\\nB\\t10\\tCommandComplete\\t "BEGIN"\\n'
    ...                       'B\\t13\\tCommandComplete\\t "SELECT 1"\\nB\\t5\\tReadyForQuery\\t T\\n')
    >>> t.round_trips, t.statements
    (1, 2)
    """
    trace = WireTrace()
    last = ""
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        side, message = parts[0], parts[2]
        if side == "F":
            if message not in ("Sync", "Flush"):
                trace.sent.append(f"{message} {parts[3].strip() if len(parts) > 3 else ''}".strip())
        elif side == "B":
            if last == "F":
                trace.round_trips += 1
            if message in ("CommandComplete", "ErrorResponse", "EmptyQueryResponse"):
                trace.statements += 1
        else:
            continue
        last = side
    return trace


@contextmanager
def traced_postgres(raw: Any) -> Iterator[WireTrace]:
    """Trace the psycopg connection ``raw`` inside the block; the counts are filled in when
    it ends."""
    import psycopg

    result = WireTrace()
    with tempfile.TemporaryFile() as out:
        raw.pgconn.trace(out.fileno())
        raw.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
        try:
            yield result
        finally:
            raw.pgconn.untrace()  # flushes libpq's stream
            out.seek(0)
            parsed = parse_libpq_trace(out.read().decode(errors="replace"))
            result.round_trips, result.statements, result.sent = (
                parsed.round_trips, parsed.statements, parsed.sent)


@contextmanager
def traced_mysql(raw: Any) -> Iterator[WireTrace]:
    """Trace the PyMySQL connection ``raw`` inside the block: each command it sends is one
    round trip; each result set it reads (a multi-statement command's too) is a statement."""
    result = WireTrace()
    send, read = raw._execute_command, raw._read_query_result

    def counted_send(command: int, sql: Any) -> Any:
        result.round_trips += 1
        result.sent.append(sql.decode(errors="replace") if isinstance(sql, bytes) else str(sql))
        return send(command, sql)

    def counted_read(*args: Any, **kwargs: Any) -> Any:
        result.statements += 1
        return read(*args, **kwargs)

    raw._execute_command, raw._read_query_result = counted_send, counted_read
    try:
        yield result
    finally:
        del raw._execute_command, raw._read_query_result


@contextmanager
def traced_sqlite(raw: Any) -> Iterator[WireTrace]:
    """Every statement the sqlite3 connection ``raw`` runs inside the block."""
    result = WireTrace()

    def seen(sql: str) -> None:
        result.statements += 1
        result.sent.append(sql)

    raw.set_trace_callback(seen)
    try:
        yield result
    finally:
        raw.set_trace_callback(None)


def traced(raw: Any, dialect: str) -> Any:
    """The tracer of ``dialect`` on the raw connection ``raw``."""
    return {"postgresql": traced_postgres, "mysql": traced_mysql, "sqlite": traced_sqlite}[dialect](raw)
