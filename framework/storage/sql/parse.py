"""Parsing one MySQL statement with sqlglot, after rewriting what sqlglot cannot parse
(``%s`` parameters, ``REPLACE``, ``RENAME TABLE``, ``ADD (...)``, ``FLOAT UNSIGNED``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlglot
from sqlglot import Token, TokenType, exp
from sqlglot.dialects.sqlite import SQLite
from sqlglot.errors import ParseError, TokenError

from framework.storage.sql.errors import SQLError
from framework.storage.sql.split import end_of_quoted


class ArenaSQLite(SQLite):
    """SQLite, generating backtick-quoted identifiers (never mistaken for strings)."""

    class Tokenizer(SQLite.Tokenizer):
        IDENTIFIERS = ["`", '"', ("[", "]")]


GENERATE_AS: dict[str, type[sqlglot.Dialect] | str] = {
    "sqlite": ArenaSQLite,
    "postgresql": "postgres",
    "mysql": "mysql",
}

PLACEHOLDER = "\x00arena_param\x00"

_RE_NEEDS_PARAM_SCAN = re.compile(r"[%?]")
_RE_REPLACE = re.compile(r"\s*REPLACE\b", re.IGNORECASE)
_RE_RENAME_TABLE = re.compile(
    r"\s*RENAME\s+TABLE\s+(`[^`]+`|\w+)\s+TO\s+(`[^`]+`|\w+)\s*$", re.IGNORECASE
)
_RE_ALTER_ADD_PAREN = re.compile(r"^\s*ALTER\b.*\bADD\s+(COLUMN\s*)?\(", re.IGNORECASE | re.DOTALL)
_RE_FLOAT_UNSIGNED = re.compile(
    r"\b(FLOAT|DOUBLE|REAL|DECIMAL|DEC|NUMERIC|FIXED)\b.*\bUNSIGNED\b", re.IGNORECASE | re.DOTALL
)
_FLOAT_TYPE_WORDS = {"FLOAT", "DOUBLE", "REAL", "DECIMAL", "DEC", "NUMERIC", "FIXED", "PRECISION"}


@dataclass
class Prepared:
    """A statement ready for sqlglot, and what pre-processing learnt about it."""

    original: str
    text: str
    params: int = 0
    mysql_text: str = ""  # the original with %% escaping, for MariaDB
    is_replace: bool = False


def _bind_placeholders(sql: str) -> tuple[str, str, int]:
    """Replace ``%s`` parameters (outside quotes and comments) by ``?`` for sqlglot.

    Returns (text for sqlglot, MariaDB text with every other ``%`` doubled, parameter count).
    """
    if not _RE_NEEDS_PARAM_SCAN.search(sql):
        return sql, sql, 0
    parse: list[str] = []
    mysql: list[str] = []
    count = 0
    i = 0
    n = len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"`":
            j = end_of_quoted(sql, i)
        elif ch == "#" or (sql.startswith("--", i) and (i + 2 >= n or sql[i + 2] in " \t\r\n")):
            j = sql.find("\n", i)
            j = n if j < 0 else j
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif sql.startswith("%s", i):
            parse.append("?")
            mysql.append("%s")
            count += 1
            i += 2
            continue
        elif ch == "?":
            raise SQLError("write query parameters as %s, not ?")
        else:
            j = i + 1
        chunk = sql[i:j]
        parse.append(chunk)
        mysql.append(chunk.replace("%", "%%"))
        i = j
    return "".join(parse), "".join(mysql), count


def _mysql_tokens(text: str) -> list[Token]:
    return sqlglot.Dialect.get_or_raise("mysql").tokenize(text)


def _apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _expand_alter_add_list(text: str) -> str:
    """``ALTER TABLE t ADD (a INT, b INT)`` -> ``ALTER TABLE t ADD COLUMN a INT, ADD COLUMN b
    INT`` (MySQL accepts both; sqlglot only the second)."""
    tokens = _mysql_tokens(text)
    edits: list[tuple[int, int, str]] = []
    depth = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.token_type == TokenType.L_PAREN:
            depth += 1
        elif tok.token_type == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and tok.text.upper() == "ADD":
            j = i + 1
            if j < len(tokens) and tokens[j].text.upper() == "COLUMN":
                j += 1
            if j < len(tokens) and tokens[j].token_type == TokenType.L_PAREN:
                items: list[str] = []
                level = 0
                item_start = j + 1
                k = j
                while k < len(tokens):
                    t = tokens[k]
                    if t.token_type == TokenType.L_PAREN:
                        level += 1
                    elif t.token_type == TokenType.R_PAREN:
                        level -= 1
                        if level == 0:
                            break
                    elif t.token_type == TokenType.COMMA and level == 1:
                        items.append(text[tokens[item_start].start : tokens[k - 1].end + 1])
                        item_start = k + 1
                    k += 1
                if k >= len(tokens) or item_start >= k:
                    raise SQLError("unbalanced parentheses in ALTER TABLE ... ADD (...)")
                items.append(text[tokens[item_start].start : tokens[k - 1].end + 1])
                replacement = ", ".join(f"ADD COLUMN {item}" for item in items)
                edits.append((tok.start, tokens[k].end + 1, replacement))
                i = k + 1
                continue
        i += 1
    return _apply_edits(text, edits)


def _drop_float_unsigned(text: str) -> str:
    """Remove ``UNSIGNED`` after FLOAT/DOUBLE/DECIMAL types: meaningless (deprecated) in MySQL,
    refused by sqlglot's parser."""
    tokens = _mysql_tokens(text)
    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(tokens):
        if tok.text.upper() != "UNSIGNED" or i == 0:
            continue
        j = i - 1
        if tokens[j].token_type == TokenType.R_PAREN:
            level = 0
            while j >= 0:
                if tokens[j].token_type == TokenType.R_PAREN:
                    level += 1
                elif tokens[j].token_type == TokenType.L_PAREN:
                    level -= 1
                    if level == 0:
                        break
                j -= 1
            j -= 1
        if j >= 0 and tokens[j].text.upper() in _FLOAT_TYPE_WORDS:
            edits.append((tok.start, tok.end + 1, ""))
    return _apply_edits(text, edits)


def prepare(sql: str) -> Prepared:
    text, mysql_text, params = _bind_placeholders(sql)
    prepared = Prepared(original=sql, text=text, params=params, mysql_text=mysql_text)
    match = _RE_REPLACE.match(text)
    if match:
        prepared.is_replace = True
        prepared.text = text[: match.end() - len("REPLACE")] + "INSERT" + text[match.end() :]
        return prepared
    match = _RE_RENAME_TABLE.match(text)
    if match:
        prepared.text = f"ALTER TABLE {match.group(1)} RENAME TO {match.group(2)}"
        return prepared
    if _RE_ALTER_ADD_PAREN.match(text):
        prepared.text = _expand_alter_add_list(prepared.text)
    if _RE_FLOAT_UNSIGNED.search(prepared.text):
        prepared.text = _drop_float_unsigned(prepared.text)
    return prepared


def parse_prepared(prepared: Prepared) -> exp.Expr:
    try:
        trees = sqlglot.parse(prepared.text, read="mysql")
    except ParseError as exc:
        problem = exc.errors[0] if exc.errors else {}
        description = str(problem.get("description") or exc).strip()
        where = ""
        if problem.get("line"):
            where = f" (line {problem['line']} of the statement, column {problem.get('col')})"
        raise SQLError(f"syntax error: {description}{where}") from exc
    except TokenError as exc:
        raise SQLError(f"syntax error: {exc}") from exc
    statements = [tree for tree in trees if tree is not None]
    if not statements:
        raise SQLError("empty statement")
    if len(statements) > 1:
        raise SQLError(f"one statement at a time, found {len(statements)}")
    return statements[0]

