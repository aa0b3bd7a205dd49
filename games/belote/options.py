"""Game options of Belote (ids 100..199, stored as globals) and display preferences.

Defaults are what a new table plays: the rules as BGA's help states them for classic
Belote, and the French federation's (FFB) scoring for contrée. Ids and values are forever:
tables in progress and finished games' history refer to them. An option added later is
read as `LEGACY_VALUES` says by a table created before it existed (`rules_from_options`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from framework.game.options import Option, OptionValue, Preference
from framework.i18n import clienttranslate

from .rules import Rules

VARIANT, TARGET, UNDERTRUMP, ALL_NO_TRUMPS, SECOND_ROUND_ANY_SUIT = 100, 101, 102, 103, 104
ANNOUNCEMENTS, ANNOUNCE_TIE, RAISE_SEQUENCE, BELOTE_TO_DEFENCE, MULTIPLIER = 105, 106, 107, 108, 109
CONTREE_SCORING, ROUND_POINTS, LITIGE_AT_END, GENERALE = 110, 111, 112, 113

CLASSIC, CONTREE = 1, 2
OFF, ON = 1, 2
SCORING_BGA, SCORING_FFB = 1, 2
LITIGE_LOST, LITIGE_PLAYED_OUT = 1, 2
#: target value: each variant's usual length (classic 1000 points, contrée 701)
USUAL_TARGET = 4
USUAL_POINTS = {CLASSIC: 1000, CONTREE: 701}

#: The value a table created before an option existed plays with (what Arena did then).
LEGACY_VALUES: dict[int, int] = {
    CONTREE_SCORING: SCORING_BGA, ROUND_POINTS: OFF, LITIGE_AT_END: LITIGE_LOST, GENERALE: OFF,
}


@dataclass(frozen=True)
class GameLength:
    """When a game ends: a team reaches ``amount`` points, or ``amount`` hands were played
    (in both cases the scores must differ: a tie plays on)."""

    kind: Literal["points", "hands"]
    amount: int


#: The fixed lengths (`USUAL_TARGET` depends on the variant: `game_length`).
TARGETS: dict[int, GameLength] = {
    1: GameLength("points", 1000),
    2: GameLength("points", 501),
    3: GameLength("points", 701),
    10: GameLength("hands", 4),
    11: GameLength("hands", 8),
    12: GameLength("hands", 12),
}

_CLASSIC_ONLY = {VARIANT: (CLASSIC,)}
_CONTREE_ONLY = {VARIANT: (CONTREE,)}
_BGA_SCORING_ONLY = {VARIANT: (CONTREE,), CONTREE_SCORING: (SCORING_BGA,)}

OPTIONS = [
    Option(
        VARIANT, "variant", clienttranslate("Variant"),
        values={
            CLASSIC: OptionValue(clienttranslate("Classic belote"),
                                 clienttranslate("Take or pass on a turned-up card")),
            CONTREE: OptionValue(clienttranslate("Contrée (coinche)"),
                                 clienttranslate("All 8 cards dealt, bids from 80 to 160 or capot, "
                                                 "coinche and surcoinche")),
        },
        default=CLASSIC,
    ),
    Option(
        TARGET, "target", clienttranslate("Game length"),
        values={
            USUAL_TARGET: OptionValue(clienttranslate("The usual length"),
                                      clienttranslate("Classic 1000 points, contrée 701 points")),
            1: OptionValue(clienttranslate("1000 points"), clienttranslate("The usual game")),
            2: OptionValue(clienttranslate("501 points"), clienttranslate("A short game")),
            3: OptionValue(clienttranslate("701 points"), clienttranslate("A medium game")),
            10: OptionValue(clienttranslate("4 hands"), clienttranslate("Highest score after 4 hands")),
            11: OptionValue(clienttranslate("8 hands"), clienttranslate("Highest score after 8 hands")),
            12: OptionValue(clienttranslate("12 hands"),
                            clienttranslate("Highest score after 12 hands")),
        },
        default=USUAL_TARGET,
    ),
    Option(
        UNDERTRUMP, "undertrump", clienttranslate("Under-trumping"),
        values={
            1: OptionValue(clienttranslate("Required"),
                           clienttranslate("Who cannot overtrump must still play a lower trump")),
            2: OptionValue(clienttranslate("Optional"),
                           clienttranslate("Who cannot overtrump may play any card")),
        },
        default=1,
    ),
    Option(
        ALL_NO_TRUMPS, "all_no_trumps", clienttranslate("All trumps and no trumps"),
        values={
            OFF: OptionValue(clienttranslate("No"), clienttranslate("Contracts in a suit only")),
            ON: OptionValue(clienttranslate("Yes"),
                            clienttranslate("Contracts at all trumps and no trumps are allowed "
                                            "(classic: in a third bidding round)")),
        },
        default=OFF,
    ),
    Option(
        SECOND_ROUND_ANY_SUIT, "second_round_any_suit",
        clienttranslate("Second round: the turned suit may be named"),
        values={
            OFF: OptionValue(clienttranslate("No"),
                             clienttranslate("In the second round, name one of the other three suits")),
            ON: OptionValue(clienttranslate("Yes"),
                            clienttranslate("In the second round, any suit may be named")),
        },
        default=ON,
        displaycondition=_CLASSIC_ONLY,
    ),
    Option(
        ANNOUNCEMENTS, "announcements", clienttranslate("Announcements"),
        values={
            OFF: OptionValue(clienttranslate("No"), clienttranslate("Only belote-rebelote scores")),
            ON: OptionValue(clienttranslate("Yes"),
                            clienttranslate("Tierce, quarte, quinte and carrés score, declared "
                                            "automatically at the first trick")),
        },
        default=OFF,
    ),
    Option(
        ANNOUNCE_TIE, "announce_tie", clienttranslate("Equal best announcements"),
        values={
            1: OptionValue(clienttranslate("Nearest to the first player"),
                           clienttranslate("The player who speaks first among them scores")),
            2: OptionValue(clienttranslate("Nobody scores"),
                           clienttranslate("Equal best announcements of both teams cancel out")),
        },
        default=1,
        displaycondition={ANNOUNCEMENTS: (ON,)},
    ),
    Option(
        RAISE_SEQUENCE, "raise_sequence", clienttranslate("Contrée: closing sequence"),
        values={
            OFF: OptionValue(clienttranslate("Simple"),
                             clienttranslate("Three passes end the bidding; a coinche may be "
                                             "surcoinched")),
            ON: OptionValue(clienttranslate("Raise, then coinche"),
                            clienttranslate("After three passes the bidder may raise once, then the "
                                            "opponents may coinche and the bidder's team surcoinche")),
        },
        default=OFF,
        displaycondition=_CONTREE_ONLY,
    ),
    Option(
        BELOTE_TO_DEFENCE, "belote_to_defence",
        clienttranslate("Contrée: belote of a failed contract"),
        values={
            OFF: OptionValue(clienttranslate("Kept by its holders"),
                             clienttranslate("Belote-rebelote always scores for the team holding it")),
            ON: OptionValue(clienttranslate("Given to the defence"),
                            clienttranslate("When the contract fails, the takers' belote goes to "
                                            "the defenders")),
        },
        default=OFF,
        displaycondition=_BGA_SCORING_ONLY,
    ),
    Option(
        MULTIPLIER, "multiplier", clienttranslate("Contrée: what a coinche multiplies"),
        values={
            1: OptionValue(clienttranslate("The contract"),
                           clienttranslate("Coinche doubles and surcoinche quadruples the bid")),
            2: OptionValue(clienttranslate("The whole hand"),
                           clienttranslate("Coinche doubles and surcoinche quadruples the hand score")),
        },
        default=1,
        displaycondition=_BGA_SCORING_ONLY,
    ),
    Option(
        CONTREE_SCORING, "contree_scoring", clienttranslate("Contrée: scoring"),
        values={
            SCORING_BGA: OptionValue(
                clienttranslate("Board Game Arena"),
                clienttranslate("Made on reaching the bid; a coinche multiplies as chosen below")),
            SCORING_FFB: OptionValue(
                clienttranslate("French federation (FFB)"),
                clienttranslate("Made on reaching the bid with more points than the defence; a "
                                "coinched contract gives (160 + bid) x 2, x 4 when surcoinched, to "
                                "the side that wins it; capot 250")),
        },
        default=SCORING_FFB,
        displaycondition=_CONTREE_ONLY,
    ),
    Option(
        ROUND_POINTS, "round_points", clienttranslate("Contrée: points made"),
        values={
            OFF: OptionValue(clienttranslate("As made"), clienttranslate("Points are written as made")),
            ON: OptionValue(clienttranslate("Rounded to the ten"),
                            clienttranslate("Points made are written to the nearest ten (85 is "
                                            "written 80, 86 is written 90)")),
        },
        default=OFF,
        displaycondition=_CONTREE_ONLY,
    ),
    Option(
        GENERALE, "generale", clienttranslate("Contrée: the générale"),
        values={
            OFF: OptionValue(clienttranslate("No"), clienttranslate("Bids go up to capot")),
            ON: OptionValue(clienttranslate("Yes"),
                            clienttranslate("A player may bid the générale (500): to take all "
                                            "eight tricks alone, without the partner winning one")),
        },
        default=OFF,
        displaycondition=_CONTREE_ONLY,
    ),
    Option(
        LITIGE_AT_END, "litige_at_end", clienttranslate("Points held at the end of the game"),
        values={
            LITIGE_LOST: OptionValue(clienttranslate("Lost"),
                                     clienttranslate("The game ends even when a contention holds "
                                                     "points")),
            LITIGE_PLAYED_OUT: OptionValue(
                clienttranslate("Played out"),
                clienttranslate("The game goes on until a hand is won, whose winners take the "
                                "held points")),
        },
        default=LITIGE_PLAYED_OUT,
        displaycondition=_CLASSIC_ONLY,
    ),
]

PREFERENCES = [
    Preference(
        100, "card_faces", clienttranslate("Card faces"),
        values={
            1: clienttranslate("French (modern)"),
            2: clienttranslate("German"),
            3: clienttranslate("Traditional French"),
        },
        default=1,
    ),
    Preference(
        101, "sort_order", clienttranslate("Sort my hand"),
        values={
            1: clienttranslate("Trumps first, by strength"),
            2: clienttranslate("By suit, 7 to ace"),
            3: clienttranslate("By suit, alternating colours"),
        },
        default=1,
    ),
]


def game_length(option: Callable[[str], int]) -> GameLength:
    """When the game of a table ends, from a getter of its option values by key.

    >>> game_length(lambda key: {"variant": CONTREE, "target": USUAL_TARGET}[key])
    GameLength(kind='points', amount=701)
    """
    if option("target") == USUAL_TARGET:
        return GameLength("points", USUAL_POINTS[option("variant")])
    return TARGETS[option("target")]


#: the options a table's `Rules` come from (`rules_from_options`)
RULE_KEYS = ("variant", "target", "undertrump", "second_round_any_suit", "all_no_trumps",
             "raise_sequence", "belote_to_defence", "multiplier", "announcements", "announce_tie",
             "contree_scoring", "round_points", "generale", "litige_at_end")


def rules_from_options(option: Callable[[str], int]) -> Rules:
    """The `Rules` of a table, from a getter of its option values by key (one `Rules` per
    combination of values: it is immutable, and every table of that combination shares it).

    >>> rules_from_options(lambda key: 2 if key == "variant" else 1).variant
    'contree'
    """
    return _rules_of(tuple(option(key) for key in RULE_KEYS))


@lru_cache(maxsize=512)
def _rules_of(values: tuple[int, ...]) -> Rules:
    option = dict(zip(RULE_KEYS, values, strict=True)).__getitem__
    length = game_length(option)
    return Rules(
        variant="contree" if option("variant") == CONTREE else "classic",
        undertrump="optional" if option("undertrump") == 2 else "required",
        second_round_any_suit=option("second_round_any_suit") == ON,
        all_no_trumps=option("all_no_trumps") == ON,
        contree_raise_sequence=option("raise_sequence") == ON,
        belote_to_defence_on_failed=option("belote_to_defence") == ON,
        multiplier="whole" if option("multiplier") == 2 else "contract",
        announcements=option("announcements") == ON,
        announce_tie="nobody" if option("announce_tie") == 2 else "nearest",
        contree_scoring="ffb" if option("contree_scoring") == SCORING_FFB else "bga",
        round_points=option("round_points") == ON,
        generale=option("generale") == ON,
        litige_at_end="played_out" if option("litige_at_end") == LITIGE_PLAYED_OUT else "lost",
        target=length.amount if length.kind == "points" else Rules().target,
    )
