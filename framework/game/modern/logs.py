"""``self.logs``: the table's move counter and the notifications this move wrote (BGA's
``$this->logs``)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from framework.game.globals import GLOBAL_MOVE

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

#: What a removed notification becomes: the log keeps its numbering (event streams need
#: packets without a gap) and clients skip a type they do not handle.
REMOVED_TYPE = "logRemoved"


class Logs:
    def __init__(self, table: TableProtocol) -> None:
        self._table = table

    def get_current_move_id(self) -> int:
        """The number of the move being played (global 3; it goes up once per move)."""
        return int(self._table.get_game_state_value(GLOBAL_MOVE) or 0)

    def remove(self, notif_type: str | None = None) -> int:
        """Take back the notifications this move wrote so far (only ``notif_type``'s when
        given) before anyone receives them: each becomes an empty ``logRemoved`` packet with
        no message and no arguments. Returns how many. Earlier moves' notifications stay:
        players have seen them and replays are built from them."""
        ctx = self._table.context
        count = 0
        for i, packet in enumerate(ctx.packets):
            if packet.type == REMOVED_TYPE or (notif_type is not None and packet.type != notif_type):
                continue
            self._table.db_query(
                "UPDATE gamelog SET gamelog_type = %s, gamelog_log = '', gamelog_args = '{}' "
                "WHERE gamelog_packet_id = %s", (REMOVED_TYPE, packet.id))
            ctx.packets[i] = dataclasses.replace(packet, type=REMOVED_TYPE, msgid="",
                                                 args_json="{}", _args=None, _sse={})
            count += 1
        return count
