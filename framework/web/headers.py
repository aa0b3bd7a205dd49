"""Security headers on every answer: a strict Content-Security-Policy, no sniffing, no
framing, no referrer to other sites, and no caching of what was not said to be cacheable."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask

#: Only the site's own scripts, styles, images, fonts and connections; no inline script, no
#: ``<style>`` element, no plugin, no framing, forms post to the site only. Inline *style
#: attributes* stay allowed (``style-src-attr``): the client and games colour player names
#: with them in the HTML they build (BGA's games do the same); an attribute cannot run script.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    # Pages, game data, move answers and event streams are one player's: never stored. An
    # answer that says how it may be cached keeps its own (static files: ``no-cache`` with
    # an ETag, or a ``max-age``).
    "Cache-Control": "no-store",
}

class SecurityHeaders:
    """WSGI middleware: the headers above (and the policy) on every answer, each unless the
    view set it itself. They are added to the header list the application hands to
    ``start_response``: constant pairs, not a werkzeug ``Headers`` operation each."""

    def __init__(self, app: WSGIApplication, policy: str) -> None:
        self.app = app
        wanted = {"Content-Security-Policy": policy, **HEADERS} if policy else dict(HEADERS)
        self.wanted = [(name.lower(), (name, value)) for name, value in wanted.items()]

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        wanted = self.wanted

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            headers.extend([pair for lower, pair in wanted if lower not in present])
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def init_app(app: Flask) -> None:
    """Add the headers to every answer (``CONTENT_SECURITY_POLICY`` in the config replaces
    the policy; an empty one sends none): the middleware wraps the Flask application itself
    (``create_app`` calls this first; werkzeug's ``ProxyFix``, when on, goes around it)."""
    app.config.setdefault("CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
    app.wsgi_app = SecurityHeaders(app.wsgi_app, app.config["CONTENT_SECURITY_POLICY"])  # type: ignore[method-assign]
