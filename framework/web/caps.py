"""How many studio tables, bug reports (each with a snapshot of its table) and releases an
account, and the whole site, may keep: settings with defaults, a translated 409 when reached.

The local studio has no caps (one developer, on their own machine).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from flask import current_app
from sqlalchemy import func, select, update
from sqlalchemy.sql.elements import ColumnElement

from framework.core.errors import UserError
from framework.core.kinds import TableMode
from framework.platform.models import BugReport, GameTableRecord, ReleaseRecord, db
from framework.web.access import is_studio_site

#: setting -> default
DEFAULTS: dict[str, int] = {
    "ARENA_MAX_STUDIO_TABLES_PER_ACCOUNT": 200,
    "ARENA_MAX_STUDIO_TABLES": 5000,
    "ARENA_MAX_BUG_REPORTS_PER_ACCOUNT": 200,
    "ARENA_MAX_BUG_REPORTS": 5000,
    "ARENA_MAX_RELEASES_PER_ACCOUNT": 500,
    "ARENA_MAX_RELEASES": 5000,
}


class LimitReachedError(UserError):
    """An account or the site keeps as many of something as its settings allow."""

    http_status = 409


def _setting(key: str) -> int:
    """A cap: the app's setting, else the environment's, else its default."""
    value = current_app.config.get(key)
    if value is None:
        value = os.environ.get(key) or DEFAULTS[key]
    return int(value)


def _count(where: ColumnElement[bool], model: Any) -> int:
    with db.session.begin():
        return int(db.session.scalar(select(func.count()).select_from(model).where(where)) or 0)


def _reached(account_id: int | None, key: str, model: Any, kind: ColumnElement[bool],
             owner: Callable[[int], ColumnElement[bool]]) -> tuple[str, int] | None:
    """("account" or "site", the cap) when one is reached; never on the local studio."""
    if is_studio_site():
        return None
    if account_id is not None:
        most = _setting(f"{key}_PER_ACCOUNT")
        if _count(kind & owner(account_id), model) >= most:
            return "account", most
    most = _setting(key)
    if _count(kind, model) >= most:
        return "site", most
    return None


def check_studio_tables(account_id: int | None) -> None:
    """Raises:
        LimitReachedError: the account or the site has as many studio tables as allowed.
    """
    reached = _reached(account_id, "ARENA_MAX_STUDIO_TABLES", GameTableRecord,
                       GameTableRecord.mode == TableMode.STUDIO, lambda a: GameTableRecord.created_by == a)
    if reached and reached[0] == "account":
        raise LimitReachedError("You have ${max} studio tables, the most an account may have: ask an admin",
                                "limit_reached", max=reached[1])
    if reached:
        raise LimitReachedError("This site has ${max} studio tables, the most it allows: ask an admin",
                                "limit_reached", max=reached[1])


def check_bug_reports(account_id: int | None) -> None:
    """Raises:
        LimitReachedError: the account or the site has as many bug reports as allowed.
    """
    reached = _reached(account_id, "ARENA_MAX_BUG_REPORTS", BugReport, BugReport.id.is_not(None),
                       lambda a: BugReport.account_id == a)
    if reached and reached[0] == "account":
        raise LimitReachedError(
            "You have sent ${max} bug reports, the most an account may keep: ask an admin",
            "limit_reached", max=reached[1])
    if reached:
        raise LimitReachedError("This site keeps ${max} bug reports, the most it allows: ask an admin",
                                "limit_reached", max=reached[1])


def check_releases(account_id: int | None) -> None:
    """Raises:
        LimitReachedError: the account or the site has as many releases as allowed.
    """
    reached = _reached(account_id, "ARENA_MAX_RELEASES", ReleaseRecord, ReleaseRecord.id.is_not(None),
                       lambda a: ReleaseRecord.built_by == a)
    if reached and reached[0] == "account":
        raise LimitReachedError("You have built ${max} releases, the most an account may keep: ask an admin",
                                "limit_reached", max=reached[1])
    if reached:
        raise LimitReachedError("This site keeps ${max} releases, the most it allows: ask an admin",
                                "limit_reached", max=reached[1])


def record_table_owner(table_id: int, account_id: int | None) -> None:
    if account_id is not None:
        with db.session.begin():
            db.session.execute(update(GameTableRecord).where(GameTableRecord.id == table_id)
                               .values(created_by=account_id))


def record_release_owner(game: str, version: str, account_id: int | None) -> None:
    if account_id is not None:
        with db.session.begin():
            db.session.execute(update(ReleaseRecord).where(ReleaseRecord.game == game,
                                                           ReleaseRecord.version == version)
                               .values(built_by=account_id))
