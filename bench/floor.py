"""The floor of ``arena bench server``: what the machine needs for a durable move over HTTP.

A Flask app on gunicorn's gevent workers (the same server stack as Arena's) whose one route,
``POST /t/<n>/act``, runs one SQLite write transaction in table ``n``'s own file (bump the
move counter, insert one log row) and answers a small JSON object. Clients post moves on
kept-alive connections, one closed loop per table, as the bots of ``arena bench server`` do.
The server CPU per action of this run is the denominator of the ratios the issue sets goals
for (``arena bench ratios``).
"""

from __future__ import annotations

import http.client
import json
import os
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.server import ServerProcess, free_port

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS global (global_id INTEGER PRIMARY KEY, global_value INTEGER);"
    "CREATE TABLE IF NOT EXISTS gamelog (gamelog_packet_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " gamelog_move_id INTEGER, gamelog_notification TEXT);"
    "INSERT OR IGNORE INTO global VALUES (3, 0);"
)


def make_tables(folder: Path, count: int) -> None:
    """``count`` table files (WAL, synchronous=NORMAL, as Arena's tables)."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        conn = sqlite3.connect(folder / f"{n}.sqlite")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)
        conn.close()


def create_floor_app(folder: Path) -> Any:
    """The floor's WSGI app: Flask, one route, one transaction per POST."""
    from flask import Flask, Response

    app = Flask("arena_floor")
    local = threading.local()

    def connection(table: int) -> sqlite3.Connection:
        conns: dict[int, sqlite3.Connection] | None = getattr(local, "conns", None)
        if conns is None:
            conns = local.conns = {}
        conn = conns.get(table)
        if conn is None:
            conn = sqlite3.connect(folder / f"{table}.sqlite", isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA synchronous=NORMAL")
            conns[table] = conn
        return conn

    @app.get("/")
    def ready() -> Response:
        return Response("ok", mimetype="text/plain")

    @app.post("/t/<int:table>/act")
    def act(table: int) -> Response:
        conn = connection(table)
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("UPDATE global SET global_value = global_value + 1 WHERE global_id = 3")
            move = conn.execute("SELECT global_value FROM global WHERE global_id = 3").fetchone()[0]
            conn.execute("INSERT INTO gamelog (gamelog_move_id, gamelog_notification) VALUES (?, ?)",
                         (move, '[{"type": "move"}]'))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return Response(json.dumps({"ok": True, "move": move}), mimetype="application/json")

    return app


def serve(host: str, port: int, workers: int, folder: Path) -> None:
    """Run the floor on gunicorn with gevent workers until stopped."""
    from gunicorn.app.base import BaseApplication

    settings = {"bind": f"{host}:{port}", "workers": workers, "worker_class": "gevent",
                "worker_connections": 2000, "keepalive": 5, "control_socket_disable": True,
                "accesslog": None, "errorlog": "-", "loglevel": "warning"}

    class FloorApplication(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return create_floor_app(folder)

    FloorApplication().run()


def start_floor(folder: Path, workers: int, log_path: Path) -> ServerProcess:
    import subprocess

    port = free_port()
    log_file = open(log_path, "ab")  # noqa: SIM115 - the child writes it until it stops
    proc = subprocess.Popen([sys.executable, "-m", "bench.floor", "127.0.0.1", str(port),
                             str(workers), str(folder)],
                            stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    log_file.close()
    server = ServerProcess(proc, "127.0.0.1", port, log_path)
    server.wait_ready(60, workers)
    return server


def bench_floor(tables: int = 20, workers: int = 2, seconds: float = 10.0) -> dict[str, Any]:
    """Play ``tables`` closed loops of moves against the floor for ``seconds``: actions/s and
    server CPU per action."""
    with tempfile.TemporaryDirectory(prefix="arena-floor-") as tmp:
        folder = Path(tmp) / "tables"
        make_tables(folder, tables)
        server = start_floor(folder, workers, Path(tmp) / "floor.log")
        counts = [0] * tables
        errors = [0]
        stop = threading.Event()

        def loop(n: int) -> None:
            conn = http.client.HTTPConnection(server.host, server.port)
            while not stop.is_set():
                try:
                    conn.request("POST", f"/t/{n}/act", body=b"", headers={"Content-Length": "0"})
                    answer = conn.getresponse()
                    answer.read()
                    if answer.status == 200:
                        counts[n] += 1
                    else:
                        errors[0] += 1
                except (OSError, http.client.HTTPException):
                    errors[0] += 1
                    conn.close()
                    conn = http.client.HTTPConnection(server.host, server.port)
            conn.close()

        try:
            threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(tables)]
            before = server.cpu_seconds()
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join(timeout=10)
            elapsed = time.perf_counter() - start
            after = server.cpu_seconds()
        finally:
            server.stop()
        done = max(1, sum(counts))
        return {
            "what": "floor: Flask + gevent + one SQLite transaction per POST",
            "tables": tables, "workers": workers, "actions": sum(counts), "errors": errors[0],
            "actions_per_s": round(sum(counts) / elapsed, 1),
            "server_cpu_ms_per_action": (round((after - before) * 1000 / done, 3)
                                         if before is not None and after is not None else None),
        }


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
