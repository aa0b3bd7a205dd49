"""Belote's variants and options through the runtime: contrée (bids, coinche, surcoinche,
raise sequence), all/no trumps with announcements, fixed game lengths; stable declarations."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.testing import GameHarness, TestTable
from games.belote.options import LEGACY_VALUES, OPTIONS, PREFERENCES, rules_from_options
from games.belote.rules import Rules
from games.belote.states import STATES
from games.belote.stats import STATS
from tests.belote.test_game import (
    BOTS,
    SHORT,
    assert_32_cards,
    check_finished_game,
    check_hidden_information,
    drive,
)

CONTREE = {"variant": 2}


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


def seat_players(t: TestTable) -> list[int]:
    """Players from the first bidder on (dealer + 1, + 2, + 3, dealer)."""
    players = t.players
    first = players.index(t.active_player)
    return [players[(first + step) % 4] for step in range(4)]


# ---------------------------------------------------------------------------- contrée


def test_bots_play_a_contree_game(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=21, options=CONTREE, bots=BOTS)
    sheet = check_finished_game(t)
    assert all(line["contract"]["value"] in (*range(80, 170, 10), 250) for line in sheet)
    assert t.data(None)["rules"]["variant"] == "contree"


def test_players_play_a_contree_game_with_legal_moves(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=22, options={**CONTREE, **SHORT})
    seen: dict[int | None, int] = {}

    def mostly_pass(state: str, legal: list[str], rng: random.Random) -> str:
        if state == "playerTurn" or "pass" not in legal or rng.random() < 0.4:
            return rng.choice(legal)
        return "pass"

    def each_step(table: TestTable) -> None:
        assert_32_cards(table)
        check_hidden_information(table, seen)

    drive(t, mostly_pass, seed=3, each_step=each_step)
    check_finished_game(t)


def test_contree_bids_coinche_and_surcoinche(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=23, options=CONTREE)
    first, second, third, fourth = seat_players(t)
    assert t.data(first)["hand_counts"] == {str(p): 8 for p in t.players}
    refusals = [
        ("coinche", "nothing_to_coinche", "There is no bid to coinche yet"),
        ("surcoinche", "cannot_surcoinche", "Only the team whose bid was coinched may surcoinche"),
        ("take", "classic_bid_in_contree", "In contrée, bid a value and a trump"),
        ("90:all", "no_all_no_trumps", "All trumps and no trumps are not played at this table"),
        ("85:H", "bad_bid", "85:H is not a bid"),
    ]
    for bid, code, message in refusals:
        error = t.act_expecting_error(first, "bid", bid=bid)
        assert (error.code, str(error)[:len(message)]) == (code, message)
    t.act(first, "bid", bid="90:H")
    for bid in ("80:S", "90:S"):
        error = t.act_expecting_error(second, "bid", bid=bid)
        assert error.code == "bid_too_low" and str(error) == "You must bid more than 90"
    t.act(second, "bid", bid="pass")
    assert t.act_expecting_error(third, "bid", bid="coinche").code == "coinche_own_team"
    t.act(third, "bid", bid="pass")
    t.act(fourth, "bid", bid="coinche")
    assert t.state.name == "contreeWindow" and t.active_player == first
    data = t.data(first)
    assert data["legal_bids"] == ["pass", "surcoinche"]
    assert data["gamestate"]["descriptionmyturn"] == "You may surcoinche or pass"
    error = t.act_expecting_error(first, "bid", bid="100:H")
    assert error.code == "closing_phase" and str(error) == "You may only surcoinche or pass now"
    t.act(first, "bid", bid="pass")
    assert t.active_player == third
    t.act(third, "bid", bid="surcoinche")
    assert t.state.name == "playerTurn" and t.active_player == first
    contract = t.data(None)["contract"]
    assert (contract["trump"], contract["value"], contract["coinche"], contract["taker"]) == ("H", 90, 2, first)
    logs = [e["log"] for e in t.notifications(None)]
    name = t.data(None)["players"][str(first)]["name"]
    assert f"{name} plays 90 hearts, surcoinched" in logs
    assert t.stat("coinches", fourth) == 1


def test_contree_raise_sequence(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=24, options={**CONTREE, "raise_sequence": 2})
    first, second, third, fourth = seat_players(t)
    t.act(first, "bid", bid="80:H")
    for player in (second, third, fourth):
        t.act(player, "bid", bid="pass")
    assert t.state.name == "contreeWindow" and t.active_player == first
    data = t.data(first)
    assert data["gamestate"]["args"]["phase"] == "raise"
    assert data["legal_bids"][0] == "pass" and all(b.endswith(":H") for b in data["legal_bids"][1:])
    assert t.act_expecting_error(first, "bid", bid="90:S").code == "raise_same_trump"
    t.act(first, "bid", bid="100:H")
    assert t.active_player == second and t.data(second)["legal_bids"] == ["pass", "coinche"]
    t.act(second, "bid", bid="coinche")
    assert t.active_player == first and t.data(first)["legal_bids"] == ["pass", "surcoinche"]
    t.act(first, "bid", bid="pass")
    t.act(third, "bid", bid="pass")
    contract = t.data(None)["contract"]
    assert (contract["value"], contract["coinche"], contract["taker"]) == (100, 1, first)
    assert t.state.name == "playerTurn"


def test_bots_play_contree_with_every_option(harness: GameHarness) -> None:
    options = {**CONTREE, "raise_sequence": 2, "belote_to_defence": 2, "multiplier": 2,
               "all_no_trumps": 2, "announcements": 2, "announce_tie": 2, "undertrump": 2,
               "contree_scoring": 1, "round_points": 2, "generale": 2}
    t = harness.create_table(players=4, seed=25, options=options, bots=BOTS)
    check_finished_game(t)  # every hand record replays, with these rules, to the sheet's score
    assert t.data(None)["rules"] == Rules(
        variant="contree", undertrump="optional", all_no_trumps=True, contree_raise_sequence=True,
        belote_to_defence_on_failed=True, multiplier="whole", announcements=True,
        announce_tie="nobody", second_round_any_suit=True, round_points=True, generale=True,
        litige_at_end="played_out", target=701).to_dict()


# ---------------------------------------------------------------------------- classic options


def test_classic_at_all_trumps_and_no_trumps_with_announcements(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=26, options={"all_no_trumps": 2, "announcements": 2, **SHORT})
    seen: dict[int | None, int] = {}
    taken: list[str] = []

    def all_or_none(state: str, legal: list[str], rng: random.Random) -> str:
        """Pass to the third round, then take all trumps and no trumps in turn."""
        if state == "playerTurn":
            return rng.choice(legal)
        if "all" not in legal:
            return "pass"
        taken.append("none" if taken and taken[-1] == "all" else "all")
        return taken[-1]

    def each_step(table: TestTable) -> None:
        check_hidden_information(table, seen)

    drive(t, all_or_none, seed=4, each_step=each_step)
    sheet = check_finished_game(t)
    assert {line["contract"]["trump"] for line in sheet} == {"all", "none"}
    types = [e["type"] for e in t.notifications(None)]
    assert "announce" in types and "announcementsScore" in types
    scored = [line for line in sheet if any(line["breakdown"]["announcements"])]
    assert scored and all(line["breakdown"]["declared"] for line in scored)
    assert sum(int(t.stat("announcement_points", p)) for p in t.players) == t.stat("announcement_points")


def test_bots_play_classic_with_every_option(harness: GameHarness) -> None:
    options = {"all_no_trumps": 2, "announcements": 2, "second_round_any_suit": 2, "undertrump": 2,
               "announce_tie": 2, "target": 3}
    t = harness.create_table(players=4, seed=27, options=options, bots=BOTS)
    sheet = check_finished_game(t)
    assert max(sheet[-1]["totals"]) >= 701


def test_second_round_may_name_the_turned_suit(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=28, options={"second_round_any_suit": 2})
    turned = t.data(None)["turned"]
    for _ in range(4):
        t.act(t.active_player, "bid", bid="pass")
    player = t.active_player
    t.act(player, "bid", bid=f"take:{turned[1]}")
    assert t.data(None)["contract"]["trump"] == turned[1]


def test_a_game_of_four_hands(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=29, options=SHORT, bots=BOTS)
    sheet = check_finished_game(t)
    assert len(sheet) >= 4
    assert t.data(None)["game_length"] == {"kind": "hands", "amount": 4}


# ---------------------------------------------------------------------------- declarations


def test_option_defaults_and_legacy_values() -> None:
    defaults = {option.key: option.default for option in OPTIONS}
    assert rules_from_options(defaults.__getitem__) == Rules(
        second_round_any_suit=True, contree_scoring="ffb", litige_at_end="played_out")
    assert rules_from_options({**defaults, "variant": 2}.__getitem__).target == 701
    # A table created before an option existed plays its legacy value: the Rules defaults,
    # with which a hand record lacking the key replays.
    by_id = {option.id: option.key for option in OPTIONS}
    before = {**defaults, "second_round_any_suit": 1, "target": 1,
              **{by_id[oid]: value for oid, value in LEGACY_VALUES.items()}}
    assert rules_from_options(before.__getitem__) == Rules()
    assert {option.key: option.id for option in OPTIONS} == {
        "variant": 100, "target": 101, "undertrump": 102, "all_no_trumps": 103,
        "second_round_any_suit": 104, "announcements": 105, "announce_tie": 106,
        "raise_sequence": 107, "belote_to_defence": 108, "multiplier": 109,
        "contree_scoring": 110, "round_points": 111, "litige_at_end": 112, "generale": 113}
    assert {pref.key: pref.id for pref in PREFERENCES} == {"card_faces": 100, "sort_order": 101}


def test_state_and_statistic_ids_never_change() -> None:
    assert {state.id: state.name for state in STATES} == {
        1: "gameSetup", 10: "newHand", 20: "playerBid", 25: "nextBidder", 30: "contreeWindow",
        40: "playerTurn", 45: "nextPlayer", 50: "endHand", 98: "gameEndScoring", 99: "gameEnd"}
    assert {(stat.scope, stat.id): stat.key for stat in STATS} == {
        ("table", 10): "hands_played", ("table", 11): "hands_cancelled", ("table", 12): "capots",
        ("table", 13): "contentions", ("table", 14): "belotes", ("table", 15): "coinched_contracts",
        ("table", 16): "announcement_points",
        ("player", 10): "contracts_taken", ("player", 11): "contracts_made",
        ("player", 12): "contracts_failed", ("player", 13): "capots", ("player", 14): "belotes",
        ("player", 15): "points_per_hand", ("player", 16): "announcement_points",
        ("player", 17): "tricks_won", ("player", 18): "coinches",
        ("table", 17): "contracts_failed", ("table", 18): "surcoinched_contracts",
        ("player", 19): "contracts_made_rate", ("player", 20): "hands_defended",
        ("player", 21): "dedans_inflicted", ("player", 22): "dedans_suffered",
        ("player", 23): "defence_success_rate", ("player", 24): "capots_conceded",
        ("player", 25): "coinches_won", ("player", 26): "surcoinches",
        ("player", 27): "surcoinches_won", ("player", 28): "points_as_taker",
        ("player", 29): "points_as_defender", ("player", 30): "tierces", ("player", 31): "quartes",
        ("player", 32): "quintes", ("player", 33): "carres"}
