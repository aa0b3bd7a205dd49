"""``self.notify``: notifications to every player or to one, with decorators that add
arguments to each (BGA's ``$this->notify``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

#: ``decorator(message, args) -> args``: called for each notification, in the order added.
Decorator = Callable[[str, dict[str, Any]], dict[str, Any]]


class Notify:
    """Sends through the table's ``notify_all_players`` / ``notify_player``: the same log,
    checks and hidden-information rules."""

    def __init__(self, table: TableProtocol) -> None:
        self._table = table
        self._decorators: list[Decorator] = []

    def add_decorator(self, decorator: Decorator) -> None:
        """Add ``decorator``; e.g. one that adds ``player_name`` when ``player_id`` is given."""
        if not callable(decorator):
            raise GameSystemError("notify.add_decorator needs a function (message, args) -> args")
        self._decorators.append(decorator)

    def all(self, notif_type: str, /, message: str = "", args: Mapping[str, Any] | None = None,
            **kwargs: Any) -> None:
        """A public notification: every player and spectator receives it."""
        self._table.notify_all_players(notif_type, message, self._decorate(message, args, kwargs))

    def player(self, player_id: int, notif_type: str, /, message: str = "",
               args: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        """A private notification: only ``player_id`` receives it (``player_id=`` may also
        be one of its arguments)."""
        self._table.notify_player(player_id, notif_type, message,
                                  self._decorate(message, args, kwargs))

    def _decorate(self, message: str, args: Mapping[str, Any] | None,
                  kwargs: Mapping[str, Any]) -> dict[str, Any]:
        merged: dict[str, Any] = {**(args or {}), **kwargs}
        for decorator in self._decorators:
            result = decorator(message, dict(merged))
            if not isinstance(result, dict):
                raise GameSystemError(f"notify decorator {getattr(decorator, '__name__', decorator)!r} "
                                      f"returned {type(result).__name__}, not the args dict")
            merged = result
        return merged
