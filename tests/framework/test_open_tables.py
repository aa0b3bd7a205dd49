"""Open production tables in the lobby, on every backend: players who join at the same moment
are all seated, and a full table starts exactly once."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from framework.core.errors import NotFoundError
from framework.engine.open_tables import Joined, OpenTables, TableFullError
from framework.engine.runtime import Runtime, RuntimeHooks
from framework.platform.models import GameTableRecord
from framework.site import Site


def production_runtime(site: Site) -> Runtime:
    """The site's runtime with the lab game's current code as its production release."""
    registry = site.registry
    hooks = RuntimeHooks(game_loader=lambda info: registry.get(info.game),
                         production_release=lambda game: ("261129-1200", registry.get(game)))
    return Runtime(site.platform, site.store, registry, hooks=hooks, streams=site.streams)


def _at_once(count: int, work: callable) -> list[object]:  # type: ignore[valid-type]
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # the test looks at what each got
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.all_backends
def test_players_joining_at_once_are_all_seated_and_the_table_starts_once(site: Site) -> None:
    runtime = production_runtime(site)
    tables: OpenTables = runtime.open_tables
    open_id = tables.open("labgame", 3, {}, "ann", 1)
    joined = _at_once(2, lambda i: tables.join(open_id, ["bob", "cid"][i]))
    assert sorted(j.value for j in joined) == ["filled", "seated"]  # both sat; one took the last seat
    # The last seat claimed the table: no one else starts it while it is created.
    assert _at_once(3, lambda i: tables.start_if_full(open_id)) == [None, None, None]
    ids = {tables.start_claimed(open_id)}
    with Session(site.platform) as db:
        assert db.scalar(select(func.count()).select_from(GameTableRecord)) == 1
    table_id = ids.pop()
    names = sorted(p["name"] for p in runtime.get_data(table_id, None)["players"].values())
    assert names == ["ann", "bob", "cid"]
    assert tables.start_if_full(open_id) == table_id  # later looks find the started table


@pytest.mark.all_backends
def test_a_full_or_started_table_refuses_joins(site: Site) -> None:
    tables = production_runtime(site).open_tables
    open_id = tables.open("labgame", 3, {}, "ann", 1)
    assert tables.join(open_id, "ann") is Joined.ALREADY_SEATED
    assert tables.start_if_full(open_id) is None  # two seats still empty
    results = _at_once(3, lambda i: tables.join(open_id, ["bob", "cid", "dan"][i]))
    assert sorted(type(r).__name__ for r in results) == ["Joined", "Joined", "TableFullError"]
    assert Joined.FILLED in results
    assert isinstance(tables.start_claimed(open_id), int)
    with pytest.raises(NotFoundError):
        tables.join(open_id, "eve")
    with pytest.raises(NotFoundError):
        tables.leave(open_id, "ann")
    assert TableFullError("This table is full", "table_full").http_status == 409
