"""``self.table_options``: the options the table was created with, and its pace (BGA's
``$this->tableOptions``)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol


class TablePace(StrEnum):
    """How a table is played: everyone at once, or a move now and then."""

    REAL_TIME = "realtime"
    TURN_BASED = "turnbased"


#: ``arena_meta`` key of a table's pace (absent: real time, Arena's only pace so far).
PACE_KEY = "pace"


class TableOptions:
    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def get(self, option: int | str) -> int:
        """The value of option ``option`` (its id, 100..199, or its key) at this table.

        Raises:
            GameSystemError: the game declares no such option.
        """
        return self._table.get_option(option)

    def pace(self) -> TablePace:
        text = self._table.meta(PACE_KEY)
        return TablePace(text) if text else TablePace.REAL_TIME

    def is_turn_based(self) -> bool:
        return self.pace() is TablePace.TURN_BASED

    def is_real_time(self) -> bool:
        return self.pace() is TablePace.REAL_TIME
