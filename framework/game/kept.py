"""What a worker keeps of a table between two actions (``KeptState``): the decoded player
rows, clocks and meta values, and the game's own derived state (``Table.kept``), valid while
the table's write token and move number are the ones this worker wrote last.

Every write of a table outside an action changes the token (``Table.touch``), and every
action writes a new one, so a worker's copy is used only when no one (another worker,
another machine, a command) has written the table since. A copy that holds the ``global``
rows is used at once, without reading the table, and checked by the action's write of
those rows (under the table's lock, in the same statement: ``guarded_upsert_sql``); when
the check fails, or the action fails while the copy is unchecked, the action is rolled back
and played again from the table's rows (``StaleKeptState``). A copy without them is checked
by the read of the ``global`` rows the action then makes.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

#: the range of a write token (``global`` holds a signed 32-bit INT)
TOKEN_MAX = 2**31 - 1

# Seeded from the operating system's randomness, and again in every forked process (a
# gunicorn worker): two processes never draw the same sequence. (``SystemRandom`` would
# read the kernel's source for every action.)
_tokens = random.Random()
os.register_at_fork(after_in_child=_tokens.seed)


def new_token() -> int:
    """A fresh write token (never 0, the value of a table that has none)."""
    return _tokens.randint(1, TOKEN_MAX)


class StaleKeptState(Exception):  # noqa: N818 (a signal, not an error a user sees)
    """The kept state an action started from was not the table's: the engine rolls the
    action back and plays it again from the table's rows."""


@dataclass
class KeptState:
    """A table's decoded rows as an action left them, for the next action in this worker."""

    token: int
    move: int
    release: str | None
    definition: object  # the GameDefinition that made it: a reloaded game keeps nothing
    players: dict[int, dict[str, Any]] | None  # None: read again by the next action
    clocks: dict[int, tuple[Any, Any]]
    scores: dict[int, tuple[int, int]] | None  # None: written since they were read
    metas: dict[str, str | None]
    game: dict[str, Any] = field(default_factory=dict)
    #: the ``global`` rows and the log's last id as the action wrote them (None: read again)
    globals: dict[int, int | None] | None = None
    last_packet_id: int | None = None

    def matches(self, token: int | None, move: int | None) -> bool:
        """Whether the table's write token and move, read now, are the ones this state left."""
        return token is not None and token == self.token and move == self.move

    def same_code(self, release: str | None, definition: object) -> bool:
        """Whether the table runs the release and game definition that made this state."""
        return release == self.release and definition is self.definition


class KeptStates:
    """The ``KeptState`` of this worker's most recently played tables (at most ``limit``).
    A state taken is the action's own (it changes it in place); the action puts its new
    state back before its commit (one whose commit then fails never matches: its token is not
    the table's)."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._states: dict[int, KeptState] = {}

    def take(self, table_id: int) -> KeptState | None:
        """The table's kept state, removed (an action changes it in place)."""
        return self._states.pop(table_id, None)

    def put(self, table_id: int, state: KeptState) -> None:
        states = self._states
        states.pop(table_id, None)
        states[table_id] = state
        while len(states) > self.limit:
            del states[next(iter(states))]

    def forget(self, table_id: int) -> None:
        self._states.pop(table_id, None)

    def __len__(self) -> int:
        return len(self._states)

