"""Extraction: every marked string of Python, Jinja2 templates and JavaScript, and markers
around something else than a literal reported as mistakes."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.pofile import read_po
from click.testing import CliRunner

from framework.cli import main
from framework.i18n.extract import extract_javascript, extract_messages, extract_python, extract_template
from framework.i18n.maintain import write_template

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def ids(found: list) -> list:
    return [f.msgid for f in found]


def test_python_markers_literals_and_implicit_messages() -> None:
    source = (FIXTURES / "extractgame" / "game.py").read_text(encoding="utf-8")
    found, mistakes = extract_python(source, "extractgame/game.py")
    assert ids(found) == [
        "spades",
        "hearts",
        "${player_name} plays ${card_name}",
        ("${player_name} wins ${count} trick", "${player_name} wins ${count} tricks"),
        "You see ${count} cards in the stock",  # an unmarked literal log of notify_player
        "You cannot play a negative number of cards",  # an unmarked literal UserError
        "Table saved",
        "Concatenated literal",
        "Added literal",
        "Translated by the web's translator",
    ]
    played = next(f for f in found if f.msgid == "${player_name} plays ${card_name}")
    assert played.comments == ("TRANSLATORS: the card was played face up",)
    assert [(m.line, m.message.split(" must")[0]) for m in mistakes] == [
        (23, "clienttranslate()"), (24, "clienttranslate()"),
    ]
    assert "name" in mistakes[0].message and "f'{name} plays'" in mistakes[1].message


def test_template_markers_and_a_variable_reported() -> None:
    source = (FIXTURES / "extractgame" / "templates" / "page.html").read_text(encoding="utf-8")
    found, mistakes = extract_template(source, "extractgame/templates/page.html")
    assert ids(found) == [
        "Welcome to the table",
        "Start",
        "Table ${table_id} has ${count} players",
        ("${count} seat left", "${count} seats left"),
        "Plain block text",
    ]
    assert found[1].comments == ("TRANSLATORS: a button that starts the game",)
    assert [(m.line, m.message) for m in mistakes] == [(9, "_() must wrap a string literal")]


def test_javascript_markers_and_a_variable_reported() -> None:
    source = (FIXTURES / "extractgame" / "static" / "client.js").read_text(encoding="utf-8")
    found, mistakes = extract_javascript(source, "extractgame/static/client.js")
    assert ids(found) == [
        "Your hand",
        "Options",
        ("${count} card", "${count} cards"),
        "A long sentence in two parts",
        "Score",
        "Inside a template",
        "It\u2019s \"quoted\"",
    ]
    assert found[4].comments == ("TRANSLATORS: shown on the score board",)
    # _(gamedatas.message) is a mistake; the line marked "i18n: dynamic" and obj._() are not.
    assert [(m.line, m.message) for m in mistakes] == [(14, "_() must wrap a string literal")]


def test_javascript_tokenizer_is_not_fooled_by_strings_comments_and_regexes() -> None:
    source = (
        'const a = "_(\\"not this\\")"; // _("nor this")\n'
        "/* _('nor this either') */ const r = /_\\(\"x\"\\)/g;\n"
        "const t = `${ {k: _('nested')}.k } and ${x}`;\n"
        "const b = x / 2 / _('after a division');\n"
    )
    found, mistakes = extract_javascript(source, "x.js")
    assert ids(found) == ["nested", "after a division"]
    assert [f.line for f in found] == [3, 4]
    assert mistakes == []


def test_extract_writes_a_template_with_every_source(tmp_path: Path) -> None:
    game = tmp_path / "extractgame"
    shutil.copytree(FIXTURES / "extractgame", game)
    result = write_template(game)
    assert result.changed and result.path == game / "translations" / "messages.pot"
    with result.path.open("rb") as fp:
        catalog = read_po(fp)
    locations = {m.id if isinstance(m.id, str) else m.id[0]: m.locations[0][0] for m in catalog if m.id}
    assert locations["spades"] == "extractgame/game.py"
    assert locations["Welcome to the table"] == "extractgame/templates/page.html"
    assert locations["Your hand"] == "extractgame/static/client.js"
    plural = catalog.get("${count} card")
    assert plural is not None and tuple(plural.id) == ("${count} card", "${count} cards")
    assert len(result.mistakes) == 4
    # Unchanged sources: the file is left alone (no churn from dates).
    before = result.path.read_bytes()
    again = write_template(game)
    assert not again.changed and result.path.read_bytes() == before


def test_cli_extract_lists_mistakes_and_fails(tmp_path: Path) -> None:
    game = tmp_path / "extractgame"
    shutil.copytree(FIXTURES / "extractgame", game)
    result = CliRunner().invoke(main, ["i18n", "extract", str(game)])
    assert result.exit_code == 1
    assert "messages.pot: 22 strings" in result.output
    assert "extractgame/game.py:23: clienttranslate() must wrap a string literal" in result.output
    assert "extractgame/static/client.js:14: _() must wrap a string literal" in result.output


def test_framework_catalog_has_the_players_messages() -> None:
    extraction = extract_messages("framework")
    msgids = set(extraction.msgids)
    assert "It is not your turn" in msgids  # a UserError literal in runtime.py
    assert "You" in msgids and "${player_name} left the game" in msgids  # marked in runtime.py
    assert "${player_name} is eliminated" in msgids  # a literal notification log in table.py
    assert not any(f.startswith("framework/scaffold/") for f in extraction.files)
    assert "framework/cli/__init__.py" not in extraction.files


def test_javascript_nested_template_literals_keep_their_messages() -> None:
    """Babel's own lexer ends a template literal at a nested one's backtick; Belote's
    summary table has them, and every message around and after them must be found."""
    source = (
        "node.innerHTML = `<tr>${[0, 1].map((t) =>\n"
        '  `<td title="${_("Inner")}">${t}</td>`).join("")}</tr>\n'
        '  <th title="${esc(_("Quoted attribute"))}">${_("After")}</th>`;\n'
        'const later = _("Later");\n'
    )
    found, mistakes = extract_javascript(source, "x.js")
    assert [(f.msgid, f.line) for f in found] == [
        ("Inner", 2), ("Quoted attribute", 3), ("After", 3), ("Later", 4)]
    assert mistakes == []


def test_javascript_marker_around_a_template_with_a_substitution_is_a_mistake() -> None:
    found, mistakes = extract_javascript('const a = _(`Hello ${name}`);\nconst b = obj._("method");\n', "x.js")
    assert found == []
    assert [(m.line, m.message) for m in mistakes] == [(1, "_() must wrap a string literal")]
