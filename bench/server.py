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
    # The bots' process lets the tables' connections go (a later use opens them again): the
    # workers play the tables, and the bots need the open files for their sockets (an SQLite
    # table kept open holds three).
    site.store.close()
    return out


def bench_server(tables: int = 20, workers: int = 2, database_url: str | None = None,
                 actions: int | None = 20000, seconds: float = 60.0, game: str = BENCH_GAME,
                 pace: float | None = None, seed: int = 1) -> dict[str, Any]:
    """Start the server with ``workers`` gevent workers, play ``tables`` tables at once with
    bots over HTTP (every player holding its event stream; with ``pace``, each bot thinks
    that many seconds on average before a move), and measure; one JSON-able dict (see the
    README)."""
    import uuid

    from framework.storage.backends import drop_site, scratch_site_url

    # A server run gets its own schemas / databases on the server, dropped afterwards.
    server_url = scratch_site_url(database_url, f"bench{uuid.uuid4().hex[:8]}") if database_url else None
    try:
        return _bench_server(tables, workers, server_url, actions, seconds, game, pace, seed)
    finally:
        if server_url:
            drop_site(server_url)


def tables_needed(tables: int, seconds: float, actions: int | None, per_game: int,
                  pace: float | None) -> int:
    """How many tables a run creates: those played at once, and enough to take the place
    of those that end during the run (at ``pace``, a table moves every ``pace`` seconds).

    >>> tables_needed(4000, 120, None, 400, 5.0)
    4000
    >>> tables_needed(20, 60, 20000, 70, None)
    300
    """
    if pace:
        per_table = seconds / pace * 1.5 if actions is None else min(seconds / pace * 1.5, actions / tables)
        return tables * (1 + int(per_table // per_game))
    return tables * ((actions or 20000) // (tables * per_game) + 2)


def _bench_server(tables: int, workers: int, database_url: str | None, actions: int | None,
                  seconds: float, game: str, pace: float | None, seed: int) -> dict[str, Any]:
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
            count = tables_needed(tables, seconds, actions, per_game, pace)
            specs = create_tables(site, game, count, players, options)
            streams = tables * players
            allow_open_files(streams + 3 * tables + 4000)
            server = ServerProcess.start(instance, workers, database_url, extra,
                                         env=stream_env(streams, workers, tables))
            memory = WorkerMemory(server)
            cpu: dict[str, tuple[float | None, resource.struct_rusage]] = {}
            try:
                memory.mark("idle")
                memory.start()
                run = LoadRun(server.host, server.port, specs, policy, slots=tables,
                              max_actions=actions, seed=seed, pace=pace, one_session=True, from_log=True,
                              on_phase=lambda phase: _phase(memory, server, phase, cpu))
                settle_heap()  # the bots' process, as the workers do
                elapsed = run.run(timeout=seconds)
            finally:
                memory.stop()
                server.stop()
                if os.environ.get("ARENA_BENCH_DEBUG"):
                    print(server.log()[-8000:], file=sys.stderr)
            result = summary(run, elapsed)
            done = max(1, len(run.stats.latencies))  # the actions of the measured part
            (server_before, client_before), (server_after, client_after) = cpu["open"], cpu["played"]
            result.update({
                "tables": tables, "workers": workers, "game": game, "backend": site.store.dialect,
                "pace_s": pace, "seed": seed, "streams": streams,
                # CPU per action while the bots played (not while they opened): the bots
                # (this process) and the server's processes (not the database server's).
                "client_cpu_ms_per_action": round(_cpu(client_before, client_after) * 1000 / done, 3),
                "server_cpu_ms_per_action": (
                    round((server_after - server_before) * 1000 / done, 3)
                    if server_before is not None and server_after is not None else None),
                **memory.report(streams),
                "load": [round(x, 2) for x in os.getloadavg()],
            })
            return result
        finally:
            site.close()


def allow_open_files(needed: int) -> int:
    """Raise this process's open-files limit, soft and hard, to ``needed`` where the system
    lets it (a privileged user, up to the kernel's ``fs.nr_open``), so that the server's
    workers and the bots, which inherit it, can hold a large run's sockets and table files;
    returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        try:
            ceiling = int(Path("/proc/sys/fs/nr_open").read_text())
        except (OSError, ValueError):
            ceiling = needed
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, ceiling), min(needed, ceiling)))
        except (ValueError, OSError):  # not privileged: the hard limit stays
            pass
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def stream_env(streams: int, workers: int, tables: int = 0) -> dict[str, str]:
    """The server's settings for a run holding ``streams`` event streams on ``tables``
    tables: each worker may hold every stream (the kernel hands connections out unevenly)
    and keeps every table's SQLite file open (a table reopened costs a checkpoint and a
    schema read), within its open-files limit (3 files per table: the file, its WAL, its
    shared memory)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = max(2000, min(streams + 1000, soft - 1000))
    per_worker = streams // max(1, workers)
    tables_open = max(256, min(tables + 64, (soft - per_worker - 3000) // 3))
    return {"ARENA_WORKER_CONNECTIONS": str(room), "ARENA_BACKLOG": "4096",
            "ARENA_SQLITE_MAX_OPEN": str(tables_open)}


def _phase(memory: WorkerMemory, server: ServerProcess, phase: str,
           cpu: dict[str, tuple[float | None, resource.struct_rusage]]) -> None:
    if phase in ("open", "played"):
        cpu[phase] = (server.cpu_seconds(), resource.getrusage(resource.RUSAGE_SELF))
    if phase == "played":
        return
    memory.mark(phase)
    if phase == "closed":
        # A worker sees a stream's client gone at its next write: the keep-alive comment
        # (SSE_KEEPALIVE, 15 s) at the latest; then whatever it gives back shows.
        time.sleep(CLOSED_SETTLE_S)
        memory.mark("closed_settled")


#: seconds waited after the client closed every stream before the workers' memory is read
CLOSED_SETTLE_S = 17.0
#: seconds between two searches of the workers' pids while their memory is sampled
PIDS_S = 5.0


class WorkerMemory:
    """The resident memory of each worker (``/proc/<pid>/status``'s VmRSS), sampled every
    ``interval`` seconds during a run on a thread of its own, and read at named moments
    (``mark``: idle, streams open, streams closed)."""

    def __init__(self, server: ServerProcess, interval: float = 0.5) -> None:
        self.server = server
        self.interval = interval
        self.peak: dict[int, int] = {}  # pid -> highest RSS seen, in KiB
        self.peak_total = 0  # the highest sum over the workers in one sample
        self.marks: dict[str, dict[int, int]] = {}
        self.fds: dict[str, int] = {}  # files the workers hold open at each mark
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="worker-memory", daemon=True)
        self._pids: list[int] = []
        self._pids_at = float("-inf")

    def worker_pids(self) -> list[int]:
        """The workers, found again every ``PIDS_S`` seconds (or when one is gone): the
        search reads every process's stat in /proc, and this thread shares the
        interpreter with the bots' loop."""
        now = time.monotonic()
        if now - self._pids_at >= PIDS_S or not all(Path(f"/proc/{pid}").exists() for pid in self._pids):
            self._pids, self._pids_at = self.server.worker_pids(), now
        return self._pids

    def sample(self) -> dict[int, int]:
        rss = {pid: kib for pid in self.worker_pids() if (kib := rss_kib(pid)) is not None}
        for pid, kib in rss.items():
            self.peak[pid] = max(self.peak.get(pid, 0), kib)
        self.peak_total = max(self.peak_total, sum(rss.values()))
        return rss

    def mark(self, name: str) -> None:
        self._pids_at = float("-inf")  # a mark looks for the workers afresh
        self.marks[name] = self.sample()
        self.fds[name] = sum(open_files(pid) for pid in self.worker_pids())

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def report(self, streams: int) -> dict[str, Any]:
        """Per worker, in MiB (in pid order): at each mark and at the peak; the peak of all
        workers together; KiB per open stream (streams open over idle)."""
        def mib(values: dict[int, int]) -> list[float]:
            return [round(values[pid] / 1024, 1) for pid in sorted(values)]

        out: dict[str, Any] = {f"worker_rss_{name}_mib": mib(values) for name, values in self.marks.items()}
        out["worker_rss_peak_mib"] = mib(self.peak)
        out["workers_rss_peak_total_mib"] = round(self.peak_total / 1024, 1)
        out["worker_open_files"] = dict(self.fds)
        idle, opened = self.marks.get("idle"), self.marks.get("open")
        if idle and opened and streams:
            out["kib_per_open_stream"] = round((sum(opened.values()) - sum(idle.values())) / streams, 1)
        settled = self.marks.get("closed_settled")
        if idle and opened and settled and sum(opened.values()) > sum(idle.values()):
            grown = sum(opened.values()) - sum(idle.values())
            out["stream_memory_given_back"] = round((sum(opened.values()) - sum(settled.values())) / grown, 2)
        return out


def open_files(pid: int) -> int:
    """How many files (sockets among them) a process holds open; 0 when it is gone."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def rss_kib(pid: int) -> int | None:
    """A process's resident memory in KiB, or None when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


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
