"""The site's Flask class: Flask, doing less per request where Flask repeats the same work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from flask import Flask


class ArenaFlask(Flask):
    """``ensure_sync`` remembered per function: Flask asks ``inspect`` whether every hook,
    view and error handler is a coroutine function each time it calls one (seven times a
    move). The answer of a function never changes; weak keys let a request's own functions
    (``after_this_request``) go with it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # function -> whether it is plain (Flask calls it as it is); a flag, not the function
        # itself, which would keep its own weak key alive
        self._sync_of: WeakKeyDictionary[Callable[..., Any], bool] = WeakKeyDictionary()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            if self._sync_of[func]:
                return func
        except KeyError:
            sync = super().ensure_sync(func)
            self._sync_of[func] = sync is func
            return sync
        except TypeError:  # no weak reference to it (a builtin, a callable object)
            pass
        return super().ensure_sync(func)
