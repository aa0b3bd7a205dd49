"""Belote through Arena's runtime (classic variant): whole games by bots and by players
choosing legal moves, scores, statistics, hand records, refused moves, hidden cards, zombies."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from framework.testing import GameHarness, TestTable
from games.belote import material
from games.belote.game import Belote
from games.belote.records import replay
from games.belote.rules import CARDS, Card, compare_announcements

BOTS = {0: "heuristic", 1: "random", 2: "heuristic", 3: "random"}
SHORT = {"target": 10}  # 4 hands

Chooser = Callable[[str, list[str], random.Random], str]


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


# ---------------------------------------------------------------------------- helpers


def random_choice(state: str, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def card_rows(t: TestTable) -> list[dict[str, Any]]:
    return t.query("SELECT card_type, card_type_arg, card_location, card_location_arg FROM card")


def code_of(row: dict[str, Any]) -> str:
    return str(CARDS["SHDC".index(row["card_type"]) * 8 + int(row["card_type_arg"])])


def assert_32_cards(t: TestTable) -> None:
    rows = card_rows(t)
    assert len(rows) == 32
    assert {code_of(row) for row in rows} == {str(card) for card in CARDS}


def shown_announcement_cards(table: Belote) -> set[str]:
    """Cards of the announcements that count, which their team shows everyone once the first
    trick is over (worked out here from the rules objects, not from what the table says)."""
    if not table.rules.announcements or table.gamestate.state().name not in ("playerTurn",
                                                                              "nextPlayer"):
        return set()
    state = table.play_state()
    if not state.tricks:
        return set()
    team = compare_announcements(state.announced, state.first_leader, state.trump,
                                 table.rules.announce_tie)
    return {str(card) for seat in range(4) if team is not None and seat % 2 == team
            for item in state.announced[seat] for card in item.cards}


def hidden_from(t: TestTable, viewer: int | None) -> set[str]:
    """Card codes in another player's hand that ``viewer`` may not know (the classic
    turned-up card is known to all, even once in the taker's hand, and so are the cards of
    the announcements that count, once shown, and the cards of the trick being played,
    which stay at their player's ``hand`` location until the trick is gathered)."""
    with t.read() as table:
        turned = table.turned
        shown = shown_announcement_cards(table)
        hand_no = table.hand_no
    played = {str(r["play_card"]) for r in t.query(
        "SELECT play_card FROM card_play WHERE play_hand = %s", (hand_no,))}
    return {code_of(row) for row in card_rows(t)
            if row["card_location"] == "hand" and int(row["card_location_arg"]) != viewer
            and code_of(row) != str(turned) and code_of(row) not in shown
            and code_of(row) not in played}


def leaks(payload: Any, hidden: set[str]) -> set[str]:
    """Hidden cards that appear in ``payload`` as a code or by name."""
    text = json.dumps(payload)
    return {code for code in hidden
            if f'"{code}"' in text or f'"{material.card_name(code)}"' in text}


def since_last_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events of the current deal: cards of earlier hands are dealt again, so they say
    nothing of today's hands."""
    starts = [i for i, event in enumerate(events) if event["type"] == "newDeal"]
    return events[starts[-1]:] if starts else events


def check_hidden_information(t: TestTable, seen: dict[int | None, int]) -> None:
    """No player (nor a spectator) sees another's cards in hand, in its data or in the
    notifications it received since the last check."""
    for viewer in [*t.players, None]:
        hidden = hidden_from(t, viewer)
        # The score sheet shows past hands' announcements: those cards were dealt again since.
        data = {key: value for key, value in t.data(viewer).items() if key != "score_sheet"}
        assert not leaks(data, hidden), f"data of {viewer} shows other hands"
        events = t.notifications(viewer, after=seen.get(viewer, 0))
        if events:
            seen[viewer] = events[-1]["id"]
        assert not leaks(since_last_deal(events), hidden), f"notifications to {viewer} show other hands"


def drive(t: TestTable, choose: Chooser = random_choice, seed: int = 0, max_steps: int = 5000,
          each_step: Callable[[TestTable], None] | None = None) -> int:
    """Play the game to its end as the players would: each active player picks one of the
    legal moves shown in its own data. Returns the number of moves."""
    rng = random.Random(seed)
    steps = 0
    while not t.is_over:
        player = t.active_player
        data = t.data(player)
        state = data["gamestate"]["name"]
        if state in ("playerBid", "contreeWindow"):
            assert data["legal_bids"] == data["gamestate"]["args"]["legal_bids"]
            t.act(player, "bid", bid=choose(state, data["legal_bids"], rng))
        else:
            assert state == "playerTurn"
            legal = data["legal_cards"]
            assert legal and legal == data["gamestate"]["args"]["_private"]["legal_cards"]
            assert set(legal) <= set(data["hand"])
            t.act(player, "play_card", card=choose(state, legal, rng))
        steps += 1
        assert steps < max_steps
        if each_step is not None:
            each_step(t)
    return steps


def check_finished_game(t: TestTable) -> list[dict[str, Any]]:
    """The end of a game: 32 cards, partners' scores, score sheet sums, the winner reached
    the target, every hand record replays to the score written on the sheet."""
    assert t.is_over
    assert_32_cards(t)
    with t.read() as table:
        sheet = table.score_sheet()
        records = table.hand_records()
        length = table.game_length
        team_scores = table.team_scores()
        carried = table.get_game_state_value("carried")
    assert sheet and len(records) == len(sheet)
    totals = [0, 0]
    for line in sheet:
        totals = [totals[0] + line["points"][0], totals[1] + line["points"][1]]
        assert line["totals"] == totals
        if line["outcome"] != "contention":
            assert line["breakdown"]["carry_out"] == 0
    assert tuple(totals) == team_scores
    # Contention points went to a later hand, or are still waiting after the last one.
    assert carried == sheet[-1]["breakdown"]["carry_out"]
    for line, record in zip(sheet, records, strict=True):
        report = replay(record)
        assert report["hand_score"] == line["points"]
        assert report["contract"]["trump"] == line["contract"]["trump"]
    players = t.players
    scores = t.scores()
    for seat, player in enumerate(players):
        assert scores[player] == (totals[seat % 2], sheet[-1]["points"][seat % 2])
    winner = 0 if totals[0] > totals[1] else 1
    assert totals[0] != totals[1]
    if length.kind == "points":
        assert totals[winner] >= length.amount
    else:
        assert len(sheet) >= length.amount
    ranking = {r["player_id"]: r["rank"] for r in t.ranking()}
    assert ranking[players[winner]] == ranking[players[winner + 2]] == 1
    assert ranking[players[1 - winner]] == ranking[players[3 - winner]] == 3
    hands = len(sheet)
    assert t.stat("hands_played") == hands
    assert sum(int(t.stat("contracts_taken", p)) for p in players) == hands
    made = sum(int(t.stat("contracts_made", p)) for p in players)
    failed = sum(int(t.stat("contracts_failed", p)) for p in players)
    contentions = sum(1 for line in sheet if line["outcome"] == "contention")
    assert made == sum(1 for line in sheet if line["outcome"] == "made")
    assert made + failed + contentions == hands
    assert t.stat("contentions") == contentions
    assert sum(int(t.stat("tricks_won", p)) for p in players) == 8 * hands
    assert t.stat("capots") == sum(1 for line in sheet if line["breakdown"]["capot"])
    assert t.stat("points_per_hand", players[0]) == pytest.approx(totals[0] / hands, rel=1e-6)
    # Each belote held is said twice: "Belote" with the first card of the pair, then "Rebelote".
    holders = sum(len(line["breakdown"]["belote_holders"]) for line in sheet)
    said = [e["log"].rsplit(" ", 1)[-1] for e in t.notifications(None) if e["type"] == "belote"]
    assert said.count("Belote") == said.count("Rebelote") == holders
    assert t.stat("belotes") == holders
    return sheet


# ---------------------------------------------------------------------------- whole games


def test_bots_play_a_classic_game_to_1000(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=3, bots=BOTS)
    sheet = check_finished_game(t)
    assert max(sheet[-1]["totals"]) >= 1000
    with t.read() as table:
        assert table.get_game_progression() == 99
        assert table.simulation_summary()["hands"] == len(sheet)
    assert t.data(None)["progression"] == 100


def test_players_choosing_legal_moves_play_a_classic_game(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=11, options={"target": 2})
    assert t.state.name == "playerBid"
    seen: dict[int | None, int] = {}

    def each_step(table: TestTable) -> None:
        assert_32_cards(table)
        check_hidden_information(table, seen)

    check_hidden_information(t, seen)
    drive(t, seed=5, each_step=each_step)
    sheet = check_finished_game(t)
    assert max(sheet[-1]["totals"]) >= 501


def test_same_seed_same_deals_and_game(harness: GameHarness) -> None:
    first = harness.create_table(players=4, seed="same", bots=BOTS, options=SHORT)
    second = harness.create_table(players=4, seed="same", bots=BOTS, options=SHORT)
    other = harness.create_table(players=4, seed="other", bots=BOTS, options=SHORT)
    with first.read() as a, second.read() as b, other.read() as c:
        assert a.hand_records() == b.hand_records()
        assert a.hand_records()[0]["hands"] != c.hand_records()[0]["hands"]


# ---------------------------------------------------------------------------- one hand, step by step


def test_a_classic_hand_deal_bidding_and_play(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=2)
    players = t.players
    spectator = t.data(None)
    dealer = spectator["dealer"]
    first = players[(players.index(dealer) + 1) % 4]
    assert t.active_player == first
    assert spectator["hand"] == [] and spectator["turned"] is not None
    assert spectator["hand_counts"] == {str(p): 5 for p in players}
    for player in players:
        data = t.data(player)
        assert len(data["hand"]) == 5
        deal = [e for e in t.notifications(player) if e["type"] == "newHand"]
        assert len(deal) == 1 and deal[0]["private"] and deal[0]["args"]["cards"] == data["hand"]
    assert t.data(first)["legal_bids"] == ["pass", "take"]
    t.act(first, "bid", bid="pass")
    taker = players[(players.index(first) + 1) % 4]
    t.act(taker, "bid", bid="take")
    turned = spectator["turned"]
    data = t.data(taker)
    assert t.state.name == "playerTurn" and t.active_player == first
    assert len(data["hand"]) == 8 and turned in data["hand"]
    assert data["contract"]["taker"] == taker
    assert data["contract"]["trump"] == turned[1]
    assert all(len(t.data(p)["hand"]) == 8 for p in players)
    logs = [e["log"] for e in t.notifications(None)]
    assert any(log.endswith("passes") for log in logs)
    trump_name = material.trump_name(Card.from_str(turned).suit)
    assert f"player{players.index(taker) + 1} takes at {trump_name}" in logs
    extra = [e for e in t.notifications(taker) if e["type"] == "extraCards"]
    assert extra and len(extra[0]["args"]["cards"]) == 3 and turned in extra[0]["args"]["cards"]
    # Four cards: a trick, won by the player the rules say.
    for _ in range(4):
        player = t.active_player
        card = t.data(player)["legal_cards"][0]
        t.act(player, "play_card", card=card)
    events = t.notifications(None)
    plays = [e for e in events if e["type"] == "playCard"]
    assert len(plays) == 4
    assert plays[0]["args"]["i18n"] == ["card_name"]
    assert plays[0]["log"] == f"{plays[0]['args']['player_name']} plays the " \
                              f"{material.card_name(plays[0]['args']['card'])}"
    trick = [e for e in events if e["type"] == "trickWin"][0]
    winner = trick["args"]["player_id"]
    assert t.active_player == winner
    team = t.data(None)["teams"][str(winner)]
    assert t.data(None)["tricks_won"] == ([1, 0] if team == 0 else [0, 1])
    assert t.data(None)["last_trick"]["cards"][0]["card"] == plays[0]["args"]["card"]


def test_everybody_passes_and_the_cards_are_dealt_again(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=4)
    dealer = t.data(None)["dealer"]
    for _ in range(8):
        t.act(t.active_player, "bid", bid="pass")
    data = t.data(None)
    assert data["hand_no"] == 2 and t.state.name == "playerBid"
    assert data["dealer"] == t.players[(t.players.index(dealer) + 1) % 4]
    assert data["bids"] == []
    assert t.stat("hands_cancelled") == 1
    assert any(e["type"] == "allPassed" for e in t.notifications(None))
    assert_32_cards(t)


def test_second_round_names_a_suit(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=6, options={"second_round_any_suit": 1})
    turned = Card.from_str(t.data(None)["turned"])
    for _ in range(4):
        t.act(t.active_player, "bid", bid="pass")
    player = t.active_player
    legal = t.data(player)["legal_bids"]
    assert "take" not in legal and f"take:{turned.suit.char}" not in legal
    other = next(code for code in legal if code.startswith("take:"))
    t.act(player, "bid", bid=other)
    assert t.data(None)["contract"]["trump"] == other[-1]
    assert t.data(None)["contract"]["taker"] == player


# ---------------------------------------------------------------------------- refused moves


def test_refused_bids_are_specific_and_change_nothing(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=8, options={"second_round_any_suit": 1})
    player = t.active_player
    turned = Card.from_str(t.data(None)["turned"])
    other_suit = next(s for s in "SHDC" if s != turned.suit.char)
    cases = [
        ("bogus", "bad_bid", "bogus is not a bid"),
        (f"take:{other_suit}", "first_round_turned_suit", "In the first round you may only take the "
                                                         f"turned suit ({material.trump_name(turned.suit)})"),
        ("80:S", "contree_bid_in_classic", "In classic belote you take or pass"),
        ("all", "no_all_no_trumps", "All trumps and no trumps are not played at this table"),
        ("coinche", "contree_bid_in_classic", "In classic belote you take or pass"),
    ]
    for bid, code, message in cases:
        error = t.act_expecting_error(player, "bid", bid=bid)
        assert error.code == code, bid
        assert str(error).startswith(message)
    other = next(p for p in t.players if p != player)
    assert t.act_expecting_error(other, "bid", bid="pass").code == "not_your_turn"
    assert t.act_expecting_error(player, "play_card", card="7S").code == "not_allowed_in_state"
    for _ in range(4):
        t.act(t.active_player, "bid", bid="pass")
    player = t.active_player
    assert t.act_expecting_error(player, "bid", bid="take").code == "second_round_name_suit"
    error = t.act_expecting_error(player, "bid", bid=f"take:{turned.suit.char}")
    assert error.code == "second_round_other_suit"
    assert error.args_["trump_name"] == material.trump_name(turned.suit)
    assert error.args_["i18n"] == ["trump_name"]


# The verb of the rules engine's explanation -> the error code the player gets.
CARD_REFUSALS = {"follow": "must_follow", "play": "must_play_higher", "trump": "must_trump",
                 "overtrump": "must_overtrump", "undertrump": "must_undertrump"}


def test_refused_cards_are_specific_and_change_nothing(harness: GameHarness) -> None:
    """Plays legal moves until every kind of illegal card has been tried and refused."""
    found: dict[str, str] = {}
    for seed in range(12):
        t = harness.create_table(players=4, seed=f"refusals:{seed}", options=SHORT)
        rng = random.Random(seed)
        while not t.is_over and len(found) < len(CARD_REFUSALS):
            player = t.active_player
            data = t.data(player)
            if data["gamestate"]["name"] != "playerTurn":
                t.act(player, "bid", bid="take" if "take" in data["legal_bids"] else rng.choice(
                    data["legal_bids"]))
                continue
            with t.read() as table:
                state = table.play_state()
                reasons = {(state.explain_illegal(Card.from_str(code)) or "").split(" ")[1]: code
                           for code in sorted(set(data["hand"]) - set(data["legal_cards"]))}
            for verb, code in reasons.items():
                if CARD_REFUSALS[verb] in found:
                    continue
                error = t.act_expecting_error(player, "play_card", card=code)
                assert error.code == CARD_REFUSALS[verb]
                assert "${" in error.msgid and error.args_["i18n"]
                found[error.code] = str(error)
            t.act(player, "play_card", card=rng.choice(data["legal_cards"]))
        if len(found) == len(CARD_REFUSALS):
            break
    assert set(found) == set(CARD_REFUSALS.values())
    assert found["must_follow"].startswith("You must follow ")
    assert found["must_overtrump"].startswith("You must overtrump the ")
    assert found["must_trump"].startswith("You must trump with ")


def test_other_refused_plays(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=9)
    t.act(t.active_player, "bid", bid="take")
    player = t.active_player
    data = t.data(player)
    assert data["gamestate"]["name"] == "playerTurn"
    error = t.act_expecting_error(player, "play_card", card="ZZ")
    assert error.code == "bad_card" and str(error) == "ZZ is not a card"
    elsewhere = next(str(card) for card in CARDS if str(card) not in data["hand"])
    error = t.act_expecting_error(player, "play_card", card=elsewhere)
    assert error.code == "not_in_hand"
    assert str(error) == f"You do not have the {material.card_name(elsewhere)}"
    other = next(p for p in t.players if p != player)
    assert t.act_expecting_error(other, "play_card", card=t.data(other)["hand"][0]).code == "not_your_turn"
    assert t.act_expecting_error(player, "bid", bid="pass").code == "not_allowed_in_state"
    assert t.act_expecting_error(player, "play_card").code == "bad_arguments"


# ---------------------------------------------------------------------------- notifications, zombies


def test_notifications_translate_names_but_never_player_names(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=1, bots=BOTS, options={"announcements": 2, **SHORT})
    known = set(material.CARD_NAMES.values()) | set(material.TRUMP_NAMES) \
        | set(material.CARRE_NAMES.values()) | set(material.SEQUENCE_NAMES.values())
    types = set()
    for event in t.notifications(None):
        types.add(event["type"])
        args = event["args"]
        assert "player_name" not in args.get("i18n", [])
        for name in args.get("i18n", []):
            assert args[name] in known, (event["type"], name, args[name])
        assert "${" not in event["log"], event
    assert {"newDeal", "bid", "contract", "playCard", "trickWin", "handOutcome", "handScore",
            "gameResult"} <= types


def test_a_player_who_leaves_mid_hand_is_played_to_the_end(harness: GameHarness) -> None:
    t = harness.create_table(players=4, seed=12, options=SHORT)
    leaver = t.players[2]
    rng = random.Random(1)
    for _ in range(9):  # into the card play of the first hand
        player = t.active_player
        data = t.data(player)
        if data["gamestate"]["name"] == "playerTurn":
            t.act(player, "play_card", card=rng.choice(data["legal_cards"]))
        else:
            t.act(player, "bid", bid="take" if "take" in data["legal_bids"] else "pass")
    t.zombie(leaver)
    assert t.active_player != leaver

    def never_waits_for_the_leaver(table: TestTable) -> None:
        assert table.is_over or table.active_player != leaver

    drive(t, seed=2, each_step=never_waits_for_the_leaver)
    check_finished_game(t)
    plays = t.query("SELECT COUNT(*) AS n FROM card_play WHERE play_seat = 2")
    assert int(plays[0]["n"]) == 8 * len(t.query("SELECT hand_no FROM hand_score"))
