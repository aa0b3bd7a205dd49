"""The studio error log: exceptions of game code, with their traceback, per table."""

from __future__ import annotations

import logging
import traceback
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from framework.platform.models import TableErrorRecord

log = logging.getLogger(__name__)


class ErrorLog:
    """``table_errors`` of the platform database."""

    def __init__(self, platform: Engine) -> None:
        self.platform = platform

    def log_error(self, table_id: int, player_id: int | None, action: str | None, exc: BaseException) -> None:
        tb = "".join(traceback.format_exception(exc))
        log.error("table %s, action %s: %s", table_id, action, tb)
        with Session(self.platform) as s, s.begin():
            s.add(TableErrorRecord(table_id=table_id, player_id=player_id, action=action,
                                   message=str(exc)[:2000], traceback=tb))

    def errors(self, table_id: int) -> list[dict[str, Any]]:
        with Session(self.platform) as s:
            recs = s.scalars(select(TableErrorRecord).where(TableErrorRecord.table_id == table_id)
                             .order_by(TableErrorRecord.id)).all()
            return [{"id": r.id, "player_id": r.player_id, "action": r.action, "message": r.message,
                     "traceback": r.traceback, "created_at": r.created_at.isoformat()} for r in recs]
