"""The seat race on every backend: players who join the last seats of an open production
table at the same instant, round after round. Exactly as many sit as there are seats, each
racer learns whether they sat, and the table starts exactly once, seating those who sat."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from framework.core.errors import NotFoundError
from framework.engine.open_tables import Joined, OpenTables, TableFullError
from framework.platform.models import GameTableRecord
from framework.site import Site
from tests.framework.test_open_tables import production_runtime

ROUNDS = 50


def _race(count: int, work: Callable[..., object]) -> list[object]:
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # each racer's answer is what the test looks at
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def _join_and_start(tables: OpenTables, open_id: int, name: str) -> object:
    """What the lobby's join route does: join, and start the table when this took the last seat."""
    joined = tables.join(open_id, name)
    return tables.start_claimed(open_id) if joined is Joined.FILLED else joined


@pytest.mark.all_backends
@pytest.mark.parametrize("racers", [2, 5])
def test_racers_for_the_last_seat_start_one_table(site: Site, racers: int) -> None:
    runtime = production_runtime(site)
    tables = runtime.open_tables
    rounds = ROUNDS if racers == 2 else ROUNDS // 2
    for n in range(rounds):
        seated = [f"r{n}s{i}" for i in range(3)]  # three sit; one seat is left
        open_id = tables.open("labgame", 4, {}, seated[0], 1)
        for name in seated[1:]:
            assert tables.join(open_id, name) is Joined.SEATED
        names = [f"r{n}x{i}" for i in range(racers)]
        answers = _race(racers, lambda i, o=open_id, ns=names: _join_and_start(tables, o, ns[i]))
        started = [a for a in answers if isinstance(a, int)]
        assert len(started) == 1, (n, answers)  # one racer sat, and started the table
        losers = [a for a in answers if not isinstance(a, int)]
        assert all(isinstance(a, TableFullError | NotFoundError) for a in losers), (n, answers)
        winner = names[answers.index(started[0])]
        players = {p["name"] for p in runtime.get_data(started[0], None)["players"].values()}
        assert players == {*seated, winner}, n
    with Session(site.platform) as db:
        assert db.scalar(select(func.count()).select_from(GameTableRecord)) == rounds


@pytest.mark.all_backends
def test_racers_for_two_seats_both_sit_and_one_starts_the_table(site: Site) -> None:
    runtime = production_runtime(site)
    tables = runtime.open_tables
    for n in range(ROUNDS // 5):
        open_id = tables.open("labgame", 4, {}, f"r{n}a", 1)
        assert tables.join(open_id, f"r{n}b") is Joined.SEATED
        names = [f"r{n}x{i}" for i in range(4)]
        answers = _race(4, lambda i, o=open_id, ns=names: _join_and_start(tables, o, ns[i]))
        assert sum(isinstance(a, int) for a in answers) == 1, answers  # the one who filled it
        assert answers.count(Joined.SEATED) == 1, answers  # sat, and told the table waits for no one else
        assert sum(isinstance(a, TableFullError | NotFoundError) for a in answers) == 2, answers
