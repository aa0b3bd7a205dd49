"""Hand records: replay report, illegal plays, malformed records, export and round trip."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.belote.bench import random_play_hand
from games.belote.records import (
    RecordError,
    parse_record,
    record_from_hand,
    record_from_state,
    replay,
)
from games.belote.rules import Bid, Card, Contract, Rules, Suit, parse_cards

HANDS = [
    ["AS", "KH", "TH", "AH", "7C", "QC", "TC", "AC"],
    ["9S", "JS", "TS", "9H", "9D", "TD", "AD", "8C"],
    ["8S", "QS", "JH", "7D", "JD", "QD", "9C", "JC"],
    ["7S", "KS", "7H", "8H", "QH", "8D", "KD", "KC"],
]
PLAYS = ["9C", "KC", "7C", "8C", "7D", "KD", "TC", "9D", "QC", "9H", "JC", "8H", "QS", "7S",
         "AS", "9S", "KH", "TS", "JH", "7H", "AH", "JS", "8S", "QH", "TH", "AD", "JD", "8D",
         "AC", "TD", "QD", "KS"]


def base_record() -> dict[str, Any]:
    return {"rules": {"variant": "classic", "undertrump": "required"}, "dealer": 1,
            "hands": copy.deepcopy(HANDS), "contract": {"trump": "C", "taker": 0, "coinche": 0},
            "plays": list(PLAYS)}


def test_replay_reports_steps_tricks_and_score() -> None:
    report = replay(base_record())
    assert report["complete"]
    assert report["steps"][0] == {"step": 1, "seat": 2, "legal": HANDS[2], "card": "9C"}
    assert report["steps"][1]["legal"] == ["KC"]
    assert len(report["steps"]) == 32 and len(report["tricks"]) == 8
    assert report["tricks"][0] == {"leader": 2, "cards": ["9C", "KC", "7C", "8C"],
                                   "winner": 2, "points": 18}
    assert [trick["winner"] for trick in report["tricks"]] == [2, 0, 2, 0, 0, 0, 0, 0]
    assert report["tricks_won"] == [8, 0]
    assert report["card_points"] == [162, 0]
    assert report["outcome"] == "made" and report["capot"] is True
    assert report["belote"] == [0, 0]  # QC and KC are in different hands
    assert report["hand_score"] == [252, 0]
    json.dumps(report)  # JSON-ready


def test_partial_record_replays_without_score() -> None:
    record = base_record()
    record["plays"] = PLAYS[:5]
    report = replay(record)
    assert not report["complete"]
    assert len(report["steps"]) == 5 and len(report["tricks"]) == 1
    assert report["hand_score"] is None and report["outcome"] is None


@pytest.mark.parametrize(("step", "card", "message"), [
    (2, "7H", "step 2: seat 3 played 7H but must follow clubs"),
    (2, "JC", "step 2: seat 3 played JC but does not hold it"),
    (7, "AS", "step 7: seat 0 played AS but must trump with clubs"),
    (8, "9S", "step 8: seat 1 played 9S but must follow diamonds"),
    (9, "QH", "step 9: seat 0 played QH but does not hold it"),
])
def test_illegal_play_names_step_card_and_reason(step: int, card: str, message: str) -> None:
    record = base_record()
    record["plays"][step - 1] = card
    with pytest.raises(RecordError) as error:
        replay(record)
    assert str(error.value) == message


def mutate(change: str) -> dict[str, Any]:
    record = base_record()
    if change == "bad code":
        record["hands"][0][0] = "1S"
    elif change == "duplicate":
        record["hands"][1][0] = "AS"
    elif change == "seven cards":
        record["hands"][2] = record["hands"][2][:7]
    elif change == "three seats":
        record["hands"] = record["hands"][:3]
    elif change == "no contract":
        del record["contract"]
    elif change == "bad dealer":
        record["dealer"] = 4
    elif change == "bad rules":
        record["rules"] = {"variant": "bridge"}
    elif change == "unknown rules key":
        record["rules"] = {"trumps": 2}
    elif change == "bad trump":
        record["contract"]["trump"] = "X"
    elif change == "bad play code":
        record["plays"][3] = "ZZ"
    elif change == "too many plays":
        record["plays"] = PLAYS + ["7S"]
    elif change == "not an object":
        return ["hands"]  # type: ignore[return-value]
    return record


@pytest.mark.parametrize(("change", "message"), [
    ("bad code", r"hands\[0\]: unknown rank '1'"),
    ("duplicate", r"card AS is dealt twice \(seats 0 and 1\)"),
    ("seven cards", r"hands\[2\] must hold 8 cards, got 7"),
    ("three seats", r"hands must list the 4 seats' hands, got 3"),
    ("no contract", r"needs 'bids' or 'contract'"),
    ("bad dealer", r"dealer must be a seat 0..3"),
    ("bad rules", r"rules: rules.variant must be one of"),
    ("unknown rules key", r"unknown rules key\(s\): trumps"),
    ("bad trump", r"contract: unknown trump 'X'"),
    ("bad play code", r"plays\[4\]: bad card code 'ZZ'|plays\[4\]: unknown"),
    ("too many plays", r"at most 32"),
    ("not an object", r"must be a JSON object"),
])
def test_malformed_records_are_rejected_clearly(change: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(mutate(change))


def test_classic_bids_give_the_contract() -> None:
    record = base_record()
    del record["contract"]
    record["turned"] = "QC"
    record["bids"] = ["pass", "pass", "take"]  # dealer 1: seats 2, 3 pass, seat 0 takes
    assert replay(record)["contract"] == {"trump": "C", "taker": 0, "coinche": 0}
    record["contract"] = {"trump": "C", "taker": 0, "coinche": 0}
    replay(record)  # consistent contract and bids are fine
    record["contract"] = {"trump": "H", "taker": 0, "coinche": 0}
    with pytest.raises(RecordError, match="does not match the bids"):
        replay(record)


@pytest.mark.parametrize(("bids", "turned", "message"), [
    (["pass", "take"], "QC", "not in the taker's hand"),     # seat 3 takes, QC is seat 0's
    (["pass", "pass"], "QC", "not over"),
    (["take", "pass"], "QC", r"bid 2: .*bidding is over"),
    (["pass", "pass", "take:C"], "QC", r"bid 3: seat 0 bid take:C"),
    (["pass", "pass", "take"], None, "needs the 'turned' card"),
    (["pass", "fold"], "QC", r"bid 2: bad bid code 'fold'"),
])
def test_bad_classic_bids(bids: list[str], turned: str | None, message: str) -> None:
    record = base_record()
    del record["contract"]
    record["bids"] = bids
    if turned:
        record["turned"] = turned
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_contree_bids_and_score() -> None:
    record = base_record()
    record["rules"] = {"variant": "contree", "undertrump": "optional"}
    del record["contract"]
    record["bids"] = ["pass", "pass", "120:C", "coinche", "pass", "pass"]
    report = replay(record)
    assert report["contract"] == {"trump": "C", "taker": 0, "coinche": 1, "value": 120}
    # capot: 252 + 120 x 2
    assert report["hand_score"] == [252 + 240, 0]


def test_all_pass_record_is_a_redeal_without_plays() -> None:
    record = base_record()
    del record["contract"]
    record["turned"] = "QC"
    record["bids"] = ["pass"] * 8
    record["plays"] = []
    assert replay(record)["outcome"] == "redeal"
    record["plays"] = ["9C"]
    with pytest.raises(RecordError, match="redeal"):
        replay(record)


def test_record_from_hand_round_trips() -> None:
    rules = Rules(variant="contree", multiplier="whole")
    record = record_from_hand(rules, 1, [parse_cards(hand) for hand in HANDS],
                              parse_cards(PLAYS), contract=Contract(Suit.CLUBS, 0, 100, 2))
    parsed = parse_record(json.loads(json.dumps(record)))
    assert parsed.rules == rules and parsed.contract == Contract(Suit.CLUBS, 0, 100, 2)
    assert replay(record)["hand_score"] == [(252 + 100) * 4, 0]
    with pytest.raises(RecordError):
        record_from_hand(rules, 1, [parse_cards(hand) for hand in HANDS], [])


def test_record_from_state_replays_to_the_same_result() -> None:
    rng = random.Random(5)
    for _ in range(50):
        state = random_play_hand(Rules(announcements=True), rng)
        record = record_from_state(state, dealer=(state.first_leader - 1) % 4, carried=40)
        report = replay(json.loads(json.dumps(record)))
        assert [trick["winner"] for trick in report["tricks"]] == [t.winner for t in state.tricks]
        assert report["card_points"] == state.card_points
        assert report["hand_score"] == list(state.score(40).hand_score)


def test_record_with_bids_from_state() -> None:
    state = random_play_hand(Rules(variant="contree"), random.Random(9))
    taker = state.contract.taker
    bids = [Bid.from_code("pass")] * ((taker - state.first_leader) % 4)
    bids += [Bid.from_code("80:S")] + [Bid.from_code("pass")] * 3
    hands = [[Card.from_index(i) for i in range(32) if mask >> i & 1]
             for mask in state.start_hands]
    record = record_from_hand(state.rules, (state.first_leader - 1) % 4, hands, [], bids=bids)
    assert record["bids"][-4:] == ["80:S", "pass", "pass", "pass"]
    assert replay(record)["contract"] == {"trump": "S", "taker": taker, "coinche": 0,
                                          "value": 80}
