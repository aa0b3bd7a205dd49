"""Where a form may send the browser afterwards: only a path of this site."""

from __future__ import annotations

from urllib.parse import urlsplit

FALLBACK = "/"


def safe_next(target: str | None, fallback: str = FALLBACK) -> str:
    """``target`` if it is a path of this site (``/...``), else ``fallback``.

    Refused: another host (``//evil``, ``https://evil``), a backslash (browsers read ``/\\evil``
    as ``//evil``), any control character (browsers drop tabs and newlines, so ``/\\t/evil``
    becomes ``//evil``; CR/LF would split the header).

    >>> safe_next("/table/3?as=1"), safe_next("//evil.example/"), safe_next("/\\t/evil.example/")
    ('/table/3?as=1', '/', '/')
    >>> safe_next("/\\\\evil"), safe_next("/%0D%0AX:1"), safe_next("/\\r\\nX: 1"), safe_next(None)
    ('/', '/%0D%0AX:1', '/', '/')
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return fallback
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return fallback
    return target


def same_site_path(url: str | None, host: str) -> str | None:
    """The path (and query) of ``url`` when it is an address of ``host`` (a Referer), else None.

    >>> same_site_path("http://arena.example/table/3?as=1", "arena.example")
    '/table/3?as=1'
    >>> same_site_path("https://evil.example/", "arena.example") is None
    True
    """
    if not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.netloc != host or parts.scheme not in ("http", "https"):
        return None
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
