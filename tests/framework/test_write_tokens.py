"""Write tokens (a kept state's check) and the request's time text."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from framework.game.kept import TOKEN_MAX, new_token
from framework.game.table_context import TIME_FORMAT, datetime_text


def test_a_forked_process_draws_other_tokens_than_its_parent() -> None:
    """gunicorn forks its workers from one master: each must draw its own sequence, or two
    workers' writes could leave the same token and a stale kept copy would pass its check."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next tokens, then out at once
        os.close(read)
        os.write(write, ",".join(str(new_token()) for _ in range(8)).encode())
        os._exit(0)
    os.close(write)
    parent = [new_token() for _ in range(8)]
    with os.fdopen(read) as pipe:
        child = [int(t) for t in pipe.read().split(",")]
    os.waitpid(pid, 0)
    assert len(child) == 8 and child != parent
    assert all(1 <= t <= TOKEN_MAX for t in parent + child)


def test_tokens_change_from_one_write_to_the_next() -> None:
    tokens = [new_token() for _ in range(1000)]
    assert len(set(tokens)) > 990 and 0 not in tokens


def test_datetime_text_is_the_stored_format() -> None:
    for moment in (datetime(2026, 1, 2, 3, 4, 5), datetime(2026, 1, 2, 3, 4, 5, 7),
                   datetime(1999, 12, 31, 23, 59, 59, 999999)):
        assert datetime_text(moment) == moment.strftime(TIME_FORMAT)
    aware = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert datetime_text(aware) == aware.strftime(TIME_FORMAT)
