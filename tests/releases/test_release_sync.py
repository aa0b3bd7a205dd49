"""Releases that stay right when several processes share a site, when tables in play are on
older releases, and across rollbacks (issue 17: findings 1, 4, 5, 6, 7, 8, 10)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session

from framework.core.errors import BlockedError, UserError
from framework.platform.models import GameTableRecord
from framework.releases.builds import build, version_int
from framework.releases.check import check
from framework.releases.deploy import deploy, is_game_blocked, rollback, set_blocked
from framework.site import Site
from framework.storage.sqlite import SQLiteTableConnection
from tests.releases.conftest import GAME, Workspace, arena, make_second_chance
from tests.releases.test_releases import play_some, play_to_end

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 29, 10, 0)

# Release "two": each draw also counts in a new statistic, says "pulls", and the page data
# says which release made it.
TWO_STAT = '    Stat(14, "draws_two", clienttranslate("Draws of release two"), "int", "player"),\n'
TWO_COUNT = '        self.inc_stat(1, "draws_two", self.get_active_player_id())\n'


def make_two(ws: Workspace) -> None:
    ws.edit("stats.py", "]\n", TWO_STAT + "]\n")
    ws.edit("game.py", '        self.check_action("draw")\n', '        self.check_action("draw")\n' + TWO_COUNT)
    ws.edit("game.py", '"draw", clienttranslate("${player_name} draws a ${value}")',
            '"draw", clienttranslate("${player_name} pulls a ${value}")')
    ws.edit("game.py", '            "target": self.target(),\n', '            "target": self.target(),\n'
            '            "release_two": True,\n')


@pytest.fixture
def other_process(workspace: Workspace) -> Iterator[Site]:
    """A second site on the same folder and databases, with caches of its own: what
    another worker or a CLI command is."""
    site = workspace.site
    other = Site.open(site.instance_path, database_url=site.database_url, registry=site.registry,
                      migrate=False)
    yield other
    other.close()


def draw(site: Site, table_id: int) -> str:
    """The active players draw until one draws more than a 1; the log line of that draw."""
    for _ in range(30):
        player = site.runtime.get_data(table_id, None)["gamestate"]["active_player"]
        before = len(site.runtime.events(table_id, None))
        site.runtime.act(table_id, player, "draw", {})
        lines = [e["log"] for e in site.runtime.events(table_id, None)[before:] if e["type"] == "draw"]
        if lines:
            return str(lines[0])
    raise AssertionError("thirty 1s in a row")


def test_every_process_runs_the_release_another_process_moved_the_table_to(
        workspace: Workspace, other_process: Site) -> None:
    """Finding 1: one process caches a table's release; another deploys, upgrades, rolls
    back; the first one's next action and read run the table's release of now."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=4, mode="production")
    assert " draws a " in draw(site, tid)  # this process has the table's release cached
    assert "release_two" not in site.runtime.get_data(tid, None)

    make_two(workspace)
    workspace.commit("two: a statistic, another word")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    deploy(other_process, GAME, v2, block=True)  # the other process upgrades every table
    line = draw(site, tid)
    assert " pulls a " in line, line
    assert "release_two" in site.runtime.get_data(tid, None)
    with site.runtime.read(tid) as t:
        assert t.meta("release") == v2
        assert sum(int(t.get_stat("draws_two", p)) for p in t.load_players_basic_infos()) >= 1

    # A rollback by the other process, after this one has cached v3's row: v2 again.
    workspace.edit("game.py", "pulls a ${value}", "grabs a ${value}")
    workspace.commit("three: yet another word")
    v3 = build(site, GAME, now=T0.replace(hour=12))["version"]
    deploy(other_process, GAME, v3)  # lazily: this process upgrades the table at its next move
    assert " grabs a " in draw(site, tid)
    rollback(other_process, GAME)
    assert " pulls a " in draw(site, tid)
    with site.runtime.read(tid) as t:
        assert t.meta("release") == v2
    # and the other process, whose cache still held v1's row, plays v2 too
    assert " pulls a " in draw(other_process, tid)


def played_sqlite_table(site: Site, why: str) -> tuple[str, int]:
    """A production table on release v1, played a little, on SQLite (else the test skips:
    ``why``); the release and the table."""
    if site.store.dialect != "sqlite":
        pytest.skip(why)
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tid = site.runtime.create_table(GAME, 2, {"target": 3}, seed=4, mode="production")
    assert " draws a " in draw(site, tid)
    return v1, tid


def test_a_move_after_this_process_wrote_the_table_last_reads_no_release(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """On SQLite, a production move that starts from what this process kept of its own last
    move, the table's file untouched since, does not read the table's release again (its
    guarded write of the globals is the check); after another process's write it does."""
    site = workspace.site
    _, tid = played_sqlite_table(site, "the servers cannot tell without a statement whether another "
                                       "connection wrote")
    directory = site.runtime.directory
    reads: list[int] = []
    confirm = directory.confirm_release
    monkeypatch.setattr(directory, "confirm_release", lambda info, db: (reads.append(info.id), confirm(info, db))[1])
    player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]  # a read reads it
    reads.clear()
    site.runtime.act(tid, player, "draw", {})
    assert reads == []
    other = sqlite3.connect(site.store.path(tid))  # type: ignore[attr-defined]  # another process's write
    with other:
        other.execute("UPDATE player SET player_score_aux = player_score_aux + 1")
    other.close()
    player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]
    reads.clear()
    site.runtime.act(tid, player, "draw", {})
    assert reads == [tid]


@pytest.mark.parametrize("kept_globals", [True, False], ids=["checked-by-the-write", "checked-at-once"])
def test_a_release_changed_unseen_by_the_file_hint_still_runs_the_new_code(
        workspace: Workspace, monkeypatch: pytest.MonkeyPatch, kept_globals: bool) -> None:
    """The hint that no one wrote the table (the write-ahead log's size and time) can miss a
    write in the same clock tick: an upgrade made then by another process still gets its
    release played, since an upgrade changes the table's write token. The kept copy is
    found stale by the action's write of its globals, or, when it holds no globals, by
    their read before the game's code runs."""
    site = workspace.site
    v1, tid = played_sqlite_table(site, "the hint is SQLite's: the servers read the release with every move")
    kept = site.runtime.gatekeeper.kept.take(tid)
    assert kept is not None and kept.globals is not None
    if not kept_globals:
        kept.globals = None
    site.runtime.gatekeeper.kept.put(tid, kept)
    player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]
    make_two(workspace)
    workspace.commit("two: a statistic, another word")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    arena(workspace, "release", "deploy", GAME, v2, "--block")  # a process of its own
    # as if its commits had gone unseen, and this move came before its record of the
    # table's new release (which this process's lazy-upgrade check reads)
    monkeypatch.setattr(SQLiteTableConnection, "written_elsewhere", lambda self: False)
    monkeypatch.setattr(site.runtime.gatekeeper, "before_action", None)
    assert site.runtime.table_info(tid).release_version == v1  # what this process believes
    site.runtime.act(tid, player, "draw", {})
    with site.runtime.read(tid) as t:
        assert t.meta("release") == v2
        # release two's code ran the move: it counts each draw in its new statistic
        assert sum(int(t.get_stat("draws_two", p)) for p in t.load_players_basic_infos()) == 1


def _raising_old_branch(v1: str) -> str:
    return f'''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version <= {version_int(v1)}:
            raise RuntimeError("the step for tables of the first release is wrong")
'''


def test_the_rehearsal_covers_tables_on_older_releases_and_blocked_ones(workspace: Workspace) -> None:
    """Finding 4: tables not upgraded lazily yet (and blocked ones) take the old branches of
    ``upgrade_table_db``: the rehearsal upgrades a copy of one of each (release, state)."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    old = site.runtime.create_table(GAME, 2, {"target": 2}, seed=1, mode="production")
    play_some(site, old, 2, random.Random(1))
    workspace.edit("stats.py", "]\n", TWO_STAT + "]\n")
    workspace.commit("two: a statistic")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    deploy(site, GAME, v2)  # lazily: the old table stays on v1 until its next move
    new = site.runtime.create_table(GAME, 2, {"target": 2}, seed=2, mode="production")
    workspace.append("game.py", _raising_old_branch(v1))
    workspace.commit("three: a step whose v1 branch raises")
    v3 = build(site, GAME, now=T0.replace(hour=12))["version"]

    report = check(site, GAME, v3)
    failed = [f for f in report.errors if f.kind == "rehearsal"]
    assert failed, [f.message for f in report.findings]
    assert f"a copy of table {old} (release {v1}" in failed[0].message
    assert "the step for tables of the first release is wrong" in failed[0].message
    assert failed[0].tables == [old] and new not in failed[0].tables

    with Session(site.platform) as s, s.begin():  # as a failed upgrade leaves it
        row = s.get(GameTableRecord, old)
        assert row is not None
        row.blocked = True
    failed = [f for f in check(site, GAME, v3).errors if f.kind == "rehearsal"]
    assert failed and failed[0].tables == [old]
    with pytest.raises(UserError, match="would break games in progress"):
        deploy(site, GAME, v3, block=True)


def _to_second_chance(site: Site, table_id: int) -> None:
    """Draw until a bust puts the table into state 4."""
    for _ in range(200):
        if site.runtime.get_data(table_id, None)["gamestate"]["id"] == 4:
            return
        draw_any(site, table_id)
    raise AssertionError("no bust in 200 draws")


def draw_any(site: Site, table_id: int) -> None:
    player = site.runtime.get_data(table_id, None)["gamestate"]["active_player"]
    site.runtime.act(table_id, player, "draw", {})


def test_rollback_is_refused_while_a_table_uses_a_state_or_statistic_the_older_release_lacks(
        workspace: Workspace) -> None:
    """Finding 5: v2 adds active state 4 and a statistic counted there; a table in state 4,
    or with the statistic counted, cannot go back to v1 (it would raise KeyError: 4)."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tid = site.runtime.create_table(GAME, 2, {"target": 3}, seed=5, mode="production")
    calm = site.runtime.create_table(GAME, 2, {"target": 3}, seed=6, mode="production")
    make_second_chance(workspace, version_int(v1))
    workspace.commit("v2: second chances")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    deploy(site, GAME, v2, block=True)
    _to_second_chance(site, tid)

    with pytest.raises(UserError, match=rf"tables {tid} \(state 4\) sit in states {v1} does not have"):
        rollback(site, GAME)
    draw_any(site, tid)  # out of state 4: a second chance counted
    assert site.runtime.get_data(tid, None)["gamestate"]["id"] != 4
    with pytest.raises(UserError, match=rf"tables {tid} \(second_chances\) count statistics {v1} does not have"):
        rollback(site, GAME)
    # nothing moved: both tables still play v2 to the end
    with site.runtime.read(calm) as t:
        assert t.meta("release") == v2
    for table_id in (tid, calm):
        play_to_end(site, table_id)


def test_a_redeploy_after_a_rollback_never_runs_a_step_twice(workspace: Workspace) -> None:
    """Finding 6: v1 → v2 (a data step: score_aux + 100) → rollback → v2 again: the step
    ran once on the upgraded table, never on the table v2 created."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    old = site.runtime.create_table(GAME, 2, {"target": 3}, seed=7, mode="production")

    def aux(table_id: int) -> list[int]:
        with site.runtime.read(table_id) as t:
            return [int(v) for v in t.get_collection_from_db(
                "SELECT player_id, player_score_aux FROM player ORDER BY player_id", single=True).values()]

    start = aux(old)
    make_second_chance(workspace, version_int(v1))
    workspace.commit("v2: second chances and a data step")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    deploy(site, GAME, v2, block=True)
    assert aux(old) == [a + 100 for a in start]
    made_by_v2 = site.runtime.create_table(GAME, 2, {"target": 3}, seed=8, mode="production")
    fresh = aux(made_by_v2)

    assert sorted(rollback(site, GAME)["tables_moved_back"]) == sorted([old, made_by_v2])
    deploy(site, GAME, v2, block=True)
    assert aux(old) == [a + 100 for a in start]  # not + 200
    assert aux(made_by_v2) == fresh  # its data was made by v2: no step at all
    for table_id in (old, made_by_v2):
        with site.runtime.read(table_id) as t:
            assert t.meta("release") == v2
        play_to_end(site, table_id)


def test_deploy_repairs_tables_blocked_by_a_failed_upgrade(workspace: Workspace, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 7: a fixed release deployed without --block tries the blocked tables again
    and says which remain blocked, and why."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tables = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(3)]
    for tid in tables:
        play_some(site, tid, 3, random.Random(tid))
    workspace.edit("stats.py", "]\n", TWO_STAT + "]\n")
    workspace.append("game.py", '''

    def upgrade_table_db(self, from_version: int) -> None:
        if from_version < 9999999999:
            raise RuntimeError("this step always fails")
''')
    workspace.commit("two: a failing step")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    assert deploy(site, GAME, v2, block=True, force=True)["upgrade"]["failed"] == 3
    for tid in tables:
        with pytest.raises(BlockedError):
            draw_any(site, tid)

    # The fix fails only where a player's score_aux is 77 (one table), which the
    # rehearsal's copy (another table of the same release and state) does not show.
    stuck = tables[1]
    with site.store.connect(stuck) as db:
        db.execute("UPDATE player SET player_score_aux = 77")
    workspace.edit("game.py", '''        if from_version < 9999999999:
            raise RuntimeError("this step always fails")''', '''        aux = self.get_unique_value_from_db("SELECT MAX(player_score_aux) FROM player")
        if from_version < 9999999999 and int(aux) == 77:
            raise RuntimeError("cannot migrate a score_aux of 77")''')
    workspace.commit("three: the fix")
    v3 = build(site, GAME, now=T0.replace(hour=12))["version"]

    import framework.cli.releases as rel_cli
    from framework.cli import main

    monkeypatch.setattr(rel_cli, "site_of", lambda ctx: site)
    result = CliRunner().invoke(main, ["release", "deploy", GAME, v3])
    assert result.exit_code == 0, result.output
    repaired = sorted(t for t in tables if t != stuck)
    assert f"unblocked 2 tables: {', '.join(map(str, repaired))}" in result.output
    assert "1 table remains blocked:" in result.output
    assert f"table {stuck}: " in result.output and "cannot migrate a score_aux of 77" in result.output
    for tid in repaired:
        draw_any(site, tid)  # the repaired tables play again, on v3
        with site.runtime.read(tid) as t:
            assert t.meta("release") == v3
    with pytest.raises(BlockedError):
        draw_any(site, stuck)


def test_deploy_block_leaves_a_hand_block_alone(workspace: Workspace) -> None:
    """Finding 8: a game blocked by hand stays blocked through ``deploy --block``."""
    site = workspace.site
    v1 = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, v1)
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=3, mode="production")
    set_blocked(site, GAME, True)  # maintenance, by hand
    workspace.edit("stats.py", "]\n", TWO_STAT + "]\n")
    workspace.commit("two")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    result = deploy(site, GAME, v2, block=True)
    assert result["upgrade"]["upgraded"] == 1 and result["game_blocked"] is True
    assert is_game_blocked(site, GAME)
    with pytest.raises(BlockedError, match="is being updated"):
        draw_any(site, tid)
    set_blocked(site, GAME, False)
    draw_any(site, tid)
    assert not is_game_blocked(site, GAME)


NEW_GLOBAL_READ = '''        self.inc_stat(1, "turns_number")
        if (self.get_game_state_value("bust_total") or 0) > 99:
            self.notify_all_players("busts", "")
'''


def test_a_new_global_without_a_step_is_a_warning_naming_its_readers(workspace: Workspace) -> None:
    """Finding 10: a new global read by the code but never set for tables in progress."""
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    site.runtime.create_table(GAME, 2, seed=1, mode="production")
    workspace.edit("game.py", 'GLOBALS = {"turn_number": 10}',
                   'GLOBALS = {"turn_number": 10, "bust_total": 11}\n    GLOBAL_DEFAULTS = {"bust_total": 0}')
    workspace.edit("game.py", '        self.inc_stat(1, "turns_number")\n', NEW_GLOBAL_READ)
    workspace.commit("two: a global, read, no step")
    v2 = build(site, GAME, now=T0.replace(hour=11))["version"]
    found = [f for f in check(site, GAME, v2).findings if f.kind == "global"]
    assert [f.severity for f in found] == ["warning"], found
    line = next(n for n, text in enumerate((workspace.folder / "game.py").read_text().splitlines(), 1)
                if '"bust_total") or 0) > 99' in text)
    assert f"read by game.py:{line} (st_next_player)" in found[0].message
    assert "tables in progress get 0 (GLOBAL_DEFAULTS)" in found[0].message
    assert "upgrade_table_db" in found[0].advice

    workspace.append("game.py", '''

    def upgrade_table_db(self, from_version: int) -> None:
        busts = self.get_unique_value_from_db("SELECT COUNT(*) FROM gamelog WHERE gamelog_type = 'bust'")
        self.set_game_state_value("bust_total", int(busts))
''')
    workspace.commit("three: with its step")
    v3 = build(site, GAME, now=T0.replace(hour=12))["version"]
    found = [f for f in check(site, GAME, v3).findings if f.kind == "global"]
    assert [f.severity for f in found] == ["info"] and "set by upgrade_table_db" in found[0].message
