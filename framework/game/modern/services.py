"""The objects today's BGA framework hangs on the game (``self.globals``, ``self.notify``,
counters, stats...), made on first use for the request's table."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from framework.game.modern.counters import CounterFactory, PlayerCounter, ScoreCounter
from framework.game.modern.deck_factory import DeckFactory
from framework.game.modern.globals_api import Globals
from framework.game.modern.legacy import Legacy
from framework.game.modern.logs import Logs
from framework.game.modern.notify import Notify
from framework.game.modern.stats_api import PlayerStats, TableStats
from framework.game.modern.table_options import TableOptions
from framework.game.modern.user_preferences import UserPreferences

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol


class ModernServices:
    """Mixed into ``Table``: each object is made once per request, when first used. ``self``
    is typed as the ``TableProtocol`` the objects are given (mypy checks ``Table`` against it
    where one is used)."""

    @functools.cached_property
    def globals(self: TableProtocol) -> Globals:
        return Globals(self)

    @functools.cached_property
    def notify(self: TableProtocol) -> Notify:
        return Notify(self)

    @functools.cached_property
    def table_stats(self: TableProtocol) -> TableStats:
        return TableStats(self)

    @functools.cached_property
    def player_stats(self: TableProtocol) -> PlayerStats:
        return PlayerStats(self)

    @functools.cached_property
    def counter_factory(self: TableProtocol) -> CounterFactory:
        return CounterFactory(self)

    @functools.cached_property
    def player_score(self: TableProtocol) -> PlayerCounter:
        """``player_score`` as a counter (BGA's ``playerScore``)."""
        return ScoreCounter(self, "player_score", "player_score")

    @functools.cached_property
    def player_score_aux(self: TableProtocol) -> PlayerCounter:
        """``player_score_aux`` as a counter (BGA's ``playerScoreAux``)."""
        return ScoreCounter(self, "player_score_aux", "player_score_aux")

    @functools.cached_property
    def table_options(self: TableProtocol) -> TableOptions:
        return TableOptions(self)

    @functools.cached_property
    def user_preferences(self: TableProtocol) -> UserPreferences:
        return UserPreferences(self)

    @functools.cached_property
    def legacy(self: TableProtocol) -> Legacy:
        return Legacy(self)

    @functools.cached_property
    def logs(self: TableProtocol) -> Logs:
        return Logs(self)

    @functools.cached_property
    def deck_factory(self: TableProtocol) -> DeckFactory:
        return DeckFactory(self)
