"""``arena serve --production``: gunicorn with several gevent workers on one port
(``gevent_pywsgi``, gevent's WSGI server, with the handler of ``framework.web.worker``).

The master migrates the platform database once, then forks the workers; each worker builds
its own app (its own connections; its bus to the other workers and machines opens on first
use, in the worker: ``framework.live.streams``).
No state lives in a worker, so any worker can take any request. Like

    gunicorn -k gevent_pywsgi -w 4 -b 127.0.0.1:8000 'framework.web:create_app()'

with ``ARENA_INSTANCE`` and ``ARENA_DATABASE_URL`` in the environment, except that there
each worker migrates the platform database in turn, and that ``serve_production`` sets its
own timeouts and connections per worker (``settings`` below) and its own worker class,
``framework.web.worker.ArenaWorker``: gevent.pywsgi alone has no deadline for a request's
head and ignores ``keepalive`` and gunicorn's request limits (docs/security.md, "Limits").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from framework.game.registry import GameRegistry

DEFAULT_WORKERS = max(2, os.cpu_count() or 2)


def registry_from_env() -> Any:
    """The games of this site, plus those in ``ARENA_EXTRA_GAMES`` (folders of game folders,
    separated by ``:``; the benchmarks use it for a scaffolded game)."""
    extra = [Path(p) for p in os.environ.get("ARENA_EXTRA_GAMES", "").split(":") if p]
    return registry_with(extra) if extra else None


def require_server_extra() -> None:
    """gunicorn and gevent are installed.

    Raises:
        ConfigError: they are not (``pip install 'arena[server]'``).
    """
    try:
        import gevent  # noqa: F401 (the workers' class)
        import gunicorn  # noqa: F401
    except ImportError as exc:
        from framework.core.errors import ConfigError

        raise ConfigError("the production server needs gunicorn and gevent: "
                          "pip install -e '.[server]'") from exc


def registry_with(folders: list[Path]) -> GameRegistry:
    """The installed games plus every game folder found in ``folders`` (loaded on first use)."""
    from framework.game.registry import GameRegistry

    return GameRegistry(extra_folders=folders)


def create_worker_app() -> Any:
    """The app of one worker (called after the fork, in the worker)."""
    from framework.web import create_app

    config: dict[str, Any] = {}
    registry = registry_from_env()
    if registry is not None:
        config["ARENA_REGISTRY"] = registry
    if os.environ.get("ARENA_INSTANCE"):
        config["ARENA_INSTANCE"] = os.environ["ARENA_INSTANCE"]
    app = create_app(config)
    settle_heap()
    start_heap_trimmer()
    return app


def start_heap_trimmer() -> None:
    """Give the worker's freed memory back to the system as it goes (``framework.web.heap``):
    every ``ARENA_HEAP_TRIM_S`` seconds (default 10; 0: never)."""
    from framework.web.heap import DEFAULT_TRIM_S, HeapTrimmer

    raw = os.environ.get("ARENA_HEAP_TRIM_S", "").strip()
    interval = float(raw) if raw else DEFAULT_TRIM_S
    if interval > 0:
        HeapTrimmer(interval).start()


#: The worker's garbage collector thresholds (``gc.set_threshold``; Python's are 700, 10, 10).
#: What an action or a stream allocates mostly dies young, freed by its reference count;
#: what lives on (open streams, tables kept open, kept states) is what a collection of the
#: older generations walks, every greenlet of the worker waiting meanwhile: with Python's
#: thresholds, at 1,000 tables (4,000 open streams) each worker ran a full collection every
#: few seconds, 130 ms on average and up to 390 ms. Full collections are much rarer here
#: (the young generation is larger, and a full one waits for 200 of the middle one):
#: ``arena bench server --tables 1000 --pace 5`` measured action p99 62-123 ms with
#: Python's thresholds and 21-46 ms with these, the same memory and CPU per action.
GC_THRESHOLDS = (2000, 10, 200)


def settle_heap() -> None:
    """Move everything a worker has loaded so far (modules, the app, the games) out of the
    garbage collector's sight, and collect the older generations more rarely
    (``GC_THRESHOLDS``).

    Those objects live as long as the worker; without this, every full collection walks
    all of them (hundreds of thousands: SQLAlchemy, Flask, the catalogs), and the requests
    that land during it wait. ``arena bench server`` measured about a fifth more actions per
    second with it.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def prepare(instance: Path, database_url: str | None) -> None:
    """Create and migrate the site once, before any worker starts.

    In a child process: the master must not import the database drivers before it forks,
    or psycopg would keep the blocking wait it chose before gevent patched ``select``.
    """
    import subprocess
    import sys

    env = {**os.environ, "ARENA_INSTANCE": str(instance)}
    if database_url:
        env["ARENA_DATABASE_URL"] = database_url
    code = ("import os; from framework.site import Site; "
            "Site.open(os.environ['ARENA_INSTANCE'], os.environ.get('ARENA_DATABASE_URL')).close()")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        from framework.core.errors import ConfigError

        raise ConfigError(f"cannot prepare the site: {proc.stderr.strip()[-2000:]}")


#: gunicorn's connection settings: (environment variable, default). ``worker_connections``
#: bounds the connections one worker holds at once (more wait in the ``backlog``); the
#: request limits and ``keepalive`` are applied by ``framework.web.worker``.
CONNECTION_SETTINGS: dict[str, tuple[str, int]] = {
    "worker_connections": ("ARENA_WORKER_CONNECTIONS", 2000),
    "backlog": ("ARENA_BACKLOG", 2048),
    "keepalive": ("ARENA_KEEPALIVE", 5),
    "limit_request_line": ("ARENA_LIMIT_REQUEST_LINE", 4094),
    "limit_request_fields": ("ARENA_LIMIT_REQUEST_FIELDS", 100),
    "limit_request_field_size": ("ARENA_LIMIT_REQUEST_FIELD_SIZE", 8190),
}


def connection_settings() -> dict[str, int]:
    """gunicorn's connection settings, each from its environment variable or its default.

    Raises:
        ConfigError: a variable is not a whole number.
    """
    out = {}
    for setting, (name, default) in CONNECTION_SETTINGS.items():
        raw = os.environ.get(name, "").strip()
        try:
            out[setting] = int(raw) if raw else default
        except ValueError:
            from framework.core.errors import ConfigError

            raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    return out


def serve_production(instance: Path, host: str = "127.0.0.1", port: int = 8000,
                     workers: int = DEFAULT_WORKERS, database_url: str | None = None,
                     options: dict[str, Any] | None = None) -> None:
    """Run gunicorn (gevent workers) in this process until it is stopped.

    Raises:
        ConfigError: gunicorn or gevent is missing (``pip install 'arena[server]'``).
    """
    require_server_extra()
    from gunicorn.app.base import BaseApplication

    instance = Path(instance).resolve()
    os.environ["ARENA_INSTANCE"] = str(instance)
    os.environ.setdefault("ARENA_MODE", "production")  # roles checked (framework/web/access.py)
    if database_url:
        os.environ["ARENA_DATABASE_URL"] = database_url
    prepare(instance, database_url)

    settings: dict[str, Any] = {
        "bind": f"{host}:{port}", "workers": workers, "worker_class": "framework.web.worker.ArenaWorker",
        "timeout": 60, "graceful_timeout": 10, **connection_settings(),
        # no control socket: its default path is shared by every gunicorn of the machine
        "control_socket_disable": True, "preload_app": False, "accesslog": None, "errorlog": "-",
        "loglevel": os.environ.get("ARENA_LOG_LEVEL", "warning"),
        **(options or {}),
    }

    class ArenaApplication(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return create_worker_app()

    profile_dir = os.environ.get("ARENA_PROFILE_DIR")
    if profile_dir:
        # Each worker profiles itself to <dir>/worker-<pid>.prof (for finding where a
        # benchmark's time goes: python -m pstats FILE).
        def post_fork(server: Any, worker: Any) -> None:
            import cProfile

            worker.arena_profile = cProfile.Profile()
            worker.arena_profile.enable()

        def worker_exit(server: Any, worker: Any) -> None:
            profile = getattr(worker, "arena_profile", None)
            if profile is not None:
                profile.disable()
                profile.dump_stats(str(Path(profile_dir) / f"worker-{os.getpid()}.prof"))

        settings.update(post_fork=post_fork, worker_exit=worker_exit)

    ArenaApplication().run()


def main() -> None:
    """``python -m framework.web.server HOST PORT WORKERS`` (what ``arena bench server`` starts)."""
    import sys

    host, port, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    from framework.site import default_instance_path

    serve_production(default_instance_path(), host, port, workers,
                     os.environ.get("ARENA_DATABASE_URL") or None)


if __name__ == "__main__":
    main()
