"""The studio's live reload: a game registry that notices edits to a game's files and loads
the game again, and finds games made while it runs (``arena serve``, never production)."""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from framework.core.errors import ConfigError
from framework.game.registry import GameDefinition, GameRegistry, games_package_folders

log = logging.getLogger(__name__)

#: How often (seconds) a game's files are looked at, at most: every request asks for its game.
RECHECK_S = 1.0
#: A change to one of these loads the game's modules again; the other files (templates, JS,
#: CSS, catalogs, help) are read from disk when used, so a change only tells the open pages.
CODE_SUFFIXES = frozenset({".py", ".sql"})
#: Folders of a game whose files are not the game's (its tests, caches, editors' files).
SKIPPED_FOLDERS = frozenset({"__pycache__", "tests", "node_modules"})

#: A game's files: path relative to its folder -> (modification time in ns, size).
Fingerprint = dict[str, tuple[int, int]]


def fingerprint(folder: Path) -> Fingerprint:
    """What the files of the game in ``folder`` are now (hidden files, editors' backups and
    swap files, compiled Python and the tests left out)."""
    found: Fingerprint = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS and not d.startswith(".")]
        for name in files:
            if name.startswith((".", "#")) or name.endswith(("~", ".pyc", ".swp", ".swx")):
                continue
            path = os.path.join(root, name)
            try:
                st = os.stat(path)
            except OSError:
                continue  # removed while we looked
            found[os.path.relpath(path, folder)] = (st.st_mtime_ns, st.st_size)
    return found


def _drop_bytecode(source: Path) -> None:
    """Remove a changed module's cached bytecode: Python checks it by the source's time in
    whole seconds and its size, so a same-size edit within one second would look unchanged."""
    try:
        os.unlink(importlib.util.cache_from_source(str(source)))
    except (OSError, ValueError, NotImplementedError):
        pass  # none was written


def changed_files(old: Fingerprint, new: Fingerprint) -> list[str]:
    """The files added, removed or modified between two fingerprints, sorted.

    >>> changed_files({"a.py": (1, 2), "b.js": (1, 2)}, {"a.py": (1, 2), "b.js": (3, 2), "c.po": (1, 1)})
    ['b.js', 'c.po']
    """
    return sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))


@dataclass(frozen=True)
class GameStatus:
    """What the studio knows of a game now: ``version`` changes whenever its files change
    (an open page compares it with the one it was drawn with); ``error``: why it does not load."""

    name: str
    version: int
    error: ConfigError | None


class ReloadingRegistry(GameRegistry):
    """A ``GameRegistry`` that looks at a game's files at most every ``recheck_s`` seconds
    when the game is asked for: after an edit to its Python or ``dbmodel.sql`` its modules are
    dropped and imported again (the tables in play run the new code from their next action);
    after any edit its version changes. A game that no longer loads keeps its error (file and
    line) until its files change again; the other games are not touched. ``names()`` looks for
    new games at most every ``recheck_s`` seconds, ``get`` at once for a name it does not know.

    ``report`` receives one line per event (a game reloaded, broken, found); the default logs it.
    """

    def __init__(self, packages: dict[str, str] | None = None, extra_folders: list[Path] | None = None,
                 recheck_s: float = RECHECK_S, report: Callable[[str], None] | None = None) -> None:
        self._lock = threading.RLock()
        self.recheck_s = recheck_s
        self._report = report or log.warning
        self._prints: dict[str, Fingerprint] = {}
        self._checked: dict[str, float] = {}
        self._versions: dict[str, int] = {}
        self._errors: dict[str, ConfigError] = {}
        self._started = False  # the games found at start are not news
        super().__init__(packages, extra_folders)
        self._started = True

    def names(self) -> list[str]:
        with self._lock:
            if time.monotonic() - self._scanned_at >= self.recheck_s:
                try:
                    self.rescan()
                except ConfigError as exc:
                    self._report(f"cannot list the games: {exc}")
            return super().names()

    def rescan(self) -> list[str]:
        with self._lock:
            new = super().rescan()
            if self._started:
                for name in new:
                    self._report(f"new game found: {name}")
            return new

    def get(self, name: str) -> GameDefinition:
        """The game as its files are now (see the class).

        Raises:
            NotFoundError: no game has that name.
            ConfigError: the game does not load (the same error until its files change).
        """
        with self._lock:
            if name not in self._packages:
                self.rescan()  # a new game: its files are looked at before it loads
            self._check(name)
            error = self._errors.get(name)
            if error is not None:
                raise error
            try:
                return super().get(name)
            except ConfigError as exc:
                self._broken(name, exc)
                raise

    def status(self, name: str) -> GameStatus:
        """The game's version and load error, its files looked at first (see ``get``).

        Raises:
            NotFoundError: no game has that name.
        """
        with self._lock:
            try:
                self.get(name)
            except ConfigError:
                pass
            return GameStatus(name, self._versions.get(name, 0), self._errors.get(name))

    def game_folders(self) -> list[Path]:
        """The folders of the games' files (each game's, and those that hold games)."""
        folders = [folder for name in self.names() if (folder := self.directory_of(name)) is not None]
        return sorted({*folders, *self._extra, *games_package_folders()})

    def check_all(self) -> list[GameStatus]:
        """Every game loaded (or its error reported), as the studio starts."""
        return [self.status(name) for name in self.names()]

    def _broken(self, name: str, exc: ConfigError) -> None:
        if self._errors.get(name) is not exc:
            self._errors[name] = exc
            self._report(f"game {name} does not load: {exc}")

    def _check(self, name: str) -> None:
        now = time.monotonic()
        if now - self._checked.get(name, float("-inf")) < self.recheck_s:
            return
        self._checked[name] = now
        folder = self.directory_of(name)
        if folder is None or not folder.is_dir():
            return
        new = fingerprint(folder)
        old = self._prints.get(name)
        self._prints[name] = new
        if old is None or old == new:
            return  # first look: what loads next is what is on disk now
        changed = changed_files(old, new)
        self._versions[name] = self._versions.get(name, 0) + 1
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
        if name not in self._errors and not any(Path(p).suffix in CODE_SUFFIXES for p in changed):
            self._report(f"game {name}: {shown} changed")
            return
        self._errors.pop(name, None)
        for path in changed:
            if path.endswith(".py"):
                _drop_bytecode(folder / path)
        self.forget(name)
        try:
            super().get(name)
        except ConfigError as exc:
            self._broken(name, exc)
            return
        self._report(f"game {name} reloaded ({shown} changed)")

