"""The studio page of a game: releases, status, blocking, the last check; release notes."""

from __future__ import annotations

import re

from framework.web import create_app
from tests.releases.conftest import GAME, Workspace, make_release_b


def csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match.group(1)


def test_the_studio_page_drives_releases(workspace: Workspace) -> None:
    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(workspace.site.instance_path),
                      "ARENA_REGISTRY": workspace.site.registry})
    client = app.test_client()
    page = client.get(f"/studio/{GAME}")
    assert page.status_code == 200 and "No release yet" in page.text
    token = csrf(page.text)

    missing = client.post(f"/studio/{GAME}/build", data={"notes": "x"})
    assert missing.status_code == 400  # no CSRF token: refused, nothing built
    assert "No release yet" in client.get(f"/studio/{GAME}").text

    client.post(f"/studio/{GAME}/build", data={"csrf_token": token, "notes": "The first version"})
    page = client.get(f"/studio/{GAME}").text
    version = re.search(r"<td>(\d{6}-\d{4})", page).group(1)  # type: ignore[union-attr]
    assert "has no production release" in page  # the last check, shown
    client.post(f"/studio/{GAME}/deploy", data={"csrf_token": token, "version": version})
    page = client.get(f"/studio/{GAME}").text
    assert f"<strong>{version}</strong>" in page

    make_release_b(workspace)
    workspace.commit("B")
    page = client.post(f"/studio/{GAME}/build", data={"csrf_token": token, "notes": "Luck!", "major": "1"},
                       follow_redirects=True).text
    assert "<strong>[breaking]</strong> schema" in page
    newest = re.findall(r"<td>(\d{6}-\d{4})", page)[0]
    refused = client.post(f"/studio/{GAME}/deploy", data={"csrf_token": token, "version": newest},
                          follow_redirects=True)
    assert "deploy it with --block" in refused.text
    client.post(f"/studio/{GAME}/deploy", data={"csrf_token": token, "version": newest, "block": "1"})
    assert f"<strong>{newest}</strong>" in client.get(f"/studio/{GAME}").text

    client.post(f"/studio/{GAME}/block", data={"csrf_token": token, "blocked": "1"})
    assert 'id="blocked-flag"' in client.get(f"/studio/{GAME}").text
    client.post(f"/studio/{GAME}/block", data={"csrf_token": token, "blocked": "0"})
    assert 'id="blocked-flag"' not in client.get(f"/studio/{GAME}").text
    client.post(f"/studio/{GAME}/status", data={"csrf_token": token, "status": "gold"})
    assert "<small>gold</small>" in client.get(f"/studio/{GAME}").text

    news = client.get(f"/game/{GAME}/news").text
    assert "Luck!" in news and "a major new version" in news and "The first version" in news
    assert news.index("Luck!") < news.index("The first version")

    assert client.get("/studio/nope").status_code == 404
    assert client.get("/game/nope/news").status_code == 404
    app.extensions["arena"].close()


def _french(msgstr: str) -> str:
    return (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
        f'msgid "${{player_name}} draws a ${{value}}"\nmsgstr "{msgstr}"\n'
    )


def test_a_production_table_speaks_with_its_release_catalog(workspace: Workspace) -> None:
    """The strings a release's code writes are translated by that release's catalogs; the
    working tree's (what studio tables run) may already say something else."""
    from framework.releases.builds import build
    from framework.releases.deploy import deploy

    po = workspace.folder / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(_french("${player_name} tire un ${value}"), encoding="utf-8")
    workspace.commit("French")
    site = workspace.site
    deploy(site, GAME, build(site, GAME)["version"])
    po.write_text(_french("${player_name} pioche un ${value}"), encoding="utf-8")  # not built

    app = create_app({"TESTING": True, "ARENA_INSTANCE": str(site.instance_path),
                      "ARENA_REGISTRY": site.registry})
    client = app.test_client()
    rt = app.extensions["arena"].runtime
    logs = {}
    for mode in ("production", "studio"):
        table = rt.create_table(GAME, 2, {"target": 1}, seed=1, mode=mode)
        player = rt.get_data(table, None)["gamestate"]["active_player"]
        rt.act(table, player, "draw", {})
        answer = client.get(f"/table/{table}/log", headers={"Accept-Language": "fr"})
        assert answer.status_code == 200
        logs[mode] = [e["log"] for e in answer.json["events"] if e["msgid"].endswith("draws a ${value}")]
    assert logs["production"] and all(" tire un " in line for line in logs["production"])
    assert logs["studio"] and all(" pioche un " in line for line in logs["studio"])
    app.extensions["arena"].close()
