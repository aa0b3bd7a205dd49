"""CI: the framework and Belote are shipped fully translated (en, fr, it, hu), with the
plural forms of each language."""

from __future__ import annotations

import pytest
from babel.messages.plurals import get_plural
from click.testing import CliRunner

from framework.cli import main
from framework.i18n import SUPPORTED_LANGUAGES, catalog_dir, po_path
from framework.i18n.maintain import _read


@pytest.mark.parametrize("target", ["framework", "belote"])
def test_shipped_catalogs_pass_the_strict_check(target: str) -> None:
    result = CliRunner().invoke(main, ["i18n", "check", target, "--strict"])
    assert result.exit_code == 0, result.output
    for lang in SUPPORTED_LANGUAGES[1:]:
        assert f"{lang}: " in result.output and " 0 untranslated, 0 fuzzy, 0 with errors" in result.output


@pytest.mark.parametrize("target", ["framework", "belote"])
@pytest.mark.parametrize("lang", [lang for lang in SUPPORTED_LANGUAGES if lang != "en"])
def test_shipped_plural_forms_are_the_languages(target: str, lang: str) -> None:
    catalog = _read(po_path(catalog_dir(None if target == "framework" else target), lang), lang)
    assert catalog.plural_forms == get_plural(lang).plural_forms
    assert catalog.num_plurals == (2 if lang == "hu" else 3)
