"""Statistics declarations (BGA's ``stats.inc.php``): stable ids, types and scopes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from framework.core.errors import ConfigError

StatType = Literal["int", "float", "bool"]
StatScope = Literal["table", "player"]
STAT_TYPES = ("int", "float", "bool")
STAT_SCOPES = ("table", "player")


@dataclass(frozen=True)
class Stat:
    """A statistic. Its ``id`` is forever: players' history is keyed on it."""

    id: int
    key: str
    name: str
    type: StatType = "int"
    scope: StatScope = "player"

    def coerce(self, value: float | int | bool) -> float:
        """The value as stored (a float column), checked against the type."""
        if isinstance(value, bool) or self.type == "bool":
            if self.type != "bool" and isinstance(value, bool):
                raise TypeError(f"statistic {self.key!r} is {self.type}, got a bool")
            return 1.0 if value else 0.0
        if not isinstance(value, int | float):
            raise TypeError(f"statistic {self.key!r} needs a number, got {type(value).__name__}")
        return float(value)

    def to_python(self, stored: float) -> float | int | bool:
        if self.type == "int":
            return int(stored)
        if self.type == "bool":
            return bool(stored)
        return float(stored)


class StatCatalog:
    """Validated statistics of one game, looked up by (scope, key)."""

    def __init__(self, game: str, stats: Iterable[Stat]) -> None:
        self.game = game
        self.stats: list[Stat] = []
        self._by_key: dict[tuple[str, str], Stat] = {}
        ids: dict[tuple[str, int], Stat] = {}
        for stat in stats:
            where = f"game {game!r}, statistic {getattr(stat, 'key', stat)!r}"
            if not isinstance(stat, Stat):
                raise ConfigError(f"{where}: expected Stat, got {type(stat).__name__}")
            if stat.scope not in STAT_SCOPES:
                raise ConfigError(f"{where}, field 'scope': {stat.scope!r} is not table or player")
            if stat.type not in STAT_TYPES:
                raise ConfigError(f"{where}, field 'type': {stat.type!r} is not int, float or bool")
            if not isinstance(stat.id, int) or isinstance(stat.id, bool) or stat.id < 10:
                raise ConfigError(f"{where}, field 'id': ids below 10 are reserved (got {stat.id})")
            if not stat.key.isidentifier():
                raise ConfigError(f"{where}, field 'key': not an identifier")
            if (stat.scope, stat.id) in ids:
                other = ids[(stat.scope, stat.id)]
                raise ConfigError(
                    f"{where}, field 'id': id {stat.id} is already used by {other.key!r}"
                )
            if (stat.scope, stat.key) in self._by_key:
                raise ConfigError(f"{where}, field 'key': declared twice in scope {stat.scope}")
            ids[(stat.scope, stat.id)] = stat
            self._by_key[(stat.scope, stat.key)] = stat
            self.stats.append(stat)

    def get(self, scope: str, key: str) -> Stat:
        try:
            return self._by_key[(scope, key)]
        except KeyError:
            raise KeyError(f"game {self.game!r} declares no {scope} statistic {key!r}") from None

    def by_scope(self, scope: str) -> list[Stat]:
        return [s for s in self.stats if s.scope == scope]
