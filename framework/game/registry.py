"""Game discovery: packages under ``games/`` and the ``arena.games`` entry-point group."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import linecache
import os
import pkgutil
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from framework.core.errors import ConfigError, NotFoundError
from framework.game.gameinfo import GameInfo
from framework.game.modern.compiler import compile_states
from framework.game.options import Option, OptionCatalog, Preference
from framework.game.states import StateMachine
from framework.game.stats import Stat, StatCatalog
from framework.game.table import Table
from framework.i18n import register_game_directory

ENTRY_POINT_GROUP = "arena.games"
#: The package whose sub-packages are games (``games/`` of a checkout).
GAMES_PACKAGE = "games"
#: Folders of game folders outside ``games/``, separated by ``:`` (every command reads it).
EXTRA_GAMES_ENV = "ARENA_EXTRA_GAMES"
#: The module name a game found in an ``ARENA_EXTRA_GAMES`` folder is loaded under.
EXTRA_MODULE_PREFIX = "arena_extra_"


class GameLoadError(ConfigError):
    """A game's code does not import (a syntax error, an exception at import): the message
    names the game, the error, and the file and line at fault.

    ``file`` is shown relative to the working folder when it is inside it; ``line`` is 0 and
    ``file`` empty when no frame of the game's own files can be named.
    """

    def __init__(self, game: str, exc: BaseException, directory: Path | None) -> None:
        self.game = game
        self.file, self.line = _where(exc, directory)
        self.source = linecache.getline(self.file, self.line).strip() if self.file else ""
        if isinstance(exc, SyntaxError):
            self.error = f"{type(exc).__name__}: {exc.msg}"
        else:
            self.error = f"{type(exc).__name__}: {exc}"
        self.file = _shown_path(self.file)
        where = f" ({self.file}, line {self.line})" if self.file else ""
        super().__init__(f"game {game!r}: cannot import its modules: {self.error}{where}")


def _where(exc: BaseException, directory: Path | None) -> tuple[str, int]:
    """The file and line an import failed at: a syntax error's own, else the innermost frame
    inside the game's folder, else the innermost frame."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return exc.filename, exc.lineno or 0
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if directory is not None and _is_within(f.filename, directory)]
    chosen = (inside or frames)[-1:] if frames else []
    return (chosen[0].filename, chosen[0].lineno or 0) if chosen else ("", 0)


def _is_within(filename: str, directory: Path) -> bool:
    try:
        Path(filename).resolve().relative_to(directory.resolve())
        return True
    except (ValueError, OSError):
        return False


def _shown_path(filename: str) -> str:
    if not filename:
        return ""
    try:
        return str(Path(filename).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return filename


@dataclass
class GameDefinition:
    """A loaded, validated game: everything the runtime needs to run its tables."""

    info: GameInfo
    package: ModuleType | None
    directory: Path
    table_class: type[Table]
    states: StateMachine
    stats: StatCatalog
    options: OptionCatalog
    dbmodel: str

    @property
    def name(self) -> str:
        return self.info.name

    def check_player_count(self, count: int) -> None:
        if count not in self.info.players:
            if self.info.player_counts:
                wanted = ", ".join(map(str, self.info.player_counts))
            elif self.info.min_players == self.info.max_players:
                wanted = str(self.info.min_players)
            else:
                wanted = f"{self.info.min_players} to {self.info.max_players}"
            from framework.core.errors import UserError

            raise UserError(
                "${game} is played by ${wanted} players, not ${count}",
                "bad_player_count", game=self.info.display_name, wanted=wanted, count=count,
            )


def _optional_module(package: ModuleType, name: str) -> ModuleType | None:
    full = f"{package.__name__}.{name}"
    if importlib.util.find_spec(full) is None:
        return None
    return importlib.import_module(full)


def load_game(package: ModuleType) -> GameDefinition:
    """Validate and load the game in ``package``.

    Raises:
        ConfigError: something in the game's files is missing or invalid; the message names it.
    """
    label = package.__name__
    info = getattr(package, "GAME_INFO", None)
    if not isinstance(info, GameInfo):
        raise ConfigError(f"game package {label!r}: __init__.py must define GAME_INFO = GameInfo(...)")
    if not info.name.isidentifier():
        raise ConfigError(f"game {info.name!r}: the name must be an identifier")
    if not 1 <= info.min_players <= info.max_players:
        raise ConfigError(f"game {info.name!r}: min_players/max_players are inconsistent")
    directory = Path(package.__file__ or "").parent
    try:
        game_module = importlib.import_module(f"{label}.game")
        states_module = importlib.import_module(f"{label}.states")
        stats_module = _optional_module(package, "stats")
        options_module = _optional_module(package, "options")
    except ConfigError:
        raise
    except Exception as exc:
        raise GameLoadError(info.name, exc, directory) from exc
    classes = [
        obj for obj in vars(game_module).values()
        if inspect.isclass(obj) and issubclass(obj, Table) and obj is not Table
        and obj.__module__ == game_module.__name__
    ]
    if len(classes) != 1:
        raise ConfigError(
            f"game {info.name!r}: game.py must define exactly one Table subclass "
            f"(found {len(classes)})"
        )
    table_class = classes[0]
    states: Iterable[object] = getattr(states_module, "STATES", None) or []
    if not states:
        raise ConfigError(f"game {info.name!r}: states.py (or states/__init__.py) must define "
                          "STATES = [State(...) or GameState classes, ...]")
    stats: Iterable[Stat] = getattr(stats_module, "STATS", []) if stats_module else []
    options: Iterable[Option] = getattr(options_module, "OPTIONS", []) if options_module else []
    prefs: Iterable[Preference] = (
        getattr(options_module, "PREFERENCES", []) if options_module else []
    )
    register_game_directory(info.name, directory, replace=False)
    dbmodel_path = directory / "dbmodel.sql"
    dbmodel = dbmodel_path.read_text(encoding="utf-8") if dbmodel_path.exists() else ""
    return build_definition(info, table_class, states, stats, options, prefs, dbmodel,
                            directory=directory, package=package)


def build_definition(
    info: GameInfo,
    table_class: type[Table],
    states: Iterable[object],
    stats: Iterable[Stat] = (),
    options: Iterable[Option] = (),
    preferences: Iterable[Preference] = (),
    dbmodel: str = "",
    directory: Path | None = None,
    package: ModuleType | None = None,
) -> GameDefinition:
    """Validate a game given as objects (what ``load_game`` reads from a package's files).

    Raises:
        ConfigError: naming the game, the item and the field at fault.
    """
    definition = GameDefinition(
        info=info,
        package=package,
        directory=directory or Path("."),
        table_class=table_class,
        # State classes (today's BGA style) compile to the classic State rows.
        states=StateMachine(info.name, compile_states(info.name, states, table_class), table_class),
        stats=StatCatalog(info.name, stats),
        options=OptionCatalog(info.name, options, preferences),
        dbmodel=dbmodel,
    )
    table_class.definition = definition
    return definition


_LOADED: dict[str, GameDefinition] = {}


def load_game_from_directory(directory: Path, module_name: str) -> GameDefinition:
    """Load a game package from any folder (a stored release) under ``module_name``.

    Raises:
        ConfigError: the game is invalid (``GameLoadError``: its code does not import).
    """
    loaded = sys.modules.get(module_name)
    if loaded is not None and Path(loaded.__file__ or "").parent.resolve() != Path(directory).resolve():
        unload_game_modules(module_name)  # the name was another folder's (a test's, a game's copy)
    if module_name in _LOADED:
        return _LOADED[module_name]
    if module_name in sys.modules:
        return load_game(sys.modules[module_name])
    spec = importlib.util.spec_from_file_location(
        module_name, directory / "__init__.py", submodule_search_locations=[str(directory)]
    )
    if spec is None or spec.loader is None:
        raise ConfigError(f"no game package in {directory}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        try:
            spec.loader.exec_module(module)
        except ConfigError:
            raise
        except Exception as exc:
            raise GameLoadError(directory.name, exc, directory) from exc
        _LOADED[module_name] = load_game(module)
        return _LOADED[module_name]
    except Exception:
        unload_game_modules(module_name)
        raise


def unload_game_modules(module_name: str) -> list[str]:
    """Forget the game package ``module_name`` and its sub-modules (``sys.modules`` and
    ``load_game_from_directory``'s cache), so the next load imports its files again; returns
    the names forgotten."""
    _LOADED.pop(module_name, None)
    names = [m for m in sys.modules if m == module_name or m.startswith(module_name + ".")]
    for name in names:
        del sys.modules[name]
    return names


class GameRegistry:
    """The installed games, found once (again when a name is not found, at most every
    ``RESCAN_S`` seconds) and loaded on first use.

    ``packages``: name -> importable package (None: those ``discover()`` finds); and the games
    in the folders of ``extra_folders`` (default: with ``packages`` None, ``ARENA_EXTRA_GAMES``'s).
    """

    RESCAN_S = 1.0

    def __init__(self, packages: dict[str, str] | None = None,
                 extra_folders: list[Path] | None = None) -> None:
        self._installed = packages is None  # the ``games`` package and the entry points
        self._extra = extra_folders if extra_folders is not None else (
            extra_game_folders() if packages is None else [])
        self._discovers = self._installed or bool(self._extra)
        # name -> package name; name -> folder, for a game loaded from its folder
        self._packages: dict[str, str] = {}
        self._folders: dict[str, Path] = {}
        self._found: set[str] = set()  # names the last scan found (a rescan may drop them)
        self._loaded: dict[str, GameDefinition] = {}
        self._scanned_at = float("-inf")
        self._packages.update(packages or {})
        self.rescan()

    def names(self) -> list[str]:
        return sorted(self._packages)

    def rescan(self) -> list[str]:
        """Look for games again (a game made since the registry was built); returns the new
        names. Games added by ``add``/``add_definition`` stay; found games that are gone go.

        Raises:
            ConfigError: two games share a name.
        """
        if not self._discovers:
            return []
        self._scanned_at = time.monotonic()
        importlib.invalidate_caches()
        found: dict[str, tuple[str, Path | None]] = {
            name: (package, None) for name, package in (discover() if self._installed else {}).items()
        }
        for name, (module, game_folder) in discover_folders(self._extra).items():
            if name in found:
                raise ConfigError(
                    f"two games are named {name!r}: {found[name][0]} and {game_folder} ({EXTRA_GAMES_ENV})"
                )
            found[name] = (module, game_folder)
        new = [name for name in found if name not in self._packages]
        for name in self._found - set(found):
            self._packages.pop(name, None)
            self._folders.pop(name, None)
            self._loaded.pop(name, None)
        for name, (module, folder) in found.items():
            if name in self._packages and name not in self._found:
                self.add(name, module)  # added by hand: the same package, or refused
            self._packages[name] = module
            if folder is not None:
                self._folders[name] = folder
        self._found = set(found)
        return sorted(new)

    def add(self, name: str, package: str) -> None:
        if name in self._packages and self._packages[name] != package:
            raise ConfigError(
                f"two games are named {name!r}: {self._packages[name]} and {package}"
            )
        self._packages[name] = package

    def add_definition(self, definition: GameDefinition) -> None:
        """Register an already loaded game (from a folder outside ``games/``)."""
        package = definition.package.__name__ if definition.package else f"<{definition.name}>"
        self.add(definition.name, package)
        self._found.discard(definition.name)
        if definition.package is not None:
            self._folders[definition.name] = definition.directory
        self._loaded[definition.name] = definition

    def package_of(self, name: str) -> str | None:
        """The module name game ``name`` is (or will be) loaded under."""
        return self._packages.get(name)

    def directory_of(self, name: str) -> Path | None:
        """The folder of game ``name``'s files, without loading it (None: unknown)."""
        if name in self._folders:
            return self._folders[name]
        package = self._packages.get(name)
        if package is None or package.startswith("<"):
            return None
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.submodule_search_locations:
            return None
        return Path(next(iter(spec.submodule_search_locations)))

    def forget(self, name: str) -> None:
        """Drop game ``name``'s loaded definition and modules: the next ``get`` loads its
        files again (a game registered as an object, without a package, cannot be)."""
        package = self._packages.get(name)
        if package is None or package.startswith("<"):
            return
        self._loaded.pop(name, None)
        unload_game_modules(package)
        importlib.invalidate_caches()

    def get(self, name: str) -> GameDefinition:
        """The game ``name``, loaded and validated.

        Raises:
            NotFoundError: no game has that name (after looking for new games).
            ConfigError: the game's files are invalid (``GameLoadError``: its code does not
                import; the message names the file and line).
        """
        if name in self._loaded:
            return self._loaded[name]
        if (name not in self._packages and self._discovers
                and time.monotonic() - self._scanned_at >= self.RESCAN_S):
            self.rescan()  # a game made since (at most once a second: any name may be asked for)
        if name not in self._packages:
            raise NotFoundError(
                "No game named ${game}; installed games: ${known}", "unknown_game",
                game=name, known=", ".join(self.names()) or "none",
            )
        package_name = self._packages[name]
        if package_name.startswith("<"):
            raise ConfigError(f"game {name!r} was registered without a package")
        folder = self._folders.get(name)
        if folder is not None:
            definition = load_game_from_directory(folder, package_name)
        else:
            try:
                package = importlib.import_module(package_name)
            except ConfigError:
                raise
            except Exception as exc:
                raise GameLoadError(name, exc, self.directory_of(name)) from exc
            definition = load_game(package)
        if definition.name != name:
            raise ConfigError(
                f"package {package_name!r} declares the game name {definition.name!r}, "
                f"but it was registered as {name!r}"
            )
        self._loaded[name] = definition
        return definition


def games_package_folders() -> list[Path]:
    """The folders of the ``games`` package (looked up by name: the framework never imports it)."""
    spec = importlib.util.find_spec(GAMES_PACKAGE)
    return [Path(p).resolve() for p in (spec.submodule_search_locations or [])] if spec is not None else []


def extra_game_folders() -> list[Path]:
    """The folders named by ``ARENA_EXTRA_GAMES`` (``:``-separated), each holding game folders."""
    return [Path(p).resolve() for p in os.environ.get(EXTRA_GAMES_ENV, "").split(os.pathsep) if p]


def discover_folders(folders: Iterable[Path]) -> dict[str, tuple[str, Path]]:
    """Game names -> (module name, folder) for every game folder (one with ``__init__.py``) in
    ``folders``; each is loaded from its folder under ``arena_extra_<name>``.

    Raises:
        ConfigError: two folders hold a game of one name, or a folder does not exist.
    """
    found: dict[str, tuple[str, Path]] = {}
    for folder in folders:
        if not folder.is_dir():
            raise ConfigError(f"{EXTRA_GAMES_ENV} names {folder}, which is not a folder")
        for game in sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file()):
            if game.name.startswith(("_", ".")) or not game.name.isidentifier():
                continue
            if game.name in found:
                raise ConfigError(f"two games are named {game.name!r}: {found[game.name][1]} and {game} "
                                  f"({EXTRA_GAMES_ENV})")
            found[game.name] = (f"{EXTRA_MODULE_PREFIX}{game.name}", game)
            register_game_directory(game.name, game, replace=False)
    return found


def discover() -> dict[str, str]:
    """Game names -> package names, from ``games/`` and the entry points (the games of
    ``ARENA_EXTRA_GAMES`` are not importable by name: see ``discover_folders``).

    Raises:
        ConfigError: two games share a name.
    """
    found: dict[str, str] = {}
    for folder in games_package_folders():
        for module in pkgutil.iter_modules([folder]):
            if module.ispkg and not module.name.startswith("_"):
                found.setdefault(module.name, f"{GAMES_PACKAGE}.{module.name}")
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in found and found[ep.name] != ep.value:
            raise ConfigError(
                f"two games are named {ep.name!r}: {found[ep.name]} and {ep.value} "
                f"(entry point group {ENTRY_POINT_GROUP})"
            )
        found[ep.name] = ep.value
    for name, package in found.items():
        package_spec = importlib.util.find_spec(package)
        if package_spec is not None and package_spec.submodule_search_locations:
            register_game_directory(name, next(iter(package_spec.submodule_search_locations)), replace=False)
    return found
