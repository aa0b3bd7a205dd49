"""Game options (ids 100..199) and player preferences (ids >= 100), as BGA declares them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from framework.core.errors import ConfigError, UserError

OPTION_MIN_ID = 100
OPTION_MAX_ID = 199


@dataclass(frozen=True)
class OptionValue:
    name: str
    description: str = ""
    beta: bool = False


@dataclass(frozen=True)
class Option:
    """A game option chosen when a table is created; stored as global ``id``."""

    id: int
    key: str
    name: str
    values: Mapping[int, OptionValue | str]
    default: int
    description: str = ""
    # Shown only when another option has one of these values: {option_id: (values...)}.
    displaycondition: Mapping[int, tuple[int, ...]] = field(default_factory=dict)

    def value_name(self, value: int) -> str:
        v = self.values[value]
        return v.name if isinstance(v, OptionValue) else v

    def value_description(self, value: int) -> str:
        v = self.values[value]
        return v.description if isinstance(v, OptionValue) else ""


@dataclass(frozen=True)
class Preference:
    """A per-player display preference (never changes the game)."""

    id: int
    key: str
    name: str
    values: Mapping[int, str]
    default: int
    needs_reload: bool = False


class OptionCatalog:
    """Validated options of one game."""

    def __init__(
        self, game: str, options: Iterable[Option], preferences: Iterable[Preference] = ()
    ) -> None:
        self.game = game
        self.options: dict[int, Option] = {}
        self.by_key: dict[str, Option] = {}
        for opt in options:
            where = f"game {game!r}, option {getattr(opt, 'key', opt)!r}"
            if not isinstance(opt, Option):
                raise ConfigError(f"{where}: expected Option, got {type(opt).__name__}")
            if not OPTION_MIN_ID <= opt.id <= OPTION_MAX_ID:
                raise ConfigError(f"{where}, field 'id': option ids are 100..199 (got {opt.id})")
            if opt.id in self.options:
                raise ConfigError(f"{where}, field 'id': id {opt.id} is used twice")
            if opt.key in self.by_key:
                raise ConfigError(f"{where}, field 'key': declared twice")
            if not opt.values:
                raise ConfigError(f"{where}, field 'values': an option needs values")
            if opt.default not in opt.values:
                raise ConfigError(f"{where}, field 'default': {opt.default} is not a value")
            self.options[opt.id] = opt
            self.by_key[opt.key] = opt
        self.preferences: dict[int, Preference] = {}
        for pref in preferences:
            where = f"game {game!r}, preference {pref.key!r}"
            if pref.id < 100:
                raise ConfigError(f"{where}, field 'id': preference ids are >= 100")
            if pref.id in self.preferences:
                raise ConfigError(f"{where}, field 'id': id {pref.id} is used twice")
            if pref.default not in pref.values:
                raise ConfigError(f"{where}, field 'default': {pref.default} is not a value")
            self.preferences[pref.id] = pref

    def resolve(self, chosen: Mapping[Any, Any]) -> dict[int, int]:
        """Every option's value: the chosen ones checked, defaults for the rest.

        Raises:
            UserError: an unknown option or a value it does not declare.
        """
        values = {oid: opt.default for oid, opt in self.options.items()}
        for raw_key, raw_value in chosen.items():
            opt = self._find(raw_key)
            try:
                value = int(raw_value)
            except (TypeError, ValueError):
                raise UserError(
                    "Option ${option} needs a whole number, not ${value}",
                    "bad_option", option=opt.name, value=str(raw_value),
                ) from None
            if value not in opt.values:
                allowed = ", ".join(f"{v} ({opt.value_name(v)})" for v in opt.values)
                raise UserError(
                    "Option ${option} has no value ${value}; choose one of: ${allowed}",
                    "bad_option", option=opt.name, value=value, allowed=allowed,
                )
            values[opt.id] = value
        return values

    def _find(self, key: int | str) -> Option:
        if isinstance(key, str) and not key.isdecimal():
            if key in self.by_key:
                return self.by_key[key]
        else:
            try:
                return self.options[int(key)]
            except KeyError:
                pass
        known = ", ".join(f"{o.id} ({o.key})" for o in self.options.values()) or "none"
        raise UserError(
            "Game ${game} has no option ${option}; its options are: ${known}",
            "bad_option", game=self.game, option=str(key), known=known,
        )
