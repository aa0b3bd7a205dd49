"""Bounds on what a client may send: body size, form parts and memory, JSON nesting, and no
NUL character in any text (PostgreSQL cannot store one). Each refusal is a 4xx with a
translated message, never a 500. Header and connection limits are the server's
(``framework/web/worker.py``)."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider

from framework.core.errors import UserError

#: Defaults of the settings (``app.config`` / ``instance/config.py``), see docs/security.md.
DEFAULTS: dict[str, int] = {
    "MAX_CONTENT_LENGTH": 1024 * 1024,  # bytes of a request body, chunked bodies included
    "MAX_FORM_MEMORY_SIZE": 64 * 1024,  # bytes of one field of a multipart form
    "MAX_FORM_PARTS": 200,  # fields of a multipart form (an urlencoded one: MAX_CONTENT_LENGTH)
    "MAX_JSON_DEPTH": 32,  # nested arrays and objects in a JSON body
}


class BadInputError(UserError):
    """A request the site does not take (too deeply nested, a NUL character)."""

    http_status = 400


def depth_of(value: Any) -> int:
    """How deeply arrays and objects nest in a decoded JSON value (a scalar is 0).

    >>> depth_of([1, {"a": [2]}])
    3
    """
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in children)
    return deepest


def has_nul(value: Any) -> bool:
    """A NUL character in any string (or key) of a decoded JSON value."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


class LimitedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, whose ``loads`` refuses bodies nested deeper than ``MAX_JSON_DEPTH``
    or holding a NUL character (``BadInputError``); invalid JSON is a ``ValueError`` as before.
    Every JSON body of a request comes through here (``request.get_json`` and ``app.json.loads``)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            value = super().loads(s, **kwargs)
        except RecursionError:  # the decoder gave up long before our limit would
            raise _too_deep() from None
        if depth_of(value) > self._app.config.get("MAX_JSON_DEPTH", DEFAULTS["MAX_JSON_DEPTH"]):
            raise _too_deep()
        if has_nul(value):
            raise _nul()
        return value


def _too_deep() -> BadInputError:
    return BadInputError("This request's JSON is nested too deeply", "json_too_deep")


def _nul() -> BadInputError:
    return BadInputError("This request contains a NUL character", "nul_character")


def init_app(app: Flask) -> None:
    """The JSON provider, and the check of every request's path, query and form for NUL
    characters (``create_app`` puts ``DEFAULTS`` in the config first). Call it after the
    language's hooks, so the refusal is translated."""
    app.json = LimitedJSONProvider(app)

    @app.before_request
    def check_request() -> None:
        environ = request.environ
        if environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
            _refuse_long_chunked_body()
        # a NUL in the query's names or values comes from "%00" (or a raw NUL): only then is
        # the query decoded here
        query = environ.get("QUERY_STRING", "")
        # the path as the server decoded it (``request.path`` is the same text)
        if "\x00" in environ.get("PATH_INFO", "") or (("%00" in query or "\x00" in query)
                                                     and _has_nul(request.args)):
            raise _nul()
        # a form's type is parsed only when the raw header may name one
        if environ.get("REQUEST_METHOD") != "GET" \
                and environ.get("CONTENT_TYPE", "").lstrip().lower().startswith(FORMS) \
                and request.mimetype in FORMS and _has_nul(request.form):
            raise _nul()


def _refuse_long_chunked_body() -> None:
    """A chunked body has no length to check up front: werkzeug reads it up to
    ``MAX_CONTENT_LENGTH`` and then stops, silently, so a longer body would be taken cut
    short. Read it now (it stays cached for the view, or the form was parsed already) and
    refuse it when anything is left past the limit.

    Raises:
        RequestEntityTooLarge: the body is longer than ``MAX_CONTENT_LENGTH`` (413).
    """
    if request.max_content_length is None:
        return
    request.get_data(cache=True)
    request.stream.read(1)  # past the limit: werkzeug raises RequestEntityTooLarge


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def _has_nul(fields: Any) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in fields.lists())
