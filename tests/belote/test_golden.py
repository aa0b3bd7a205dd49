"""Golden hands: legal cards, trick winners, tricks and card points match two reference engines."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.belote.records import replay
from games.belote.rules import Card, Contract, PlayState, Rules, parse_cards

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"  # see its README.md
GOLDEN_FILES = ("classic-undertrump-required", "contree-undertrump-optional")


def _golden_cases() -> list[Any]:
    files = sorted(GOLDEN_DIR.glob("*.jsonl"))
    if not files:  # a failure, not a skip: the data is part of the repository
        return [pytest.param(None, id="missing")]
    cases = []
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if line.strip():
                cases.append(pytest.param(json.loads(line), id=f"{path.stem}-{number}"))
    return cases


CASES = _golden_cases()


def _present(record: dict[str, Any] | None) -> dict[str, Any]:
    if record is None:
        pytest.fail(f"golden hands not found: the *.jsonl files belong in {GOLDEN_DIR}")
    return record


def test_the_golden_files_are_in_the_repository() -> None:
    for stem in GOLDEN_FILES:
        path = GOLDEN_DIR / f"{stem}.jsonl"
        assert path.is_file(), f"missing {path}"
        assert len(path.read_text().splitlines()) == 100, path


def _state(record: dict[str, Any], rules: Rules | None = None) -> PlayState:
    return PlayState([parse_cards(hand) for hand in record["hands"]],
                     Contract.from_dict(record["contract"]), (record["dealer"] + 1) % 4,
                     rules or Rules.from_dict(record["rules"]))


@pytest.mark.parametrize("record", CASES)
def test_golden_hand(record: dict[str, Any] | None) -> None:
    record = _present(record)
    expected = record["expected"]
    state = _state(record)
    for step, code in enumerate(record["plays"]):
        assert [str(card) for card in state.legal_cards()] == expected["legal"][step], step
        state.play(Card.from_str(code))
    assert [trick.winner for trick in state.tricks] == expected["trick_winners"]
    assert state.tricks_won == expected["tricks_won"]
    if expected["card_points"] is not None:
        assert state.card_points == expected["card_points"]
    else:
        assert 8 in state.tricks_won


@pytest.mark.parametrize("record", CASES)
def test_golden_hand_through_replay(record: dict[str, Any] | None) -> None:
    record = _present(record)
    expected = record["expected"]
    report = replay({key: value for key, value in record.items() if key != "expected"})
    assert [step["legal"] for step in report["steps"]] == expected["legal"]
    assert [trick["winner"] for trick in report["tricks"]] == expected["trick_winners"]
    assert report["tricks_won"] == expected["tricks_won"]
    if expected["card_points"] is not None:
        assert report["card_points"] == expected["card_points"]


@pytest.mark.parametrize("stem", GOLDEN_FILES)
def test_the_undertrump_option_is_what_tells_the_two_files_apart(stem: str) -> None:
    """Replaying a file with the other undertrump rule must disagree somewhere."""
    path = GOLDEN_DIR / f"{stem}.jsonl"
    mismatches = 0
    for line in path.read_text().splitlines():
        record = json.loads(line)
        rules = Rules.from_dict(record["rules"])
        flipped = replace(rules, undertrump="optional" if rules.undertrump == "required"
                          else "required")
        state = _state(record, flipped)
        for step, code in enumerate(record["plays"]):
            if [str(card) for card in state.legal_cards()] != record["expected"]["legal"][step]:
                mismatches += 1
            state.play_unchecked(Card.from_str(code).index)
    assert mismatches > 0
