"""The query corpus (``query_corpus/statements.sql``): statements of the shapes BGA games send,
run in order through a game table's ``db_query`` on Arena's real stores (SQLite, PostgreSQL,
MariaDB), each answer (rows, column names, affected rows, last id) compared with MariaDB's
own answer to the unchanged text on a plain connection, as mysqli on BGA would get it.

Departures are declared in the corpus (``-- departs:``) and listed in docs/sql.md; a declared
departure that no longer departs fails, so the list stays true. Seeded ``RAND()`` statements
(``-- rand``) are compared between Arena's backends only (MariaDB's own RAND() differs).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from framework.game.table_context import ActionContext
from framework.game.table_database import TableDatabase
from framework.storage.base import TableStore
from framework.storage.mysql import MySQLStore
from framework.storage.postgres import PostgresStore
from framework.storage.sql.parse import prepare
from framework.storage.sql.rand import MODULUS
from framework.storage.sql.translate import translate_dbmodel
from framework.storage.sqlite import SQLiteStore
from tests.backends import PostgresRun, require
from tests.storage.test_dbmodel_corpus import default_tables_sql

CORPUS = Path(__file__).resolve().parent / "query_corpus"
ASPECTS = ("error", "rows", "names", "affected", "last_id")
TABLE_ID = 1


@dataclass(frozen=True)
class Entry:
    """One statement of the corpus and its directives."""

    line: int
    sql: str
    params: tuple[Any, ...] = ()
    rand: bool = False
    departs: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def ordered(self) -> bool:
        return "ORDER BY" in self.sql.upper()


def load_corpus() -> list[Entry]:
    """The statements of ``statements.sql``, in order, with their directives."""
    entries: list[Entry] = []
    directives: dict[str, Any] = {}
    lines: list[str] = []
    start = 0
    for number, line in enumerate((CORPUS / "statements.sql").read_text().splitlines(), 1):
        stripped = line.strip()
        if not lines and stripped.startswith("--"):
            text = stripped[2:].strip()
            if text.startswith("params:"):
                directives["params"] = tuple(json.loads(text[len("params:"):]))
            elif text == "rand":
                directives["rand"] = True
            elif text.startswith("departs:"):
                *backends, aspect = text[len("departs:"):].split()
                assert aspect in ASPECTS, f"line {number}: unknown aspect {aspect}"
                directives["departs"] = {b: frozenset({aspect}) for b in backends}
            continue
        if not stripped and not lines:
            continue
        if not lines:
            start = number
        lines.append(line)
        if stripped.endswith(";"):
            sql = "\n".join(lines).strip()[:-1]
            entries.append(Entry(start, sql, **directives))
            lines, directives = [], {}
    assert not lines, "the corpus ends inside a statement"
    return entries


ENTRIES = load_corpus()


@dataclass(frozen=True)
class Answer:
    """What a statement answered, normalised for comparison."""

    error: bool
    rows: tuple[tuple[Any, ...], ...] = ()
    names: tuple[str, ...] | None = None  # None: no row to read them from
    affected: int | None = None
    last_id: int | None = None
    detail: str = ""

    def aspect(self, name: str) -> Any:
        return getattr(self, name)


def normalise(value: Any) -> Any:
    """One value as the corpus compares it (dates as MySQL writes them, numbers rounded)."""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 4)
    if isinstance(value, bytes):
        return value.decode()
    return value


def _answer(entry: Entry, rows: Sequence[Sequence[Any]], names: Sequence[str] | None,
            affected: int | None, last_id: int | None) -> Answer:
    normalised = [tuple(normalise(v) for v in row) for row in rows]
    if not entry.ordered:
        normalised.sort(key=repr)
    is_write = not entry.sql.lstrip().upper().startswith("SELECT")
    return Answer(False, tuple(normalised), tuple(names) if names else None,
                  affected if is_write else None, last_id if is_write else None)


def _seed(position: int) -> int:
    return random.Random(position).randrange(1, MODULUS)


class CorpusTable(TableDatabase):
    """A game table's database helpers with a fixed seed per statement (a Table's comes from
    its per-move random source)."""

    seed = 1

    def sql_random_seed(self) -> int:
        return self.seed


def run_on_store(store: TableStore) -> list[Answer]:
    """Create the corpus table in ``store`` and run every statement through db_query, one
    transaction each."""
    with store.create(TABLE_ID) as db:
        for text, name in ((default_tables_sql(), "default_tables.sql"),
                           ((CORPUS / "dbmodel.sql").read_text(), "dbmodel.sql")):
            for statement in translate_dbmodel(text, db.dialect, name, reserved=frozenset()):
                db.execute(statement)
    answers: list[Answer] = []
    for position, entry in enumerate(ENTRIES):
        try:
            with store.connect(TABLE_ID) as db:
                table = CorpusTable(ActionContext(db=db))
                table.seed = _seed(position)
                result = table.db_query(entry.sql, entry.params)
                names = list(result.rows[0]) if result.rows else None
                answers.append(_answer(entry, [list(r.values()) for r in result.rows], names,
                                       table.db_affected_row(result), table.db_get_last_id(result)))
        except Exception as exc:  # noqa: BLE001 (a refusal is an answer, compared like the others)
            answers.append(Answer(True, detail=f"{type(exc).__name__}: {exc}"))
    return answers


def _mysql_connect_args() -> dict[str, Any]:
    parts = urlparse(require("mysql"))
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 3306,
            "user": unquote(parts.username or "root"), "password": unquote(parts.password or "")}


def run_on_mariadb_itself() -> list[Answer]:
    """The reference: each statement sent unchanged to MariaDB on a plain connection (no
    CLIENT.FOUND_ROWS, as mysqli), on the same schema."""
    import pymysql

    database = f"arenaqc_ref_{uuid.uuid4().hex[:10]}"
    conn = pymysql.connect(**_mysql_connect_args(), autocommit=True, charset="utf8mb4")
    cur = conn.cursor()
    try:
        cur.execute(f"CREATE DATABASE `{database}` CHARACTER SET utf8mb4")
        cur.execute(f"USE `{database}`")
        cur.execute("SET time_zone = '+00:00'")
        for text, name in ((default_tables_sql(), "default_tables.sql"),
                           ((CORPUS / "dbmodel.sql").read_text(), "dbmodel.sql")):
            for statement in translate_dbmodel(text, "mysql", name, reserved=frozenset()):
                cur.execute(statement)
        answers: list[Answer] = []
        for entry in ENTRIES:
            try:
                if entry.params:
                    cur.execute(prepare(entry.sql).mysql_text, entry.params)
                else:
                    cur.execute(entry.sql)
                names = [d[0] for d in cur.description] if cur.description else []
                rows = cur.fetchall() if cur.description else ()
                answers.append(_answer(entry, rows, names if rows else None, cur.rowcount,
                                       int(cur.lastrowid or 0)))
            except pymysql.err.Error as exc:
                answers.append(Answer(True, detail=str(exc)))
        return answers
    finally:
        cur.execute(f"DROP DATABASE IF EXISTS `{database}`")
        conn.close()


@pytest.fixture(scope="module")
def reference() -> list[Answer]:
    return run_on_mariadb_itself()


@pytest.fixture(scope="module")
def sqlite_answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Answer]]:
    store = SQLiteStore(tmp_path_factory.mktemp("query-corpus"))
    try:
        yield run_on_store(store)
    finally:
        store.close()


@pytest.fixture
def arena_answers(request: pytest.FixtureRequest, sqlite_answers: list[Answer]
                  ) -> Iterator[list[Answer]]:
    kind = request.param
    if kind == "sqlite":
        yield sqlite_answers
        return
    tag = uuid.uuid4().hex[:8]
    store: PostgresStore | MySQLStore
    if kind == "postgresql":
        run: PostgresRun = request.getfixturevalue("postgres_run")
        store = PostgresStore(run.url.render_as_string(hide_password=False), prefix=f"qc{tag}_")
    else:
        store = MySQLStore(_mysql_connect_args(), f"arenaqc_{tag}")
    try:
        yield run_on_store(store)
    finally:
        store.drop_all()
        store.close()


def _describe(entry: Entry, aspect: str, got: Answer, expected: Answer) -> str:
    return (f"line {entry.line}: {aspect} differs\n  {entry.sql[:160]}\n"
            f"  arena:   {got.aspect(aspect)!r} {got.detail}\n"
            f"  mariadb: {expected.aspect(aspect)!r} {expected.detail}")


def test_the_corpus_is_large_and_well_formed() -> None:
    assert len(ENTRIES) >= 150
    assert all(";" not in e.sql.rstrip()[-1:] for e in ENTRIES)
    assert len({e.sql for e in ENTRIES if not e.rand}) > 140


@pytest.mark.parametrize("arena_answers", ["sqlite", "postgresql", "mysql"], indirect=True)
def test_answers_equal_mariadbs(request: pytest.FixtureRequest, arena_answers: list[Answer],
                                reference: list[Answer], sqlite_answers: list[Answer]) -> None:
    kind = request.node.callspec.params["arena_answers"]
    problems: list[str] = []
    for entry, got, expected, from_sqlite in zip(ENTRIES, arena_answers, reference,
                                                 sqlite_answers, strict=True):
        if got.error and not expected.error:
            problems.append(_describe(entry, "error", got, expected))
            continue
        baseline = from_sqlite if entry.rand else expected
        if entry.rand and from_sqlite.error:
            problems.append(_describe(entry, "error", from_sqlite, expected))
            continue
        departs = entry.departs.get(kind, frozenset())
        for aspect in ASPECTS[1:]:
            same = got.aspect(aspect) == baseline.aspect(aspect)
            if aspect in departs:
                if same:
                    problems.append(f"line {entry.line}: the departure declared for {kind} "
                                    f"({aspect}) does not depart any more: remove it")
            elif not same and not (aspect == "names" and None in (got.names, baseline.names)):
                problems.append(_describe(entry, aspect, got, baseline))
    assert not problems, f"{len(problems)} differences:\n" + "\n".join(problems)


def test_seeded_rand_depends_on_the_seed(sqlite_answers: list[Answer]) -> None:
    shuffled = [a for e, a in zip(ENTRIES, sqlite_answers, strict=True)
                if e.rand and re.search(r"FROM card ORDER BY RAND\(\)$", e.sql)]
    assert shuffled and not shuffled[0].error
    order = [row[0] for row in shuffled[0].rows]
    assert order != sorted(order) and sorted(order) == sorted(set(order))
