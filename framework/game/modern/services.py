"""The objects today's BGA framework hangs on the game (``self.globals``, ``self.notify``,
counters, stats...), made on first use for the request's table."""

from __future__ import annotations

import functools

from framework.game.modern.counters import CounterFactory, PlayerCounter, ScoreCounter
from framework.game.modern.deck_factory import DeckFactory
from framework.game.modern.globals_api import Globals
from framework.game.modern.legacy import Legacy
from framework.game.modern.logs import Logs
from framework.game.modern.notify import Notify
from framework.game.modern.stats_api import PlayerStats, TableStats
from framework.game.modern.table_options import TableOptions
from framework.game.modern.user_preferences import UserPreferences


class ModernServices:
    """Mixed into ``Table``: each object is made once per request, when first used."""

    @functools.cached_property
    def globals(self) -> Globals:
        return Globals(self)  # type: ignore[arg-type]

    @functools.cached_property
    def notify(self) -> Notify:
        return Notify(self)  # type: ignore[arg-type]

    @functools.cached_property
    def table_stats(self) -> TableStats:
        return TableStats(self)  # type: ignore[arg-type]

    @functools.cached_property
    def player_stats(self) -> PlayerStats:
        return PlayerStats(self)  # type: ignore[arg-type]

    @functools.cached_property
    def counter_factory(self) -> CounterFactory:
        return CounterFactory(self)  # type: ignore[arg-type]

    @functools.cached_property
    def player_score(self) -> PlayerCounter:
        """``player_score`` as a counter (BGA's ``playerScore``)."""
        return ScoreCounter(self, "player_score", "player_score")  # type: ignore[arg-type]

    @functools.cached_property
    def player_score_aux(self) -> PlayerCounter:
        """``player_score_aux`` as a counter (BGA's ``playerScoreAux``)."""
        return ScoreCounter(self, "player_score_aux", "player_score_aux")  # type: ignore[arg-type]

    @functools.cached_property
    def table_options(self) -> TableOptions:
        return TableOptions(self)  # type: ignore[arg-type]

    @functools.cached_property
    def user_preferences(self) -> UserPreferences:
        return UserPreferences(self)  # type: ignore[arg-type]

    @functools.cached_property
    def legacy(self) -> Legacy:
        return Legacy(self)  # type: ignore[arg-type]

    @functools.cached_property
    def logs(self) -> Logs:
        return Logs(self)  # type: ignore[arg-type]

    @functools.cached_property
    def deck_factory(self) -> DeckFactory:
        return DeckFactory(self)  # type: ignore[arg-type]
