"""An upgrade that fails half-way, after it has already changed the schema, leaves each
table exactly on its old release, on every backend (on MariaDB, whose DDL commits at once,
the upgrade ran on a copy of the table's database that was never swapped in)."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from framework.core.errors import BlockedError
from framework.releases.builds import build, version_int
from framework.releases.deploy import deploy
from framework.releases.upgrade import upgrade_all
from tests.releases.conftest import GAME, Workspace
from tests.releases.test_releases import play_some, play_to_end, snapshot

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 29, 10, 0)

HALF_WAY = '''

    def upgrade_table_db(self, from_version: int) -> None:
        import sqlalchemy as sa

        if from_version < VERSION:
            self.migrate.add_column(
                "player", sa.Column("player_luck", sa.Integer, nullable=False, server_default="0"))
            self.db_query("CREATE TABLE IF NOT EXISTS `roll_log` (`roll_id` int(10) unsigned NOT NULL "
                          "AUTO_INCREMENT, `roll_value` tinyint(3) NOT NULL, PRIMARY KEY (`roll_id`))")
            self.db_query("UPDATE player SET player_score = player_score + 1000")
            FAIL
'''


def test_an_upgrade_failing_half_way_leaves_every_table_on_its_old_release(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tables = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(3)]
    rng = random.Random(2)
    for tid in tables:
        play_some(site, tid, 6, rng)
    before = {tid: snapshot(site, tid) for tid in tables}

    workspace.append("dbmodel.sql", "\nALTER TABLE `player` ADD `player_luck` INT NOT NULL DEFAULT '0';\n"
                     "CREATE TABLE IF NOT EXISTS `roll_log` (`roll_id` int(10) unsigned NOT NULL "
                     "AUTO_INCREMENT, `roll_value` tinyint(3) NOT NULL, PRIMARY KEY (`roll_id`)) "
                     "ENGINE=InnoDB;\n")
    workspace.append("game.py", HALF_WAY.replace("VERSION", "9999999999").replace(
        "FAIL", 'raise RuntimeError("the upgrade stops half-way")'))
    workspace.commit("B: an upgrade that fails after its DDL")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    result = deploy(site, GAME, b, block=True, force=True)
    assert result["upgrade"]["failed"] == 3, result["upgrade"]
    for tid in tables:
        # schema, rows and copies exactly as before: no column, no table, no score change
        assert snapshot(site, tid) == before[tid]
        assert "half-way" in site.runtime.errors(tid)[-1]["message"]
        data = site.runtime.get_data(tid, None)
        with pytest.raises(BlockedError):
            site.runtime.act(tid, data["gamestate"]["active_player"], "draw", {})
    assert site.store.table_ids() == sorted(tables)  # type: ignore[attr-defined]  # no copy left

    # The fixed release upgrades them all, and the games go on.
    workspace.edit("game.py", 'raise RuntimeError("the upgrade stops half-way")', "pass")
    workspace.edit("game.py", "if from_version < 9999999999:", f"if from_version < {version_int(b)}:")
    workspace.edit("game.py", '            self.db_query("UPDATE player SET player_score = player_score + 1000")\n', "")
    workspace.commit("C: the upgrade without its failure")
    c = build(site, GAME, now=T0.replace(hour=12))["version"]
    assert deploy(site, GAME, c, block=True)["upgrade"]["upgraded"] == 3
    for tid in tables:
        after = snapshot(site, tid)
        assert "roll_log" in after and all("player_luck" in row for row in after["player"])
        play_to_end(site, tid)
    assert upgrade_all(site, GAME)["upgraded"] == 0
