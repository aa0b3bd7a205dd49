"""The site's Flask class (framework.web.flask_app): what it remembers per function changes
nothing a view, a hook or a request's own function sees."""

from __future__ import annotations

import gc
from typing import Any

from flask import after_this_request

from framework.web.flask_app import ArenaFlask


def test_views_hooks_and_a_requests_own_functions_run_as_before() -> None:
    app = ArenaFlask(__name__)
    seen: list[str] = []

    @app.before_request
    def before() -> None:
        seen.append("before")

    @app.get("/")
    def index() -> Any:
        @after_this_request
        def mark(response: Any) -> Any:
            response.headers["X-Mark"] = str(len(seen))
            return response
        return "hello"

    client = app.test_client()
    for n in (1, 2, 3):
        answer = client.get("/")
        assert answer.data == b"hello" and answer.headers["X-Mark"] == str(n)
    assert seen == ["before"] * 3
    gc.collect()
    # the view and the hook are remembered; the earlier requests' own functions went with
    # them (the test client may still hold the last request)
    remembered = [getattr(f, "__name__", "") for f in app._sync_of]
    assert {"index", "before"} <= set(remembered) and remembered.count("mark") <= 1


def test_a_callable_without_weak_references_still_runs() -> None:
    app = ArenaFlask(__name__)
    assert app.ensure_sync(len)("abc") == 3
