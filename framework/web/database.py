"""The app's platform database: Flask-SQLAlchemy's ``db`` makes the engine the site runs on.

Flask-SQLAlchemy 3.1 has no public way to adopt an engine made elsewhere (``db.engines`` is a
read-only mapping, ``_make_engine`` is private), so the app's engine is given to the Site
instead: one engine, one pool, for ``db.session`` and for the runtime's own sessions.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import Engine

from framework.platform.db import prepare_platform_engine
from framework.platform.models import db


def platform_engine(app: Flask, url: str, options: dict[str, Any]) -> Engine:
    """``Site.open``'s ``make_engine``: configures ``db`` on ``app`` with the backend's URL
    and engine options and hands its engine to the site."""
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    db.init_app(app)  # db.session: one per app context, removed at its teardown
    with app.app_context():
        engine = db.engine
    return prepare_platform_engine(engine)
