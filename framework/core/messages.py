"""Messages with ``${arg}`` placeholders and plurals: the markers games use and the
formatting every layer shares (errors, notifications, translated pages)."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

#: Reserved notification arg: how a stored log names its plural form (see ``format_message``).
PLURAL_ARG = "_plural"

Translate = Callable[[str], str]

# ---------------------------------------------------------------------------- markers
def clienttranslate(msgid: str) -> str:
    """Mark ``msgid`` for extraction; the string is translated for each recipient later.

    >>> clienttranslate("${player_name} passes")
    '${player_name} passes'
    """
    return msgid


totranslate = clienttranslate


class PluralMessage(str):
    """A msgid with a plural form: its text is the English singular (what a log stores); the
    plural and the name of the arg that holds the number travel with it."""

    plural: str
    number: str

    def __new__(cls, singular: str, plural: str, number: str = "count") -> PluralMessage:
        self = super().__new__(cls, singular)
        self.plural = plural
        self.number = number
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (PluralMessage, (str(self), self.plural, self.number))


def clienttranslate_plural(singular: str, plural: str, number: str = "count") -> PluralMessage:
    """Mark a message with a plural form; ``number`` names the arg that chooses the form.

    The result is used where a msgid is (a notification log, a ``UserError``, a state
    description); each language picks its own form (French, Italian: one/many/other;
    Hungarian: one/other).

    >>> msg = clienttranslate_plural("${player_name} wins ${count} trick",
    ...                              "${player_name} wins ${count} tricks")
    >>> format_message(msg, {"player_name": "Ann", "count": 3})
    'Ann wins 3 tricks'
    """
    return PluralMessage(singular, plural, number)


# ---------------------------------------------------------------------------- formatting
class MessageFormatError(KeyError):
    """A log message names a placeholder that its args do not provide."""

    def __str__(self) -> str:
        return str(self.args[0])


@functools.lru_cache(maxsize=4096)
def _placeholders(text: str) -> tuple[str, ...]:
    return tuple(PLACEHOLDER.findall(text))


def placeholders(msgid: str) -> list[str]:
    """Names of the ``${...}`` placeholders in ``msgid``, in order.

    >>> placeholders("${player_name} plays ${card}")
    ['player_name', 'card']
    """
    return list(_placeholders(str(msgid)))


#: arg values that are never a mapping: checked by exact type first (a notification's args
#: are mostly these), so the costlier ``isinstance(value, Mapping)`` runs for the rest only
_SCALARS = frozenset({str, int, float, bool, type(None), list, tuple})


def _is_mapping(value: Any) -> bool:
    kind = type(value)
    return kind is dict or (kind not in _SCALARS and isinstance(value, Mapping))


def plural_spec(msgid: str, args: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(plural msgid, number arg)`` of a message, from a ``PluralMessage`` or from the
    ``_plural`` arg that a stored notification carries; None for a message without plural."""
    if isinstance(msgid, PluralMessage):
        return msgid.plural, msgid.number
    spec = args.get(PLURAL_ARG) if _is_mapping(args) else None
    if spec is not None and _is_mapping(spec) and isinstance(spec.get("plural"), str):
        return str(spec["plural"]), str(spec.get("number", "count"))
    return None


def with_plural_args(log_msg: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` plus what a stored log needs to keep its plural form (``_plural``), also for
    nested ``{"log", "args"}`` values. Called when a notification is written.

    >>> with_plural_args(clienttranslate_plural("a trick", "${count} tricks"), {"count": 2})
    {'count': 2, '_plural': {'plural': '${count} tricks', 'number': 'count'}}
    """
    out = dict(args)
    for name, value in args.items():
        if _is_mapping(value) and "log" in value:
            nested = dict(value)
            nested["args"] = with_plural_args(value["log"], value.get("args", {}))
            out[name] = nested
    if isinstance(log_msg, PluralMessage):
        out[PLURAL_ARG] = {"plural": log_msg.plural, "number": log_msg.number}
    return out


def _identity(text: str) -> str:
    return text


def english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is one: an int, a whole float or the text of a whole
    number; never a bool.

    >>> whole_number("-3"), whole_number(2.0), whole_number(True), whole_number("2.5")
    (-3, 2, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def check_message_args(msgid: str, args: Mapping[str, Any]) -> None:
    """Raise ``MessageFormatError`` if ``msgid`` (or its plural) names an arg ``args`` lack,
    if the plural's number is missing or not a whole number, or if ``i18n`` names a missing arg.
    """
    _check_args(msgid, args, plural_spec(msgid, args))


def _check_args(msgid: str, args: Mapping[str, Any], spec: tuple[str, str] | None) -> None:
    """``check_message_args`` with the message's ``plural_spec`` already found."""
    texts = (str(msgid), spec[0]) if spec else (str(msgid),)
    for text in texts:
        for name in _placeholders(text):
            if name not in args:
                raise MessageFormatError(
                    f"message {str(msgid)!r} uses ${{{name}}} but no arg {name!r} was given"
                )
    if spec is not None:
        if spec[1] not in args:
            raise MessageFormatError(
                f"message {str(msgid)!r} has a plural chosen by arg {spec[1]!r}, which was not given"
            )
        if whole_number(args[spec[1]]) is None:
            raise MessageFormatError(
                f"message {str(msgid)!r}: the plural's arg {spec[1]!r} must be a whole number, "
                f"not {args[spec[1]]!r}"
            )
    missing = [name for name in args.get("i18n", ()) if name not in args]
    if missing:
        raise MessageFormatError(f"message {str(msgid)!r}: i18n names args that are missing: {missing}")


def check_message(msgid: str, args: Mapping[str, Any]) -> None:
    """What ``format_message(msgid, args)`` checks (``check_message_args``, for the message
    and each nested ``{"log": ..., "args": ...}`` arg it places), without formatting it.

    Raises:
        MessageFormatError: as ``format_message`` with ``strict``.

    >>> check_message("${a} plays", {"a": {"log": "${b}", "args": {}}})
    Traceback (most recent call last):
    ...
    framework.core.messages.MessageFormatError: message '${b}' uses ${b} but no arg 'b' was given
    """
    spec = plural_spec(msgid, args)
    _check_args(msgid, args, spec)
    if not msgid:
        return
    names = _placeholders(str(msgid)) + (_placeholders(spec[0]) if spec is not None else ())
    for name in names:
        value = args[name]
        if _is_mapping(value) and "log" in value:
            check_message(str(value["log"]), value.get("args", {}))


def format_message(
    msgid: str,
    args: Mapping[str, Any],
    translate: Translate | None = None,
    strict: bool = True,
) -> str:
    """Translate ``msgid`` and fill ``${name}`` from ``args``.

    Args listed in ``args["i18n"]`` are translated too; others (player names) never are.
    A nested ``{"log": ..., "args": ...}`` arg is formatted recursively. A message with a
    plural (``clienttranslate_plural``, or ``args["_plural"] = {"plural": ..., "number":
    "count"}`` in a stored log) takes the form its language uses for ``args[number]``; the
    translator's ``ngettext`` chooses it (English rules without one).

    A translation whose placeholders the args do not fill is never shown: the English message
    is, and a warning is logged (``arena i18n check`` reports such translations).

    Raises:
        MessageFormatError: with ``strict``, a placeholder of the English message has no arg,
            or the plural's number is missing.

    >>> format_message("${player_name} takes ${points} points", {"player_name": "Ann", "points": 20})
    'Ann takes 20 points'
    """
    if strict:
        check_message_args(msgid, args)
    if not msgid:
        return ""
    tr: Translate = translate or _identity
    spec = plural_spec(msgid, args)
    n = whole_number(args.get(spec[1])) if spec is not None else None
    if spec is not None and n is not None:
        english = english_plural(str(msgid), spec[0], n)
        choose = getattr(translate, "ngettext", None)
        text = choose(str(msgid), spec[0], n) if choose is not None else english
    else:
        english = str(msgid)
        text = tr(str(msgid))
    if text != english:
        try:
            return substitute(text, args, translate, True)
        except MessageFormatError as exc:
            lang = getattr(translate, "lang", "?")
            log.warning("the %s translation of %r cannot be filled (%s): English shown", lang, english, exc)
    return substitute(english, args, translate, strict)


def substitute(text: str, args: Mapping[str, Any], translate: Translate | None, strict: bool) -> str:
    tr: Translate = translate or _identity
    i18n = set(args.get("i18n", ()))

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in args:
            if strict:
                raise MessageFormatError(f"message {text!r} uses ${{{name}}} but no arg {name!r} was given")
            return match.group(0)
        value = args[name]
        if isinstance(value, Mapping) and "log" in value:
            return format_message(str(value["log"]), value.get("args", {}), translate, strict)
        if name in i18n and isinstance(value, str):
            return tr(value) if value else ""
        return str(value)

    return PLACEHOLDER.sub(fill, text)

