"""The Flask application factory of the local studio; one blueprint per area."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from framework.site import Site

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Defaults, then ``instance/config.py``, then ``test_config``."""
    app = Flask(__name__, template_folder=str(TEMPLATES), instance_relative_config=False)
    app.config.from_mapping(SECRET_KEY="dev", ARENA_INSTANCE=str(Path("instance").resolve()))
    if test_config:
        app.config.update(test_config)
    instance = Path(app.config["ARENA_INSTANCE"])
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_pyfile(str(instance / "config.py"), silent=True)
    if test_config:
        app.config.update(test_config)
    site = Site.open(instance, database_url=app.config.get("ARENA_DATABASE_URL"))
    app.extensions["arena"] = site

    from framework.web import lobby

    app.register_blueprint(lobby.bp)
    return app


def site() -> Site:
    from flask import current_app

    return current_app.extensions["arena"]  # type: ignore[no-any-return]
