"""What the site gives the runtime at construction: the seams to the releases package."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from framework.engine.directory import TableInfo
from framework.game.registry import GameDefinition


@dataclass(frozen=True)
class RuntimeHooks:
    """The runtime's hooks, all optional (a bare runtime plays studio tables only).

    ``game_loader``: the code a production table runs (its release's stored files).
    ``production_release``: a game's production version and its definition, or None.
    ``before_action``: run before each action (lazy upgrades, blocked tables); returns the
    table's registry row as it is afterwards.
    """

    game_loader: Callable[[TableInfo], GameDefinition] | None = None
    production_release: Callable[[str], tuple[str, GameDefinition] | None] | None = None
    before_action: Callable[[TableInfo], TableInfo] | None = None
