"""The app's platform database: one engine with the site, and no connection kept by a request."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app
from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.pool import QueuePool

from framework.cli.base import site_of
from framework.platform.models import Player, db
from framework.site import Site
from tests.web.conftest import Browser


def test_the_app_and_its_site_share_one_engine(app: Flask) -> None:
    site = app.extensions["arena"]
    pool = site.platform.pool
    assert isinstance(pool, QueuePool)
    with app.app_context():
        assert db.engine is site.platform
        with db.session.begin():
            assert db.session.connection().engine is site.platform
            assert pool.checkedout() == 1
        assert pool.checkedout() == 0


def test_a_request_gives_its_platform_connection_back(app: Flask, browser: Browser) -> None:
    """db.session is used in begin() blocks and removed at teardown: after a page that read
    the platform (the lobby) and a change that wrote it (registering), nothing is checked out."""
    pool = app.extensions["arena"].platform.pool
    assert isinstance(pool, QueuePool)
    assert browser.get("/").status_code == 200
    assert pool.checkedout() == 0
    answer = browser.post("/register", data={"name": "ada", "password": "secret1"})
    assert answer.status_code == 302
    assert pool.checkedout() == 0
    with app.app_context(), db.session.begin():
        assert db.session.scalar(select(Player.name).where(Player.name == "ada")) == "ada"


def test_a_command_runs_in_the_app_context_of_its_site(tmp_path: Path) -> None:
    with click.Context(click.Command("probe"), obj={"instance": tmp_path / "instance"}) as ctx:
        site = site_of(ctx)
        assert current_app.extensions["arena"] is site
        assert db.engine is site.platform
        with db.session.begin():
            db.session.add(Player(name="grace", is_test=True))
    assert not current_app  # the command ended: its app context is gone
    other = Site.open(tmp_path / "instance")
    try:
        with Session(other.platform) as s:
            assert s.scalar(select(Player.is_test).where(Player.name == "grace")) is True
    finally:
        other.close()
