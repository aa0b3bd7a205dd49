"""The arena command: each sub-command, and one clear line for every user error."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from framework.cli import main


@pytest.fixture
def arena(tmp_path: Path):  # type: ignore[no-untyped-def]
    runner = CliRunner()

    def run(*args: str):  # type: ignore[no-untyped-def]
        return runner.invoke(main, ["--instance", str(tmp_path / "instance"), *args])

    return run


def test_games_lists_installed_games(arena) -> None:  # type: ignore[no-untyped-def]
    result = arena("games")
    assert result.exit_code == 0
    assert "belote" in result.output


def test_unknown_game_is_one_clear_line(arena) -> None:  # type: ignore[no-untyped-def]
    result = arena("table", "create", "chess")
    assert result.exit_code == 1
    assert result.output.strip().startswith("error: No game named chess")
    assert "Traceback" not in result.output


def test_create_show_act_with_a_scaffolded_game(arena, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    games_dir = tmp_path / "games"
    games_dir.mkdir()
    result = arena("new-game", "cligame", "--dir", str(games_dir))
    assert result.exit_code == 0, result.output
    assert "created" in result.output
    # make the new folder importable as a game package for this process
    import framework.game.registry as registry_module
    from framework.game.registry import load_game_from_directory

    gdef = load_game_from_directory(games_dir / "cligame", "arena_cli_cligame")
    real_discover = registry_module.discover
    monkeypatch.setattr(registry_module, "discover",
                        lambda: {**real_discover(), "cligame": "arena_cli_cligame"})
    assert gdef.name == "cligame"

    result = arena("table", "create", "cligame", "--players", "2", "--option", "target=1", "--seed", "5")
    assert result.exit_code == 0, result.output
    table_id = result.output.strip()
    assert table_id.isdigit()

    shown = arena("table", "show", table_id)
    assert "state 2 playerTurn" in shown.output and "player1" in shown.output

    as_json = json.loads(arena("table", "show", table_id, "--as", "player1", "--json").output)
    assert as_json["gamestate"]["name"] == "playerTurn"
    assert as_json["current_player_id"] == as_json["playerorder"][0]

    acted = arena("table", "act", table_id, "player1", "draw")
    assert acted.exit_code == 0 and acted.output.startswith("ok: state")
    now = json.loads(arena("table", "show", table_id, "--json").output)
    waiting = [p["name"] for p in now["players"].values() if p["id"] != now["gamestate"]["active_player"]]

    for args, message in [
        (("table", "act", table_id, waiting[0], "draw"), "error: It is not your turn"),
        (("table", "act", table_id, "nobody", "draw"), "error: No player nobody at table"),
        (("table", "act", table_id, "player1", "draw", "x"), "must be written KEY=VALUE"),
        (("table", "act", "9999", "player1", "draw"), "There is no table 9999"),
        (("table", "show", "9999"), "There is no table 9999"),
        (("table", "create", "cligame", "--players", "9"), "played by 2 to 4 players, not 9"),
        (("table", "create", "cligame", "--option", "target=7"), "has no value 7"),
        (("new-game", "cligame", "--dir", str(games_dir)), "already exists"),
        (("new-game", "x", "--dir", str(tmp_path / "missing")), "No folder"),
    ]:
        result = arena(*args)
        assert result.exit_code == 1, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_db_upgrade(arena) -> None:  # type: ignore[no-untyped-def]
    from framework.platform.db import head_revision

    head = head_revision()
    result = arena("db", "upgrade")
    assert result.exit_code == 0
    assert result.output.strip() == f"platform database: empty -> {head}"
    again = arena("db", "upgrade")
    assert again.output.strip() == f"platform database: {head} -> {head}"


def test_bench_runtime_prints_json(arena) -> None:  # type: ignore[no-untyped-def]
    result = arena("bench", "runtime", "--actions", "200", "--tables", "3")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert set(figures) >= {"actions_per_s", "p50_ms", "p99_ms"}
    assert figures["actions"] == 200 and figures["actions_per_s"] > 0


def test_bench_server_prints_json(arena) -> None:  # type: ignore[no-untyped-def]
    """A small run of the real server (gunicorn, one gevent worker) played by bots."""
    pytest.importorskip("gunicorn")
    pytest.importorskip("gevent")
    result = arena("bench", "server", "--tables", "2", "--workers", "1", "--actions", "60",
                   "--seconds", "60")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert set(figures) >= {"actions_per_s", "p50_ms", "p95_ms", "p99_ms", "notify_p99_ms", "errors",
                            "client_cpu_ms_per_action", "server_cpu_ms_per_action"}
    assert figures["actions"] >= 60 and figures["errors"] == 0 and figures["backend"] == "sqlite"
    assert figures["p50_ms"] <= figures["p99_ms"]
    assert figures["client_cpu_ms_per_action"] > 0 and figures["server_cpu_ms_per_action"] > 0


def test_bench_server_plays_the_games_that_bring_a_policy(arena) -> None:  # type: ignore[no-untyped-def]
    from bench.policies import games_with_policies, policy_for, scaffold_policy
    from games.belote.bench import bench_policy

    assert games_with_policies()[:1] == ["benchgame"] and "belote" in games_with_policies()
    assert policy_for("belote") is bench_policy and policy_for("benchgame") is scaffold_policy
    result = arena("bench", "server", "--game", "chess")
    assert result.exit_code == 2 and "benchgame" in result.output and "belote" in result.output
    assert "Traceback" not in result.output


def test_serve_refuses_workers_without_production(arena) -> None:  # type: ignore[no-untyped-def]
    result = arena("serve", "--workers", "3")
    assert result.exit_code == 2 and "--workers needs --production" in result.output
    zero = arena("serve", "--production", "--workers", "0")
    assert zero.exit_code == 2 and "--workers" in zero.output


def test_bench_server_refuses_no_tables_or_no_workers(arena) -> None:  # type: ignore[no-untyped-def]
    for option in ("--tables", "--workers"):
        result = arena("bench", "server", option, "0")
        assert result.exit_code == 2 and option in result.output and "Traceback" not in result.output


def test_only_a_scratch_site_can_be_dropped() -> None:
    from framework.core.errors import ConfigError
    from framework.storage.backends import drop_site, scratch_site_url

    for real in ("mysql+pymysql://root@127.0.0.1:3306/arena",
                 "postgresql+psycopg://postgres@127.0.0.1:5432/postgres?arena_prefix=live_"):
        with pytest.raises(ConfigError, match="did not make"):
            drop_site(real)  # refused before any connection is made
        assert "arena_scratch=1" in scratch_site_url(real, "bench1")


def test_i18n_finds_a_game_by_its_name(arena, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from framework.i18n import catalogs

    monkeypatch.setattr(catalogs, "_registered_dirs", {})  # a fresh process: no game found yet
    result = arena("i18n", "check", "belote", "--quiet")
    assert result.exit_code == 0, result.output
    assert "fr: " in result.output


def test_table_show_renders_belote_without_the_others_cards(arena) -> None:  # type: ignore[no-untyped-def]
    table_id = arena("table", "create", "belote", "--seed", "3").output.strip()
    hands = {}
    for who in ("player1", "player2", "player3", "player4"):
        data = json.loads(arena("table", "show", table_id, "--as", who, "--json").stdout)
        hands[who] = set(data["hand"])
    active = next(p["name"] for p in data["players"].values() if p["id"] == data["gamestate"]["active_player"])
    spectator = arena("table", "show", table_id)
    assert spectator.exit_code == 0, spectator.output
    assert "team 1 (seats 1 and 3): player1, player3: 0 points" in spectator.stdout
    assert "hand 1, dealer" in spectator.stdout and "your hand" not in spectator.stdout
    for who, hand in hands.items():
        shown = arena("table", "show", table_id, "--as", who).stdout
        words = set(re.findall(r"\b[0-9TJQKA][SHDC]\b", shown))
        mine = next(line for line in shown.splitlines() if line.startswith("your hand: "))
        assert set(mine.split()[2:]) == hand
        others = set().union(*(h for w, h in hands.items() if w != who))
        assert not words & others  # no card another player holds
        assert ("legal bids: " in shown) == (who == active)
    assert not set(re.findall(r"\b[0-9TJQKA][SHDC]\b", spectator.stdout)) & set().union(*hands.values())


def test_serve_on_a_busy_port_says_so_and_names_the_option(arena) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = arena("serve", "--port", str(port))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: Port {port} on 127.0.0.1 is not available")
    assert "--port" in result.output and "Arena studio on" not in result.output
