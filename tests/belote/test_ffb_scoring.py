"""Contrée scoring by the French federation's rules (FFB) and BGA's seed 002 reading: hand
records (records/ffb-scoring.jsonl) each with the score a referee writes, and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.belote.records import replay
from games.belote.rules import ALL_TRUMPS, Contract, Rules, score_hand
from games.belote.rules.scoring import round_to_ten

RECORDS = Path(__file__).resolve().parent / "records" / "ffb-scoring.jsonl"


def _cases() -> dict[str, dict[str, Any]]:
    cases = [json.loads(line) for line in RECORDS.read_text().splitlines() if line.strip()]
    return {case["name"]: case for case in cases}


CASES = _cases()


def _with_rules(case: dict[str, Any], **changes: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(case["record"]))
    record["rules"].update(changes)
    return record


def _parts_add_up(score: dict[str, Any]) -> None:
    for team in (0, 1):
        parts = (score["scored_cards"][team] + score["scored_contract"][team]
                 + score["scored_announcements"][team] + score["scored_belote"][team]
                 + score["carried_awarded"][team])
        assert parts == score["hand_score"][team]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_ffb_record_replays_to_the_referees_score(name: str) -> None:
    case = CASES[name]
    assert case["record"]["rules"]["contree_scoring"] == "ffb"
    report = replay(case["record"])
    assert (report["outcome"], report["hand_score"]) == (case["outcome"], case["hand_score"]), \
        case["referee"]
    _parts_add_up(report["score"])


def test_the_records_cover_every_rule() -> None:
    assert set(CASES) == {
        "made", "tie-81-81-fails", "coinche-made", "surcoinche-made", "coinche-failed",
        "failed-belote-kept", "coinche-made-defence-belote", "belote-counts-for-the-contract",
        "unbid-capot", "capot-bid-made", "capot-bid-failed", "made-with-announcement",
        "failed-announcements-to-defence", "coinche-made-with-announcement", "rounded-86-76",
        "rounded-85-77", "generale-made", "generale-failed-partner-trick"}


def test_the_issues_cases() -> None:
    coinched = replay(CASES["coinche-made"]["record"])
    assert coinched["card_points"] == [56, 106]
    assert coinched["hand_score"] == [0, (160 + 80) * 2] == [0, 480]
    tie = replay(CASES["tie-81-81-fails"]["record"])
    assert tie["card_points"] == [81, 81]
    assert (tie["outcome"], tie["hand_score"]) == ("failed", [0, 160 + 80])


def test_bgas_seed_002_reading_is_kept_as_option_values() -> None:
    case = CASES["coinche-made"]
    contract = replay(_with_rules(case, contree_scoring="bga", multiplier="contract"))
    assert contract["hand_score"] == [56, 106 + 80 * 2] == [56, 266]
    whole = replay(_with_rules(case, contree_scoring="bga", multiplier="whole"))
    assert whole["hand_score"] == [56 * 2, (106 + 80) * 2] == [112, 372]
    tie = replay(_with_rules(CASES["tie-81-81-fails"], contree_scoring="bga"))
    assert (tie["outcome"], tie["hand_score"]) == ("made", [81 + 80, 81])
    for report in (contract, whole, tie):
        _parts_add_up(report["score"])


def test_a_record_without_the_new_keys_replays_as_it_was_written() -> None:
    record = json.loads(json.dumps(CASES["coinche-made"]["record"]))
    for key in ("contree_scoring", "round_points", "litige_at_end"):
        del record["rules"][key]
    assert replay(record)["hand_score"] == [56, 266]


def test_under_ffb_the_belote_stays_with_its_holders_even_with_the_bga_transfer_option() -> None:
    case = CASES["failed-belote-kept"]
    assert replay(_with_rules(case, belote_to_defence_on_failed=True))["hand_score"] == [20, 280]
    bga = replay(_with_rules(case, contree_scoring="bga", belote_to_defence_on_failed=True))
    assert bga["hand_score"] == [0, 160 + 120 + 20]


def test_rounding_applies_to_points_made_not_to_the_decision() -> None:
    assert [round_to_ten(points) for points in (76, 77, 85, 86, 104, 105, 106)] == \
        [80, 80, 80, 90, 100, 100, 110]
    rules = Rules(variant="contree", contree_scoring="ffb", round_points=True)
    # 80 bid, 78 + 84 = 162: 78 is written 80 but does not reach 80: failed.
    score = score_hand(Contract(ALL_TRUMPS, 0, 80), rules, (78, 84), (3, 5))
    assert (score.outcome, score.hand_score) == ("failed", (0, 240))


def test_a_failed_classic_hand_writes_parts_that_add_up() -> None:
    rules = Rules()
    score = score_hand(Contract(ALL_TRUMPS, 0), rules, (70, 92), (3, 5), belote=(20, 0))
    assert score.outcome == "failed"
    assert score.hand_score == (20, 162)
    assert (score.scored_cards, score.scored_belote, score.scored_contract) == \
        ((0, 162), (20, 0), (0, 0))
