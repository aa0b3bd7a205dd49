"""The rules pages (help/en.md, fr.md, it.md, hu.md): every option explained, each language's
own card vocabulary, and the point tables the same as the rules engine's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.belote.options import OPTIONS
from games.belote.rules import (
    ALL_TRUMP_POINTS,
    BELOTE_POINTS,
    CAPOT_POINTS,
    CONTREE_FAILED_POINTS,
    HAND_POINTS_TOTAL,
    LAST_TRICK_BONUS,
    NO_TRUMP_POINTS,
    PLAIN_POINTS,
    TRUMP_POINTS,
    Rank,
    detect_announcements,
    parse_cards,
)

HELP = Path(__file__).resolve().parents[2] / "games" / "belote" / "help"
LANGUAGES = ("en", "fr", "it", "hu")

# Words each page must use: the game's own vocabulary in that language.
VOCABULARY = {
    "en": ["trump", "belote", "rebelote", "capot", "dix de der", "contrée", "coinche", "surcoinche",
           "contention", "tierce", "quarte", "quinte", "carré", "follow", "overtrump", "under-trump"],
    "fr": ["atout", "belote", "rebelote", "capot", "dix de der", "contrée", "coinche", "surcoinche",
           "litige", "tierce", "cinquante", "cent", "carré", "fournir", "surcouper", "sous-couper",
           "sans atout", "tout atout", "retourne", "dedans", "valet"],
    "it": ["briscola", "belote", "rebelote", "cappotto", "dieci di ultima", "contrée", "contro",
           "surcontro", "presa", "mazziere", "fante", "tagliare", "sopratagliare", "sottotagliare",
           "tutto briscola", "senza briscola", "parità"],
    "hu": ["adu", "belote", "rebelote", "capot", "ütés", "osztó", "kontra", "rekontra", "bubi",
           "színt kell adnod", "felüladuz", "aláaduz", "minden adu", "adu nélkül", "terc", "kvart",
           "kvint", "bemondás", "licit"],
}

# One phrase per option (by key) in each language: its name as the page explains it.
OPTION_NAMES = {
    "en": {"variant": "Variant", "target": "Game length", "undertrump": "Under-trumping",
           "all_no_trumps": "All trumps and no trumps", "second_round_any_suit": "Second round",
           "announcements": "Announcements", "announce_tie": "Equal best announcements",
           "raise_sequence": "closing sequence", "belote_to_defence": "belote of a failed contract",
           "multiplier": "what a coinche multiplies",
           "contree_scoring": "Contrée: scoring", "round_points": "Contrée: points made",
           "litige_at_end": "Points held at the end of the game",
           "generale": "Contrée: the générale"},
    "fr": {"variant": "Variante", "target": "Durée de la partie", "undertrump": "Sous-coupe",
           "all_no_trumps": "Tout atout et sans atout", "second_round_any_suit": "Second tour",
           "announcements": "Annonces", "announce_tie": "Meilleures annonces égales",
           "raise_sequence": "fin des enchères", "belote_to_defence": "belote d'un contrat chuté",
           "multiplier": "ce que multiplie la coinche",
           "contree_scoring": "Contrée : décompte", "round_points": "Contrée : points faits",
           "litige_at_end": "Points en litige en fin de partie",
           "generale": "Contrée : la générale"},
    "it": {"variant": "Variante", "target": "Durata della partita", "undertrump": "Sottotaglio",
           "all_no_trumps": "Tutto briscola e senza briscola", "second_round_any_suit": "Secondo giro",
           "announcements": "Annunci", "announce_tie": "Migliori annunci pari",
           "raise_sequence": "chiusura", "belote_to_defence": "belote di un contratto fallito",
           "multiplier": "cosa moltiplica il contro",
           "contree_scoring": "Contrée: conteggio", "round_points": "Contrée: punti fatti",
           "litige_at_end": "Punti in sospeso a fine partita",
           "generale": "Contrée: la générale"},
    "hu": {"variant": "Változat", "target": "Játszma hossza", "undertrump": "Aláaduzás",
           "all_no_trumps": "Minden adu és adu nélkül", "second_round_any_suit": "Második kör",
           "announcements": "Bemondások", "announce_tie": "Egyenlő legjobb bemondások",
           "raise_sequence": "a licit lezárása", "belote_to_defence": "bukott vállalás belote-ja",
           "multiplier": "mit szoroz a kontra",
           "contree_scoring": "Contrée: pontozás", "round_points": "Contrée: szerzett pontok",
           "litige_at_end": "Függő pontok a játszma végén",
           "generale": "Contrée: générale"},
}


def page(language: str) -> str:
    return (HELP / f"{language}.md").read_text(encoding="utf-8")


def tables(text: str) -> list[list[list[str]]]:
    """The markdown tables of a page: rows of cells, without the header and rule lines."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append([cell.strip() for cell in line.strip("|").split("|")])
        elif current:
            found.append(current[2:])
            current = []
    return found


def numbers(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", cell)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_uses_its_languages_vocabulary(language: str) -> None:
    text = page(language).lower()
    missing = [word for word in VOCABULARY[language] if word.lower() not in text]
    assert not missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_and_value_is_explained(language: str) -> None:
    text = page(language)
    assert set(OPTION_NAMES[language]) == {option.key for option in OPTIONS}
    missing = [name for name in OPTION_NAMES[language].values() if name.lower() not in text.lower()]
    assert not missing
    summary = tables(text)[-1]
    assert len(summary) == len(OPTIONS)
    for target in ("1000", "501", "701", "4, 8"):
        assert target in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_points_are_the_engines(language: str) -> None:
    card_table = tables(page(language))[0]
    ranks = [Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.EIGHT]
    assert len(card_table) == len(ranks)
    for row, rank in zip(card_table, ranks, strict=True):
        expected = [TRUMP_POINTS[rank], PLAIN_POINTS[rank], NO_TRUMP_POINTS[rank], ALL_TRUMP_POINTS[rank]]
        assert numbers(" ".join(row[1:])) == expected, row
    text = page(language)
    for total in (HAND_POINTS_TOTAL, CAPOT_POINTS, CONTREE_FAILED_POINTS, BELOTE_POINTS, LAST_TRICK_BONUS):
        assert str(total) in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_announcement_points_are_the_engines(language: str) -> None:
    hands = [["7H", "8H", "9H"], ["7H", "8H", "9H", "TH"], ["7H", "8H", "9H", "TH", "JH"],
             ["JS", "JH", "JD", "JC"], ["9S", "9H", "9D", "9C"], ["AS", "AH", "AD", "AC"]]
    expected = [detect_announcements(parse_cards(cards), seat=0)[0].points for cards in hands]
    announcement_table = tables(page(language))[1]
    assert [numbers(row[-1])[0] for row in announcement_table] == expected


# What the table page does not show and a player must know: the direction of play, the rule
# of silence between partners, and the FFB scoring of contrée (the default).
TABLE_MANNERS = {
    "en": ["counter-clockwise", "not communicate", "(160 + the bid) × 2", "0 to 480", "81 to 81"],
    "fr": ["sens inverse des aiguilles d'une montre", "pas communiquer", "(160 + l'enchère) × 2",
           "0 à 480", "81 contre 81"],
    "it": ["senso antiorario", "non possono comunicare", "(160 + la dichiarazione) × 2",
           "0 a 480", "81 a 81"],
    "hu": ["óramutató járásával ellentétes", "nem kommunikálhatnak", "(160 + a licit) × 2",
           "0–480", "81–81"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_states_the_direction_silence_and_ffb_scoring(language: str) -> None:
    text = page(language)
    assert [phrase for phrase in TABLE_MANNERS[language] if phrase not in text] == []
    assert "250" in text and "701" in text
