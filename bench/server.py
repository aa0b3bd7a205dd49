"""``arena bench server``: the production server (gunicorn, gevent workers) in a child
process, played over HTTP on loopback by the bots of ``bench.players``; also the server of
the load and fault tests.
"""

from __future__ import annotations

import http.client
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.players import LoadRun, summary
from bench.policies import policy_for
from bench.runtime import BENCH_GAME, scaffold_registry
from framework.game.registry import GameRegistry
from framework.site import Site
from framework.web.server import settle_heap


# ---------------------------------------------------------------------------------- the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    """``python -m framework.web.server`` in a child process (gunicorn master + gevent workers)."""

    proc: subprocess.Popen[bytes]
    host: str
    port: int
    log_path: Path

    @classmethod
    def start(cls, instance: Path, workers: int, database_url: str | None = None,
              extra_games: Sequence[Path] = (), env: dict[str, str] | None = None,
              timeout: float = 90.0) -> ServerProcess:
        port = free_port()
        # the bots play studio tables as their test players: the studio's rights, on the production server
        child_env = {**os.environ, "ARENA_INSTANCE": str(instance), "ARENA_MODE": "studio", **(env or {})}
        child_env.pop("ARENA_DATABASE_URL", None)
        if database_url:
            child_env["ARENA_DATABASE_URL"] = database_url
        if extra_games:
            child_env["ARENA_EXTRA_GAMES"] = ":".join(str(p) for p in extra_games)
        log_path = Path(instance) / "server.log"
        log_file = open(log_path, "ab")  # noqa: SIM115 - the child writes it until it stops
        proc = subprocess.Popen(
            [sys.executable, "-m", "framework.web.server", "127.0.0.1", str(port), str(workers)],
            env=child_env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
        log_file.close()
        server = cls(proc, "127.0.0.1", port, log_path)
        server.wait_ready(timeout, workers)
        return server

    def wait_ready(self, timeout: float, workers: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start:\n{self.log()[-4000:]}")
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=5)
                try:
                    conn.request("GET", "/")
                    status = conn.getresponse().status
                finally:
                    conn.close()
                if status == 200 and len(self.worker_pids()) >= workers:
                    return
            except (OSError, http.client.HTTPException):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start in {timeout}s:\n{self.log()[-4000:]}")
            time.sleep(0.2)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def worker_pids(self) -> list[int]:
        """The gunicorn workers (children of the master), from /proc."""
        pids = []
        for entry in Path("/proc").iterdir():
            fields = _proc_stat(entry.name) if entry.name.isdigit() else None
            if fields is not None and len(fields) > 1 and int(fields[1]) == self.proc.pid:
                pids.append(int(entry.name))
        return sorted(pids)

    def cpu_seconds(self) -> float | None:
        """User + system CPU the master and its workers have used so far (from /proc), or
        None where /proc cannot tell."""
        total = 0
        for pid in [self.proc.pid, *self.worker_pids()]:
            fields = _proc_stat(str(pid))
            if fields is None:
                return None
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """Quick shutdown (SIGINT: gunicorn does not wait for the open event streams)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def _proc_stat(pid: str) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state, ppid, ...), or None
    when that process is gone or /proc is missing."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2:].split()


# ---------------------------------------------------------------------------------- the bench
def create_tables(site: Site, game: str, count: int, players: int, options: dict[Any, Any],
                  threads: int = 4) -> list[tuple[int, list[int]]]:
    """``count`` studio tables (a few threads: server DDL waits on the disk)."""
    ids: list[int] = []
    lock = threading.Lock()
    seeds = iter(range(count))

    def work() -> None:
        while True:
            with lock:
                seed = next(seeds, None)
            if seed is None:
                return
            table_id = site.runtime.create_table(game, players, options, seed=seed)
            with lock:
                ids.append(table_id)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out = []
    for table_id in sorted(ids):
        data = site.runtime.get_data(table_id, None)
        out.append((table_id, [int(p) for p in data["playerorder"]]))
    return out


def bench_server(tables: int = 20, workers: int = 2, database_url: str | None = None,
                 actions: int = 20000, seconds: float = 60.0, game: str = BENCH_GAME) -> dict[str, Any]:
    """Start the server with ``workers`` gevent workers, play ``tables`` tables at once with
    bots over HTTP, and measure; one JSON-able dict (see the README)."""
    import uuid

    from framework.storage.backends import drop_site, scratch_site_url

    # A server run gets its own schemas / databases on the server, dropped afterwards.
    server_url = scratch_site_url(database_url, f"bench{uuid.uuid4().hex[:8]}") if database_url else None
    try:
        return _bench_server(tables, workers, server_url, actions, seconds, game)
    finally:
        if server_url:
            drop_site(server_url)


def _bench_server(tables: int, workers: int, database_url: str | None, actions: int, seconds: float,
                  game: str) -> dict[str, Any]:
    policy = policy_for(game)
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        root = Path(tmp)
        instance = root / "instance"
        registry: GameRegistry | None = None
        extra: list[Path] = []
        options: dict[Any, Any] = {}
        if game == BENCH_GAME:
            registry = scaffold_registry(root)
            extra = [root / "scaffold_games"]
            options = {"target": 3}
        site = Site.open(instance, database_url=database_url, registry=registry)
        try:
            # the scaffolded game with 2 players; any other with as many as it seats
            players = 2 if game == BENCH_GAME else site.runtime.registry.get(game).info.max_players
            per_game = 70 if game == BENCH_GAME else 400  # actions a game takes, roughly
            count = tables * (actions // (tables * per_game) + 2)
            specs = create_tables(site, game, count, players, options)
            server = ServerProcess.start(instance, workers, database_url, extra)
            try:
                run = LoadRun(server.host, server.port, specs, policy, slots=tables,
                              max_actions=actions)
                settle_heap()  # the bots' process, as the workers do
                server_before = server.cpu_seconds()
                client_before = resource.getrusage(resource.RUSAGE_SELF)
                elapsed = run.run(timeout=seconds)
                client_after = resource.getrusage(resource.RUSAGE_SELF)
                server_after = server.cpu_seconds()
            finally:
                server.stop()
            result = summary(run, elapsed)
            done = max(1, run.stats.actions)
            result.update({
                "tables": tables, "workers": workers, "game": game, "backend": site.store.dialect,
                # CPU per action during the run: the bots (this process) and the server's
                # processes (not the database server's).
                "client_cpu_ms_per_action": round(_cpu(client_before, client_after) * 1000 / done, 3),
                "server_cpu_ms_per_action": (
                    round((server_after - server_before) * 1000 / done, 3)
                    if server_before is not None and server_after is not None else None),
            })
            return result
        finally:
            site.close()


def _cpu(before: resource.struct_rusage, after: resource.struct_rusage) -> float:
    """User + system seconds between two readings."""
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def check_gamelogs(site: Site, table_ids: Iterable[int]) -> list[str]:
    """Every table's gamelog ids are 1..n with no gap, in order; problems found."""
    problems = []
    for table_id in table_ids:
        with site.store.connect(table_id, write=False) as db:
            q = '"' if db.dialect == "postgresql" else "`"
            ids = [int(r["i"]) for r in db.execute(
                f"SELECT gamelog_packet_id AS i FROM {q}gamelog{q} ORDER BY gamelog_packet_id").rows]
        if ids != list(range(1, len(ids) + 1)):
            missing = sorted(set(range(1, (ids[-1] if ids else 0) + 1)) - set(ids))[:5]
            problems.append(f"table {table_id}: gamelog ids with gaps (missing {missing})")
    return problems
