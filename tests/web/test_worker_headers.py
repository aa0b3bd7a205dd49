"""The production worker's header reading: plain lines make the message directly, and that
message is the one gevent's own parser makes of them; other lines go through gevent's."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("gevent")
pytest.importorskip("gunicorn")

from gevent.pywsgi import headers_factory  # noqa: E402

from framework.web.worker import plain_headers  # noqa: E402

PLAIN = [
    b"Host: 127.0.0.1:5000\r\nCookie: session=a.b.c; lang=fr\r\nX-Arena-Move: 12\r\n"
    b"Content-Length: 14\r\nContent-Type: application/json\r\n\r\n",
    b"Host: x\nAccept: */*\n\n",  # bare line feeds
    b"X-Empty:\r\nX-Spaces:   v  \r\nX-Tab:\tt\r\n\r\n",  # no value; spaces kept after it
    b"Set-Twice: 1\r\nset-twice: 2\r\n\r\n",  # repeated names, case kept
    b"\r\n",  # no header at all
]
ODD = [
    b"Host : x\r\n\r\n",  # space before the colon
    b"A: b\r\n  folded\r\n\r\n",  # an obsolete folded line
    "A: caf\u00e9\r\n\r\n".encode("latin-1"),  # a byte outside ASCII
    b"No colon here\r\n\r\n",
]


def lines_of(raw: bytes) -> list[bytes]:
    return list(io.BytesIO(raw))


@pytest.mark.parametrize("raw", PLAIN)
def test_plain_lines_make_the_message_gevents_parser_makes(raw: bytes) -> None:
    ours, theirs = plain_headers(lines_of(raw)), headers_factory(io.BytesIO(raw))
    assert ours is not None
    assert ours.items() == theirs.items() and ours.status == theirs.status == ""
    assert ours.get("content-length") == theirs.get("content-length")
    assert ours.get_all("set-twice") == theirs.get_all("set-twice")


@pytest.mark.parametrize("raw", ODD)
def test_other_lines_are_left_to_gevents_parser(raw: bytes) -> None:
    assert plain_headers(lines_of(raw)) is None
