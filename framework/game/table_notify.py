"""BGA's notifications of ``Table`` (``notifyAllPlayers``, ``notifyPlayer``): rows of the
table's ``gamelog``, handed to the event streams after the commit."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from framework.core.errors import GameSystemError
from framework.core.messages import check_message
from framework.game.feed import Packet, time_text
from framework.game.globals import GLOBAL_MOVE
from framework.game.table_values import TableValues
from framework.i18n import MessageFormatError, with_plural_args
from framework.storage.sql.translate import translate_query


class TableNotifications(TableValues):
    """Public and private notifications, checked before they are written."""

    def notify_all_players(
        self, notif_type: str, log: str, args: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> None:
        """A public notification: every player and spectator receives it, in their language."""
        self._notify(None, notif_type, log, {**(args or {}), **kwargs})

    def notify_player(
        self, player_id: int, notif_type: str, log: str, args: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """A private notification: only ``player_id`` receives it."""
        if player_id is None or isinstance(player_id, bool):
            raise GameSystemError(
                f"notify_player({player_id!r}, {notif_type!r}): a private notification needs a "
                "player id (use notify_all_players for everyone)"
            )
        self._notify(int(player_id), notif_type, log, {**(args or {}), **kwargs})

    def _notify(self, player_id: int | None, notif_type: str, log: str, args: dict[str, Any]) -> None:
        try:
            check_message(log, args)  # every placeholder filled, nested logs too
        except MessageFormatError as exc:
            raise GameSystemError(f"notification {notif_type!r}: {exc}") from None
        args = with_plural_args(log, args)  # a plural log keeps its plural form (framework.i18n)
        try:
            payload = _ENCODER.encode(args)
        except TypeError as exc:
            raise GameSystemError(f"notification {notif_type!r}: args are not JSON: {exc}") from None
        stamp = time_text(self._ctx.now_text())  # to the second, stored alike by every backend
        move = int(self._read_global(GLOBAL_MOVE) or 0)
        # The framework numbers the log itself, under the table's write lock (MAX + 1): no
        # gaps on the servers, whose sequences never give back a rolled-back action's ids,
        # and an action's rows can be written together at its end (``flush_writes``).
        if self._ctx.last_packet_id is None:
            self._read_global(GLOBAL_MOVE)  # the globals' read brings the log's last id
        if self._ctx.last_packet_id is None:
            self._ctx.last_packet_id = int(self.get_unique_value_from_db(
                "SELECT MAX(gamelog_packet_id) FROM gamelog") or 0)
        packet_id = self._ctx.last_packet_id + 1
        row = (packet_id, move, 0 if player_id is None else 1, player_id, stamp, notif_type, log, payload)
        if self._ctx.defer_writes:
            self._pending_log.append(row)
        else:
            self._db.execute(translate_query(_log_sql(1), self._db.dialect), row)
        self._ctx.last_packet_id = packet_id
        self._ctx.packets.append(Packet(packet_id, move, player_id is not None,
                                        None if player_id is None else int(player_id),
                                        stamp, notif_type, log, payload))

    def flush_writes(self) -> None:
        """The globals (whose write checks a kept state: before anything numbered from it),
        then the action's notifications in one statement (a few for a long setup)."""
        super().flush_writes()
        pending = self._pending_log
        while pending:
            chunk, pending[:] = pending[:_LOG_CHUNK], pending[_LOG_CHUNK:]
            self._db.execute(translate_query(_log_sql(len(chunk)), self._db.dialect),
                             [value for row in chunk for value in row])


#: notifications per INSERT (8 parameters each: far below every backend's limit)
_LOG_CHUNK = 500


@functools.lru_cache(maxsize=64)
def _log_sql(rows: int) -> str:
    """The INSERT of ``rows`` notifications, their ids given."""
    return ("INSERT INTO gamelog (gamelog_packet_id, gamelog_move_id, gamelog_private, "
            "gamelog_player, gamelog_time, gamelog_type, gamelog_log, gamelog_args) VALUES "
            + ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * rows))


def _json_default(value: Any) -> Any:
    """Sets and tuples as lists, objects with ``to_json()`` as what it gives."""
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    if hasattr(value, "to_json"):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


#: one encoder for every notification (``json.dumps`` with options builds one per call)
_ENCODER = json.JSONEncoder(separators=(",", ":"), default=_json_default)
