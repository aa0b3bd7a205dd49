"""The floor benchmarks: a bare transaction under ``arena bench runtime`` and the Flask +
gevent + one-transaction server of ``arena bench floor``, which the ratios are taken against."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from framework.cli import main


@pytest.fixture
def arena(tmp_path: Path) -> Callable[..., Result]:
    def run(*args: str) -> Result:
        return CliRunner().invoke(main, ["--instance", str(tmp_path / "instance"), *args])

    return run


def test_bench_runtime_reports_its_ratio_to_a_bare_transaction(arena: Callable[..., Result]) -> None:
    figures = json.loads(arena("bench", "runtime", "--actions", "100", "--tables", "2").output)
    assert figures["bare_transaction_cpu_us"] > 0 and figures["act_cpu_us_per_action"] > 0
    assert figures["act_to_bare_ratio"] == pytest.approx(
        figures["act_cpu_us_per_action"] / figures["bare_transaction_cpu_us"], rel=0.05)


def test_bench_floor_serves_durable_moves(arena: Callable[..., Result]) -> None:
    pytest.importorskip("gunicorn")
    pytest.importorskip("gevent")
    result = arena("bench", "floor", "--tables", "2", "--workers", "1", "--seconds", "1")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["actions"] > 0 and figures["errors"] == 0
    assert figures["server_cpu_ms_per_action"] > 0


def test_the_floor_app_writes_one_log_row_per_move(tmp_path: Path) -> None:
    import sqlite3

    from bench.floor import create_floor_app, make_tables

    make_tables(tmp_path, 1)
    client = create_floor_app(tmp_path).test_client()
    moves = [client.post("/t/0/act").get_json()["move"] for _ in range(3)]
    assert moves == [1, 2, 3]
    conn = sqlite3.connect(tmp_path / "0.sqlite")
    assert conn.execute("SELECT COUNT(*) FROM gamelog").fetchone()[0] == 3


def test_bench_upgrade_on_sqlite_upgrades_every_table_and_measures_its_floors(
        arena: Callable[..., Result]) -> None:
    """On SQLite the upgrade and its floors open each table file afresh (the store lets its
    connections go first): every table is upgraded and both figures come out."""
    result = arena("bench", "upgrade", "--tables", "3", "--backend", "sqlite")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["sqlite"]
    for kind in ("no_ddl", "add_column"):
        assert figures[kind]["upgraded"] == 3 and figures[kind]["failed"] == 0
        assert figures[kind]["floor_ms_per_table"] > 0 and figures[kind]["ms_per_table"] > 0
        assert figures[kind]["ratio_to_floor"] == pytest.approx(
            figures[kind]["ms_per_table"] / figures[kind]["floor_ms_per_table"], rel=0.05)
