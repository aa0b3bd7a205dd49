"""Whether the client of a long answer (an event stream) has gone: a stream waits for the
table's next change with nothing to write, and a closed connection shows only at the second
write after it (the first fills the kernel's buffer), so a worker would hold a left page's
stream, its socket and its memory, for two keep-alive periods."""

from __future__ import annotations

import select
import socket
from collections.abc import Callable
from typing import Any

#: the connection's socket in the WSGI environment (gunicorn's gevent workers set it)
SOCKET_KEY = "gunicorn.sock"


def client_gone_check(environ: dict[str, Any]) -> Callable[[], bool]:
    """A check that is True once the request's client closed its connection (it reads
    nothing: a peek at the socket, without waiting); always False without the socket
    (the development server)."""
    sock = environ.get(SOCKET_KEY)
    if sock is None:
        return lambda: False

    def gone() -> bool:
        try:
            poller = select.poll()  # not select(): a worker's sockets go past its 1024 fds
            poller.register(sock.fileno(), select.POLLIN | select.POLLPRI)
            if not poller.poll(0):
                return False  # nothing sent, nothing closed: an EventSource waiting
            return bool(sock.recv(1, socket.MSG_PEEK) == b"")  # end of file: closed
        except (OSError, ValueError):  # reset, or already closed here
            return True

    return gone
