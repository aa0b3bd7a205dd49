"""The platform check before a production move (``before_action``): one statement that
tells whether the table is blocked, the release it is recorded at and the game's
production release, also for a table or a game the registry does not have."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.orm import Session

from framework.core.kinds import TableMode
from framework.engine.directory import TableInfo
from framework.platform.models import Base, GameRecord, GameTableRecord
from framework.releases.upgrade import _move_check


def test_one_statement_tells_blocked_recorded_and_target(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'platform.sqlite'}")
    Base.metadata.create_all(engine)
    with Session(engine) as s, s.begin():
        s.add(GameRecord(name="belote", production_version="1.2"))
        s.add(GameTableRecord(id=7, game="belote", mode=TableMode.PRODUCTION, release_version="1.1",
                              blocked=True, seed="s"))
        s.add(GameTableRecord(id=9, game="belote", mode=TableMode.PRODUCTION, release_version="1.2",
                              blocked=False, seed="s"))
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    prod = TableMode.PRODUCTION
    assert _move_check(engine, TableInfo(7, "belote", prod, "1.0")) == (True, "1.2", "1.1")
    assert len(statements) == 1
    assert _move_check(engine, TableInfo(9, "belote", prod, "1.0")) == (False, "1.2", "1.2")
    # no registry row: not blocked, the release the runtime knows
    assert _move_check(engine, TableInfo(8, "belote", prod, "1.0")) == (False, "1.2", "1.0")
    # a game never deployed: no target
    assert _move_check(engine, TableInfo(8, "chess", prod, "1.0")) == (False, None, "1.0")
    engine.dispose()
