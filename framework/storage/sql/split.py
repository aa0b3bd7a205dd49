"""Splitting a ``dbmodel.sql`` into statements, without its comments."""

from __future__ import annotations

from dataclasses import dataclass

from framework.storage.sql.errors import SchemaError


@dataclass(frozen=True)
class SourceStatement:
    """One statement of a SQL file, comments removed; ``line`` is where it starts (1-based)."""

    sql: str
    line: int


def end_of_quoted(text: str, start: int) -> int:
    """Index just past the quoted string or identifier that opens at ``start`` (MySQL rules:
    a doubled quote, or a backslash inside '...' and "...", escapes).

    >>> end_of_quoted("'it\\\\'s' x", 0)
    7
    """
    quote = text[start]
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and quote != "`":
            i += 2
            continue
        if ch == quote:
            if i + 1 < n and text[i + 1] == quote:
                i += 2
                continue
            return i + 1
        i += 1
    return n


def split_file(text: str, filename: str) -> list[SourceStatement]:
    text = text.removeprefix("\ufeff")  # a byte order mark left by Windows editors
    statements: list[SourceStatement] = []
    buf: list[str] = []
    start_line: int | None = None
    line = 1
    i = 0
    n = len(text)

    def flush() -> None:
        nonlocal start_line
        sql = "".join(buf).strip()
        if sql:
            statements.append(SourceStatement(sql, start_line or line))
        buf.clear()
        start_line = None

    while i < n:
        ch = text[i]
        if ch in "'\"`":
            j = end_of_quoted(text, i)
            if start_line is None:
                start_line = line
            chunk = text[i:j]
            buf.append(chunk)
            line += chunk.count("\n")
            i = j
        elif ch == "#" or text.startswith("--", i):
            # BGA strips `--` comments even without the space MySQL requires after them.
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise SchemaError(
                    "unterminated /* comment", filename=filename, line=line,
                    statement=text[i:],
                )
            chunk = text[i : j + 2]
            newlines = chunk.count("\n")
            buf.append("\n" * newlines if newlines else " ")
            line += newlines
            i = j + 2
        elif ch == ";":
            flush()
            i += 1
        else:
            if ch == "\n":
                line += 1
            elif start_line is None and not ch.isspace():
                start_line = line
            buf.append(ch)
            i += 1
    flush()
    return statements


def split_statements(text: str) -> list[SourceStatement]:
    """Split a SQL file into statements, dropping every comment (``-- x``, ``--x``,
    ``--------``, ``#``, ``/* */``, including a comment after a statement on the same line)
    and respecting quotes and backticks.

    >>> text = "CREATE TABLE t (a INT, -- a\\n b INT);\\n--ALTER x;\\nDROP TABLE u;"
    >>> for s in split_statements(text):
    ...     print(s.line, repr(s.sql))
    1 'CREATE TABLE t (a INT, \\n b INT)'
    4 'DROP TABLE u'

    Raises:
        SchemaError: a ``/*`` comment is never closed.
    """
    return split_file(text, "dbmodel.sql")

