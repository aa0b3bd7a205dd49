"""A table's chat on the platform database: write a line, list the lines after an id, hide a
line (moderation). Who may write or hide is the web layer's question (``framework/web/chat.py``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from framework.core.errors import NotFoundError, UserError
from framework.platform.accounts import AnySession
from framework.platform.models import ChatMessage, Player

#: the longest line a player may write, in characters
MAX_LENGTH = 500
#: the most lines one answer gives
PAGE_SIZE = 100


class ChatLineError(UserError):
    """A chat line that cannot be written (empty or too long): nothing is stored."""


@dataclass(frozen=True)
class ChatLine:
    """One line as readers receive it (a hidden line keeps its id, never its text)."""

    id: int
    author_id: int
    author_name: str
    body: str
    hidden: bool
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "author_id": self.author_id, "author": self.author_name,
                "body": "" if self.hidden else self.body, "hidden": self.hidden,
                "time": self.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")}  # UTC


def clean_body(raw: object) -> str:
    """The text of a line as it is stored: one line, control characters dropped, trimmed.

    >>> clean_body("  hello\\r\\nworld\\x07 ")
    'hello world'

    Raises:
        ChatLineError: not text, empty once cleaned, or longer than ``MAX_LENGTH``.
    """
    if not isinstance(raw, str):
        raise ChatLineError("A chat message must be text", "chat_bad_message")
    text = " ".join(raw.split())  # newlines and runs of spaces become one space
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
    if not text:
        raise ChatLineError("Write something before sending", "chat_empty")
    if len(text) > MAX_LENGTH:
        raise ChatLineError("A chat message is at most ${limit} characters (this one has ${length})",
                            "chat_too_long", limit=MAX_LENGTH, length=len(text))
    return text


def write(session: AnySession, table_id: int, author_id: int, raw: object) -> ChatLine:
    """Store a line of ``author_id`` at ``table_id`` (the caller commits).

    Raises:
        ChatLineError: see ``clean_body``.
    """
    body = clean_body(raw)
    row = ChatMessage(table_id=table_id, author_id=author_id, body=body)
    session.add(row)
    session.flush()
    name = session.scalar(select(Player.name).where(Player.id == author_id)) or str(author_id)
    return ChatLine(row.id, author_id, name, body, False, row.created_at)


def lines_after(session: AnySession, table_id: int, after: int = 0,
                limit: int = PAGE_SIZE) -> list[ChatLine]:
    """The table's lines with an id above ``after``, oldest first (at most ``limit``; with
    ``after`` 0, the latest ``limit``)."""
    query = (select(ChatMessage, Player.name).join(Player, Player.id == ChatMessage.author_id)
             .where(ChatMessage.table_id == table_id, ChatMessage.id > after))
    if after <= 0:
        rows = list(session.execute(query.order_by(ChatMessage.id.desc()).limit(limit)).all())
        rows.reverse()
    else:
        rows = list(session.execute(query.order_by(ChatMessage.id).limit(limit)).all())
    return [ChatLine(m.id, m.author_id, name, m.body, m.hidden, m.created_at) for m, name in rows]


def hidden_ids(session: AnySession, table_id: int) -> list[int]:
    """The ids of the table's hidden lines (so open pages take them away)."""
    return list(session.scalars(select(ChatMessage.id).where(ChatMessage.table_id == table_id,
                                                             ChatMessage.hidden.is_(True))
                                .order_by(ChatMessage.id)))


def hide(session: AnySession, table_id: int, line_id: int) -> None:
    """Hide line ``line_id`` of ``table_id`` from every reader (the caller commits).

    Raises:
        NotFoundError: the table has no such line.
    """
    done = session.execute(update(ChatMessage)
                           .where(ChatMessage.id == line_id, ChatMessage.table_id == table_id)
                           .values(hidden=True))
    if done.rowcount == 0:  # type: ignore[attr-defined]
        raise NotFoundError("This table has no chat message ${line}", "chat_no_line", line=line_id)
