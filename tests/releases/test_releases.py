"""Releases end to end: build, check, deploy, upgrade games in progress, rollback."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

import pytest

from framework.core.errors import BlockedError, UserError
from framework.game.globals import GLOBAL_WRITE_TOKEN
from framework.releases.builds import build, list_releases, release_manifest, version_int
from framework.releases.check import check
from framework.releases.deploy import deploy, rollback, set_blocked, set_status
from framework.releases.upgrade import upgrade_all
from framework.site import Site
from tests.releases.conftest import GAME, Workspace, make_release_b

pytestmark = pytest.mark.all_backends  # SQLite always; PostgreSQL and MariaDB when configured

T0 = datetime(2026, 11, 29, 10, 0)


def play_some(site: Site, table_id: int, moves: int, rng: random.Random) -> int:
    """Random draws/banks; returns moves made (stops at the end of the game)."""
    done = 0
    for _ in range(moves):
        data = site.runtime.get_data(table_id, None)
        if data["gamestate"]["name"] == "gameEnd":
            break
        player = data["gamestate"]["active_player"]
        action = "bank" if data["turn_totals"][player] > 0 and rng.random() < 0.3 else "draw"
        site.runtime.act(table_id, player, action, {})
        done += 1
    return done


def play_to_end(site: Site, table_id: int) -> None:
    rng = random.Random(table_id)
    for _ in range(5000):
        if site.runtime.get_data(table_id, None)["gamestate"]["name"] == "gameEnd":
            return
        play_some(site, table_id, 1, rng)
    raise AssertionError(f"table {table_id} never ended")


def snapshot(site: Site, table_id: int) -> dict[str, list[dict[str, object]]]:
    """Every row of every table, in a stable order (servers return rows in any order)."""
    with site.store.connect(table_id, write=False) as db:
        q = '"' if db.dialect == "postgresql" else "`"
        return {t: sorted(db.execute(f"SELECT * FROM {q}{t}{q}").rows, key=lambda r: repr(list(r.values())))
                for t in db.table_names()}


def test_build_refuses_uncommitted_changes_and_names_them(workspace: Workspace) -> None:
    workspace.append("dbmodel.sql", "\n-- work in progress\n")
    with pytest.raises(UserError, match=r"games/relgame has uncommitted changes: .*dbmodel.sql"):
        build(workspace.site, GAME)
    assert list_releases(workspace.site, GAME) == []


def test_versions_are_stamped_and_never_collide(workspace: Workspace) -> None:
    site = workspace.site
    first = build(site, GAME, notes="first", now=T0)
    second = build(site, GAME, now=T0)
    assert first["version"] == "261129-1000" and second["version"] == "261129-1001"
    assert version_int(first["version"]) == 2611291000
    manifest = release_manifest(site, GAME, first["version"])
    assert manifest["git_commit"] and manifest["notes"] == "first"
    assert [s["id"] for s in manifest["states"]] == [1, 2, 3, 99]
    assert {(s["scope"], s["id"]) for s in manifest["stats"]} >= {("table", 10), ("player", 11)}
    assert manifest["options"][0]["id"] == 100 and manifest["globals"] == {"turn_number": 10}
    assert "player_turn_total" in {c[0] for c in manifest["schema"]["player"]["columns"]}
    assert "${player_name} banks ${points} points" in manifest["msgids"]
    stored = site.instance_path / "releases" / GAME / first["version"] / "package" / "game.py"
    assert stored.exists()
    assert [r["version"] for r in list_releases(site, GAME)] == ["261129-1000", "261129-1001"]


def test_production_tables_need_a_release_and_run_its_copy(workspace: Workspace) -> None:
    site = workspace.site
    with pytest.raises(UserError, match="No release of relgame is in production"):
        site.runtime.create_table(GAME, 2, mode="production")
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    table = site.runtime.create_table(GAME, 2, {"target": 1}, seed=1, mode="production")
    # The working tree changes but is not built: the production table does not see it.
    workspace.edit("game.py", '"draw", clienttranslate("${player_name} draws a ${value}")',
                   '"draw", clienttranslate("${player_name} pulls a ${value}")')
    studio = site.runtime.create_table(GAME, 2, {"target": 1}, seed=1)
    for tid in (table, studio):
        player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]
        site.runtime.act(tid, player, "draw", {})
    logs = {tid: [e["log"] for e in site.runtime.events(tid, None)] for tid in (table, studio)}
    assert any(" draws a " in line for line in logs[table])
    assert not any(" pulls a " in line for line in logs[table])


def test_upgrading_twenty_games_in_progress(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, notes="A", now=T0)["version"]
    deploy(site, GAME, a)
    rng = random.Random(5)
    tables = [site.runtime.create_table(GAME, 2 + i % 3, {"target": 1}, seed=i, mode="production")
              for i in range(20)]
    for tid in tables:
        play_some(site, tid, rng.randint(0, 12), rng)
    site.runtime.save_slot(tables[0], 1)
    before = {tid: snapshot(site, tid) for tid in tables}

    make_release_b(workspace)
    workspace.commit("B: luck column, roll log, default on card_location_arg, stat, state")
    b = build(site, GAME, notes="B", now=T0.replace(hour=11))["version"]
    report = check(site, GAME, b)
    kinds = {(f.severity, f.kind) for f in report.findings}
    assert ("breaking", "schema") in kinds
    assert ("info", "statistic") in kinds
    assert not report.errors, [f.message for f in report.errors]
    with pytest.raises(UserError, match="deploy it with --block"):
        deploy(site, GAME, b)

    result = deploy(site, GAME, b, block=True)
    assert result["upgrade"]["upgraded"] == 20 and result["upgrade"]["failed"] == 0
    for tid in tables:
        after = snapshot(site, tid)
        for prefix in ("", "zz_replay1_", "zz_replay2_", "zz_replay3_", "zz_savepoint_"):
            assert prefix + "roll_log" in after
            cols = set(after[prefix + "player"][0]) if after[prefix + "player"] else None
            if cols is not None:
                assert "player_luck" in cols
        # nothing was lost: every old row and column is still there
        for name, rows in before[tid].items():
            old = [{k: v for k, v in r.items()} for r in rows]
            new = [{k: r[k] for k in rows[0]} for r in after[name]] if rows else []
            if name == "gamelog":  # and one line more: the release changed (open pages reload)
                assert [r["gamelog_type"] for r in new if r not in old] == ["releaseChanged"]
                new = [r for r in new if r["gamelog_type"] != "releaseChanged"]
            if name == "global":  # and a new write token: the upgrade wrote the table
                token = [(r["global_id"], r["global_value"]) for r in new if r["global_id"] == GLOBAL_WRITE_TOKEN]
                assert token and token != [(r["global_id"], r["global_value"]) for r in old
                                           if r["global_id"] == GLOBAL_WRITE_TOKEN], tid
                old, new = ([r for r in rows_ if r["global_id"] != GLOBAL_WRITE_TOKEN] for rows_ in (old, new))
            if name not in ("arena_meta", "stats"):
                assert new == old, (tid, name)
        with site.runtime.read(tid) as t:
            assert t.get_stat("lucky_draws", t.get_active_player_id()) == 0
    # the saved slot still loads into the upgraded table
    site.runtime.load_slot(tables[0], 1)
    # every game plays on to its end, with the new code (state 4, the luck column)
    for tid in tables:
        play_to_end(site, tid)
        ranking = site.runtime.ranking(tid)
        assert ranking[0]["score"] >= 30
        logs = [e["type"] for e in site.runtime.events(tid, None)]
        assert "lastChance" in logs
    assert upgrade_all(site, GAME)["upgraded"] == 0  # running again changes nothing


def test_a_missing_upgrade_is_reported_and_a_forced_deploy_loses_nothing(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tables = [site.runtime.create_table(GAME, 2, {"target": 2}, seed=i, mode="production") for i in range(4)]
    rng = random.Random(1)
    for tid in tables:
        play_some(site, tid, 5, rng)
    before = {tid: snapshot(site, tid) for tid in tables}

    make_release_b(workspace, with_upgrade=False)
    workspace.commit("B without its upgrade step")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    report = check(site, GAME, b)
    rehearsal = [f for f in report.errors if f.kind == "rehearsal"]
    assert rehearsal and "player_luck" in rehearsal[0].message
    assert "upgrade_table_db" in rehearsal[0].advice
    with pytest.raises(UserError, match="would break games in progress"):
        deploy(site, GAME, b, block=True)

    result = deploy(site, GAME, b, block=True, force=True)
    assert result["upgrade"]["failed"] == 4
    for tid in tables:
        assert snapshot(site, tid) == before[tid]  # exactly as it was: release A, no change
        errors = site.runtime.errors(tid)
        assert "schema is not release" in errors[-1]["message"]
        data = site.runtime.get_data(tid, None)
        with pytest.raises(BlockedError, match="waiting for a fix"):
            site.runtime.act(tid, data["gamestate"]["active_player"], "draw", {})
        assert snapshot(site, tid) == before[tid]

    # Fix the release; running again finishes the job.
    # The tables are still on A; a new table of B already has the columns.
    workspace.edit("game.py", "if from_version < 0:", f"if from_version < {version_int(b)}:")
    workspace.commit("C: the upgrade step")
    c = build(site, GAME, now=T0.replace(hour=12))["version"]
    result = deploy(site, GAME, c, block=True, force=False)
    assert result["upgrade"] == {"upgraded": 4, "current": 0, "failed": 0, "would_upgrade": 0, "failures": []}
    for tid in tables:
        play_to_end(site, tid)


def test_lazy_upgrade_before_the_next_action(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tid = site.runtime.create_table(GAME, 2, {"target": 1}, seed=3, mode="production")
    workspace.edit("stats.py", "]\n", '    Stat(14, "patience", clienttranslate("Patience"), "int", "player"),\n]\n')
    workspace.commit("a new statistic")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    report = check(site, GAME, b)
    assert not report.errors and not report.breaking
    deploy(site, GAME, b)
    data = site.runtime.get_data(tid, None)
    site.runtime.act(tid, data["gamestate"]["active_player"], "draw", {})
    with site.runtime.read(tid) as t:
        assert t.get_stat("patience", data["gamestate"]["active_player"]) == 0
        assert t.meta("release") == b


def test_check_finds_removed_states_stats_and_changed_strings(workspace: Workspace) -> None:
    site = workspace.site
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    site.runtime.create_table(GAME, 2, seed=1, mode="production")
    workspace.edit("stats.py", '    Stat(11, "busts", clienttranslate("Busts"), "int", "player"),\n', "")
    workspace.edit("stats.py", 'Stat(12, "best_bank"', 'Stat(15, "best_bank"')
    workspace.edit("game.py", 'clienttranslate("${player_name} banks ${points} points")',
                   'clienttranslate("${player_name} banks ${points} point")')
    workspace.edit("game.py", '            self.inc_stat(1, "busts", player_id)\n', "")
    workspace.edit("states.py", "State(\n        2, \"playerTurn\"", "State(\n        5, \"playerTurn\"")
    workspace.edit("states.py", 'transitions={"draw": 2,', 'transitions={"draw": 5,')
    workspace.edit("states.py", 'transitions={"next": 2,', 'transitions={"next": 5,')
    workspace.edit("states.py", "setup_state(next_state=2)", "setup_state(next_state=5)")
    workspace.commit("breaking everything")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    messages = [f.message for f in check(site, GAME, b).errors]
    text = "\n".join(messages)
    assert "player statistic 11 (busts) was removed" in text
    assert "player statistic 12 (best_bank) was renumbered to 15" in text
    assert "state 2 (playerTurn) was removed (renumbered to 5)" in text
    assert "tables in progress sit in states the candidate lacks" in text
    warnings = [f for f in check(site, GAME, b).findings if f.kind == "msgid"]
    assert warnings and "banks ${points} points" in warnings[0].message
    assert "banks ${points} point'" in warnings[0].advice


def test_block_refuses_actions_and_changes_nothing(workspace: Workspace) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, 2, seed=1, mode="production")
    studio = site.runtime.create_table(GAME, 2, seed=1)
    set_blocked(site, GAME, True)
    before = snapshot(site, tid)
    player = site.runtime.get_data(tid, None)["gamestate"]["active_player"]
    with pytest.raises(BlockedError, match="Relgame is being updated; your move was not sent") as err:
        site.runtime.act(tid, player, "draw", {})
    assert err.value.http_status == 503
    assert snapshot(site, tid) == before
    site.runtime.act(studio, player, "draw", {})  # studio tables are never blocked
    set_blocked(site, GAME, False)
    site.runtime.act(tid, player, "draw", {})


def test_rollback(workspace: Workspace) -> None:
    site = workspace.site
    with pytest.raises(UserError, match="no earlier production release"):
        rollback(site, GAME)
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tid = site.runtime.create_table(GAME, 2, {"target": 1}, seed=2, mode="production")
    workspace.edit("game.py", '"${player_name} banks ${points} points"', '"${player_name} banks ${points} points!"')
    workspace.commit("punctuation")
    b = build(site, GAME, now=T0.replace(hour=11))["version"]
    deploy(site, GAME, b)
    play_some(site, tid, 2, random.Random(0))  # lazily upgraded to b
    assert rollback(site, GAME)["tables_moved_back"] == [tid]  # same schema: fine
    play_some(site, tid, 2, random.Random(0))
    make_release_b(workspace)
    workspace.commit("B")
    c = build(site, GAME, now=T0.replace(hour=12))["version"]
    deploy(site, GAME, c, block=True)
    with pytest.raises(UserError, match=rf"Cannot go back to {a}: tables {tid} were upgraded to {c}"):
        rollback(site, GAME)


def test_status_and_major_releases(workspace: Workspace) -> None:
    site = workspace.site
    assert set_status(site, GAME) == "alpha"
    assert set_status(site, GAME, "gold") == "gold"
    with pytest.raises(UserError, match="alpha, beta or gold, not platinum"):
        set_status(site, GAME, "platinum")
    first = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, first)
    assert set_status(site, GAME) == "gold"
    workspace.edit("game.py", '"${player_name} banks ${points} points"', '"${player_name} banks ${points} points!"')
    workspace.commit("a major change")
    major = build(site, GAME, major=True, now=T0.replace(hour=11))["version"]
    assert set_status(site, GAME) == "gold"  # built, not deployed: players still play the gold game
    result = deploy(site, GAME, major)
    assert (result["status_before"], result["status"]) == ("gold", "beta")
    assert set_status(site, GAME) == "beta"


def test_cli(workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from click.testing import CliRunner

    import framework.cli.commands as cli_module
    from framework.cli import main

    monkeypatch.setattr(cli_module, "site_of", lambda ctx: workspace.site)
    import framework.cli.releases as rel_cli

    monkeypatch.setattr(rel_cli, "site_of", lambda ctx: workspace.site)
    runner = CliRunner()

    def arena(*args: str) -> tuple[int, str]:
        result = runner.invoke(main, list(args))
        return result.exit_code, result.output

    code, out = arena("release", "build", GAME, "--notes", "hello")
    assert code == 0 and out.startswith(f"built {GAME} ") and "has no production release" in out
    version = out.split()[2]
    code, out = arena("release", "list", GAME)
    assert version in out and "hello" in out
    code, out = arena("release", "show", GAME, version)
    assert json.loads(out)["version"] == version
    code, out = arena("release", "check", GAME, "--json")
    assert json.loads(out)["ok"] is True
    code, out = arena("release", "deploy", GAME, version)
    assert code == 0 and f"{version} is in production" in out
    code, out = arena("upgrade", "--game", GAME, "--dry-run")
    assert code == 0 and "would upgrade 0" in out
    code, out = arena("game", "status", GAME, "beta")
    assert out.strip() == f"{GAME}: beta"
    code, out = arena("game", "block", GAME)
    assert out.strip() == f"{GAME} is blocked"
    code, out = arena("release", "rollback", GAME)
    assert code == 1 and "error: relgame has no earlier production release" in out
    code, out = arena("release", "show", GAME, "000000-0000")
    assert code == 1 and "has no release 000000-0000" in out
