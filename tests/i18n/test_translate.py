"""Translators, language negotiation, messages and notifications in each player's language."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.core.errors import GameSystemError, NotYourTurnError, UserError
from framework.game.registry import GameRegistry, load_game_from_directory
from framework.i18n import (
    MessageFormatError,
    _,
    catalogs,
    clienttranslate_plural,
    format_message,
    negotiate_language,
    ngettext,
    plural_translator,
    po_path,
    register_game_directory,
    translator,
    use_language,
    with_plural_args,
)
from framework.testing import GameHarness, TestTable

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TALLY = FIXTURES / "tally"
TOKEN = clienttranslate_plural("${count} token", "${count} tokens")


# ---------------------------------------------------------------------------- languages
@pytest.mark.parametrize(("header", "saved", "expected"), [
    (None, None, "en"),
    ("", None, "en"),
    ("fr-CA,fr;q=0.9,en;q=0.8", None, "fr"),
    ("fr-CA", None, "fr"),  # region falls back to the language
    ("fr-CA,en;q=0.5", None, "fr"),  # ... before the next language of the list
    ("de-DE,de;q=0.9,it;q=0.7,hu;q=0.8", None, "hu"),  # by q-value, not by order
    ("de,it;q=0.5,hu;q=0.5", None, "it"),  # equal q: the first listed
    ("HU-hu", None, "hu"),
    ("hu_HU", None, "hu"),
    ("it;q=0,fr;q=0.1", None, "fr"),  # q=0 means "not this one"
    ("it;q=abc,fr;q=0.2", None, "fr"),  # a malformed q is ignored
    ("de,*;q=0.1", None, "en"),
    ("ja,zh-Hant-TW", None, "en"),
    ("fr", "hu", "hu"),  # the player's saved choice wins
    ("fr", "it-IT", "it"),
    ("fr", "de", "fr"),  # a saved language that is not shipped is ignored
    (None, "en", "en"),
])
def test_negotiate_language(header: str | None, saved: str | None, expected: str) -> None:
    assert negotiate_language(header, saved) == expected


# ---------------------------------------------------------------------------- translators
def test_translator_chain_game_then_framework_then_english() -> None:
    tr = translator("fr", TALLY)
    assert tr("the red pile") == "la pile rouge"  # the game's catalog
    assert tr("It is not your turn") == "Ce n'est pas votre tour"  # the framework's
    assert tr("Something nobody translated") == "Something nobody translated"
    assert tr("") == ""  # never the catalog header
    assert translator("fr")("the red pile") == "the red pile"  # framework only
    assert translator("en", TALLY)("the red pile") == "the red pile"
    assert translator("de", TALLY)("It is not your turn") == "It is not your turn"
    assert translator("fr-BE", TALLY)("the red pile") == "la pile rouge"
    assert translator("fr", TALLY) is translator("fr", TALLY)  # cached


def test_a_game_catalog_overrides_the_framework_and_reloads_when_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "tally"
    shutil.copytree(TALLY, game, ignore=shutil.ignore_patterns("__pycache__"))
    po = po_path(game / "translations", "fr")
    monkeypatch.setattr(catalogs, "RECHECK_S", 3600.0)
    assert translator("fr", game)("You") == "Vous"
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "You"\nmsgstr "Toi"\n', encoding="utf-8")
    stat = po.stat()
    os.utime(po, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    # the files are looked at again only once RECHECK_S has passed since the last look
    assert translator("fr", game)("You") == "Vous"
    monkeypatch.setattr(catalogs, "RECHECK_S", 0.0)
    assert translator("fr", game)("You") == "Toi"


def test_a_game_is_found_by_name() -> None:
    register_game_directory("tally", TALLY)
    assert translator("it", "tally")("the red pile") == "pila rossa"
    # An unknown game: the framework's strings are still translated.
    assert translator("it", "no_such_game")("It is not your turn") == "Non è il tuo turno"


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("en", 0, "0 tokens"), ("en", 1, "1 token"), ("en", 2, "2 tokens"),
    ("fr", 0, "0 jeton"), ("fr", 1, "1 jeton"), ("fr", 2, "2 jetons"),
    ("fr", 1_000_000, "1000000 de jetons"),  # CLDR's "many" form
    ("it", 0, "0 gettoni"), ("it", 1, "1 gettone"), ("it", 5, "5 gettoni"),
    ("it", 2_000_000, "2000000 di gettoni"),
    ("hu", 1, "1 zseton"), ("hu", 7, "7 zseton"),  # Hungarian counts with the singular
])
def test_plural_forms(lang: str, n: int, expected: str) -> None:
    assert format_message(TOKEN, {"count": n}, translator(lang, TALLY)) == expected
    ngettext_ = plural_translator(lang, TALLY)
    assert ngettext_("${count} token", "${count} tokens", n).replace("${count}", str(n)) == expected


def test_a_user_error_in_french() -> None:
    tr = translator("fr")
    assert NotYourTurnError("It is not your turn", "not_your_turn").render(tr) == "Ce n'est pas votre tour"
    still = clienttranslate_plural("${player_name} still has ${seconds} second to play",
                                   "${player_name} still has ${seconds} seconds to play", "seconds")
    err = UserError(still, "still_has_time", player_name="Anna", seconds=12)
    assert err.render(tr) == "Il reste 12 secondes à Anna pour jouer"
    assert str(err) == "Anna still has 12 seconds to play"  # the developer's log stays English
    one = UserError(still, "still_has_time", player_name="Anna", seconds=1)
    assert one.render(tr) == "Il reste 1 seconde à Anna pour jouer"


def test_missing_args_are_the_developers_error_never_the_players() -> None:
    with pytest.raises(MessageFormatError, match=r"uses \$\{card\} but no arg 'card'"):
        format_message("${player_name} plays ${card}", {"player_name": "Anna"})
    with pytest.raises(MessageFormatError, match="plural chosen by arg 'count'"):
        format_message(clienttranslate_plural("a token", "some tokens"), {})
    with pytest.raises(MessageFormatError, match="must be a whole number"):
        format_message(TOKEN, {"count": "many"})
    with pytest.raises(MessageFormatError, match="i18n names args that are missing"):
        format_message("${a}", {"a": "x", "i18n": ["suit"]})
    with pytest.raises(MessageFormatError):
        UserError("${player_name} has already left", "already_zombie")
    # Reading an old, broken row: shown as stored, never an exception.
    assert format_message("${player_name} plays ${card}", {"player_name": "Anna"}, strict=False) == (
        "Anna plays ${card}"
    )


def test_nested_logs_and_plurals_survive_storage() -> None:
    args = with_plural_args(
        clienttranslate_plural("${player_name} takes ${count} token from ${pile_name}",
                               "${player_name} takes ${count} tokens from ${pile_name}"),
        {"player_name": "Anna", "count": 3, "pile_name": "the blue pile", "i18n": ["pile_name"],
         "result": {"log": TOKEN, "args": {"count": 1}}},
    )
    stored = json.loads(json.dumps(args))  # what the gamelog keeps: plain strings
    msgid = "${player_name} takes ${count} token from ${pile_name}"
    assert format_message(msgid, stored, translator("it", TALLY)) == (
        "Anna prende 3 gettoni dalla pila blu"
    )
    assert format_message("${result}", {"result": stored["result"]}, translator("fr", TALLY)) == "1 jeton"


def test_a_nested_log_is_checked_whatever_mapping_holds_it() -> None:
    """Nested ``{"log", "args"}`` values are found in any mapping (not only a dict), and a
    text is never taken for one, even a str subclass such as a plural message."""
    from types import MappingProxyType

    from framework.core.messages import check_message

    nested = MappingProxyType({"log": "${rank} of ${suit}", "args": MappingProxyType({"rank": "K"})})
    with pytest.raises(MessageFormatError, match="no arg 'suit'"):
        check_message("${player_name} plays ${card}", {"player_name": "Anna", "card": nested})
    plural = MappingProxyType({"_plural": MappingProxyType({"plural": "some tokens", "number": "n"})})
    with pytest.raises(MessageFormatError, match="plural chosen by arg 'n'"):
        check_message("a token", plural)
    args = with_plural_args("${what}", {"what": TOKEN, "count": 2})
    assert args["what"] is TOKEN  # a plural message given as an arg stays as it is
    check_message("${what}", {"what": TOKEN})


def test_immediate_translation_in_the_current_language() -> None:
    assert _("It is not your turn") == "It is not your turn"
    with use_language("hu"):
        assert _("It is not your turn") == "Nem te következel"
        assert _("There is no table ${table_id}", table_id=7) == "Nincs 7 azonosítójú asztal"
        with use_language("it", TALLY):
            assert ngettext("${count} token", "${count} tokens", 4) == "4 gettoni"
        assert _("Table") == "Asztal"
    assert ngettext("${count} token", "${count} tokens", 1) == "1 token"


def test_client_catalog_for_the_js_client() -> None:
    catalog = translator("fr", TALLY).client_catalog()
    assert catalog["lang"] == "fr"
    assert catalog["plural_forms"].startswith("nplurals=3;")
    assert catalog["messages"]["the red pile"] == "la pile rouge"
    assert catalog["messages"]["${count} token"] == ["${count} jeton", "${count} de jetons", "${count} jetons"]
    assert catalog["messages"]["It is not your turn"] == "Ce n'est pas votre tour"


# ---------------------------------------------------------------------------- notifications
@pytest.fixture
def tally(tmp_path: Path) -> Iterator[GameHarness]:
    registry = GameRegistry(packages={})
    registry.add_definition(load_game_from_directory(TALLY, "arena_test_tally"))
    with GameHarness("tally", tmp_path, registry=registry) as h:
        yield h


def logs(t: TestTable, player_id: int | None, lang: str) -> list[str]:
    events = t.runtime.events(t.id, player_id, 0, translate=translator(lang, "tally"))
    return [e["log"] for e in events if e["log"]]


def test_each_player_reads_the_log_in_their_language(tally: GameHarness) -> None:
    # A player named like a msgid: player names are never translated.
    t = tally.create_table(players=["Anna", "the red pile"], seed=1)
    anna, red = t.players
    t.act(anna, "take", count=1, pile="blue")
    t.act(red, "take", count=3, pile="red")
    t.act(anna, "take", count=2, pile="red")
    t.act(red, "take", count=1, pile="blue")  # 7 tokens taken: the game ends
    assert t.is_over
    assert logs(t, anna, "fr") == [
        "Anna prend 1 jeton dans la pile bleue",
        "the red pile prend 3 jetons dans la pile rouge",
        "Anna prend 2 jetons dans la pile rouge",
        "the red pile prend 1 jeton dans la pile bleue",
        "the red pile gagne avec 4 jetons",
    ]
    assert logs(t, red, "it")[1] == "the red pile prende 3 gettoni dalla pila rossa"
    assert logs(t, None, "hu")[-1] == "the red pile nyert, eredménye: 4 zseton"
    assert logs(t, anna, "en")[0] == "Anna takes 1 token from the blue pile"
    event = [e for e in t.runtime.events(t.id, anna, 0) if e["msgid"]][-1]
    assert event["msgid"] == "${player_name} wins with ${result}"  # the stored English msgid


def test_state_descriptions_and_errors_in_the_players_language(tally: GameHarness) -> None:
    t = tally.create_table(players=["Anna", "Bela"], seed=1)
    anna, bela = t.players
    data = t.runtime.get_data(t.id, anna, translate=translator("fr", "tally"))
    assert data["gamestate"]["descriptionmyturn"] == "Vous devez prendre des jetons (7 jetons restants)"
    data = t.runtime.get_data(t.id, bela, translate=translator("hu", "tally"))
    assert data["gamestate"]["description"] == "Anna következik: zsetonokat kell elvennie"
    err = t.act_expecting_error(bela, "take", count=1)
    assert err.render(translator("hu", "tally")) == "Nem te következel"
    err = t.act_expecting_error(anna, "take", count=5)
    assert err.render(translator("it", "tally")) == "Puoi prendere al massimo 3 gettoni, non 5"
    assert err.render(translator("fr", "tally")) == "Vous pouvez prendre au plus 3 jetons, pas 5"


def test_a_broken_notification_is_a_studio_error(tally: GameHarness) -> None:
    t = tally.create_table(players=2, seed=1)
    with t.with_table() as table, pytest.raises(GameSystemError, match=r"uses \$\{pile_name\}"):
        table.notify_all_players("take", "${player_name} takes from ${pile_name}", player_name="x")
    with t.with_table() as table, pytest.raises(GameSystemError, match="plural chosen by arg 'count'"):
        table.notify_all_players("x", clienttranslate_plural("a token", "some tokens"))
