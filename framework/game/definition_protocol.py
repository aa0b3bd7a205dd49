"""What a table and its helpers read of their game's definition (``registry.GameDefinition``
is the one): a Protocol, so that they need not import the registry, which imports them."""

from __future__ import annotations

from typing import Protocol

from framework.game.gameinfo import GameInfo
from framework.game.options import OptionCatalog
from framework.game.states import StateMachine
from framework.game.stats import StatCatalog


class GameDefinitionProtocol(Protocol):
    """The parts of a loaded game that ``Table`` and its helpers use."""

    @property
    def name(self) -> str: ...

    @property
    def info(self) -> GameInfo: ...

    @property
    def states(self) -> StateMachine: ...

    @property
    def stats(self) -> StatCatalog: ...

    @property
    def options(self) -> OptionCatalog: ...
