"""``Debug``: studio shortcuts through a game (BGA's ``debug_playUntil``): play every
player's turns as a zombie would until a condition holds."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from framework.core.errors import UserError
from framework.core.kinds import TableMode
from framework.engine.runtime import Runtime
from framework.game.table import Table

#: ``until(count)`` or ``until(count, table)``: True stops (count: the turns played so far).
Until = Callable[..., bool]


class Debug:
    """Studio tools over one site's runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def play_until(self, table_id: int, until: Until, max_turns: int = 1000) -> int:
        """Play the active players' turns with the game's zombie turn, one move each, until
        ``until`` says True or the game ends; returns how many turns were played.

        Raises:
            UserError: the table is not a studio table, or ``until`` never held within
                ``max_turns`` turns.
        """
        info = self.runtime.table_info(table_id)
        if info.mode != TableMode.STUDIO:
            raise UserError("play_until is a studio tool; table ${table} is not a studio table",
                            "studio_only", table=table_id)
        wants_table = len(inspect.signature(until).parameters) >= 2
        count = 0
        while True:
            with self.runtime.read(table_id) as table:
                if table.gamestate.is_game_over():
                    return count
                done = until(count, table) if wants_table else until(count)
            if done:
                return count
            if count >= max_turns:
                raise UserError("play_until played ${count} turns and the condition still does "
                                "not hold", "play_until_limit", count=count)
            self.runtime.apply_change(table_id, _zombie_turn, "debug: play_until")
            count += 1


def _zombie_turn(table: Table) -> Any:
    """One turn of the first active player, played as a zombie would."""
    active = table.gamestate.get_active_player_list()
    if not active:
        raise UserError("Nobody is active: no turn to play", "no_active_player")
    table.zombie_turn(table.gamestate.state(), active[0])
