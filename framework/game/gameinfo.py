"""``GameInfo``: what BGA's ``gameinfos.inc.php`` says of a game, every key with a home, and
the conversion both ways (``GameInfo.from_gameinfos``, ``GameInfo.to_gameinfos``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from framework.core.errors import ConfigError

_COLOR = re.compile(r"[0-9a-f]{6}")
#: BGA's sandbox-only keys: Arena has no sandbox; their non-sandbox values are accepted.
SANDBOX_KEYS: Mapping[str, Any] = {"is_sandbox": False, "turnControl": "simple"}


@dataclass(frozen=True)
class GameInfo:
    """What BGA's ``gameinfos.inc.php`` says of a game (docs/porting-from-bga.md has the key ->
    field table).

    Raises (at construction):
        ConfigError: a field has a value BGA would refuse; the message names the game and the
            field.
    """

    name: str  # the game's id (its folder); BGA's game folder name
    display_name: str  # game_name
    min_players: int  # min(players)
    max_players: int  # max(players)
    #: players, when not every count from min to max is allowed (BGA: [3, 4, 6])
    player_counts: tuple[int, ...] = ()
    suggested_players: tuple[int, ...] = ()  # suggest_player_number
    not_recommended_players: tuple[int, ...] = ()  # not_recommend_player_number
    estimated_duration_min: int = 30  # estimated_duration
    reflexion_time_s: int = 600  # each player's initial clock (BGA sets it per speed)
    extra_time_s: int = 60  # medium_additional_time: added by give_extra_time
    fast_extra_time_s: int | None = None  # fast_additional_time (Arena tables have one pace)
    slow_extra_time_s: int | None = None  # slow_additional_time (Arena tables have one pace)
    player_colors: tuple[str, ...] = ("ff0000", "008000", "0000ff", "ffa500", "773300", "000000")
    favorite_colors_support: bool = False  # reattribute_colors_based_on_preferences is used
    tie_breaker_description: str = ""
    losers_not_ranked: bool = False
    solo_mode_ranked: bool = False
    is_coop: bool = False
    is_beta: bool = True
    #: False, True (one language per table) or the languages a table may use, e.g. ("fr",)
    language_dependency: bool | tuple[str, ...] = False
    complexity: int | None = None  # 0..5
    luck: int | None = None  # 0..5
    strategy: int | None = None  # 0..5
    diplomacy: int | None = None  # 0..5
    designer: str = ""
    artist: str = ""
    year: int | None = None
    publisher: str = ""
    publisher_website: str = ""
    publisher_bgg_id: int | None = None
    bgg_id: int | None = None
    #: the lobby's presentation, one paragraph each (BGA's presentation; mark them totranslate)
    presentation: tuple[str, ...] = ()
    tags: tuple[int, ...] = ()  # BGA's tag ids
    disable_player_order_swap_on_rematch: bool = False
    interface_min_width: int = 740  # game_interface_width.min
    interface_max_width: int | None = None  # game_interface_width.max
    buy_button_url: str = ""  # custom_buy_button.url
    buy_button_label: str = ""  # custom_buy_button.label
    db_undo_support: bool = True  # Arena's undo (undo_savepoint) works for every game
    enable_3d: bool = False  # Arena has no 3D view
    description: str = ""  # the lobby's one-line description (Arena's own)
    # Globals the framework must know of (label -> id), beyond those set in the game.
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check_counts()
        self._check_values()

    def _check_counts(self) -> None:
        fail = self._fail
        if self.player_counts:
            counts = self.player_counts
            if sorted(set(counts)) != list(counts) or not all(isinstance(c, int) and c >= 1 for c in counts):
                raise fail("player_counts", f"{counts!r} must be distinct counts in increasing order")
            if (counts[0], counts[-1]) != (self.min_players, self.max_players):
                raise fail("player_counts", f"{counts!r} must run from min_players "
                           f"{self.min_players} to max_players {self.max_players}")
        for name in ("suggested_players", "not_recommended_players"):
            for count in getattr(self, name):
                if count not in self.players:
                    raise fail(name, f"{count} players is not a count the game allows {self.players}")
        for color in self.player_colors:
            if not isinstance(color, str) or not _COLOR.fullmatch(color):
                raise fail("player_colors", f"{color!r} is not a lower-case 'rrggbb' colour")
        if len(self.player_colors) < self.max_players:
            raise fail("player_colors", f"{len(self.player_colors)} colours for up to "
                       f"{self.max_players} players")

    def _check_values(self) -> None:
        fail = self._fail
        for name in ("complexity", "luck", "strategy", "diplomacy"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value not in range(6)):
                raise fail(name, f"{value!r} is not 0..5")
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in self.tags):
            raise fail("tags", f"{self.tags!r} must be BGA's tag ids (integers)")
        if isinstance(self.language_dependency, tuple) and not all(
                isinstance(lang, str) and lang for lang in self.language_dependency):
            raise fail("language_dependency", f"{self.language_dependency!r} must be language codes")
        if self.interface_max_width is not None and self.interface_max_width < self.interface_min_width:
            raise fail("interface_max_width", "is below interface_min_width")
        for name in ("estimated_duration_min", "reflexion_time_s", "extra_time_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise fail(name, f"{value!r} is not a whole number of at least 0")

    def _fail(self, fieldname: str, reason: str) -> ConfigError:
        return ConfigError(f"game {self.name!r}, GameInfo field {fieldname!r}: {reason}")

    @property
    def players(self) -> tuple[int, ...]:
        """Every player count the game allows (BGA's ``players``)."""
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def to_gameinfos(self) -> dict[str, Any]:
        """The game's information under BGA's ``gameinfos.inc.php`` keys (what
        ``Table.get_gameinfos`` returns)."""
        return {
            "game_name": self.display_name,
            "designer": self.designer,
            "artist": self.artist,
            "year": self.year,
            "publisher": self.publisher,
            "publisher_website": self.publisher_website,
            "publisher_bgg_id": self.publisher_bgg_id,
            "bgg_id": self.bgg_id,
            "players": list(self.players),
            "suggest_player_number": _one_or_list(self.suggested_players),
            "not_recommend_player_number": list(self.not_recommended_players) or None,
            "estimated_duration": self.estimated_duration_min,
            "fast_additional_time": self.fast_extra_time_s if self.fast_extra_time_s is not None
            else self.extra_time_s,
            "medium_additional_time": self.extra_time_s,
            "slow_additional_time": self.slow_extra_time_s if self.slow_extra_time_s is not None
            else self.extra_time_s,
            "tie_breaker_description": self.tie_breaker_description,
            "losers_not_ranked": self.losers_not_ranked,
            "solo_mode_ranked": self.solo_mode_ranked,
            "is_beta": int(self.is_beta),
            "is_coop": int(self.is_coop),
            "language_dependency": list(self.language_dependency)
            if isinstance(self.language_dependency, tuple) else self.language_dependency,
            "complexity": self.complexity,
            "luck": self.luck,
            "strategy": self.strategy,
            "diplomacy": self.diplomacy,
            "player_colors": list(self.player_colors),
            "favorite_colors_support": self.favorite_colors_support,
            "disable_player_order_swap_on_rematch": self.disable_player_order_swap_on_rematch,
            "game_interface_width": {"min": self.interface_min_width, "max": self.interface_max_width},
            "presentation": list(self.presentation),
            "tags": list(self.tags),
            "custom_buy_button": {"url": self.buy_button_url, "label": self.buy_button_label},
            "db_undo_support": self.db_undo_support,
            "enable_3d": self.enable_3d,
            **SANDBOX_KEYS,
        }

    @classmethod
    def from_gameinfos(cls, name: str, gameinfos: Mapping[str, Any], **arena: Any) -> GameInfo:
        """A ``GameInfo`` from a port of ``gameinfos.inc.php`` (its ``$gameinfos`` array as a
        Python dict); ``arena`` adds Arena's own fields (``reflexion_time_s``, ``description``).

        Raises:
            ConfigError: a key BGA does not have, a sandbox-only key with a sandbox value,
                or a value the fields refuse.
        """
        known = set(GAMEINFOS_KEYS)
        unknown = sorted(set(gameinfos) - known)
        if unknown:
            raise ConfigError(f"game {name!r}, gameinfos: unknown keys {unknown} (BGA's keys: "
                              f"{', '.join(GAMEINFOS_KEYS)})")
        for key, accepted in SANDBOX_KEYS.items():
            if key in gameinfos and gameinfos[key] != accepted:
                raise ConfigError(f"game {name!r}, gameinfos key {key!r}: BGA's sandbox has no "
                                  f"Arena form (only {accepted!r} is accepted)")
        values: dict[str, Any] = {"name": name, **_fields_of(dict(gameinfos))}
        values.update(arena)
        missing = [f for f in ("display_name", "min_players", "max_players") if f not in values]
        if missing:
            raise ConfigError(f"game {name!r}, gameinfos: needs game_name and players "
                              f"(missing {', '.join(missing)})")
        return cls(**values)


def _fields_of(g: dict[str, Any]) -> dict[str, Any]:
    """``GameInfo`` fields from gameinfos keys (``GameInfo.from_gameinfos``)."""
    values: dict[str, Any] = {}
    if "game_name" in g:
        values["display_name"] = str(g["game_name"])
    players = sorted(int(p) for p in g.get("players") or [])
    if players:
        values["min_players"], values["max_players"] = players[0], players[-1]
        if players != list(range(players[0], players[-1] + 1)):
            values["player_counts"] = tuple(players)
    for key, attr in _SIMPLE_KEYS.items():
        if key in g:
            values[attr] = g[key]
    for key in _FLAG_KEYS:
        if key in g:
            values[key] = bool(g[key])
    for key, attr in _LIST_KEYS.items():
        if g.get(key) is not None:
            raw = g[key]
            values[attr] = tuple(raw) if isinstance(raw, list | tuple) else (raw,)
    if "player_colors" in values:
        values["player_colors"] = tuple(str(c).lower() for c in values["player_colors"])
    if "language_dependency" in g:
        lang = g["language_dependency"]
        values["language_dependency"] = (
            tuple(lang.values()) if isinstance(lang, Mapping)
            else tuple(lang) if isinstance(lang, list | tuple) else bool(lang)
        )
    width = g.get("game_interface_width") or {}
    if "min" in width:
        values["interface_min_width"] = int(width["min"])
    if width.get("max") is not None:
        values["interface_max_width"] = int(width["max"])
    button = g.get("custom_buy_button") or {}
    values["buy_button_url"] = str(button.get("url", ""))
    values["buy_button_label"] = str(button.get("label", ""))
    return values


_SIMPLE_KEYS = {
    "designer": "designer", "artist": "artist", "year": "year", "publisher": "publisher",
    "publisher_website": "publisher_website", "publisher_bgg_id": "publisher_bgg_id",
    "bgg_id": "bgg_id", "estimated_duration": "estimated_duration_min",
    "fast_additional_time": "fast_extra_time_s", "medium_additional_time": "extra_time_s",
    "slow_additional_time": "slow_extra_time_s", "tie_breaker_description": "tie_breaker_description",
    "complexity": "complexity", "luck": "luck", "strategy": "strategy", "diplomacy": "diplomacy",
}
_FLAG_KEYS = (
    "losers_not_ranked", "solo_mode_ranked", "is_beta", "is_coop", "favorite_colors_support",
    "disable_player_order_swap_on_rematch", "db_undo_support", "enable_3d",
)
_LIST_KEYS = {
    "suggest_player_number": "suggested_players", "not_recommend_player_number": "not_recommended_players",
    "tags": "tags", "player_colors": "player_colors", "presentation": "presentation",
}


def _one_or_list(counts: tuple[int, ...]) -> int | list[int] | None:
    if not counts:
        return None
    return counts[0] if len(counts) == 1 else list(counts)


#: Every key of BGA's ``gameinfos.inc.php`` (docs/porting-from-bga.md maps each to a field).
GAMEINFOS_KEYS: tuple[str, ...] = (
    "game_name", "designer", "artist", "year", "publisher", "publisher_website",
    "publisher_bgg_id", "bgg_id", "players", "suggest_player_number",
    "not_recommend_player_number", "estimated_duration", "fast_additional_time",
    "medium_additional_time", "slow_additional_time", "tie_breaker_description",
    "losers_not_ranked", "solo_mode_ranked", "is_beta", "is_coop", "language_dependency",
    "complexity", "luck", "strategy", "diplomacy", "player_colors", "favorite_colors_support",
    "disable_player_order_swap_on_rematch", "game_interface_width", "presentation", "tags",
    "custom_buy_button", "db_undo_support", "enable_3d", "is_sandbox", "turnControl",
)

#: The ``GameInfo`` fields that are Arena's own (no gameinfos key).
ARENA_ONLY_FIELDS = ("name", "reflexion_time_s", "description", "extra")
assert {f.name for f in fields(GameInfo)} >= set(ARENA_ONLY_FIELDS)
