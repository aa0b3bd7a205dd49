"""``arena bench upgrade``: upgrading N in-progress tables to a new release, on SQLite,
PostgreSQL and MariaDB, for a release without DDL (a new statistic) and one that adds a
column (reaching every copy); with the ratios to the goals (#17 on the servers) and to a
floor measured in the same run (the column: the same ALTERs run bare, #20; no DDL: one bare
write transaction per table)."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from framework.game.registry import GameRegistry, load_game_from_directory
from framework.platform.models import GameRecord
from framework.scaffold import new_game

GAME = "upgradebench"
KINDS = ("no_ddl", "add_column")
BACKENDS = ("sqlite", "postgresql", "mysql")
#: The releases issue's goals on the database servers, ms a table (#17).
SERVER_GOALS_MS = {"no_ddl": 10.0, "add_column": 30.0}
#: The performance issue's goal on SQLite: within this many times the bare ALTERs (#20).
SQLITE_FLOOR_GOAL = 1.5
NEW_STAT = '    Stat(14, "patience", clienttranslate("Patience"), "int", "player"),\n]\n'
NEW_COLUMN = "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n"
UPGRADE = '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")
'''


def server_urls() -> dict[str, str | None]:
    """The database servers to measure on: ``ARENA_BENCH_POSTGRES_URL`` /
    ``ARENA_BENCH_MYSQL_URL``, else the test suite's ``ARENA_TEST_*_URL``; None: not set."""
    return {
        "postgresql": os.environ.get("ARENA_BENCH_POSTGRES_URL") or os.environ.get("ARENA_TEST_POSTGRES_URL"),
        "mysql": os.environ.get("ARENA_BENCH_MYSQL_URL") or os.environ.get("ARENA_TEST_MYSQL_URL"),
    }


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def bench_upgrade(tables: int, kind: str = "add_column", server_url: str | None = None) -> dict[str, Any]:
    """Create ``tables`` production tables at release A (a few moves each, not timed), then
    time the upgrade of all of them to release B (``kind``: ``no_ddl``, a new statistic;
    ``add_column``, a new ``player`` column reaching every copy; one transaction per table).
    ``server_url``: a PostgreSQL or MariaDB server (a throw-away site on it, dropped after);
    None: SQLite files."""
    from framework.releases.builds import build
    from framework.releases.deploy import deploy
    from framework.releases.upgrade import upgrade_all
    from framework.site import Site
    from framework.storage.backends import drop_site, scratch_site_url

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    database_url = None if server_url is None else scratch_site_url(server_url, f"ub{uuid.uuid4().hex[:8]}")
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        (repo / "games").mkdir(parents=True)
        _git(repo, "init", "-q")
        _git(repo, "config", "user.email", "bench@example.invalid")
        _git(repo, "config", "user.name", "Bench")
        folder = new_game(GAME, repo / "games")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "A")
        registry = GameRegistry(packages={})
        registry.add_definition(load_game_from_directory(folder, f"arena_bench_{Path(tmp).name}"))
        site = Site.open(Path(tmp) / "instance", database_url=database_url, registry=registry)
        try:
            a = build(site, GAME, now=datetime(2026, 1, 1, 10, 0))["version"]
            deploy(site, GAME, a)
            created_start = time.perf_counter()
            rng = random.Random(1)
            for i in range(tables):
                table_id = site.runtime.create_table(GAME, 2, {}, seed=i, mode="production")
                for _ in range(rng.randint(1, 4)):
                    data = site.runtime.get_data(table_id, None)
                    site.runtime.act(table_id, data["gamestate"]["active_player"], "draw", {})
            created = time.perf_counter() - created_start
            if kind == "add_column":
                (folder / "dbmodel.sql").write_text((folder / "dbmodel.sql").read_text() + NEW_COLUMN)
                (folder / "game.py").write_text((folder / "game.py").read_text() + UPGRADE)
            else:
                stats = folder / "stats.py"
                stats.write_text(stats.read_text().replace("]\n", NEW_STAT, 1))
            _git(repo, "commit", "-q", "-am", "B")
            b = build(site, GAME, now=datetime(2026, 1, 1, 11, 0))["version"]
            # Make B production without deploy's own upgrade run: only the upgrade is timed.
            with Session(site.platform) as s, s.begin():
                record = s.get(GameRecord, GAME)
                assert record is not None
                record.production_version = b
            if site.store.dialect == "sqlite":
                site.store.close()  # as in ``arena upgrade``'s own process: no table open yet
            with _statement_trace(site.store.dialect) as sent:
                start, cpu_start = time.perf_counter(), time.process_time()
                summary = upgrade_all(site, GAME)
                seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            floor, floor_cpu = _bare_alters(site) if kind == "add_column" else _bare_transactions(site)
        finally:
            site.close()
            if database_url is not None:
                drop_site(database_url)
    ms = seconds * 1000 / max(tables, 1)
    out: dict[str, Any] = {
        "tables": tables,
        "upgraded": summary["upgraded"],
        "failed": summary["failed"],
        "seconds": round(seconds, 3),
        "ms_per_table": round(ms, 3),
        # What the table databases were sent (the first table loads the release; on MariaDB
        # with DDL, a statement refused in place counts too).
        "statements_per_table": round(len(sent) / max(tables, 1), 1),
        "setup_seconds_not_timed": round(created, 1),
    }
    if server_url is not None:
        out["goal_ms_per_table"] = SERVER_GOALS_MS[kind]
        out["ratio_to_goal"] = round(ms / SERVER_GOALS_MS[kind], 2)
    floor_ms = floor * 1000 / max(tables, 1)
    out["floor"] = "bare ALTERs" if kind == "add_column" else "one write transaction"
    out["floor_ms_per_table"] = round(floor_ms, 3)
    out["ratio_to_floor"] = round(ms / floor_ms, 2) if floor_ms else None
    # CPU time of this process (SQLite: all the work; the servers: the client's share only),
    # which the machine's other load and the disk's waits change little.
    cpu_ms, floor_cpu_ms = cpu * 1000 / max(tables, 1), floor_cpu * 1000 / max(tables, 1)
    out["cpu_ms_per_table"] = round(cpu_ms, 3)
    out["floor_cpu_ms_per_table"] = round(floor_cpu_ms, 3)
    out["cpu_ratio_to_floor"] = round(cpu_ms / floor_cpu_ms, 2) if floor_cpu_ms else None
    if server_url is None and kind == "add_column":
        out["floor_goal_ratio"] = SQLITE_FLOOR_GOAL
    return out


@contextmanager
def _statement_trace(dialect: str) -> Iterator[list[str]]:
    """Every statement (a round trip each) the table connections of ``dialect`` send inside
    the block; the trace costs well under a microsecond a statement."""
    from framework.storage.mysql import MySQLTableConnection
    from framework.storage.postgres import PostgresTableConnection
    from framework.storage.sqlite import SQLiteTableConnection

    sent: list[str] = []
    names = {"sqlite": (SQLiteTableConnection, ("execute", "begin", "commit")),
             "postgresql": (PostgresTableConnection, ("_run",)),
             "mysql": (MySQLTableConnection, ("_run",))}
    cls, methods = names[dialect]
    originals = {name: cls.__dict__[name] for name in methods}

    def traced(name: str, method: Any) -> Any:
        def run(self: Any, *args: Any, **kw: Any) -> Any:
            sent.append(args[0] if args and isinstance(args[0], str) else name)
            return method(self, *args, **kw)
        return run

    for name, method in originals.items():
        setattr(cls, name, traced(name, method))
    try:
        yield sent
    finally:
        for name, method in originals.items():
            setattr(cls, name, method)


def _bare_transactions(site: Any) -> tuple[float, float]:
    """Seconds (wall, this process's CPU) for one write transaction per table database (its
    lock, one ``arena_meta`` row written, commit): what any upgrade that records a release
    costs at least, the floor of a release without DDL, measured in the same run. SQLite: on
    a plain ``sqlite3`` connection opened for it, as ``_bare_alters``."""
    if site.store.dialect == "sqlite":
        return _bare_sqlite(site, {table_id: [] for table_id in site.store.table_ids()},
                            "UPDATE arena_meta SET meta_value = meta_value WHERE meta_key = 'release'")
    total = cpu = 0.0
    for table_id in site.store.table_ids():
        start, cpu_start = time.perf_counter(), time.process_time()
        with site.store.connect(table_id) as db:
            db.execute("UPDATE arena_meta SET meta_value = meta_value WHERE meta_key = 'release'")
        total += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
    return total, cpu


def _bare_sqlite(site: Any, targets: dict[int, list[str]],
                 statement: str | None = None) -> tuple[float, float]:
    """Seconds (wall, CPU) of one transaction per SQLite table file on a plain connection
    opened for it with the store's settings (the store's own connections closed first, as
    in ``arena upgrade``'s process: the upgrade opens each table too): ``BEGIN IMMEDIATE``,
    an ALTER adding another column to each of ``targets[table]`` (or ``statement``),
    ``COMMIT``. The connections are closed after the timing."""
    site.store.close()
    total = cpu = 0.0
    opened = []
    try:
        for table_id, tables in targets.items():
            start, cpu_start = time.perf_counter(), time.process_time()
            raw = sqlite3.connect(site.store.path(table_id), isolation_level=None)
            opened.append(raw)
            for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
                raw.execute(f"PRAGMA {pragma}")
            raw.execute("BEGIN IMMEDIATE")
            for target in tables:
                raw.execute(f"ALTER TABLE {target} ADD COLUMN player_floor INTEGER NOT NULL DEFAULT 0")
            if statement is not None:
                raw.execute(statement)
            raw.execute("COMMIT")
            total += time.perf_counter() - start
            cpu += time.process_time() - cpu_start
    finally:
        for raw in opened:
            raw.close()
    return total, cpu


def _bare_alters(site: Any) -> tuple[float, float]:
    """Seconds (wall, this process's CPU) to run the add-column release's ALTERs bare: per
    table, another column of the same kind added to the live ``player`` table and each of
    its copies, one table after another; the floor the upgrade is compared with (not part of
    its time). SQLite: in one transaction on a connection opened for it (``_bare_sqlite``);
    the servers: through the store's connection, its lock and transaction not counted."""
    from framework.storage.base import COPY_PREFIXES

    names = ("player", *(p + "player" for p in COPY_PREFIXES))
    total = cpu = 0.0
    targets: dict[int, list[str]] = {}
    for table_id in site.store.table_ids():
        with site.store.connect(table_id, write=False) as db:
            targets[table_id] = [t for t in names if t in db.table_names()]
    if site.store.dialect == "sqlite":
        return _bare_sqlite(site, targets)
    for table_id, tables in targets.items():
        with site.store.connect(table_id) as db:
            start, cpu_start = time.perf_counter(), time.process_time()
            for target in tables:
                db.execute(f"ALTER TABLE {target} ADD COLUMN player_floor INTEGER NOT NULL DEFAULT 0")
            total += time.perf_counter() - start
            cpu += time.process_time() - cpu_start
    return total, cpu


def bench_upgrades(tables: int, backends: tuple[str, ...] = BACKENDS,
                   kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    """``bench_upgrade`` for each backend and release kind: {backend: {kind: figures}}; a
    server without a URL is reported as skipped, with how to give one."""
    urls = server_urls()
    out: dict[str, Any] = {}
    for backend in backends:
        if backend != "sqlite" and not urls.get(backend):
            name = "POSTGRES" if backend == "postgresql" else "MYSQL"
            out[backend] = {"skipped": f"set ARENA_BENCH_{name}_URL (or ARENA_TEST_{name}_URL)"}
            continue
        out[backend] = {kind: bench_upgrade(tables, kind, urls.get(backend) if backend != "sqlite" else None)
                        for kind in kinds}
    return out
