"""update keeps translations and marks a changed English string fuzzy; check reports it and
--strict fails; compile; plural forms per language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from framework.cli import main
from framework.i18n import po_path, translator
from framework.i18n.maintain import (
    KEPT_NOTE,
    check_catalogs,
    compile_catalogs,
    update_catalogs,
    write_template,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
WINS = "${player_name} wins with ${result}"
WINS_CHANGED = "${player_name} wins the game with ${result}"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the tally game, fully translated, that a test may change."""
    target = tmp_path / "tally"
    shutil.copytree(FIXTURES / "tally", target, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    return target


def read(game: Path, lang: str):
    with po_path(game / "translations", lang).open("rb") as fp:
        return read_po(fp, locale=lang)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_complete_catalog_passes_strict_check(game: Path) -> None:
    result = CliRunner().invoke(main, ["i18n", "check", str(game), "--strict"])
    assert result.exit_code == 0, result.output
    assert "fr: 9 strings, 0 untranslated, 0 fuzzy, 0 with errors" in result.output


def test_a_changed_english_string_loses_its_translations(game: Path) -> None:
    edit(game / "game.py", f'"{WINS}"', f'"{WINS_CHANGED}"')

    # Before extract/update, check already sees the new string the catalogs lack, and update
    # refuses to work from the old messages.pot (it used to say "unchanged").
    report = check_catalogs(game)
    assert f"not in messages.pot: {WINS_CHANGED}" in report.stale_template
    assert all(WINS_CHANGED in r.untranslated for r in report.languages)
    po_before = po_path(game / "translations", "fr").read_bytes()
    refused = CliRunner().invoke(main, ["i18n", "update", str(game)])
    assert refused.exit_code != 0
    assert "messages.pot is out of date" in refused.output and "run arena i18n extract" in refused.output
    assert po_path(game / "translations", "fr").read_bytes() == po_before

    write_template(game)
    results = {r.lang: r for r in update_catalogs(game)}
    assert results["fr"].fuzzy == 1 and results["fr"].changed
    fr = read(game, "fr")
    changed = fr.get(WINS_CHANGED)
    assert changed.fuzzy and changed.string == "${player_name} gagne avec ${result}"
    po_text = po_path(game / "translations", "fr").read_text(encoding="utf-8")
    assert f'#, fuzzy\n#| msgid "{WINS}"\nmsgid "{WINS_CHANGED}"' in po_text  # what changed
    # The old string keeps its translation, for the log lines games in progress wrote with it.
    kept = fr.get(WINS)
    assert kept is not None and not kept.fuzzy and kept.string == "${player_name} gagne avec ${result}"
    assert KEPT_NOTE in kept.auto_comments
    assert fr.get("the red pile").string == "la pile rouge"  # others kept as they were
    update_catalogs(game)  # a second update keeps it too
    assert read(game, "fr").get(WINS).string == kept.string

    report = check_catalogs(game)
    assert not report.ok and not report.stale_template
    assert [r.fuzzy for r in report.languages] == [[WINS_CHANGED]] * 3
    cli = CliRunner().invoke(main, ["i18n", "check", str(game), "--strict"])
    assert cli.exit_code == 1
    assert f"  fuzzy: {WINS_CHANGED}" in cli.output
    assert CliRunner().invoke(main, ["i18n", "check", str(game)]).exit_code == 0  # a report only

    # A fuzzy translation is never shown: the player reads English until it is reviewed.
    tr = translator("fr", game)
    assert tr(WINS_CHANGED) == WINS_CHANGED
    assert tr("the red pile") == "la pile rouge"
    assert tr(WINS) == "${player_name} gagne avec ${result}"  # an old log line stays French


def test_a_removed_string_is_only_a_note(game: Path) -> None:
    edit(game / "game.py", '"blue": clienttranslate("the blue pile")', '"blue": "blue"')
    report = check_catalogs(game)
    assert report.unused == ["in messages.pot but no longer in the sources: the blue pile"]
    assert report.ok  # players lose nothing: --strict passes
    write_template(game)
    update_catalogs(game)
    fr = read(game, "fr")
    assert fr.get("the blue pile").string == "la pile bleue"  # kept for games in progress
    assert check_catalogs(game).unused == []
    update_catalogs(game, in_use=())  # no game in progress shows it any more
    fr = read(game, "fr")
    assert fr.get("the blue pile") is None and "the blue pile" in fr.obsolete  # kept for translators


def test_a_new_string_is_untranslated_everywhere(game: Path) -> None:
    edit(game / "game.py", 'TOKENS = 7', 'TOKENS = 7\nHINT = clienttranslate("Take the last token to win")')
    write_template(game)
    results = update_catalogs(game)
    assert [(r.lang, r.untranslated, r.fuzzy) for r in results] == [("fr", 1, 0), ("it", 1, 0), ("hu", 1, 0)]
    report = check_catalogs(game, ["hu"])
    assert [r.lang for r in report.languages] == ["hu"]
    assert report.languages[0].untranslated == ["Take the last token to win"]


def test_wrong_placeholders_are_reported_and_never_shown(game: Path) -> None:
    po = po_path(game / "translations", "fr")
    edit(po, 'msgstr "${player_name} gagne avec ${result}"', 'msgstr "${joueur} gagne avec ${result}"')
    report = check_catalogs(game, ["fr"])
    assert report.languages[0].errors == [
        f"{WINS}: uses unknown placeholders ['joueur']",
        f"{WINS}: leaves out placeholders ['player_name']",
    ]
    from framework.i18n import format_message

    text = format_message(WINS, {"player_name": "Ann", "result": "7"}, translator("fr", game))
    assert text == "Ann wins with 7"


def test_update_creates_a_new_language_with_its_plural_forms(game: Path) -> None:
    result = CliRunner().invoke(main, ["i18n", "update", str(game), "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "de: " in result.output and "created; 9 untranslated" in result.output
    de = read(game, "de")
    assert de.plural_forms == "nplurals=2; plural=(n != 1);"
    report = check_catalogs(game)
    assert [r.lang for r in report.languages] == ["fr", "it", "hu", "de"]
    assert len(report.languages[3].untranslated) == 9


def test_shipped_plural_forms_follow_cldr(game: Path) -> None:
    # French: 0 and 1 are singular, millions take "de"; Italian: 0 is plural; Hungarian: one/other.
    assert read(game, "fr").plural_forms == (
        "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
    )
    assert read(game, "it").plural_forms == (
        "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"
    )
    assert read(game, "hu").plural_forms == "nplurals=2; plural=(n != 1);"


def test_compiled_catalogs_are_used(game: Path) -> None:
    results = compile_catalogs(game)
    assert [(r.lang, r.translated, r.skipped) for r in results] == [("fr", 9, 0), ("it", 9, 0), ("hu", 9, 0)]
    po = po_path(game / "translations", "it")
    assert po.with_suffix(".mo").exists()
    po.unlink()
    assert translator("it", game)("the blue pile") == "pila blu"


def test_update_without_a_template_says_what_to_do(game: Path) -> None:
    (game / "translations" / "messages.pot").unlink()
    result = CliRunner().invoke(main, ["i18n", "update", str(game)])
    assert result.exit_code == 1
    assert "run arena i18n extract first" in result.output
