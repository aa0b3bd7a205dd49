"""Belote tables with the rules of issue 19: new defaults and the legacy values of older
tables, points held at the end, announcements shown by the team whose announcements count
(and only by it), score lines that add up, and the taking/defending statistics."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from framework.testing import GameHarness, TestTable
from games.belote.game import Belote
from games.belote.options import CONTREE_SCORING, GENERALE, LITIGE_AT_END, ROUND_POINTS
from games.belote.rules import ALL_TRUMPS, Contract, Rules, detect_announcements, parse_cards
from games.belote.rules.scoring import score_hand
from tests.belote.test_game import check_finished_game, check_hidden_information, random_choice

ANNOUNCING = {"variant": 2, "announcements": 2, "target": 10}  # contrée, 4 hands


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


def test_new_tables_play_the_new_defaults(harness: GameHarness) -> None:
    classic = harness.create_table(players=4, seed=1).data(None)
    assert classic["rules"]["second_round_any_suit"] is True
    assert classic["rules"]["litige_at_end"] == "played_out"
    assert classic["game_length"] == {"kind": "points", "amount": 1000}
    contree = harness.create_table(players=4, seed=1, options={"variant": 2}).data(None)
    assert contree["rules"]["contree_scoring"] == "ffb"
    assert contree["game_length"] == {"kind": "points", "amount": 701}


def test_a_table_from_before_the_new_options_keeps_its_rules(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=1, options={"variant": 2})
    with t.with_table() as table:
        table.db_query("DELETE FROM global WHERE global_id IN (%s, %s, %s, %s)",
                       (CONTREE_SCORING, ROUND_POINTS, LITIGE_AT_END, GENERALE))
    rules = t.data(None)["rules"]
    assert (rules["contree_scoring"], rules["round_points"], rules["litige_at_end"],
            rules["generale"]) == ("bga", False, "lost", False)
    with t.with_table() as table:
        assert isinstance(table, Belote)
        table.upgrade_table_db(0)
    assert {row["global_id"]: row["global_value"] for row in t.query(
        "SELECT global_id, global_value FROM global WHERE global_id BETWEEN 110 AND 199")} == \
        {CONTREE_SCORING: 1, ROUND_POINTS: 1, LITIGE_AT_END: 1, GENERALE: 1}
    assert t.data(None)["rules"]["contree_scoring"] == "bga"


def test_points_held_at_the_end_keep_the_game_going_when_played_out(harness: GameHarness) -> None:
    contention = score_hand(Contract(ALL_TRUMPS, 0), Rules(), (81, 81), (4, 4))
    assert contention.outcome == "contention" and contention.carry_out == 81
    for litige, plays_on in ((1, False), (2, True)):
        t = harness.create_table(players=4, seed=1, options={"litige_at_end": litige})
        with t.with_table() as table:
            assert isinstance(table, Belote)
            assert table._litige_plays_on(contention) is plays_on


def _first_hands(t: TestTable) -> list[list[str]]:
    return [t.data(pid)["hand"] for pid in t.players]


def _seed_where_both_teams_announce(harness: GameHarness) -> TestTable:
    """A contrée table whose first deal gives an announcement to each team."""
    for seed in range(200):
        t = harness.create_table(players=4, seed=seed, options=ANNOUNCING)
        found = [detect_announcements(parse_cards(hand), seat)
                 for seat, hand in enumerate(_first_hands(t))]
        if (found[0] or found[2]) and (found[1] or found[3]):
            return t
    raise AssertionError("no seed below 200 deals announcements to both teams")


def test_the_counting_team_shows_its_announcements_and_the_other_never(harness: GameHarness) -> None:
    t = _seed_where_both_teams_announce(harness)
    hands = [parse_cards(hand) for hand in _first_hands(t)]
    declared = [detect_announcements(hand, seat) for seat, hand in enumerate(hands)]
    seen: dict[int | None, int] = {}
    shown_during_second_trick: list[Any] = []

    def each_step(table: TestTable) -> None:
        check_hidden_information(table, seen)
        data = table.data(None)
        if data["hand_no"] == 1 and len(data["trick"]) and data["tricks_won"] and \
                sum(data["tricks_won"]) == 1:
            shown_during_second_trick.append(data.get("shown_announcements"))

    # Bid 80 in the first suit offered, then pass: the hand is played.
    def bid_then_play(state: str, legal: list[str], rng: Any) -> str:
        if state == "playerTurn":
            return random_choice(state, legal, rng)
        value_bids = [code for code in legal if code.startswith("80:") and code[-1] in "SHDC"]
        return value_bids[0] if value_bids else "pass"

    rng = random.Random(3)
    while not t.data(None)["score_sheet"]:  # the first hand only
        player = t.active_player
        data = t.data(player)
        state = data["gamestate"]["name"]
        if state == "playerTurn":
            t.act(player, "play_card", card=bid_then_play(state, data["legal_cards"], rng))
        else:
            t.act(player, "bid", bid=bid_then_play(state, data["legal_bids"], rng))
        each_step(t)
    sheet = t.data(None)["score_sheet"]
    first = sheet[0]["breakdown"]
    team = first["announcement_team"]
    assert team is not None, "pick a seed whose best announcements are not equal"
    order = t.players
    expected = sorted((order[seat], str(card)) for seat in range(4) if seat % 2 == team
                      for item in declared[seat] for card in item.cards)
    assert sorted((a["player_id"], card) for a in first["shown"] for card in a["cards"]) == expected
    losers = {str(card) for seat in range(4) if seat % 2 != team
              for item in declared[seat] for card in item.cards}
    assert losers and not losers & {card for a in first["shown"] for card in a["cards"]}
    # The notification of the first trick's end carries the same cards, to everybody.
    for viewer in [*order, None]:
        notes = [e for e in t.notifications(viewer) if e["type"] == "announcementsScore"]
        assert notes[0]["args"]["shown"] == first["shown"]
    assert shown_during_second_trick and all(
        shown == first["shown"] for shown in shown_during_second_trick)


def _check_score_lines(t: TestTable) -> None:
    lines = [e["args"] for e in t.notifications(None) if e["type"] == "handScore"]
    assert lines
    for args in lines:
        parts = (args["card_points"] + args["contract_points"] + args["belote"]
                 + args["announcements"] + args["carried"])
        assert parts == args["points"], args


@pytest.mark.parametrize("options", [{"target": 10, "announcements": 2},
                                     {"variant": 2, "target": 10, "announcements": 2}],
                         ids=["classic", "contree"])
def test_score_lines_add_up_and_statistics_agree(harness: GameHarness,
                                                  options: dict[str, int]) -> None:
    t = harness.create_table(players=4, seed=12, options=options,
                             bots={0: "heuristic", 1: "heuristic", 2: "heuristic", 3: "heuristic"})
    sheet = check_finished_game(t)
    _check_score_lines(t)
    players = t.players
    hands = len(sheet)
    assert sum(int(t.stat("contracts_taken", p)) for p in players) == hands
    assert sum(int(t.stat("hands_defended", p)) for p in players) == 2 * hands
    failed = sum(1 for line in sheet if line["outcome"] == "failed")
    assert t.stat("contracts_failed") == failed
    assert sum(int(t.stat("dedans_inflicted", p)) for p in players) == 2 * failed
    assert sum(int(t.stat("dedans_suffered", p)) for p in players) == 2 * failed
    totals = sheet[-1]["totals"]
    for seat, player in enumerate(players):
        written = int(t.stat("points_as_taker", player)) + int(t.stat("points_as_defender", player))
        assert written == totals[seat % 2]
        taken = int(t.stat("contracts_taken", player))
        if taken:
            made = int(t.stat("contracts_made", player))
            assert t.stat("contracts_made_rate", player) == pytest.approx(100 * made / taken)
    declared = sum(int(t.stat(kind, p)) for p in players
                   for kind in ("tierces", "quartes", "quintes", "carres"))
    assert declared == sum(len(line["breakdown"]["declared"]) for line in sheet)
