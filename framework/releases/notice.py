"""What a table records when it moves to another release mid-game: a line in its log that
tells the open pages to reload, the notice its page shows, and how far its data was
upgraded (so a step never runs twice)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from framework.core.clock import utcnow
from framework.engine.notices import NOTICE_KEY
from framework.game.globals import GLOBAL_MOVE
from framework.game.registry import GameDefinition
from framework.game.table import ActionContext, Table
from framework.i18n import clienttranslate
from framework.releases.builds import version_int

#: The notification type an open page answers by reloading (the game's code, page and
#: texts may all have changed).
RELEASE_CHANGED = "releaseChanged"
#: ``arena_meta``: the highest release whose upgrade the table's data has been through.
PASSED_KEY = "release_passed"


@dataclass(frozen=True)
class ReleaseNotice:
    """What the table page says about the table's last move to another release."""

    kind: str  # upgrade | rollback
    from_version: str | None
    to_version: str
    notes: str
    move: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "from": self.from_version, "to": self.to_version,
                "notes": self.notes, "move": self.move}


def passed_version(table: Table, current: str | None, passed: str | None = None,
                   known: bool = False) -> str | None:
    """The release the table's data was last upgraded to, or ``current`` when that is
    later (a rollback moves the release back, never this). ``known``: ``passed`` is the
    table's ``PASSED_KEY`` value, already read."""
    if not known:
        passed = table.meta(PASSED_KEY)
    return passed if version_int(passed) > version_int(current) else current


def passed_value(passed: str | None, version: str | None) -> str | None:
    """The ``PASSED_KEY`` value to write once the data has been through ``version`` (None:
    keep ``passed``, which is as late or later)."""
    if version and version_int(version) > version_int(passed):
        return version
    return None


def mark_passed(table: Table, version: str | None) -> None:
    """Remember that the table's data has been through ``version``'s upgrade (or was made
    by it), unless it has been through a later one."""
    value = passed_value(table.meta(PASSED_KEY), version)
    if value is not None:
        table.set_meta(PASSED_KEY, value)


def announce(table: Table, kind: str, from_version: str | None, to_version: str, notes: str) -> str:
    """The log line that reloads open pages (written now), and the page's notice: the
    ``NOTICE_KEY`` value for the caller to write in the same transaction."""
    if kind == "rollback":
        log = clienttranslate("This game went back to its previous version during your game")
    elif notes:
        log = clienttranslate("This game was updated to a new version during your game: ${notes}")
    else:
        log = clienttranslate("This game was updated to a new version during your game")
    table.notify_all_players(RELEASE_CHANGED, log, {"from": from_version, "to": to_version,
                                                    "notes": notes})
    move = int(table.get_game_state_value(GLOBAL_MOVE) or 0)
    return json.dumps(ReleaseNotice(kind, from_version, to_version, notes, move).to_json())


def tell_players(table: Table, kind: str, from_version: str | None, to_version: str,
                 notes: str) -> None:
    """The log line (which reloads open pages) and the page's notice, in the transaction
    that moves the table."""
    table.set_meta(NOTICE_KEY, announce(table, kind, from_version, to_version, notes))


def table_of(gdef: GameDefinition, db: Any) -> Table:
    """A fresh instance of ``gdef``'s table on ``db`` (no player speaks)."""
    return gdef.table_class(ActionContext(db=db, now=utcnow))
