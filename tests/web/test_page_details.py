"""Small things every page gets right: a favicon (linked, and at /favicon.ico), the studio's
"Play as" links that switch the tab they are in, and the Hungarian label without a doubled colon."""

from __future__ import annotations

from tests.web.conftest import Browser


def test_every_page_has_a_favicon(browser: Browser, table_id: int, players: list[int]) -> None:
    icon = browser.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
    for url in ("/", f"/table/{table_id}?as={players[0]}", "/bugs", "/gamehelp"):
        page = browser.get(url).data.decode()
        assert '<link rel="icon" type="image/svg+xml" href="/static/arena/favicon.svg">' in page, url
    assert browser.get("/static/arena/favicon.svg").status_code == 200


def test_play_as_links_stay_in_the_tab(browser: Browser, table_id: int, players: list[int]) -> None:
    page = browser.get(f"/table/{table_id}?as={players[1]}").data.decode()
    links = page.split('id="test-players"')[1].split("</div>")[0]
    assert 'target="_blank"' not in links
    assert f'href="/table/{table_id}?as={players[1]}" data-player="{players[1]}" aria-current="page"' in links
    assert 'id="follow-active"' in links


def test_the_hungarian_play_as_label_has_one_colon(browser: Browser, table_id: int, players: list[int]) -> None:
    page = browser.get(f"/table/{table_id}?as={players[0]}", headers={"Accept-Language": "hu"}).data.decode()
    assert 'lang="hu"' in page
    assert "Játék ennek nevében:" in page and "nevében::" not in page
