"""Security headers on every answer: a strict Content-Security-Policy, no sniffing, no
framing, no referrer to other sites, and no caching of what was not said to be cacheable."""

from __future__ import annotations

from flask import Flask, Response, request

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
}


#: The routes of files that are the same for everyone (the framework's and the games' static files).
STATIC_ENDPOINTS = frozenset({"static", "play.game_static"})


def init_app(app: Flask) -> None:
    """Add the headers to every answer (``CONTENT_SECURITY_POLICY`` in the config replaces
    the policy; an empty one sends none)."""
    app.config.setdefault("CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)

    @app.after_request
    def security_headers(response: Response) -> Response:
        headers = response.headers
        policy = app.config["CONTENT_SECURITY_POLICY"]
        wanted = {"Content-Security-Policy": policy, **HEADERS} if policy else HEADERS
        # the ones the view did not set (one look at the answer's headers, not one per name)
        present = {name.lower() for name, _ in headers}
        headers.extend([(name, value) for name, value in wanted.items() if name.lower() not in present])
        # Pages, game data, move answers and event streams are one player's: never stored.
        # Static files keep their own caching (``no-cache`` with an ETag).
        if request.endpoint not in STATIC_ENDPOINTS:
            headers["Cache-Control"] = "no-store"
        return response
