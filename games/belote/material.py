"""Static data of Belote (BGA's material.inc.php): translatable names of cards, suits,
contracts, announcements and outcomes. Never stored in the database."""

from __future__ import annotations

from typing import Any

from framework.i18n import clienttranslate

from .rules import (
    CAPOT_VALUE,
    GENERALE_VALUE,
    Announcement,
    Card,
    Contract,
    Rank,
    Suit,
    Trump,
    trump_code,
)

# Literal msgids, one per card, so that the extractor finds every one of them.
CARD_NAMES: dict[str, str] = {
    "7S": clienttranslate("seven of spades"),
    "8S": clienttranslate("eight of spades"),
    "9S": clienttranslate("nine of spades"),
    "JS": clienttranslate("jack of spades"),
    "QS": clienttranslate("queen of spades"),
    "KS": clienttranslate("king of spades"),
    "TS": clienttranslate("ten of spades"),
    "AS": clienttranslate("ace of spades"),
    "7H": clienttranslate("seven of hearts"),
    "8H": clienttranslate("eight of hearts"),
    "9H": clienttranslate("nine of hearts"),
    "JH": clienttranslate("jack of hearts"),
    "QH": clienttranslate("queen of hearts"),
    "KH": clienttranslate("king of hearts"),
    "TH": clienttranslate("ten of hearts"),
    "AH": clienttranslate("ace of hearts"),
    "7D": clienttranslate("seven of diamonds"),
    "8D": clienttranslate("eight of diamonds"),
    "9D": clienttranslate("nine of diamonds"),
    "JD": clienttranslate("jack of diamonds"),
    "QD": clienttranslate("queen of diamonds"),
    "KD": clienttranslate("king of diamonds"),
    "TD": clienttranslate("ten of diamonds"),
    "AD": clienttranslate("ace of diamonds"),
    "7C": clienttranslate("seven of clubs"),
    "8C": clienttranslate("eight of clubs"),
    "9C": clienttranslate("nine of clubs"),
    "JC": clienttranslate("jack of clubs"),
    "QC": clienttranslate("queen of clubs"),
    "KC": clienttranslate("king of clubs"),
    "TC": clienttranslate("ten of clubs"),
    "AC": clienttranslate("ace of clubs"),
}

SUIT_NAMES: dict[Suit, str] = {
    Suit.SPADES: clienttranslate("spades"),
    Suit.HEARTS: clienttranslate("hearts"),
    Suit.DIAMONDS: clienttranslate("diamonds"),
    Suit.CLUBS: clienttranslate("clubs"),
}

SUIT_SYMBOLS: dict[Suit, str] = {
    Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663",
}
"""For the client's display only; messages use the translated names."""

TRUMP_NAMES: tuple[str, ...] = (
    SUIT_NAMES[Suit.SPADES], SUIT_NAMES[Suit.HEARTS], SUIT_NAMES[Suit.DIAMONDS],
    SUIT_NAMES[Suit.CLUBS], clienttranslate("all trumps"), clienttranslate("no trumps"),
)
"""By `rules.trump_code`: the four suits, all trumps, no trumps."""

CARRE_NAMES: dict[Rank, str] = {
    Rank.JACK: clienttranslate("carré of jacks"),
    Rank.NINE: clienttranslate("carré of nines"),
    Rank.ACE: clienttranslate("carré of aces"),
    Rank.TEN: clienttranslate("carré of tens"),
    Rank.KING: clienttranslate("carré of kings"),
    Rank.QUEEN: clienttranslate("carré of queens"),
}
SEQUENCE_NAMES: dict[int, str] = {
    3: clienttranslate("tierce"),
    4: clienttranslate("quarte"),
    5: clienttranslate("quinte"),
}

OUTCOME_NAMES: dict[str, str] = {
    "made": clienttranslate("made"),
    "failed": clienttranslate("failed"),
    "contention": clienttranslate("contention"),
}

WINDOW_ACTIONS: dict[str, str] = {
    "surcoinche": clienttranslate("surcoinche"),
    "redouble": clienttranslate("surcoinche"),
    "raise": clienttranslate("raise the bid"),
    "double": clienttranslate("coinche"),
}
"""What the player may do (besides passing) in each closing phase of a contrée bidding."""

# Contract names: a fixed msgid with its own args, sent as a nested log that the client
# translates recursively (BGA's "recursive" notification args).
_CONTREE_NAMES = (
    clienttranslate("${value} ${trump_name}"),
    clienttranslate("${value} ${trump_name}, coinched"),
    clienttranslate("${value} ${trump_name}, surcoinched"),
)
_GENERALE_NAMES = (
    clienttranslate("générale at ${trump_name}"),
    clienttranslate("générale at ${trump_name}, coinched"),
    clienttranslate("générale at ${trump_name}, surcoinched"),
)

_CAPOT_NAMES = (
    clienttranslate("capot at ${trump_name}"),
    clienttranslate("capot at ${trump_name}, coinched"),
    clienttranslate("capot at ${trump_name}, surcoinched"),
)


def card_name(card: Card | str) -> str:
    """The msgid naming a card.

    >>> card_name("JS")
    'jack of spades'
    """
    return CARD_NAMES[str(card)]


def trump_name(trump: Trump) -> str:
    """The msgid naming a trump suit, all trumps or no trumps.

    >>> trump_name(Suit.HEARTS)
    'hearts'
    """
    return TRUMP_NAMES[trump_code(trump)]


def announcement_name(item: Announcement) -> str:
    """The msgid naming an announcement as it is declared (kind, and rank of a carré)."""
    if item.kind == "carre":
        return CARRE_NAMES[item.rank]
    return SEQUENCE_NAMES[min(item.length, 5)]


def contract_name(contract: Contract) -> dict[str, Any]:
    """A contract's name as a nested, translatable log: ``{"log": msgid, "args": {...}}``.

    >>> contract_name(Contract(Suit.HEARTS, taker=1))["log"]
    '${trump_name}'
    """
    args: dict[str, Any] = {"trump_name": trump_name(contract.trump), "i18n": ["trump_name"]}
    if contract.value is None:
        return {"log": "${trump_name}", "args": args}
    if contract.value == CAPOT_VALUE:
        return {"log": _CAPOT_NAMES[contract.coinche], "args": args}
    if contract.value == GENERALE_VALUE:
        return {"log": _GENERALE_NAMES[contract.coinche], "args": args}
    return {"log": _CONTREE_NAMES[contract.coinche], "args": {**args, "value": contract.value}}
