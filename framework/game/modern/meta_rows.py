"""Named values kept in a table's ``arena_meta`` rows under a prefix (globals, counters,
preferences, legacy data): the one place that writes and lists them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from framework.core.errors import GameSystemError

if TYPE_CHECKING:
    from framework.game.table_protocol import TableProtocol

#: ``arena_meta.meta_key`` is a VARCHAR(64).
MAX_KEY_LENGTH = 64


def meta_key(prefix: str, *parts: object) -> str:
    """``prefix:part:part``, refused when it would not fit ``arena_meta``.

    Raises:
        GameSystemError: the key is too long, or a part holds a ``:``.
    """
    texts = [str(p) for p in parts]
    if any(":" in t or not t for t in texts):
        raise GameSystemError(f"{prefix} name {texts!r}: names are not empty and hold no ':'")
    key = ":".join([prefix, *texts])
    if len(key) > MAX_KEY_LENGTH:
        raise GameSystemError(f"{prefix} name {':'.join(texts)!r} is too long "
                              f"({len(key)} characters with its prefix; at most {MAX_KEY_LENGTH})")
    return key


def read(table: TableProtocol, key: str) -> str | None:
    return table.meta(key)


def write(table: TableProtocol, key: str, text: str) -> None:
    table.set_meta(key, text)


def delete(table: TableProtocol, key: str) -> None:
    table.db_query("DELETE FROM arena_meta WHERE meta_key = %s", (key,))


def listed(table: TableProtocol, prefix: str) -> dict[str, str]:
    """Every row whose key starts with ``prefix:``, by the rest of its key."""
    start = prefix + ":"
    rows = table.db_query(
        "SELECT meta_key, meta_value FROM arena_meta WHERE meta_key LIKE %s", (start + "%",)
    ).rows
    # LIKE's ``_`` matches any character: keep only the exact prefix.
    return {str(r["meta_key"])[len(start):]: str(r["meta_value"]) for r in rows
            if str(r["meta_key"]).startswith(start)}


def to_json_text(value: Any, what: str) -> str:
    """``value`` as JSON text.

    Raises:
        GameSystemError: it is not JSON (a set, an object, NaN...).
    """
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise GameSystemError(f"{what}: {value!r} is not a JSON value ({exc})") from None
