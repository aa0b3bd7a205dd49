"""What a benchmark player knows of its table (``View``) and how it chooses a move
(a policy). The scaffolded game's policy is here; every other game brings its own, as
``bench_policy`` in its package's ``bench`` module."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.runtime import BENCH_GAME
from framework.game.registry import discover

#: the function a game's ``<package>.bench`` module defines for ``arena bench server``
POLICY_NAME = "bench_policy"


@dataclass
class View:
    """What one player knows of the table, from /data and its event stream."""

    state: str = ""
    state_id: int = 0
    active: int = 0
    multiactive: list[int] = field(default_factory=list)
    args: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] | None = None
    move: int = 0
    state_move: int = 0  # the move of the last state event: the view is current when == move
    last_id: int = 0
    over: bool = False

    def acting(self, me: int) -> bool:
        return me in self.multiactive if self.multiactive else self.active == me


#: (view, the player's id, the player's random source) -> (action, arguments), or None: wait
Policy = Callable[[View, int, random.Random], "tuple[str, dict[str, Any]] | None"]


def scaffold_policy(view: View, me: int, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The scaffolded game: draw until the turn is worth 12, then bank."""
    if view.state != "playerTurn" or not view.acting(me):
        return None
    return ("bank", {}) if int(view.args.get("turn_total", 0)) >= 12 else ("draw", {})


def policy_for(game: str) -> Policy:
    """The play policy of ``game``: the scaffolded game's, or the game package's
    ``bench.bench_policy``.

    Raises:
        LookupError: the game is not installed, or brings no policy.
    """
    if game == BENCH_GAME:
        return scaffold_policy
    package = discover().get(game)
    if package is None:
        raise LookupError(f"no game named {game!r} is installed")
    policy = _game_policy(package)
    if policy is None:
        raise LookupError(f"game {game!r} has no {POLICY_NAME} in {package}.bench")
    return policy


def games_with_policies() -> list[str]:
    """The games ``arena bench server --game`` can play: the scaffolded one and every
    installed game whose package has ``bench.bench_policy``."""
    return [BENCH_GAME, *sorted(name for name, package in discover().items()
                                if _game_policy(package) is not None)]


def _game_policy(package: str) -> Policy | None:
    if importlib.util.find_spec(f"{package}.bench") is None:
        return None
    policy = getattr(importlib.import_module(f"{package}.bench"), POLICY_NAME, None)
    return policy if callable(policy) else None
