"""Upgrades without DDL run in place (issue 17, finding 12): on MariaDB a release with no
schema change no longer copies the table's database; a step with DDL still runs on a copy,
and an upgrade stays all-or-nothing either way."""

from __future__ import annotations

import random
from datetime import datetime

import pytest
from sqlalchemy.orm import Session

from framework.core.errors import BlockedError
from framework.platform.models import GameRecord
from framework.releases.builds import build, version_int
from framework.releases.deploy import deploy
from framework.releases.migrate import in_upgrade
from framework.releases.upgrade import background_upgrades, upgrade_all
from framework.site import Site
from framework.storage.base import DDLNeededError, TableConnection
from framework.storage.sql.translate import translate_query
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some, snapshot

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 30, 14, 0)


def run(db: TableConnection, sql: str, params: tuple[object, ...] = ()) -> list[dict[str, object]]:
    return db.execute(translate_query(sql, db.dialect), params).rows


def innodb_id(site: Site, table_id: int, table: str) -> int:
    """MariaDB's id of a live table: a table copied and swapped in has another one."""
    with site.store.connect(table_id, write=False) as db:
        name = f"{site.store.database(table_id)}/{table}"  # type: ignore[attr-defined]
        rows = db.execute("SELECT TABLE_ID AS i FROM information_schema.INNODB_SYS_TABLES WHERE NAME = %s",
                          (name,)).rows
        return int(rows[0]["i"])


def test_a_refused_ddl_rolls_back_even_when_the_body_catches_it(workspace: Workspace) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=1, mode="production")
    with site.store.connect(tid, write=False) as db:
        before = run(db, "SELECT player_id, player_score FROM player ORDER BY player_id")

    def sneaky(db: TableConnection) -> str:
        run(db, "UPDATE player SET player_score = player_score + 100")
        try:
            db.execute(translate_query("CREATE TABLE `extra` (`x` INT)", db.dialect)
                       if db.dialect == "mysql" else "CREATE TABLE extra (x INTEGER)")
        except DDLNeededError:
            return "caught"
        return "ran"

    if site.store.dialect == "mysql":
        with pytest.raises(DDLNeededError):
            with site.store.upgrading(tid, ddl=False) as db:  # type: ignore[call-arg]
                sneaky(db)
        with site.store.connect(tid, write=False) as db:
            assert run(db, "SELECT player_id, player_score FROM player ORDER BY player_id") == before
            assert "extra" not in db.table_names()
    # in_upgrade runs it again with DDL allowed: then it lands whole, on every backend
    assert in_upgrade(site.store, tid, sneaky) == "ran"
    with site.store.connect(tid, write=False) as db:
        after = run(db, "SELECT player_id, player_score FROM player ORDER BY player_id")
        assert [r["player_score"] for r in after] == [int(str(r["player_score"])) + 100 for r in before]
        assert "extra" in db.table_names()


def test_a_release_without_ddl_or_adding_columns_upgrades_in_place_and_other_ddl_on_a_copy(
        workspace: Workspace) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=2, mode="production")
    play_some(site, tid, 3, random.Random(1))
    ids = innodb_id(site, tid, "player") if site.store.dialect == "mysql" else None

    workspace.edit("stats.py", "]\n", '    Stat(14, "patience", clienttranslate("Patience"), "int", "player"),\n]\n')
    workspace.commit("B: a statistic, no DDL")
    b = build(site, GAME, now=T0.replace(hour=15))["version"]
    deploy(site, GAME, b)
    assert upgrade_all(site, GAME)["upgraded"] == 1
    with site.runtime.read(tid) as t:
        assert t.meta("release") == b
        assert t.get_stat("patience", t.get_active_player_id()) == 0
    if ids is not None:
        assert innodb_id(site, tid, "player") == ids  # the same table: upgraded in place

    workspace.append("dbmodel.sql", "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n")
    workspace.append("game.py", '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")
''')
    workspace.commit("C: a column")
    c = build(site, GAME, now=T0.replace(hour=16))["version"]
    assert deploy(site, GAME, c, block=True)["upgrade"]["upgraded"] == 1
    with site.store.connect(tid, write=False) as db:
        assert "player_luck" in db.column_names("player")
        assert "player_luck" in db.column_names("zz_savepoint_player")
    if ids is not None:  # only columns added: MariaDB adds them in place (mysql_columns)
        assert innodb_id(site, tid, "player") == ids
    assert site.store.table_ids() == [tid]  # type: ignore[attr-defined]  # no copy left behind

    workspace.append("dbmodel.sql", "\nCREATE TABLE IF NOT EXISTS `roll_log` (`roll_id` INT NOT NULL, "
                     "PRIMARY KEY (`roll_id`)) ENGINE=InnoDB;\n"
                     "ALTER TABLE `player` ADD `player_mood` INT NOT NULL DEFAULT '0';\n")
    workspace.edit("game.py", "if from_version < 9999999999:", f"if from_version < {version_int(c)}:")
    workspace.append("game.py", MOOD_AND_ROLLS)
    workspace.commit("D: a column and a table")
    d = build(site, GAME, now=T0.replace(hour=17))["version"]
    assert deploy(site, GAME, d, block=True)["upgrade"]["upgraded"] == 1
    with site.store.connect(tid, write=False) as db:
        assert "roll_log" in db.table_names() and "player_mood" in db.column_names("zz_replay2_player")
    if ids is not None:  # a table created too: a copy of what it writes, swapped in
        assert innodb_id(site, tid, "player") != ids
    assert site.store.table_ids() == [tid]  # type: ignore[attr-defined]


MOOD_AND_ROLLS = '''
        if from_version < 9999999999:
            self.migrate.add_column("player", "player_mood", "INT NOT NULL DEFAULT 0")
            self.db_query("CREATE TABLE IF NOT EXISTS `roll_log` (`roll_id` INT NOT NULL, PRIMARY KEY (`roll_id`))")
'''


def test_a_lazy_upgrade_with_ddl_never_copies_inside_a_move(workspace: Workspace) -> None:
    """A table still behind when a player moves: on MariaDB, where DDL needs a copy of the
    database, the move is refused at once (503, nothing applied) and the table upgrades in a
    thread of its own; the next move runs on the new release. Elsewhere the DDL is part of
    the move's own transaction."""
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=3, mode="production")
    play_some(site, tid, 2, random.Random(2))
    workspace.append("dbmodel.sql", "\nALTER TABLE `player` ADD `player_luck` INT UNSIGNED NOT NULL DEFAULT '0';\n")
    workspace.append("game.py", '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            self.migrate.add_column("player", "player_luck", "INT UNSIGNED NOT NULL DEFAULT 0")
''')
    workspace.commit("B: a column")
    b = build(site, GAME, now=T0.replace(hour=15))["version"]
    # B is production and the table was not upgraded yet (a deploy --block cut short).
    with Session(site.platform) as s, s.begin():
        record = s.get(GameRecord, GAME)
        assert record is not None
        record.production_version = b
    before = snapshot(site, tid)
    player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]
    if site.store.dialect == "mysql":
        with pytest.raises(BlockedError) as refused:
            site.runtime.act(tid, player, "draw", {})
        assert refused.value.code == "table_upgrading"
        for thread in background_upgrades():
            thread.join(60)
        assert not background_upgrades()
        after = snapshot(site, tid)
        assert all("player_luck" in row for row in after["player"])
        # The refused move applied nothing: only the upgrade's own rows are new (the release
        # it passed in arena_meta, the players' notice of the new release in gamelog).
        grown = {t for t in before if len(after[t]) != len(before[t])}
        assert grown <= {"arena_meta", "gamelog"}
        new_log = [r for r in after["gamelog"] if r not in before["gamelog"]]
        assert len(new_log) == 1 and "releaseChanged" in repr(new_log[0])
    site.runtime.act(tid, player, "draw", {})
    with site.runtime.read(tid) as t:
        assert t.meta("release") == b
    with site.store.connect(tid, write=False) as db:
        assert "player_luck" in db.column_names("player")
