"""Cards, legal play, tricks, announcements and scoring of the pure Belote engine."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from dataclasses import replace

import pytest

from games.belote import rules
from games.belote.rules import (
    ALL_TRUMPS,
    CARDS,
    NO_TRUMPS,
    Announcement,
    Card,
    CardError,
    Contract,
    IllegalMoveError,
    PlayState,
    Rank,
    Rules,
    RulesError,
    Suit,
    card_points,
    compare_announcements,
    detect_announcements,
    explain_illegal,
    legal_cards,
    parse_cards,
    score_hand,
    trick_winner,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def codes(cards: list[Card]) -> list[str]:
    return [str(card) for card in cards]


def test_doctests_pass() -> None:
    modules = [rules] + [importlib.import_module(f"{rules.__name__}.{info.name}")
                         for info in pkgutil.iter_modules(rules.__path__)]
    results = [doctest.testmod(module) for module in modules]
    assert sum(result.attempted for result in results) > 20
    assert sum(result.failed for result in results) == 0


# -- cards


def test_card_codes_round_trip_and_sort_order() -> None:
    assert [str(card) for card in CARDS[:8]] == ["7S", "8S", "9S", "JS", "QS", "KS", "TS", "AS"]
    assert all(Card.from_str(str(card)) is card for card in CARDS)
    assert sorted(parse_cards(["AC", "7H", "TS", "JS"])) == parse_cards(["JS", "TS", "7H", "AC"])


@pytest.mark.parametrize("code", ["", "1S", "JX", "JSS", "10H", None])
def test_bad_card_codes_are_rejected(code: object) -> None:
    with pytest.raises(CardError):
        Card.from_str(code)  # type: ignore[arg-type]


@pytest.mark.parametrize("trump", [S, H, D, C, ALL_TRUMPS, NO_TRUMPS])
def test_every_contract_has_152_card_points(trump: rules.Trump) -> None:
    assert sum(card_points(card, trump) for card in CARDS) == 152


@pytest.mark.parametrize(("code", "trump", "points"), [
    ("JS", S, 20), ("9S", S, 14), ("AS", S, 11), ("TS", S, 10), ("KS", S, 4), ("QS", S, 3),
    ("8S", S, 0), ("JH", S, 2), ("9H", S, 0), ("AH", S, 11), ("TH", S, 10), ("KH", S, 4),
    ("AD", NO_TRUMPS, 19), ("TD", NO_TRUMPS, 10), ("JD", NO_TRUMPS, 2), ("9D", NO_TRUMPS, 0),
    ("JC", ALL_TRUMPS, 13), ("9C", ALL_TRUMPS, 9), ("AC", ALL_TRUMPS, 6), ("TC", ALL_TRUMPS, 5),
    ("KC", ALL_TRUMPS, 3), ("QC", ALL_TRUMPS, 2), ("8C", ALL_TRUMPS, 0),
])
def test_point_tables(code: str, trump: rules.Trump, points: int) -> None:
    assert card_points(Card.from_str(code), trump) == points


# -- trick winners


@pytest.mark.parametrize(("cards", "leader", "trump", "winner"), [
    ("AH TH KH QH", 0, S, 0),          # plain order A > T
    ("9H JH 7H 8H", 2, S, 3),          # plain J beats 9
    ("AH 7S KH TH", 1, S, 2),          # a trump beats the led suit
    ("AH 7S 8S TH", 1, S, 3),          # higher trump wins
    ("9S JS AS TS", 0, S, 1),          # trump order J > 9 > A
    ("QS 9S AS TS", 0, S, 1),          # 9 beats A in trump
    ("KD AC TC 7D", 0, H, 0),          # off-suit discards never win
    ("9H JH AH TH", 0, ALL_TRUMPS, 1),  # every suit ranks like trump
    ("9H JC AH TH", 0, ALL_TRUMPS, 0),  # no cross-suit trumping in all trumps
    ("9H JH AH TH", 0, NO_TRUMPS, 2),  # plain order in no trumps
    ("TH AS 7S JH", 3, NO_TRUMPS, 3),
])
def test_trick_winner(cards: str, leader: int, trump: rules.Trump, winner: int) -> None:
    assert trick_winner(parse_cards(cards.split()), leader, trump) == winner


# -- legal cards


@pytest.mark.parametrize(("hand", "trick", "leader", "trump", "undertrump", "legal"), [
    # lead: anything
    ("7S AH 9C", "", 0, S, "required", "7S AH 9C"),
    # follow the led suit, no need to go higher in a plain suit
    ("7H AH 9C", "TH", 0, S, "required", "7H AH"),
    # trump led: must go higher than every trump in the trick
    ("7S 9S AS 7H", "TS", 0, S, "required", "9S AS"),
    ("7S 8S 7H", "TS", 0, S, "required", "7S 8S"),  # cannot: any trump
    ("7S 9S AS", "TS JS", 0, S, "required", "7S 9S AS"),  # nothing beats the jack
    ("7S 9S AS 7H", "AS KS", 3, S, "required", "9S"),  # even when the partner is winning
    ("7H 8D", "TS", 0, S, "required", "7H 8D"),  # void in trumps: anything
    # void in the led suit, opponent winning without trump: must trump (any trump)
    ("7S JS 8D", "AH", 0, S, "required", "7S JS"),
    ("7S JS 8D", "AH", 0, S, "optional", "7S JS"),
    # void, partner winning: anything
    ("7S JS 8D", "AH 7H", 0, S, "required", "7S JS 8D"),
    ("7S JS 8D", "AH 8S 7H", 3, S, "required", "7S JS 8D"),  # partner has trumped
    # void, opponent has trumped: must overtrump when possible
    ("7S JS 8D", "AH 9S", 0, S, "required", "JS"),
    ("7S JS 8D", "AH 9S", 0, S, "optional", "JS"),
    # cannot overtrump: must undertrump ("required") or may play anything ("optional")
    ("7S 8S 8D", "AH JS", 0, S, "required", "7S 8S"),
    ("7S 8S 8D", "AH JS", 0, S, "optional", "7S 8S 8D"),
    # void of the led suit and of trumps: anything
    ("8D 9C", "AH JS", 0, S, "required", "8D 9C"),
    # all trumps: follow and go higher when possible, else any card of the suit; void: anything
    ("7H 9H JD", "TH", 0, ALL_TRUMPS, "required", "9H"),
    ("7H 8H JD", "TH", 0, ALL_TRUMPS, "required", "7H 8H"),
    ("7H 9H JD", "AH TH", 1, ALL_TRUMPS, "required", "9H"),  # even over the partner
    ("JD 9C", "TH", 0, ALL_TRUMPS, "required", "JD 9C"),
    # no trumps: follow suit only
    ("7H AH JD", "TH", 0, NO_TRUMPS, "required", "7H AH"),
    ("JD 9C", "TH 8H", 0, NO_TRUMPS, "required", "JD 9C"),
])
def test_legal_cards(hand: str, trick: str, leader: int, trump: rules.Trump, undertrump: str,
                     legal: str) -> None:
    result = legal_cards(parse_cards(hand.split()), parse_cards(trick.split()), leader, trump,
                         undertrump)  # type: ignore[arg-type]
    assert codes(result) == codes(sorted(parse_cards(legal.split())))


@pytest.mark.parametrize(("hand", "trick", "card", "reason"), [
    ("9H 7D", "AD", "9H", "must follow diamonds"),
    ("7S 9S", "TS", "7S", "must play higher in spades"),
    ("7S 8D", "AH", "8D", "must trump with spades"),
    ("7S JS 8D", "AH 9S", "7S", "must overtrump 9S"),
    ("7S JS 8D", "AH 9S", "8D", "must overtrump 9S"),
    ("7S 8S 8D", "AH JS", "8D", "must undertrump (play a spade)"),
    ("7S 8D", "AH", "AS", "does not hold it"),
    ("7S 8D", "AH", "7S", None),
])
def test_explain_illegal(hand: str, trick: str, card: str, reason: str | None) -> None:
    assert explain_illegal(parse_cards(hand.split()), parse_cards(trick.split()), 0, S,
                           Card.from_str(card)) == reason


# -- playing a hand


DEAL = [
    parse_cards("7S 8S 9S JS QS KS TS AS".split()),
    parse_cards("7H 8H 9H JH QH KH TH AH".split()),
    parse_cards("7D 8D 9D JD QD KD TD AD".split()),
    parse_cards("7C 8C 9C JC QC KC TC AC".split()),
]


def test_play_checks_turn_and_legality() -> None:
    state = PlayState(DEAL, Contract(S, taker=0), leader=1)
    with pytest.raises(IllegalMoveError, match="seat 1's turn"):
        state.play(Card.from_str("AS"), seat=0)
    with pytest.raises(IllegalMoveError, match="does not hold"):
        state.play(Card.from_str("AS"))
    state.play(Card.from_str("7H"), seat=1)
    assert state.current_winner == 1
    assert codes(state.legal_cards()) == codes(DEAL[2])  # void in hearts: anything


def test_a_whole_hand_is_tracked() -> None:
    state = PlayState(DEAL, Contract(S, taker=0), leader=0)
    # seat 0 leads trumps from the top and wins every trick: a capot for team 0
    for _ in range(8):
        state.play(max(state.legal_cards(), key=lambda c: rules.ORDER_BY_TRUMP[0][c.index]))
        for _ in range(3):
            state.play(state.legal_cards()[0])
    assert state.is_over
    assert state.tricks_won == [8, 0]
    assert state.card_points == [162, 0]
    assert state.belote == [20, 0]
    with pytest.raises(IllegalMoveError, match="over"):
        state.play(Card.from_str("7S"))
    score = state.score()
    assert score.capot_team == 0 and score.hand_score == (272, 0)
    assert score.dix_de_der == (10, 0)


def test_a_state_can_be_rebuilt_from_its_plays() -> None:
    state = PlayState(DEAL, Contract(H, taker=1), leader=0)
    for _ in range(9):
        state.play(state.legal_cards()[0])
    plays = [card for trick in state.tricks for card in trick.cards] + state.trick
    rebuilt = PlayState.from_plays(DEAL, Contract(H, taker=1), 0, Rules(),
                                   [str(card) for card in plays])
    assert rebuilt.to_play == state.to_play and rebuilt.trick == state.trick
    assert rebuilt.card_points == state.card_points and rebuilt.hands == state.hands
    with pytest.raises(IllegalMoveError, match="seat 1 played 8C but does not hold it"):
        PlayState.from_plays(DEAL, Contract(H, taker=1), 0, Rules(), ["7S", "8C"])


def test_dix_de_der_goes_to_the_last_trick() -> None:
    state = PlayState(DEAL, Contract(H, taker=1), leader=0)
    # seat 0 leads spades from the bottom; seat 1 (hearts) trumps every trick
    while not state.is_over:
        state.play(state.legal_cards()[0])
    assert state.tricks[-1].winner == 1
    score = state.score()
    assert score.dix_de_der == (0, 10)
    assert state.tricks[-1].points == sum(card_points(c, H) for c in state.tricks[-1].cards) + 10


@pytest.mark.parametrize(("hands", "message"), [
    (DEAL[:3], "4 seats"),
    ([DEAL[0][:7] + [DEAL[1][0]], DEAL[1][1:] + [DEAL[0][7]], DEAL[2], DEAL[3]], None),
    ([DEAL[0][:7] + [DEAL[0][0]], DEAL[1], DEAL[2], DEAL[3]], "8 distinct"),
    ([DEAL[0][:7], DEAL[1], DEAL[2], DEAL[3]], "8 distinct"),
])
def test_play_state_checks_the_deal(hands: list[list[Card]], message: str | None) -> None:
    if message is None:
        PlayState(hands, Contract(S, taker=0), leader=0)
        return
    with pytest.raises(CardError, match=message):
        PlayState(hands, Contract(S, taker=0), leader=0)


@pytest.mark.parametrize(("trump", "belote"), [
    (S, [20, 0]), (H, [0, 20]), (ALL_TRUMPS, [40, 40]), (NO_TRUMPS, [0, 0]),
])
def test_belote_detection(trump: rules.Trump, belote: list[int]) -> None:
    state = PlayState(DEAL, Contract(trump, taker=0), leader=0)
    assert state.belote == belote


# -- rules validation


@pytest.mark.parametrize("data", [
    {"variant": "bridge"}, {"undertrump": "never"}, {"multiplier": "x"},
    {"announce_tie": "first"}, {"target": 0}, {"announcements": "yes"}, {"colour": "red"},
])
def test_bad_rules_are_rejected(data: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules.from_dict(data)


def test_rules_round_trip() -> None:
    custom = Rules(variant="contree", undertrump="optional", multiplier="whole", target=701)
    assert Rules.from_dict(custom.to_dict()) == custom
    assert Rules.from_dict({}) == Rules()


# -- announcements


def announce(hand: str, seat: int = 0) -> list[Announcement]:
    return detect_announcements(parse_cards(hand.split()), seat)


@pytest.mark.parametrize(("hand", "points"), [
    ("7H 8H 9H 7S 9S JD KD AC", [20]),
    ("7H 8H 9H TH 7S 9S JD AC", [50]),
    ("7H 8H 9H TH JH 9S JD AC", [100]),
    ("7H 8H 9H TH JH QH KH AH", [100]),                 # a sequence of 8 is one announcement
    ("JS JH JD JC 7H 9S 8D AC", [200]),
    ("9S 9H 9D 9C 7H JS 8D AC", [150]),
    ("AS AH AD AC 7H JS 8D 9C", [100]),
    ("7S 7H 7D 7C 8S 8H 8D 8C", []),                   # sevens and eights: nothing
    ("QS KS AS JH 7D 9C 8C TD", [20]),                  # Q K A is a tierce
    ("QS KS JS JH JD JC 7C 8D", [200]),                 # the jack counts once: carré is best
    ("9S TS JS QS JH JD JC 8D", [200]),                 # carré 200 beats the quarte 50
    ("KS QS JS JH JD JC AS 8D", [200, 20]),             # carré + A K Q tierce beats a quarte
])
def test_detect_announcements(hand: str, points: list[int]) -> None:
    assert [item.points for item in announce(hand)] == points


@pytest.mark.parametrize(("per_seat", "trump", "tie", "team"), [
    # carré beats any sequence
    ({0: "QS KS AS 7H 8H 9H TH JH", 1: "QS QH QD QC 7C 8C 9D 9S"}, S, "nearest", 1),
    # higher carré wins: jacks over nines
    ({0: "9S 9H 9D 9C 7C 8C 7D 8D", 1: "JS JH JD JC 7S 8S 7H 8H"}, S, "nearest", 1),
    # longer sequence wins
    ({0: "7H 8H 9H TH 7S JD AC 8D", 1: "QS KS AS 7C 9D 8C TD JC"}, S, "nearest", 0),
    # same length, higher top card wins
    ({0: "7H 8H 9H 7S JD AC 8D KC", 1: "QS KS AS 7C 9D 8C TD JC"}, D, "nearest", 1),
    # same length and top: the one in trump wins
    ({0: "7H 8H 9H 7S JD AC 8D KC", 1: "7D 8D 9D 7C QS 8C TS JC"}, D, "nearest", 1),
    ({0: "7H 8H 9H 7S JD AC 8D KC", 1: "7D 8D 9D 7C QS 8C TS JC"}, H, "nearest", 0),
    # exact tie: the player nearest the first speaker (seat 1 here) wins, or nobody
    ({0: "7H 8H 9H 7S JD AC 8D KC", 1: "7D 8D 9D 7C QS 8C TS JC"}, S, "nearest", 1),
    ({0: "7H 8H 9H 7S JD AC 8D KC", 1: "7D 8D 9D 7C QS 8C TS JC"}, S, "nobody", None),
    ({}, S, "nearest", None),
])
def test_compare_announcements(per_seat: dict[int, str], trump: rules.Trump, tie: str,
                               team: int | None) -> None:
    found = [announce(per_seat[seat], seat) if seat in per_seat else [] for seat in range(4)]
    assert compare_announcements(found, 1, trump, tie) == team  # type: ignore[arg-type]


def test_nearest_first_speaker_depends_on_who_speaks_first() -> None:
    found = [announce("7H 8H 9H 7S JD AC 8D KC", 0), announce("7D 8D 9D 7C QS 8C TS JC", 1),
             [], []]
    assert compare_announcements(found, 0, S) == 0
    assert compare_announcements(found, 1, S) == 1
    assert compare_announcements(found, 3, S) == 0  # 3, then 0, then 1


# -- scoring


CLASSIC = Rules()
CONTREE = Rules(variant="contree")


def classic(points: tuple[int, int], tricks: tuple[int, int] = (4, 4), taker: int = 0,
            belote: tuple[int, int] = (0, 0), carried: int = 0,
            rule_set: Rules = CLASSIC) -> rules.HandScore:
    return score_hand(Contract(H, taker=taker), rule_set, points, tricks, belote,
                      carried=carried)


@pytest.mark.parametrize(("points", "tricks", "belote", "expected", "outcome"), [
    ((90, 72), (5, 3), (0, 0), (90, 72), "made"),
    ((70, 92), (3, 5), (0, 0), (0, 162), "failed"),
    ((70, 92), (3, 5), (20, 0), (20, 162), "failed"),     # belote stays with the takers
    ((75, 87), (3, 5), (20, 0), (95, 87), "made"),        # belote counts to decide
    ((81, 81), (4, 4), (0, 0), (0, 81), "contention"),
    ((162, 0), (8, 0), (0, 0), (252, 0), "made"),         # capot 252
    ((162, 0), (8, 0), (0, 20), (252, 20), "made"),       # belote never prevents capot
    ((0, 162), (0, 8), (20, 0), (20, 252), "failed"),     # defenders' capot
])
def test_classic_scores(points: tuple[int, int], tricks: tuple[int, int],
                        belote: tuple[int, int], expected: tuple[int, int],
                        outcome: str) -> None:
    score = classic(points, tricks, belote=belote)
    assert score.hand_score == expected
    assert score.outcome == outcome


def test_takers_on_the_other_team() -> None:
    score = classic((90, 72), (5, 3), taker=1)
    assert score.outcome == "failed" and score.hand_score == (162, 0)


def test_contention_points_are_held_and_go_to_the_next_winner() -> None:
    tie = classic((81, 81))
    assert tie.outcome == "contention" and tie.hand_score == (0, 81) and tie.carry_out == 81
    assert tie.winning_team is None
    # the same team takes the next hand and fails: the defenders collect the carried 81
    failed = classic((60, 102), (3, 5), carried=tie.carry_out)
    assert failed.hand_score == (0, 162 + 81) and failed.carried_awarded == (0, 81)
    assert failed.carry_out == 0
    made = classic((100, 62), (5, 3), carried=81)
    assert made.hand_score == (181, 62)
    again = classic((81, 81), carried=81)
    assert again.carry_out == 162 and again.hand_score == (0, 81)


def test_contention_with_belote_keeps_the_belote_with_its_holders() -> None:
    score = classic((71, 91), belote=(20, 0))
    assert score.outcome == "contention"
    assert score.hand_score == (20, 91) and score.carry_out == 71


def contree(points: tuple[int, int], value: int, tricks: tuple[int, int] = (4, 4),
            coinche: int = 0, belote: tuple[int, int] = (0, 0),
            rule_set: Rules = CONTREE) -> rules.HandScore:
    return score_hand(Contract(S, taker=0, value=value, coinche=coinche), rule_set, points,
                      tricks, belote)


@pytest.mark.parametrize(("points", "value", "tricks", "coinche", "belote", "rule_set",
                          "expected", "outcome"), [
    ((110, 52), 100, (5, 3), 0, (0, 0), CONTREE, (210, 52), "made"),
    ((100, 62), 100, (5, 3), 0, (0, 0), CONTREE, (200, 62), "made"),  # reaching the bid is enough
    ((100, 62), 120, (5, 3), 0, (0, 0), CONTREE, (0, 280), "failed"),
    ((90, 72), 110, (5, 3), 0, (20, 0), CONTREE, (220, 72), "made"),  # belote counts
    ((80, 82), 110, (4, 4), 0, (20, 0), CONTREE, (20, 270), "failed"),  # kept by holders
    ((80, 82), 110, (4, 4), 0, (20, 0), replace(CONTREE, belote_to_defence_on_failed=True),
     (0, 290), "failed"),
    ((110, 52), 100, (5, 3), 1, (0, 0), CONTREE, (310, 52), "made"),  # coinche x2
    ((110, 52), 100, (5, 3), 2, (0, 0), CONTREE, (510, 52), "made"),  # surcoinche x4
    ((90, 72), 100, (5, 3), 1, (0, 0), CONTREE, (0, 360), "failed"),
    ((110, 52), 100, (5, 3), 1, (0, 20), replace(CONTREE, multiplier="whole"),
     (420, 124), "made"),
    ((90, 72), 100, (5, 3), 2, (0, 0), replace(CONTREE, multiplier="whole"),
     (0, 1040), "failed"),
    ((162, 0), 250, (8, 0), 0, (0, 0), CONTREE, (502, 0), "made"),  # capot bid made
    ((152, 10), 250, (7, 1), 0, (0, 0), CONTREE, (0, 410), "failed"),  # capot bid: 8 tricks
    ((162, 0), 160, (8, 0), 0, (0, 0), CONTREE, (412, 0), "made"),  # unbid capot counts 252
])
def test_contree_scores(points: tuple[int, int], value: int, tricks: tuple[int, int],
                        coinche: int, belote: tuple[int, int], rule_set: Rules,
                        expected: tuple[int, int], outcome: str) -> None:
    score = contree(points, value, tricks, coinche, belote, rule_set)
    assert score.hand_score == expected
    assert score.outcome == outcome


def test_scores_need_points_and_tricks_that_add_up() -> None:
    with pytest.raises(rules.BeloteError):
        classic((90, 70))


ANNOUNCING = Rules(announcements=True)


def test_only_the_best_team_scores_all_of_its_announcements() -> None:
    found = [announce("7H 8H 9H TH 7S JD AC 8D", 0), announce("QS KS AS 7C 9D 8C TD JC", 1),
             announce("7D 8D 9D 7C QS 8C TS JC", 2), []]
    score = score_hand(Contract(S, taker=0), ANNOUNCING, (90, 72), (5, 3), (0, 0), found, 1)
    assert score.announcement_team == 0
    assert score.announcements == (70, 0)
    assert score.hand_score == (160, 72)
    # switched off: nothing counts
    plain = score_hand(Contract(S, taker=0), CLASSIC, (90, 72), (5, 3), (0, 0), found, 1)
    assert plain.announcements == (0, 0) and plain.hand_score == (90, 72)


def test_announcements_decide_the_contract_and_all_go_to_the_defence_on_failure() -> None:
    found = [announce("7H 8H 9H 7S JD AC 8D KC", 0), announce("JS JH JD JC 7S 8S 7C 8C", 1),
             [], []]
    score = score_hand(Contract(S, taker=0), ANNOUNCING, (100, 62), (5, 3), (0, 0), found, 1)
    assert score.announcements == (0, 200)
    assert score.outcome == "failed"
    assert score.hand_score == (0, 162 + 200)


def test_announcement_tie_nobody_scores() -> None:
    found = [announce("7H 8H 9H 7S JD AC 8D KC", 0), announce("7D 8D 9D 7C QS 8C TS JC", 1),
             [], []]
    nobody = replace(ANNOUNCING, announce_tie="nobody")
    assert score_hand(Contract(S, 0), nobody, (90, 72), (5, 3), announcements=found,
                      first_leader=1).announcements == (0, 0)
    assert score_hand(Contract(S, 0), ANNOUNCING, (90, 72), (5, 3), announcements=found,
                      first_leader=1).announcements == (0, 20)


def test_play_state_detects_announcements_only_when_enabled() -> None:
    with_ann = PlayState(DEAL, Contract(S, taker=0), leader=0, rules=ANNOUNCING)
    assert [item.points for item in with_ann.announced[0]] == [100]
    without = PlayState(DEAL, Contract(S, taker=0), leader=0)
    assert without.announced == [[], [], [], []]


def test_rank_enum_matches_sort_order() -> None:
    assert [rank.char for rank in Rank] == list("789JQKTA")
