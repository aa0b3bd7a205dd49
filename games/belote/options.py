"""Game options of Belote (ids 100..199, stored as globals) and display preferences.

Defaults are Board Game Arena's classic Belote, the defaults of `rules.Rules`. Ids and
values are forever: tables in progress and finished games' history refer to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from framework.game.options import Option, OptionValue, Preference
from framework.i18n import clienttranslate

from .rules import Rules

VARIANT, TARGET, UNDERTRUMP, ALL_NO_TRUMPS, SECOND_ROUND_ANY_SUIT = 100, 101, 102, 103, 104
ANNOUNCEMENTS, ANNOUNCE_TIE, RAISE_SEQUENCE, BELOTE_TO_DEFENCE, MULTIPLIER = 105, 106, 107, 108, 109

CLASSIC, CONTREE = 1, 2
OFF, ON = 1, 2


@dataclass(frozen=True)
class GameLength:
    """When a game ends: a team reaches ``amount`` points, or ``amount`` hands were played
    (in both cases the scores must differ: a tie plays on)."""

    kind: Literal["points", "hands"]
    amount: int


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
            1: OptionValue(clienttranslate("1000 points"), clienttranslate("The usual game")),
            2: OptionValue(clienttranslate("501 points"), clienttranslate("A short game")),
            3: OptionValue(clienttranslate("701 points"), clienttranslate("A medium game")),
            10: OptionValue(clienttranslate("4 hands"), clienttranslate("Highest score after 4 hands")),
            11: OptionValue(clienttranslate("8 hands"), clienttranslate("Highest score after 8 hands")),
            12: OptionValue(clienttranslate("12 hands"),
                            clienttranslate("Highest score after 12 hands")),
        },
        default=1,
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
        default=OFF,
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
        displaycondition=_CONTREE_ONLY,
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
        displaycondition=_CONTREE_ONLY,
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


def rules_from_options(option: Callable[[str], int]) -> Rules:
    """The `Rules` of a table, from a getter of its option values by key.

    >>> rules_from_options(lambda key: 2 if key == "variant" else 1).variant
    'contree'
    """
    length = TARGETS[option("target")]
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
        target=length.amount if length.kind == "points" else Rules().target,
    )
