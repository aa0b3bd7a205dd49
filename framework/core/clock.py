"""Time as the framework stores it: naive UTC datetimes."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

_DATETIME_TEXT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?")


def utcnow() -> datetime:
    """Now, as a naive UTC datetime (what every DATETIME column holds)."""
    return datetime.now(UTC).replace(tzinfo=None)


def to_datetime(value: Any) -> datetime | None:
    """A DATETIME column's value as a naive UTC datetime (drivers differ)."""
    if value is None or isinstance(value, datetime):
        return value
    text = str(value)
    if _DATETIME_TEXT.fullmatch(text):
        return datetime.fromisoformat(text)  # the stored forms (fast: no strptime)
    raise ValueError(f"not a DATETIME: {text!r}")
