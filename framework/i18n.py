"""Translatable strings: the ``clienttranslate`` marker and ``${arg}`` substitution."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

Translate = Callable[[str], str]


def clienttranslate(msgid: str) -> str:
    """Mark ``msgid`` for extraction; the string is translated for each recipient later.

    >>> clienttranslate("${player_name} passes")
    '${player_name} passes'
    """
    return msgid


totranslate = clienttranslate


class MessageFormatError(KeyError):
    """A log message names a placeholder that its args do not provide."""

    def __str__(self) -> str:
        return str(self.args[0])


def placeholders(msgid: str) -> list[str]:
    """Names of the ``${...}`` placeholders in ``msgid``, in order.

    >>> placeholders("${player_name} plays ${card}")
    ['player_name', 'card']
    """
    return PLACEHOLDER.findall(msgid)


def format_message(
    msgid: str,
    args: Mapping[str, Any],
    translate: Translate | None = None,
    strict: bool = True,
) -> str:
    """Translate ``msgid`` and fill ``${name}`` from ``args``.

    Args listed in ``args["i18n"]`` are translated too; others (player names) never are.
    A nested ``{"log": ..., "args": ...}`` arg is formatted recursively.

    Raises:
        MessageFormatError: a placeholder has no arg (with ``strict``).

    >>> format_message("${player_name} takes ${points} points", {"player_name": "Ann", "points": 20})
    'Ann takes 20 points'
    """
    tr: Translate = translate or (lambda s: s)
    i18n = set(args.get("i18n", ()))
    text = tr(msgid) if msgid else ""

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in args:
            if strict:
                raise MessageFormatError(
                    f"message {msgid!r} uses ${{{name}}} but no arg {name!r} was given"
                )
            return match.group(0)
        value = args[name]
        if isinstance(value, Mapping) and "log" in value:
            return format_message(str(value["log"]), value.get("args", {}), translate, strict)
        if name in i18n and isinstance(value, str):
            return tr(value)
        return str(value)

    return PLACEHOLDER.sub(fill, text)
