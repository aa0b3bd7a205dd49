"""PostgreSQL connections come from a ``psycopg_pool`` per process: bounded, a failed
connection never handed out again, a forked worker on connections of its own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from framework.core.errors import StorageUnavailableError
from framework.site import Site
from framework.storage.postgres import PostgresStore
from tests.storage.test_backends import make_table

pytestmark = pytest.mark.all_backends


@pytest.fixture
def small_store(site: Site) -> Iterator[PostgresStore]:
    """Tables 1 and 2 on the test's site, through a store of two connections waiting 0.5 s."""
    if site.store.dialect != "postgresql":
        pytest.skip("the PostgreSQL pool")
    make_table(site, 1)
    make_table(site, 2)
    big = site.store
    assert isinstance(big, PostgresStore)
    store = PostgresStore(big.conninfo, big.prefix, pool_size=2, lock_wait_s=0.5)
    yield store
    store.close()


def _backend_pid(store: PostgresStore, table_id: int) -> int:
    with store.connect(table_id, write=False) as db:
        return int(db.dbapi_connection().info.backend_pid)


def test_the_pool_is_bounded_and_says_busy(small_store: PostgresStore) -> None:
    with small_store.connect(1, write=False), small_store.connect(2, write=False):
        with pytest.raises(StorageUnavailableError) as caught:
            with small_store.connect(1, write=False):
                pass
    assert caught.value.code == "storage_busy"
    with small_store.connect(1, write=False) as db:  # the slots came back
        assert db.execute("SELECT 1 AS one").rows == [{"one": 1}]


def test_a_failed_connection_is_never_handed_out_again(small_store: PostgresStore) -> None:
    with pytest.raises(StorageUnavailableError):
        with small_store.connect(1) as db:
            dead = db.dbapi_connection().info.backend_pid
            with small_store.connect(2, write=False) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (dead,))
            db.execute("SELECT 1")
    for _ in range(3):
        assert _backend_pid(small_store, 1) != dead


def test_a_forked_process_opens_its_own_connections(small_store: PostgresStore) -> None:
    parent = _backend_pid(small_store, 1)
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit status
        try:
            os._exit(0 if _backend_pid(small_store, 2) != parent else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _backend_pid(small_store, 1) == parent  # the parent's connection still works


def test_an_unreachable_server_is_unavailable() -> None:
    store = PostgresStore("host=127.0.0.1 port=9 dbname=none connect_timeout=1", lock_wait_s=1.0)
    try:
        with pytest.raises(StorageUnavailableError) as caught:
            with store.connect(1, write=False):
                pass
        assert caught.value.code == "storage_unavailable"
    finally:
        store.close()
