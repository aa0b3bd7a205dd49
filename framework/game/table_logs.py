"""BGA's log helpers of ``Table`` (``debug``, ``trace``, ``warn``, ``error``, ``dump``): lines
in the server's log under the logger ``arena.game.<game>``, never shown to players."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from framework.game.definition_protocol import GameDefinitionProtocol

LOGGER_PREFIX = "arena.game."


def _dumped(value: Any) -> str:
    try:
        return json.dumps(value, default=repr, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class TableLogs:
    """Developer log lines of a game: ``arena serve`` prints them, the studio keeps them in its
    log; an exception, not these, reaches the table's error log."""

    definition: ClassVar[GameDefinitionProtocol]

    @property
    def logger(self) -> logging.Logger:
        """The game's logger: ``arena.game.<game name>``."""
        return logging.getLogger(LOGGER_PREFIX + self.definition.name)

    def debug(self, message: str) -> None:
        """A line for the developer (DEBUG level)."""
        self.logger.debug("%s", message)

    def trace(self, message: str) -> None:
        """A line of the request's trace (INFO level)."""
        self.logger.info("%s", message)

    def warn(self, message: str) -> None:
        """Something odd the game survived (WARNING level)."""
        self.logger.warning("%s", message)

    def error(self, message: str) -> None:
        """Something wrong the game survived (ERROR level); raise to cancel the move instead."""
        self.logger.error("%s", message)

    def dump(self, prefix: str, value: Any) -> None:
        """``prefix`` and ``value`` as JSON (DEBUG level), e.g. ``self.dump("hand", cards)``."""
        self.logger.debug("%s: %s", prefix, _dumped(value))
