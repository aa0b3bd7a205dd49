"""Players are told (issue 17, finding 11): the table page shows a banner while the game
is blocked, and a notice (with the release notes) when the table moved to another release
mid-game; the move to another release writes the notification that reloads open pages."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session

from framework.platform.models import GameTableRecord
from framework.releases.builds import build
from framework.releases.deploy import deploy, rollback, set_blocked
from framework.web import create_app
from tests.releases.conftest import GAME, Workspace

pytestmark = pytest.mark.all_backends

T0 = datetime(2026, 11, 29, 10, 0)
NOTES = "Second chances <b>after</b> a bust"


def json_of(answer: Any) -> dict[str, Any]:
    data = answer.json
    assert isinstance(data, dict), answer.text
    return data


def test_the_table_page_tells_players_of_blocks_and_new_releases(workspace: Workspace) -> None:
    site = workspace.site
    deploy(site, GAME, build(site, GAME, now=T0)["version"])
    tid = site.runtime.create_table(GAME, ["ann", "bob"], {"target": 2}, seed=3, mode="production")
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(site.instance_path),
                      "ARENA_DATABASE_URL": site.database_url, "ARENA_REGISTRY": site.registry,
                      "SECRET_KEY": "test"})
    client = app.test_client()
    web = app.extensions["arena"]
    try:
        page = client.get(f"/table/{tid}").text
        assert 'id="blocked-banner"' not in page and 'id="release-notice"' not in page
        assert json_of(client.get(f"/table/{tid}/data"))["notices"] == {"blocked": None, "release": None}

        set_blocked(site, GAME, True)
        web.runtime.forget_blocked()
        page = client.get(f"/table/{tid}").text
        assert re.search(r'id="blocked-banner"[^>]*>This game is being updated: moves wait', page)
        assert json_of(client.get(f"/table/{tid}/data"))["notices"]["blocked"] == "game"
        set_blocked(site, GAME, False)
        web.runtime.forget_blocked()
        with Session(site.platform) as s, s.begin():  # as a failed upgrade leaves it
            row = s.get(GameTableRecord, tid)
            assert row is not None
            row.blocked = True
        page = client.get(f"/table/{tid}").text
        assert "This table is waiting for a fix of the game" in page
        with Session(site.platform) as s, s.begin():
            row = s.get(GameTableRecord, tid)
            assert row is not None
            row.blocked = False

        workspace.edit("game.py", '"${player_name} banks ${points} points"', '"${player_name} banks ${points} points!"')
        workspace.commit("punctuation")
        v2 = build(site, GAME, notes=NOTES, now=T0.replace(hour=11))["version"]
        deploy(site, GAME, v2, block=True)
        page = client.get(f"/table/{tid}").text
        notice = re.search(r'<div id="release-notice"[^>]*>(.*?)</div>', page)
        assert notice, page
        assert notice.group(1) == ('This game was updated to a new version during your game '
                                   '<q class="release-notes">Second chances &lt;b&gt;after&lt;/b&gt; a bust</q>')
        config = json.loads(re.search(r'<script id="arena-config" type="application/json">(.*?)</script>',
                                      page).group(1))  # type: ignore[union-attr]
        assert config["notices"]["release"]["to"] == v2 and config["notices"]["release"]["notes"] == NOTES
        # the open pages' stream carries the notification their script reloads on
        events = json_of(client.get(f"/table/{tid}/log"))["events"]
        changed = [e for e in events if e["type"] == "releaseChanged"]
        assert len(changed) == 1 and changed[0]["args"]["to"] == v2
        assert changed[0]["log"] == f"This game was updated to a new version during your game: {NOTES}"

        # in the players' language
        french = client.get(f"/table/{tid}", headers={"Accept-Language": "fr"}).text
        notice = re.search(r'<div id="release-notice"[^>]*>(.*?)</div>', french)
        assert notice and notice.group(1).startswith(
            "Ce jeu a été mis à jour vers une nouvelle version pendant votre partie <q")

        rollback(site, GAME)
        page = client.get(f"/table/{tid}").text
        assert "This game went back to its previous version during your game" in page
    finally:
        web.close()

