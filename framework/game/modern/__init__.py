"""Today's BGA framework (2025 on): state classes and the objects a game carries
(``globals``, ``notify``, counters, stats, options, preferences, legacy, logs, decks).

They compile to, and run on, the same state machine and tables as the classic API.
"""

from __future__ import annotations

from framework.game.modern.counters import CounterFactory, PlayerCounter, TableCounter
from framework.game.modern.deck_factory import DeckFactory
from framework.game.modern.globals_api import Globals
from framework.game.modern.legacy import Legacy
from framework.game.modern.logs import Logs
from framework.game.modern.notify import Notify
from framework.game.modern.state_class import GameState, StateType, possible_action
from framework.game.modern.stats_api import PlayerStats, TableStats
from framework.game.modern.table_options import TableOptions
from framework.game.modern.user_preferences import UserPreferences

__all__ = [
    "CounterFactory", "DeckFactory", "GameState", "Globals", "Legacy", "Logs", "Notify",
    "PlayerCounter", "PlayerStats", "StateType", "TableCounter", "TableOptions", "TableStats",
    "UserPreferences", "possible_action",
]
