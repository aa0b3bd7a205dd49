"""Translations across releases (issue 17, finding 9): the check says which translations a
changed string loses (only those that existed), suggests the existing string it became, and
after ``arena i18n extract`` + ``update`` the log lines a game in progress already wrote keep
their translations."""

from __future__ import annotations

import random
from datetime import datetime

from babel.messages.pofile import read_po, write_po

from framework.i18n import po_path, translator
from framework.i18n.maintain import update_catalogs, write_template
from framework.releases.builds import build, release_dir
from framework.releases.check import check
from framework.releases.deploy import deploy
from framework.releases.upgrade import upgrade_all
from tests.releases.conftest import GAME, Workspace, git
from tests.releases.test_releases import play_some

T0 = datetime(2026, 11, 30, 9, 0)
DRAWS = "${player_name} draws a ${value}"
PULLS = "${player_name} pulls a ${value}"
FRENCH = {
    DRAWS: "${player_name} tire un ${value}",
    PULLS: "${player_name} pioche un ${value}",
    "Capots won": "Capots gagnés",
    "Capots": "Capots",
}
NOTES = '\nNOTES = (clienttranslate("Capots won"), clienttranslate("Capots"), clienttranslate("Nobody translates me"))\n'


def translate_fr(ws: Workspace, drop_gone: bool = False) -> None:
    """Extract, update (``--drop-gone``: as Babel alone does), and give French the strings of
    ``FRENCH`` (confirmed, not fuzzy)."""
    write_template(ws.folder)
    update_catalogs(ws.folder, ["fr"], in_use=() if drop_gone else None)
    path = po_path(ws.folder / "translations", "fr")
    with path.open("rb") as fp:
        catalog = read_po(fp, locale="fr")
    for message in catalog:
        if message.id in FRENCH:
            message.string = FRENCH[str(message.id)]
            message.flags.discard("fuzzy")
            message.previous_id = []
    with path.open("wb") as fp:
        write_po(fp, catalog, width=100)


def logged_msgids(ws: Workspace, table_id: int) -> list[str]:
    with ws.site.store.connect(table_id, write=False) as db:
        return [str(r["gamelog_log"]) for r in db.execute("SELECT gamelog_log FROM gamelog").rows]


def msgid_findings(ws: Workspace, version: str) -> dict[str, tuple[str, str, str]]:
    """The check's findings on strings, by the string they name."""
    out = {}
    for f in check(ws.site, GAME, version).findings:
        if f.kind == "msgid":
            name = f.message.split("'")[1]
            out[name] = (f.severity, f.message, f.advice)
    return out


def test_changed_strings_and_the_translations_of_games_in_progress(workspace: Workspace) -> None:
    site = workspace.site
    workspace.append("game.py", NOTES)
    translate_fr(workspace)
    workspace.commit("A, translated into French")
    a = build(site, GAME, now=T0)["version"]
    deploy(site, GAME, a)
    tid = site.runtime.create_table(GAME, 2, {"target": 2}, seed=5, mode="production")
    play_some(site, tid, 6, random.Random(3))
    assert DRAWS in logged_msgids(workspace, tid)

    # B: strings changed in the code only (no extract, no update): the catalogs still hold
    # the old strings, so nothing is lost, and the check says what each became.
    workspace.edit("game.py", f'clienttranslate("{DRAWS}")', f'clienttranslate("{PULLS}")')
    workspace.edit("game.py", NOTES, '\nNOTES = (clienttranslate("Capots"), clienttranslate("Capots"))\n')
    workspace.commit("B: strings changed")
    b = build(site, GAME, now=T0.replace(hour=10))["version"]
    found = msgid_findings(workspace, b)
    severity, message, advice = found[DRAWS]
    assert severity == "info" and "its fr translations stay in the catalogs" in message, found
    assert repr(PULLS) in advice and "no translation yet" in advice
    severity, message, advice = found["Capots won"]
    assert "lost" not in message
    assert "'Capots', an existing string already translated in the game's catalog (fr)" in advice
    severity, message, advice = found["Nobody translates me"]
    assert severity == "info" and "it had no translations" in message and "lost" not in message
    assert advice != message

    # Babel's own update drops the old strings: the check says which translations are lost.
    translate_fr(workspace, drop_gone=True)
    workspace.commit("C: catalogs updated, the old strings dropped")
    c = build(site, GAME, now=T0.replace(hour=11))["version"]
    found = msgid_findings(workspace, c)
    severity, message, advice = found[DRAWS]
    assert severity == "warning" and "its fr translations are lost" in message, found
    assert "arena i18n update" in advice
    assert found["Nobody translates me"][0] == "info"

    # D: arena i18n update keeps them; the game in progress keeps its French log lines.
    git(workspace.repo, "checkout", "HEAD~1", "--", "games/relgame/translations")
    translate_fr(workspace)
    workspace.commit("D: catalogs updated, the old strings kept")
    d = build(site, GAME, now=T0.replace(hour=12))["version"]
    found = msgid_findings(workspace, d)
    assert found[DRAWS][0] == "info" and "fr translations stay in the catalogs" in found[DRAWS][1]
    assert found["Capots won"][0] == "info"
    deploy(site, GAME, d)
    assert upgrade_all(site, GAME)["upgraded"] == 1
    play_some(site, tid, 2, random.Random(4))
    assert DRAWS in logged_msgids(workspace, tid)  # the lines release A wrote
    # The table now runs D, translated by D's catalogs: its old lines stay French.
    tr = translator("fr", release_dir(site, GAME, d))
    assert tr(DRAWS) == FRENCH[DRAWS]
    assert tr(PULLS) == FRENCH[PULLS]
