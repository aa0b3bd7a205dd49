"""The ids of a table's ``global`` rows: the framework's own (1..9, as on BGA), then the
game's (10..89) and the options' (100..199)."""

from __future__ import annotations

GLOBAL_STATE = 1
GLOBAL_ACTIVE_PLAYER = 2
GLOBAL_MOVE = 3
GLOBAL_PROGRESSION = 4
#: a random number that every write of the table changes (``framework.game.kept``)
GLOBAL_WRITE_TOKEN = 5
GAME_GLOBAL_MIN, GAME_GLOBAL_MAX = 10, 89
OPTION_GLOBAL_MIN, OPTION_GLOBAL_MAX = 100, 199
#: the move each player's view was at when they last acted (their last ``X-Arena-Move``),
#: one row per seat, written with the action's other globals (no statement of its own):
#: ``acted_global(player_no)``
GLOBAL_ACTED_BASE = 900
NOT_ACTED = -1  # the value of a seat that has not acted from any view yet


def acted_global(player_no: int) -> int:
    """The ``global`` row of the move seat ``player_no`` last acted from."""
    return GLOBAL_ACTED_BASE + int(player_no)
