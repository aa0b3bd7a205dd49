"""A commit made by another process (here: another site on the same databases) reaches the
event streams of that table, waiting in that process, through the site's bus or the poll;
and the streams' own handling of bus messages (framework.live.streams)."""

from __future__ import annotations

import json
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from framework.core.clock import utcnow
from framework.game.feed import Feed, Packet
from framework.game.registry import GameRegistry
from framework.live.bus import Bus, InProcessBus
from framework.live.bus_sqlite import SqliteBus
from framework.live.streams import MAX_CARRIED, CommitMessage, Streams, site_channel
from framework.site import Site, bus_for
from framework.storage.sqlite import SQLiteStore
from framework.testing import TestTable


class Stream(threading.Thread):
    """What the SSE route does: read the log after the last id, else wait for a wake-up."""

    def __init__(self, site: Site, table_id: int, after: int, timeout: float = 20) -> None:
        super().__init__()
        self.site, self.table_id, self.after, self.timeout = site, table_id, after, timeout
        self.received: list[dict[str, Any]] = []
        self.waits = 0
        self.waiting = threading.Event()

    def run(self) -> None:
        streams = self.site.streams
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            seen = streams.version(self.table_id)
            rows = self.site.runtime.events(self.table_id, None, self.after)
            if rows:
                self.received = rows
                return
            self.waits += 1
            self.waiting.set()
            streams.wait(self.table_id, seen, timeout=deadline - time.monotonic())


@pytest.mark.all_backends
def test_a_commit_in_another_process_wakes_the_streams_of_that_table(
        lab_table: TestTable, registry: GameRegistry, database_url: str | None) -> None:
    a = lab_table.players[0]
    other_table = lab_table.harness.create_table(players=3, seed=7)
    last = {t.id: t.data(None)["notifications"]["last_packet_id"] for t in (lab_table, other_table)}
    # The second "worker": its own site, connections and bus on the same databases.
    worker = Site.open(lab_table.harness.site.instance_path, database_url=database_url, registry=registry)
    streams: list[Stream] = []
    try:
        streams = [Stream(worker, lab_table.id, last[lab_table.id]),
                   Stream(worker, other_table.id, last[other_table.id], timeout=2)]
        for stream in streams:
            stream.start()
            assert stream.waiting.wait(10)
        # A stream waits once the worker hears the bus: a commit sent before that is only
        # found when the subscription's own re-read runs, which is not what this test is about.
        deadline = time.monotonic() + 10
        while not worker.streams.listening and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.streams.listening
        lab_table.act(a, "pick", number=3)  # committed by the first site
        streams[0].join(30)
        assert not streams[0].is_alive(), "the other worker's stream was never woken"
        # exactly the public rows of the commit, in order, as the first worker wrote them
        assert streams[0].received == lab_table.notifications(None, after=last[lab_table.id])
        assert "picked" in [e["type"] for e in streams[0].received]
        streams[1].join(30)
        assert streams[1].received == []  # the table nobody played on sent nothing
        # every backend: the bus brought the commit's message (PostgreSQL: the database's;
        # SQLite and MariaDB: the file of this machine's processes)
        deadline = time.monotonic() + 10
        while worker.streams.heard < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.streams.heard >= 1
        # MariaDB also polls the log, for the processes of other machines (below)
        assert (worker.streams.poller is not None) == (worker.store.dialect == "mysql")
    finally:
        for stream in streams:
            stream.join(30)
        worker.close()


@pytest.mark.all_backends
def test_a_commit_on_another_machine_of_a_mariadb_site_is_found_by_the_poll(
        lab_table: TestTable, registry: GameRegistry, database_url: str | None, tmp_path: Path) -> None:
    """Another machine: an instance folder of its own, so no bus file in common (and no
    Redis): only the poll of the log finds the commit."""
    if lab_table.harness.site.store.dialect != "mysql":
        pytest.skip("MariaDB only: PostgreSQL's bus is the database's, and an SQLite site is one machine")
    a = lab_table.players[0]
    last = lab_table.data(None)["notifications"]["last_packet_id"]
    machine = Site.open(tmp_path / "other-machine", database_url=database_url, registry=registry)
    stream = Stream(machine, lab_table.id, last)
    try:
        stream.start()
        assert stream.waiting.wait(10)
        poller = machine.streams.poller
        assert poller is not None
        # the act once the poll has looked at the table (a commit before would be found by
        # the re-read that follows a subscription, not by the poll)
        deadline = time.monotonic() + 10
        while lab_table.id not in poller._seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert lab_table.id in poller._seen
        woken = poller.wakeups
        lab_table.act(a, "pick", number=3)
        stream.join(30)
        assert not stream.is_alive(), "the other machine's stream was never woken"
        assert stream.received == lab_table.notifications(None, after=last)
        deadline = time.monotonic() + 10  # the poll counts its wake-ups once it has made them
        while poller.wakeups <= woken and time.monotonic() < deadline:
            time.sleep(0.01)
        assert poller.wakeups > woken and machine.streams.heard == 0
    finally:
        stream.join(30)
        machine.close()


def test_the_sqlite_poller_reads_a_log_only_when_another_connection_committed(tmp_path: Any) -> None:
    store = SQLiteStore(tmp_path)
    for table_id in (1, 2):
        with store.create(table_id) as db:
            db.execute("CREATE TABLE gamelog (gamelog_packet_id INTEGER PRIMARY KEY, x TEXT)")
    with store.connect(1) as db:
        db.execute("INSERT INTO gamelog (x) VALUES ('a')")
    assert store.latest_packets([1, 2]) == {1: 1, 2: 0}
    assert store._poll_marks[1][1] == 1
    reads: list[str] = []
    store._poll_conns[1].set_trace_callback(reads.append)
    assert store.latest_packets([1, 2]) == {1: 1, 2: 0}
    assert reads == ["PRAGMA data_version"]  # nothing committed: the log is not read
    with store.connect(1) as db:  # another connection commits
        db.execute("INSERT INTO gamelog (x) VALUES ('b')")
    assert store.latest_packets([1, 2]) == {1: 2, 2: 0}
    assert any("MAX(gamelog_packet_id)" in sql for sql in reads)
    assert store.latest_packets([2]) == {2: 0} and set(store._poll_conns) == {1, 2}
    store._poll_seen[1] -= 60  # nobody has waited on table 1 for a minute: its connection goes
    assert store.latest_packets([2]) == {2: 0} and set(store._poll_conns) == {2}
    store.drop(2)
    assert store.latest_packets([2]) == {} and not store._poll_conns
    store.max_open = 0  # no file to spare: the ordinary connections read the log
    assert store.latest_packets([1]) == {1: 2} and not store._poll_conns
    store.close()


# ---------------------------------------------------------------------- messages on one bus
class Opener:
    """A bus opener that hands out one shared bus (two processes on one bus) and counts
    how often it was asked."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.opened = 0
        self.lost: list[Callable[[], None]] = []

    def __call__(self, lost: Callable[[], None]) -> Bus:
        self.opened += 1
        self.lost.append(lost)
        return self.bus


@pytest.fixture
def two_processes(tmp_path: Path) -> tuple[Streams, Streams, Opener]:
    """Two processes' streams of one site on a shared bus (the tables are never read)."""
    opener = Opener(InProcessBus())
    store = SQLiteStore(tmp_path)
    channel = site_channel(f"sqlite:///{tmp_path}/platform.sqlite")
    return Streams(store, utcnow, opener, channel), Streams(store, utcnow, opener, channel), opener


def test_a_commit_wakes_the_other_process_once_and_never_its_own(
        two_processes: tuple[Streams, Streams, Opener]) -> None:
    first, second, _ = two_processes
    for streams in (first, second):
        streams.listen()
    seen = {s: s.version(7) for s in (first, second)}
    first.committed(7, 12)
    assert first.version(7) == seen[first] + 1  # woken at once by its own commit...
    assert second.version(7) == seen[second] + 1  # ...and the other process by the bus
    assert first.heard == 0 and second.heard == 1 and first.published == 1
    second.committed(8, 3)  # a table the first process never streamed: nothing is made for it
    assert first.heard == 1 and 8 not in first.listened_tables()


def test_a_waiting_stream_of_the_other_process_is_woken(two_processes: tuple[Streams, Streams, Opener]) -> None:
    first, second, _ = two_processes
    second.listen()  # subscribed first: its own re-read of every stream is not the wake-up
    seen = second.version(7)
    woken: list[int] = []
    waiter = threading.Thread(target=lambda: woken.append(second.wait(7, seen, 20)))
    waiter.start()
    deadline = time.monotonic() + 10
    while 7 not in second.watched_tables() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert 7 in second.watched_tables()
    first.committed(7, 5)
    waiter.join(20)
    assert woken == [seen + 1]


def test_malformed_messages_and_a_failing_bus_change_nothing(
        two_processes: tuple[Streams, Streams, Opener], caplog: pytest.LogCaptureFixture) -> None:
    first, second, opener = two_processes
    second.listen()
    before = second.version(7)
    for text in ("", "not a message", "x 1 s", "7 x s", "7 1 "):
        second._heard(text)
    assert second.version(7) == before and second.heard == 0
    opener.bus.close()  # publishing now raises: the commit stands, the error is logged
    first.committed(7, 9)
    assert first.version(7) == 1 and first.publish_errors == 1
    assert "publishing the commit of table 7" in caplog.text


def test_messages_lost_by_the_bus_make_every_stream_read(two_processes: tuple[Streams, Streams, Opener]) -> None:
    first, _, opener = two_processes
    first.listen()
    tables = [3, 4]
    versions = [first.version(t) for t in tables]
    opener.lost[0]()  # what the bus calls after it reconnected
    assert [first.version(t) for t in tables] == [v + 1 for v in versions]


def test_the_bus_opens_on_first_use_and_again_in_a_forked_child(
        two_processes: tuple[Streams, Streams, Opener], monkeypatch: pytest.MonkeyPatch) -> None:
    first, _, opener = two_processes
    assert opener.opened == 0  # built, not opened: gunicorn forks the workers after this
    first.listen()
    first.committed(1, 1)
    assert opener.opened == 1
    parent_sender = first._sender
    monkeypatch.setattr("framework.live.streams.os.getpid", lambda: 999_999)  # a forked child
    first.committed(1, 2)
    assert opener.opened == 2 and first._sender != parent_sender
    first.listen()  # the child subscribes on its own bus
    assert first._listening
    first.close()
    first.committed(1, 3)  # a closed site opens no bus again
    assert opener.opened == 2


def test_a_message_says_whether_the_feed_already_holds_the_commit() -> None:
    assert CommitMessage.from_text(CommitMessage(5, 17, "h/1/a").to_text()) == CommitMessage(5, 17, "h/1/a")
    assert CommitMessage.from_text("5 - h/1/a b").top is None  # the log may have gone back
    with pytest.raises(ValueError):
        CommitMessage.from_text("5 17")


def test_one_site_id_for_one_database_whatever_the_url_says() -> None:
    pg = "postgresql+psycopg://arena:pw@DB.example:5432/arena"
    assert site_channel(pg) == site_channel("postgresql://arena@db.example:5432/arena?arena_pool=4")
    assert site_channel(pg) != site_channel(pg + "?arena_prefix=b_")  # another site in that database
    assert site_channel(pg) != site_channel("postgresql://arena@db.example:5432/other")
    assert site_channel("mysql+pymysql://root@h/arena") != site_channel("mysql+pymysql://root@h/arena2")
    assert site_channel(pg).startswith("arena.") and len(site_channel(pg)) <= 63


def test_the_bus_is_chosen_by_url_then_by_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class PostgresLike:  # a store whose own LISTEN/NOTIFY can carry the bus
        dialect = "postgresql"
        notify_conninfo = "postgresql://postgres@127.0.0.1:5432/postgres"
        poll_interval_s = 0.05

    class MariaLike:  # a store with no bus of its own
        dialect = "mysql"
        notify_conninfo = None
        poll_interval_s = 0.01

    store = SQLiteStore(tmp_path)
    try:
        assert bus_for(store, "redis://127.0.0.1:6379/0", tmp_path)[1] is None  # a bus for every process
        assert bus_for(store, "memory:", tmp_path)[1] == store.poll_interval_s  # one process's bus: and the poll
        assert bus_for(PostgresLike(), None, tmp_path)[1] is None  # type: ignore[arg-type]  # LISTEN/NOTIFY
        opener, poll_s = bus_for(store, None, tmp_path / "instance")  # SQLite: the file beside its tables
        bus = opener(lambda: None)
        try:
            assert poll_s is None and isinstance(bus, SqliteBus) and bus.path.parent == tmp_path
        finally:
            bus.close()
        opener, poll_s = bus_for(store, "memory:", tmp_path)  # one process's bus, and the poll
        assert poll_s == store.poll_interval_s and isinstance(opener(lambda: None), InProcessBus)
        monkeypatch.setenv("ARENA_LOG_POLL_S", "0.5")
        assert bus_for(store, "memory:", tmp_path)[1] == 0.5
        monkeypatch.delenv("ARENA_LOG_POLL_S")
        # MariaDB: the file bus of this machine's processes in the instance folder, and the
        # poll for other machines'; with memory:, the poll alone
        opener, poll_s = bus_for(MariaLike(), None, tmp_path)  # type: ignore[arg-type]
        bus = opener(lambda: None)
        try:
            assert poll_s == 0.01 and isinstance(bus, SqliteBus) and bus.path.parent == tmp_path
        finally:
            bus.close()
        opener, poll_s = bus_for(MariaLike(), "memory:", tmp_path)  # type: ignore[arg-type]
        assert poll_s == 0.01 and isinstance(opener(lambda: None), InProcessBus)
    finally:
        store.close()


def test_a_site_opens_its_bus_only_when_it_is_used(tmp_path: Path, registry: GameRegistry) -> None:
    """gunicorn builds nothing before it forks, but a site must not start the bus's threads
    or connect to its server until a stream waits or a commit publishes (in the worker)."""
    site = Site.open(tmp_path / "instance", registry=registry, bus_url="redis://127.0.0.1:1/0")
    try:
        assert site.streams._bus is None and site.streams.poller is None  # nothing connected yet
    finally:
        site.close()


def test_streams_without_a_bus_wait_for_a_wake_up(tmp_path: Path) -> None:
    """A runtime made without a site's bus (a scratch runtime, a test) still waits: its
    first wait's re-read happens once, not before every wait."""
    streams = Streams(SQLiteStore(tmp_path), utcnow)
    streams.wait(1, streams.version(1), 0.2)  # the first wait: every stream reads once
    seen = streams.version(1)
    waiter = threading.Thread(target=lambda: woken.append(streams.wait(1, seen, 20)))
    woken: list[int] = []
    waiter.start()
    deadline = time.monotonic() + 10
    while 1 not in streams.watched_tables() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert 1 in streams.watched_tables() and woken == []  # waiting, not returned at once
    streams.committed(1, 3)
    waiter.join(20)
    assert woken == [seen + 1]


def test_an_idle_stream_reads_the_log_once_per_table_not_once_per_stream(lab_table: TestTable) -> None:
    streams = lab_table.harness.site.streams
    table_id = lab_table.id
    seen = streams.version(table_id)
    assert streams.needs_read(table_id, seen, 60.0)  # nothing read yet: the first stream reads
    batch = streams.batch(table_id, None, 0, seen, ("en", "x"), None, 500, from_database=True)
    assert batch.top > 0 and streams.feed(table_id) is not None
    # the other streams of the table that heard nothing send from that read's feed ...
    assert not streams.needs_read(table_id, seen, 60.0)
    # ... until it is SSE_POLL old, or a wake-up dropped it, or the stream saw a later version
    assert streams.needs_read(table_id, seen, 0.0)
    assert streams.needs_read(table_id, seen + 1, 60.0)
    streams.wake(table_id)
    assert streams.needs_read(table_id, streams.version(table_id), 60.0)


def test_a_table_s_streams_wait_with_what_gevent_patched_after_the_import(tmp_path: Path) -> None:
    """gunicorn's master imports the streams before a gevent worker patches ``threading``:
    a table's lock and wake-up event are gevent's (an OS lock held by one greenlet, or an
    OS event waited on, would block the whole worker), and a wake-up reaches a greenlet
    waiting on the table."""
    pytest.importorskip("gevent")
    import subprocess
    import sys

    code = textwrap.dedent(f"""
        import framework.live.streams as live
        from gevent import monkey
        monkey.patch_all()
        import gevent, gevent.event, gevent.thread
        from framework.storage.sqlite import SQLiteStore
        from framework.core.clock import utcnow
        streams = live.Streams(SQLiteStore({str(tmp_path)!r}), utcnow)
        entry = streams._listeners_for(1)
        assert isinstance(entry.lock, gevent.thread.LockType), type(entry.lock)
        assert isinstance(entry.changed, gevent.event.Event), type(entry.changed)
        waiter = gevent.spawn(streams.wait, 1, 0, 10.0)
        gevent.sleep(0.05)
        streams.wake(1)
        assert waiter.get(timeout=2) == 1
        print("woken")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "woken"


def _packet(packet_id: int, private: bool = False) -> Packet:
    return Packet(packet_id, packet_id, private, 2 if private else None, "2026-01-01 00:00:00", "note",
                  "${n} played", f'{{"n": {packet_id}}}')


def test_another_process_s_commit_joins_the_feed_it_follows_without_a_read(
        two_processes: tuple[Streams, Streams, Opener], caplog: pytest.LogCaptureFixture) -> None:
    first, second, _ = two_processes
    second.listen()
    entry = second._listeners_for(7)
    second._keep_feed(7, entry, Feed(4, [_packet(5)], {"progression": 1}, second.version(7)))
    first.committed(7, 7, ([_packet(6), _packet(7, private=True)], {"progression": 2}))
    feed = second.feed(7)  # the table's file was never read: it does not exist
    assert feed is not None and feed.top == 7 and feed.version == second.version(7)
    assert feed.status == {"progression": 2}
    batch = second.batch(7, 3, 5, second.version(7), ("en", "x"), None, 500)
    assert [p.id for p in batch.packets] == [6]  # another player's private packet stays theirs
    assert second.batch(7, 2, 5, second.version(7), ("en", "x"), None, 500).packets[1].args == {"n": 7}
    first.committed(7, 9, ([_packet(9)], {"progression": 3}))  # 8 is missing: the feed is dropped
    assert second.feed(7) is None
    second._keep_feed(7, entry, Feed(4, [_packet(5)], {}, second.version(7)))
    first.committed(7, 6)  # a commit that carries nothing: the feed may miss it
    assert second.feed(7) is None
    second._keep_feed(7, entry, Feed(4, [_packet(5)], {}, second.version(7)))
    second._heard(CommitMessage(7, 6, "h/1/other", '{"packets": 3}').to_text())
    assert second.feed(7) is None and "carried what is not packets" in caplog.text


def test_a_commit_message_carries_its_packets_only_when_they_are_short() -> None:
    packets = [_packet(1), _packet(2, private=True)]
    text = CommitMessage(5, 2, "h/1/a", CommitMessage.carry(packets, {"scores": {"2": 10}})).to_text()
    carried = CommitMessage.from_text(text).carried_packets()
    assert carried is not None
    assert [(p.id, p.private, p.player, p.args) for p in carried[0]] == [(1, False, None, {"n": 1}),
                                                                         (2, True, 2, {"n": 2})]
    assert carried[1] == {"scores": {"2": 10}}
    sent: list[str] = []

    class Recorder(InProcessBus):
        def publish(self, channel: str, message: str) -> None:
            sent.append(message)

    streams = Streams(SQLiteStore(Path(tempfile.mkdtemp())), utcnow, lambda lost: Recorder())
    long = Packet(3, 3, False, None, "2026-01-01 00:00:00", "note", "x", json.dumps({"x": "y" * MAX_CARRIED}))
    streams.committed(5, 3, ([long], {}))
    streams.committed(5, 4, ([_packet(4)], {}))
    assert sent[0].count("\n") == 0 and len(sent[0]) < 100  # too long: it only says what changed
    assert CommitMessage.from_text(sent[1]).carried_packets() is not None
    streams.close()
