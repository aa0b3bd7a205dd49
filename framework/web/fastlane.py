"""The move route without Flask's per-request machinery.

``POST /table/<id>/act/<action>`` is most of a running server's traffic: every move of
every player. Flask's handling of one request (two contexts, a URL adapter, the hooks, a
response object) costs about as much CPU as applying the move (measured in process with
``arena bench server``'s game: 0.19 ms each). ``ActLane`` wraps the Flask app's WSGI
callable and answers an ordinary move itself, with the functions the Flask view uses
(session cookie, CSRF, who is asking, the arguments, ``Runtime.act``, the answer).

Everything else goes to Flask, untouched: other routes, and a move without a valid session
or CSRF token, with bad arguments or a body of unknown length; Flask's checks refuse those
with their usual answers. When ``Runtime.act`` itself raises, the request goes to the Flask
view with the exception, which it raises in place of acting: every error answer,
translation and log line comes from the one place (``framework.web``'s error handlers).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from werkzeug.http import parse_cookie

from framework.web import _SessionInterface
from framework.web.auth import account_of, csrf_matches
from framework.web.play import (
    ACT_ERROR_KEY,
    MAX_ARGS_BYTES,
    act_answer,
    action_arguments,
    seen_move_of,
    viewer_of,
)

if TYPE_CHECKING:
    from flask import Flask

    from framework.site import Site

#: what the Flask route matches, narrowed to plain ids and action names (anything else goes
#: to Flask, which routes or refuses it)
ACT_PATH = re.compile(r"/table/([0-9]{1,18})/act/([A-Za-z_][A-Za-z0-9_]{0,63})")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class ActLane:
    """WSGI middleware: ``app.wsgi_app = ActLane(app, app.wsgi_app)``."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST":
            match = ACT_PATH.fullmatch(environ.get("PATH_INFO") or "")
            if match is not None:
                body = self._act(environ, int(match[1]), match[2])
                if body is not None:
                    start_response("200 OK", [
                        ("Content-Type", self.app.json.mimetype),  # type: ignore[attr-defined]
                        ("Content-Length", str(len(body))),
                        ("Vary", "Cookie"),  # as Flask says of an answer that read the session
                    ])
                    return [body]
        return self.wsgi_app(environ, start_response)

    def _act(self, environ: dict[str, Any], table_id: int, action: str) -> bytes | None:
        """The answer to an ordinary move; None: Flask answers."""
        site: Site = self.app.extensions["arena"]
        try:
            move = self._move(site, environ, table_id)
        except Exception:  # noqa: BLE001 - Flask runs the same check and answers its error
            return None
        if move is None:
            return None
        player_id, args, seen_move = move
        try:
            result = site.runtime.act(table_id, player_id, action, args, seen_move=seen_move)
        except Exception as exc:  # noqa: BLE001 - answered by the view (see the module)
            environ[ACT_ERROR_KEY] = exc
            return None
        # as jsonify writes it (outside debug mode)
        return (self.app.json.dumps(act_answer(result), separators=(",", ":")) + "\n").encode()

    def _move(self, site: Site, environ: dict[str, Any],
              table_id: int) -> tuple[int, dict[str, Any], int | None] | None:
        """(player, arguments, seen move) of a move the lane may apply; None: not one."""
        config = self.app.config
        if config.get("SERVER_NAME") or environ.get("HTTP_TRANSFER_ENCODING"):
            return None  # host matching, bodies of unknown length: Flask's
        length = environ.get("CONTENT_LENGTH") or "0"
        limit = min(MAX_ARGS_BYTES, config.get("MAX_CONTENT_LENGTH") or MAX_ARGS_BYTES)
        if not length.isdigit() or int(length) > limit:
            return None
        size = int(length)
        interface = self.app.session_interface
        if not isinstance(interface, _SessionInterface):
            return None  # sessions kept another way: Flask's
        cookie = parse_cookie(environ.get("HTTP_COOKIE", "")).get(interface.get_cookie_name(self.app))
        session = interface.verified(self.app, cookie)
        if session is None:
            return None
        sent = environ.get("HTTP_X_CSRF_TOKEN", "")
        if not config.get("CSRF_DISABLED") and not csrf_matches(session, sent):
            return None
        info = site.runtime.table_info(table_id)
        account = account_of(site.platform, session["account_id"]) \
            if session.get("account_id") is not None else None
        raw_as = next((v for k, v in parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
                       if k == "as"), None)
        player_id = viewer_of(info, account, raw_as)
        if player_id is None:
            return None
        body = environ["wsgi.input"].read(size) if size else b""
        environ["wsgi.input"] = io.BytesIO(body)  # read again by Flask if it answers
        return player_id, action_arguments(body), seen_move_of(environ.get("HTTP_X_ARENA_MOVE"))
