"""``arena belote ...`` (replay, record, bench) and ``arena simulate belote``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from framework.cli import main
from games.belote import bench
from games.belote.bots import SearchBot, SeatView
from games.belote.cli import bench_framework, format_report, load_record
from games.belote.records import RecordError, replay
from games.belote.rules import Bid, Rules

GOLDEN = Path(__file__).resolve().parent / "golden"  # in the repository: missing files fail
CLASSIC_GOLDEN = GOLDEN / "classic-undertrump-required.jsonl"
CONTREE_GOLDEN = GOLDEN / "contree-undertrump-optional.jsonl"

Arena = Callable[..., Result]


@pytest.fixture
def arena(tmp_path: Path) -> Arena:
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(main, ["--instance", str(tmp_path / "instance"), *args])

    return run


def golden(path: Path, line: int) -> dict[str, Any]:
    return json.loads(path.read_text().splitlines()[line - 1])


def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


# ---------------------------------------------------------------------------- replay


def test_replay_prints_steps_tricks_and_score(arena: Arena, tmp_path: Path) -> None:
    record = golden(CLASSIC_GOLDEN, 1)
    result = arena("belote", "replay", str(write(tmp_path, record)))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    steps = [line for line in lines if line.startswith("step ")]
    tricks = [line for line in lines if line.startswith("trick ")]
    assert len(steps) == 32 and len(tricks) == 8
    first_legal = " ".join(record["expected"]["legal"][0])
    assert steps[0] == f"step 1: seat {(record['dealer'] + 1) % 4} plays {record['plays'][0]} (legal: {first_legal})"
    winners = [int(line.split("; seat ")[1].split()[0]) for line in tricks]
    assert winners == record["expected"]["trick_winners"]
    tricks_won = record["expected"]["tricks_won"]
    assert f"tricks won: {tricks_won[0]}-{tricks_won[1]}" in result.stdout
    assert lines[-1].startswith("outcome: ")


def test_replay_json_of_a_line_of_the_contree_file(arena: Arena) -> None:
    record = golden(CONTREE_GOLDEN, 3)
    result = arena("belote", "replay", str(CONTREE_GOLDEN), "--line", "3", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [step["legal"] for step in report["steps"]] == record["expected"]["legal"]
    assert [trick["winner"] for trick in report["tricks"]] == record["expected"]["trick_winners"]
    assert report["tricks_won"] == record["expected"]["tricks_won"]
    if record["expected"]["card_points"] is not None:
        assert report["card_points"] == record["expected"]["card_points"]


def test_an_illegal_record_is_one_line_and_exit_1(arena: Arena, tmp_path: Path) -> None:
    record = golden(CLASSIC_GOLDEN, 1)
    record["plays"][1], record["plays"][2] = record["plays"][2], record["plays"][1]
    result = arena("belote", "replay", str(write(tmp_path, record)))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: step 2: seat {(record['dealer'] + 2) % 4} played {record['plays'][1]} but does not hold it"]


def test_unreadable_files_are_one_line_and_exit_1(arena: Arena, tmp_path: Path) -> None:
    lines = tmp_path / "two.jsonl"
    lines.write_text('{"dealer": 0}\n{"dealer": 1}\n')
    cases = [
        (str(tmp_path / "missing.json"), [], "missing.json: No such file or directory"),
        (str(lines), [], "pick one record with --line N"),
        (str(lines), ["--line", "5"], "there is no line 5 (the file has 2 records)"),
        (str(lines), ["--line", "1"], "hands must list the 4 seats' hands"),
    ]
    for path, extra, message in cases:
        result = arena("belote", "replay", path, *extra)
        assert result.exit_code == 1
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
        assert message in result.stderr
        assert "Traceback" not in result.output


# ---------------------------------------------------------------------------- records of a table


def test_a_tables_hand_records_replay(arena: Arena, tmp_path: Path) -> None:
    result = arena("table", "create", "belote", "-o", "variant=2", "-o", "announcements=2",
                   "--bot", "0", "--bot", "1", "--bot", "2", "--bot", "3", "--seed", "7")
    assert result.exit_code == 0, result.output
    table_id = result.stdout.strip()
    exported = arena("belote", "record", table_id)
    assert exported.exit_code == 0, exported.output
    record = json.loads(exported.stdout)
    assert record["rules"]["variant"] == "contree" and len(record["plays"]) == 32
    path = write(tmp_path, record)
    replayed = arena("belote", "replay", str(path), "--json")
    assert replayed.exit_code == 0, replayed.output
    hand_score = json.loads(replayed.stdout)["hand_score"]
    first = arena("belote", "record", table_id, "--hand", "1")
    assert first.exit_code == 0 and json.loads(first.stdout)["plays"] != record["plays"]
    shown = arena("table", "show", table_id, "--json")
    sheet = json.loads(shown.stdout)["score_sheet"]
    assert sheet[-1]["points"] == hand_score
    missing = arena("belote", "record", table_id, "--hand", "999")
    assert missing.exit_code == 1 and missing.stderr.startswith("error: ")


def test_format_report_of_an_unfinished_hand() -> None:
    record = {"dealer": 0, "hands": [["7S", "8S", "9S", "JS", "QS", "KS", "TS", "AS"],
                                     ["7H", "8H", "9H", "JH", "QH", "KH", "TH", "AH"],
                                     ["7D", "8D", "9D", "JD", "QD", "KD", "TD", "AD"],
                                     ["7C", "8C", "9C", "JC", "QC", "KC", "TC", "AC"]],
              "contract": {"trump": "H", "taker": 1}, "plays": ["7H", "7D"]}
    lines = format_report(replay(record))
    assert lines[0] == "contract: hearts (H), taken by seat 1 (dealer seat 0)"
    assert lines[1] == "step 1: seat 1 plays 7H (legal: 7H 8H 9H JH QH KH TH AH)"
    assert lines[-1] == "incomplete: 2 of 32 cards played"


def test_load_record_refuses_a_list(tmp_path: Path) -> None:
    path = write(tmp_path, [1, 2])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="must be a JSON object"):
        load_record(path)


# ---------------------------------------------------------------------------- simulate and bench


def test_simulate_heuristic_against_random(arena: Arena) -> None:
    result = arena("simulate", "belote", "--games", "3", "--bots", "beginner,random", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "belote" and summary["games"] == 3
    assert summary["bots"] == ["beginner", "random"]
    assert summary["hands"] >= 3 and summary["actions"] > 30 * summary["hands"]
    assert sum(summary["win_rate"]) == pytest.approx(1.0)


def test_bench_prints_both_speeds(arena: Arena) -> None:
    result = arena("belote", "bench", "--hands", "200", "--games", "1")
    assert result.exit_code == 0, result.output
    speeds = json.loads(result.stdout)
    assert set(speeds) == {"pure_hands_per_s", "framework_hands_per_s"}
    assert all(value > 0 for value in speeds.values())


def test_bench_framework_counts_hands() -> None:
    result = bench_framework(games=1, seed=3, bots=("heuristic", "random"), options={"target": 10})
    assert result["hands"] >= 4 and result["framework_hands_per_s"] > 0


def test_bench_bots_times_the_expert_as_in_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int] | None] = []

    class Noting(SearchBot):
        def choose_bid(self, view: SeatView) -> Bid:
            seen.append(view.match_scores)
            return super().choose_bid(view)

    monkeypatch.setattr(bench, "SearchBot", Noting)
    result = bench.bench_bots(6, Rules(target=301))
    assert result["cards"] > 0 and result["bids"] == len(seen) > 0
    assert None not in seen and any(max(scores) > 0 for scores in seen if scores)
