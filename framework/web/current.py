"""What every view of a request uses: the site, and an error answered in JSON or as a page."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, render_template, request

from framework.site import Site


def site() -> Site:
    return current_app.extensions["arena"]  # type: ignore[no-any-return]


def wants_json() -> bool:
    """API routes (under /table/<id>/... except the page itself) answer errors in JSON."""
    if request.is_json or request.path.startswith("/api/"):
        return True
    parts = request.path.strip("/").split("/")
    return len(parts) >= 3 and parts[0] == "table"


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Any:
    if wants_json():
        resp = jsonify({"error": {"code": code, "message": message}})
    else:
        resp = current_app.make_response(
            render_template("error.html", status=status, code=code, message=message)
        )
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp
