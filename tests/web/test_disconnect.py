"""A stream's worker sees at once that its client has gone (framework.web.disconnect)."""

from __future__ import annotations

import os
import socket

from framework.web.disconnect import SOCKET_KEY, client_gone_check


def test_a_waiting_client_is_there_and_a_closed_one_is_gone() -> None:
    server, client = socket.socketpair()
    try:
        gone = client_gone_check({SOCKET_KEY: server})
        assert gone() is False  # connected, nothing sent
        client.sendall(b"x")  # something to read is not a close
        assert gone() is False
        client.close()
        assert server.recv(1) == b"x"
        assert gone() is True
    finally:
        server.close()


def test_a_socket_past_the_first_1024_files_is_checked_too() -> None:
    server, client = socket.socketpair()
    high = os.dup2(server.fileno(), 1500)
    far = socket.socket(fileno=high)
    try:
        gone = client_gone_check({SOCKET_KEY: far})
        assert gone() is False
        client.close()
        assert gone() is True
    finally:
        far.close()
        server.close()


def test_without_the_socket_the_client_is_never_taken_for_gone() -> None:
    assert client_gone_check({})() is False
