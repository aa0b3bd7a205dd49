"""Game discovery: packages under ``games/`` and the ``arena.games`` entry-point group."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import sys
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
        raise ConfigError(f"game {info.name!r}: cannot import its modules: {exc!r}") from exc
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
    """Load a game package from any folder (a stored release) under ``module_name``."""
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
        spec.loader.exec_module(module)
        _LOADED[module_name] = load_game(module)
        return _LOADED[module_name]
    except Exception:
        for name in [m for m in sys.modules if m == module_name or m.startswith(module_name + ".")]:
            del sys.modules[name]
        raise


class GameRegistry:
    """The installed games, found once and loaded on first use."""

    def __init__(self, packages: dict[str, str] | None = None) -> None:
        # name -> importable package name
        self._packages: dict[str, str] = packages if packages is not None else discover()
        self._loaded: dict[str, GameDefinition] = {}

    def names(self) -> list[str]:
        return sorted(self._packages)

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
        self._loaded[definition.name] = definition

    def get(self, name: str) -> GameDefinition:
        """The game ``name``, loaded and validated.

        Raises:
            NotFoundError: no game has that name.
            ConfigError: the game's files are invalid.
        """
        if name in self._loaded:
            return self._loaded[name]
        if name not in self._packages:
            raise NotFoundError(
                "No game named ${game}; installed games: ${known}", "unknown_game",
                game=name, known=", ".join(self.names()) or "none",
            )
        if self._packages[name].startswith("<"):
            raise ConfigError(f"game {name!r} was registered without a package")
        try:
            package = importlib.import_module(self._packages[name])
        except ConfigError:
            raise
        except Exception as exc:
            raise ConfigError(f"game {name!r}: cannot import {self._packages[name]}: {exc!r}") from exc
        definition = load_game(package)
        if definition.name != name:
            raise ConfigError(
                f"package {self._packages[name]!r} declares the game name {definition.name!r}, "
                f"but it was registered as {name!r}"
            )
        self._loaded[name] = definition
        return definition


def discover() -> dict[str, str]:
    """Game names -> package names, from ``games/`` and the entry points.

    Raises:
        ConfigError: two games share a name.
    """
    found: dict[str, str] = {}
    # The ``games`` package of a checkout, looked up by name: the framework never imports it.
    spec = importlib.util.find_spec(GAMES_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
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
