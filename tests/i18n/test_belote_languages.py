"""A whole hand of Belote with four players who read four languages: every log message, state
description and refusal reaches each of them in their own language, correctly filled."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from framework.i18n import PLACEHOLDER, Translator, format_message, translator
from framework.testing import GameHarness, TestTable

pytest.importorskip("games.belote.game")

# A player named like a msgid of the game: a player's name is never translated.
NAMES = ["Anna", "hearts", "Chiara", "Dóra"]
LANGS = {"Anna": "en", "hearts": "fr", "Chiara": "it", "Dóra": "hu"}
MY_TURN = {
    "en": "You must play a card",
    "fr": "Vous devez jouer une carte",
    "it": "Tu devi giocare una carta",
    "hu": "Te következel: játssz ki egy lapot",
}
NOT_YOUR_TURN = {"en": "It is not your turn", "fr": "Ce n'est pas votre tour", "it": "Non è il tuo turno",
                 "hu": "Nem te következel"}
PASSES = {"en": "{} passes", "fr": "{} passe", "it": "{} passa", "hu": "{} passzol"}


@pytest.fixture
def belote(tmp_path: Path) -> Iterator[GameHarness]:
    with GameHarness("belote", tmp_path) as h:
        yield h


def choose_bid(legal: list[str], contree: bool) -> str:
    """Classic: pass twice, then take. Contrée: open at 80, coinche and surcoinche."""
    if not contree:
        takes = [b for b in legal if b == "take" or b.startswith("take:")]
        return takes[0] if takes and choose_bid.passes >= 2 else "pass"  # type: ignore[attr-defined]
    for wanted in ("coinche", "surcoinche"):
        if wanted in legal:
            return wanted
    opening = [b for b in legal if b.startswith("80:")]
    return opening[0] if opening and choose_bid.passes == 0 else "pass"  # type: ignore[attr-defined]


def play_one_hand(t: TestTable, contree: bool) -> dict[int, str]:
    """Plays the first hand to its end; returns each player's description of their own turn."""
    ids = {t.data(None)["players"][str(pid)]["name"]: pid for pid in t.players}
    my_turn: dict[int, str] = {}
    choose_bid.passes = 0  # type: ignore[attr-defined]
    while not t.data(None)["hands_played"]:
        state = t.state.name
        active = t.active_player
        lang = LANGS[next(n for n, pid in ids.items() if pid == active)]
        data = t.runtime.get_data(t.id, active, translate=translator(lang, "belote"))
        if state in ("playerBid", "contreeWindow"):
            bid = choose_bid(data["legal_bids"], contree)
            choose_bid.passes += bid == "pass"  # type: ignore[attr-defined]
            t.act(active, "bid", bid=bid)
        else:
            assert state == "playerTurn"
            my_turn[active] = data["gamestate"]["descriptionmyturn"]
            t.act(active, "play_card", card=data["legal_cards"][0])
    return my_turn


def has_words(msgid: str) -> bool:
    return bool(PLACEHOLDER.sub("", msgid).strip(" ,:;()!."))


def untranslated(msgid: str, args: Mapping[str, Any], tr: Translator) -> list[str]:
    """Strings of a log (its msgid, its i18n args, nested logs) that ``tr`` cannot translate."""
    missing = [msgid] if has_words(msgid) and not tr.is_translated(msgid) else []
    for name in args.get("i18n", ()):
        if has_words(args[name]) and not tr.is_translated(args[name]):
            missing.append(args[name])
    for value in args.values():
        if isinstance(value, Mapping) and "log" in value:
            missing += untranslated(value["log"], value.get("args", {}), tr)
    return missing


@pytest.mark.parametrize("options", [
    {"variant": 1, "announcements": 2, "all_no_trumps": 2},
    {"variant": 2, "announcements": 2},
], ids=["classic", "contree"])
def test_a_hand_in_four_languages(belote: GameHarness, options: dict[str, int]) -> None:
    contree = options["variant"] == 2
    t = belote.create_table(players=NAMES, options=options, seed=7)
    ids = {name: pid for name, pid in zip(NAMES, t.players, strict=True)}

    # A refusal, in the language of whoever made the mistake.
    active = t.active_player
    for name, pid in ids.items():
        if pid != active:
            err = t.act_expecting_error(pid, "bid", bid="pass")
            assert err.render(translator(LANGS[name], "belote")) == NOT_YOUR_TURN[LANGS[name]]

    my_turn = play_one_hand(t, contree)
    assert {pid: text for pid, text in my_turn.items()} == {
        pid: MY_TURN[LANGS[name]] for name, pid in ids.items()}

    english = {e["id"]: e for e in t.runtime.events(t.id, ids["Anna"], 0)}
    seen_passes = 0
    for name, pid in ids.items():
        lang = LANGS[name]
        tr = translator(lang, "belote")
        events = [e for e in t.runtime.events(t.id, pid, 0, translate=tr) if e["msgid"]]
        assert len(events) > 40  # the deal, bids, 32 cards, 8 tricks, the score
        for e in events:
            assert "${" not in e["log"], (lang, e["msgid"], e["log"])
            assert e["log"] == format_message(e["msgid"], e["args"], tr)
            if lang != "en":
                assert untranslated(e["msgid"], e["args"], tr) == [], (lang, e["msgid"])
            for arg in ("player_name", "partner_name"):
                if arg in e["args"]:
                    assert e["args"][arg] in e["log"], (lang, e["log"])  # never translated
            for arg in ("points", "value", "hand_no", "total"):
                if isinstance(e["args"].get(arg), int) and f"${{{arg}}}" in e["msgid"]:
                    assert str(e["args"][arg]) in e["log"], (lang, e["log"])
            if e["id"] in english and not e["private"]:
                assert (e["log"] == english[e["id"]]["log"]) == (lang == "en" or not has_words(e["msgid"]))
            if e["msgid"] == "${player_name} passes":
                assert e["log"] == PASSES[lang].format(e["args"]["player_name"])
                seen_passes += 1
        plays = [e for e in events if e["type"] == "playCard"]
        assert len(plays) == 32
        first = plays[0]
        assert tr(first["args"]["card_name"]) in first["log"]
        if contree:
            kinds = {e["msgid"] for e in events}
            assert {"${player_name} coinches", "${player_name} surcoinches"} <= kinds
    if not contree:
        assert seen_passes == 2 * 4  # every player saw both passes, in their own words
