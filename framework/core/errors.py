"""Exceptions of the framework: user errors shown to players, system errors for developers."""

from __future__ import annotations

from typing import Any

from framework.core.messages import format_message


class ArenaError(Exception):
    """Base of every error the framework raises on purpose."""


class UserError(ArenaError):
    """A player's mistake: shown to the player, translated, changes nothing.

    ``msgid`` is an English message with ``${name}`` placeholders filled from ``args``;
    ``code`` is a stable machine-readable name used by the JSON API.
    """

    http_status = 400

    def __init__(self, msgid: str, code: str = "user_error", **args: Any) -> None:
        self.msgid = msgid
        self.code = code
        self.args_ = args
        super().__init__(self.render())

    def render(self, translate: Any = None) -> str:
        return format_message(self.msgid, self.args_, translate)


class GameCodeError(UserError):
    """Game code raised an unexpected exception: the action was cancelled and logged."""

    http_status = 500


class NotFoundError(UserError):
    """An unknown game, table, player or action."""

    http_status = 404


class GameOverError(UserError):
    """An action on a table whose game has ended."""

    http_status = 409


class NotYourTurnError(UserError):
    """The player who sent the action is not active."""

    http_status = 403


class BlockedError(UserError):
    """The game is blocked for maintenance; the action was not applied."""

    http_status = 503
    retry_after = 30


class GameSystemError(ArenaError):
    """A bug in game code or a misuse of the API: logged for the developer."""


class ConfigError(ArenaError):
    """A game definition (states, stats, options, dbmodel.sql) is invalid.

    The message names the game, the item and the field at fault.
    """


class StorageUnavailableError(BlockedError):
    """The table's database could not take the action (connection lost, disk full, read-only
    file, lock wait too long): nothing was applied, and the same request may be sent again."""

    retry_after = 2


class StaleMoveError(UserError):
    """The action was sent for a move that is no longer the table's (a double click, or a
    retry of a request that was applied): it is not applied a second time."""

    http_status = 409
