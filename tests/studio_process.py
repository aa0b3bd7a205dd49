"""``arena serve`` as a real process in a folder of its own, and ``arena`` commands run
beside it, as a developer runs them in a terminal."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ARENA = shutil.which("arena", path=str(Path(sys.executable).parent)) or "arena"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def user_env(work: Path, **extra: str) -> dict[str, str]:
    """The environment of a developer in ``work``: the test run's site variables removed, and
    ``work`` first on ``PYTHONPATH`` when it holds a ``games`` package (it then stands for a
    checkout's ``games/``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARENA_INSTANCE", "ARENA_DATABASE_URL", "ARENA_EXTRA_GAMES", "ARENA_BUS_URL")}
    if (work / "games" / "__init__.py").exists():
        env["PYTHONPATH"] = os.pathsep.join([str(work), *filter(None, [env.get("PYTHONPATH")])])
    env.update(extra)
    return env


def arena(work: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` run in ``work`` (its site: ``work/instance``)."""
    return subprocess.run([ARENA, *args], cwd=work, env=env or user_env(work), capture_output=True,
                          text=True, timeout=timeout)


class StudioProcess:
    """``arena serve --port P`` started in ``work``; its output goes to ``work/studio.log``."""

    def __init__(self, work: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.work = work
        self.env = env or user_env(work)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = work / "studio.log"
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([ARENA, "serve", "--port", str(self.port), *args], cwd=work,
                                         env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        self._wait_ready(90)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"arena serve stopped at start:\n{self.log()}")
            try:
                if self.get("/")[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"arena serve did not answer in {timeout} s:\n{self.log()}")
            time.sleep(0.1)

    def get(self, path: str) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path)
            answer = conn.getresponse()
            return answer.status, answer.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log():
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} is not in the studio's output:\n{self.log()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the studio and what it started (``--debug``'s reloader child): its session."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)  # a reloader child left behind
        except ProcessLookupError:
            pass
