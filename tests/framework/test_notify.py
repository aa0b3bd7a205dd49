"""A commit made by another process (here: another site on the same databases) reaches the
event streams of that table, waiting in that process, at once and in order."""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import pytest

from framework.game.registry import GameRegistry
from framework.site import Site
from framework.testing import TestTable

pytestmark = pytest.mark.all_backends


class Stream(threading.Thread):
    """What the SSE route does: read the log after the last id, else wait for a wake-up."""

    def __init__(self, site: Site, table_id: int, after: int, timeout: float = 20) -> None:
        super().__init__()
        self.site, self.table_id, self.after, self.timeout = site, table_id, after, timeout
        self.received: list[dict[str, Any]] = []
        self.waits = 0
        self.waiting = threading.Event()

    def run(self) -> None:
        runtime = self.site.runtime
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            seen = runtime.version(self.table_id)
            rows = runtime.events(self.table_id, None, self.after)
            if rows:
                self.received = rows
                return
            self.waits += 1
            self.waiting.set()
            runtime.wait(self.table_id, seen, timeout=deadline - time.monotonic())


def test_a_commit_in_another_process_wakes_the_streams_of_that_table(
        lab_table: TestTable, registry: GameRegistry, database_url: str | None) -> None:
    a = lab_table.players[0]
    other_table = lab_table.harness.create_table(players=3, seed=7)
    last = {t.id: t.data(None)["notifications"]["last_packet_id"] for t in (lab_table, other_table)}
    # The first site writes as the command line or another machine does: it announces nothing
    # in datagrams (that path: the next test), so the poll or NOTIFY must find its commit.
    lab_table.harness.site.runtime.on_commit = None
    # The second "worker": its own site, connections and listener on the same databases.
    worker = Site.open(lab_table.harness.site.instance_path, database_url=database_url, registry=registry)
    streams: list[Stream] = []
    try:
        streams = [Stream(worker, lab_table.id, last[lab_table.id]),
                   Stream(worker, other_table.id, last[other_table.id], timeout=2)]
        for stream in streams:
            stream.start()
            assert stream.waiting.wait(10)
        lab_table.act(a, "pick", number=3)  # committed by the first site
        streams[0].join(30)
        assert not streams[0].is_alive(), "the other worker's stream was never woken"
        # exactly the public rows of the commit, in order, as the first worker wrote them
        assert streams[0].received == lab_table.notifications(None, after=last[lab_table.id])
        assert "picked" in [e["type"] for e in streams[0].received]
        streams[1].join(30)
        assert streams[1].received == []  # the table nobody played on sent nothing
        assert worker.notifier.wakeups >= 1 and worker.notifier.received == 0
    finally:
        for stream in streams:
            stream.join(30)
        worker.close()


def test_the_sqlite_poller_reads_a_log_only_when_another_connection_committed(tmp_path: Any) -> None:
    from framework.storage.sqlite import SQLiteStore

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


def test_a_commit_reaches_the_other_process_in_a_datagram_with_its_notifications(
        lab_table: TestTable, registry: GameRegistry, database_url: str | None) -> None:
    first = lab_table.harness.site
    worker = Site.open(first.instance_path, database_url=database_url, registry=registry)
    try:
        if worker.notifier.channel is None:
            pytest.skip("datagrams between processes are Linux only")
        worker.notifier.ensure_running()  # what the worker's first waiting stream does
        first.notifier.ensure_running()  # listening, it says hello to the worker...
        deadline = time.monotonic() + 10
        while not worker.notifier.channel.announces(os.getpid()) and time.monotonic() < deadline:
            time.sleep(0.01)
        # ...which then knows its commits come in datagrams: on PostgreSQL, their NOTIFYs
        # wake nothing (the datagram does), and the streams read nothing
        assert worker.notifier.channel.announces(os.getpid())
        rt = worker.runtime
        last = lab_table.data(None)["notifications"]["last_packet_id"]
        # the worker's stream at the log's end: its first read is the database's
        first_batch = rt.stream_batch(lab_table.id, None, last, rt.version(lab_table.id), "en", None, 500,
                                      from_database=True)
        assert first_batch.packets == [] and first_batch.top == last
        reads: list[int] = []
        read_feed = rt._read_feed
        rt._read_feed = lambda table_id, *args: reads.append(table_id) or read_feed(table_id, *args)  # type: ignore[method-assign]
        lab_table.act(lab_table.players[0], "pick", number=3)  # committed by the first site
        deadline = time.monotonic() + 10
        while worker.notifier.received < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.notifier.received >= 1 and first.notifier.channel is not None
        assert first.notifier.channel.sent >= 1
        batch = rt.stream_batch(lab_table.id, None, last, rt.version(lab_table.id), "en", None, 500)
        assert reads == []  # the datagram brought the notifications: no read
        sent = [json.loads(p.sse("en", None).split("data: ", 1)[1]) for p in batch.packets]
        assert sent == lab_table.notifications(None, after=last) and sent
        assert batch.status is not None and '"scores"' in batch.status
        # the poll that follows does not wake the table again for the same commit
        assert lab_table.id not in worker.notifier.poll_once()
        # a commit announced without its notifications (a studio tool, a large commit)
        before = rt.version(lab_table.id)
        worker.notifier.received_datagram(json.dumps([lab_table.id, None, None, None]).encode())
        assert rt.version(lab_table.id) == before + 1 and rt._listeners[lab_table.id].feed is None
        token = worker.notifier.channel.token
        assert token is not None and (first.instance_path / ".peers" / token).exists()
    finally:
        worker.close()
    assert not (first.instance_path / ".peers" / token).exists()  # a closed site is no peer


def test_datagrams_to_a_gone_process_or_malformed_ones_change_nothing(tmp_path: Any, registry: GameRegistry) -> None:
    site = Site.open(tmp_path / "instance", registry=registry)
    try:
        channel = site.notifier.channel
        assert channel is not None
        (channel.directory).mkdir(parents=True, exist_ok=True)
        gone = channel.directory / "999999-deadbeef0000"
        gone.touch()  # a worker killed before it could remove its file
        site.runtime.changed(1)  # a studio tool wrote table 1: announced to the peers
        assert not gone.exists() and channel.dropped == 1
        site.notifier.received_datagram(b"not json")
        site.notifier.received_datagram(b'[1, 2, [["x"]], {}]')
        assert site.notifier.received == 0
    finally:
        site.close()


def test_only_datagrams_from_this_user_are_heard() -> None:
    import os
    import socket
    import struct

    from framework.live.notify import PeerChannel

    def creds(uid: int) -> list[tuple[int, int, bytes]]:
        return [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, struct.pack("3i", 4242, uid, 0))]

    assert PeerChannel.sender_pid(creds(os.getuid())) == 4242
    assert PeerChannel.sender_pid(creds(os.getuid() + 1)) is None  # another user's process
    assert PeerChannel.sender_pid([]) is None  # no credentials: not heard


def test_datagrams_for_a_busy_peer_wait_and_arrive_in_order(tmp_path: Any) -> None:
    """The kernel queues a few datagrams per receiver (``net.unix.max_dgram_qlen``); the
    rest are held and sent, in order, once the peer has read its queue."""
    from framework.live.notify import PeerChannel

    if not PeerChannel.supported():
        pytest.skip("datagrams between processes are Linux only")
    receiver, sender = PeerChannel(tmp_path / "peers"), PeerChannel(tmp_path / "peers")
    sock = receiver.bind()
    sock.settimeout(0)
    try:
        payloads: list[bytes] = []
        while len(payloads) < 100_000 and not sender._pending:  # until the queue is full
            payloads.append(f"commit {len(payloads)}".encode())
            sender.send(payloads[-1])
        for _ in range(50):  # and some more, held behind
            payloads.append(f"commit {len(payloads)}".encode())
            sender.send(payloads[-1])
        assert len(sender._pending[receiver.token or ""]) == 51
        got: list[bytes] = []
        for _ in range(1000):
            while True:
                try:
                    got.append(receiver.receive(sock) or b"")
                except BlockingIOError:
                    break
            if not sender.flush():
                break
        while True:
            try:
                got.append(receiver.receive(sock) or b"")
            except BlockingIOError:
                break
        assert got == payloads and sender.dropped == 0 and sender.sent == len(payloads)
        deadline = time.monotonic() + 5
        while sender._flusher is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sender._flusher is None  # nothing held: the flusher thread has ended
        # a peer that never reads keeps only the newest MAX_HELD; the older ones are dropped
        sender.MAX_HELD = 5
        for i in range(100):
            sender.send(b"late %d" % i)
        assert len(sender._pending[receiver.token or ""]) == 5
        assert sender.dropped > 0
    finally:
        receiver.close()


def test_a_process_that_starts_listening_is_listed_at_once(tmp_path: Any, registry: GameRegistry) -> None:
    from framework.live.notify import HELLO, PeerChannel

    if not PeerChannel.supported():
        pytest.skip("datagrams between processes are Linux only")
    site = Site.open(tmp_path / "instance", registry=registry)
    channel = site.notifier.channel
    assert channel is not None
    try:
        sock = channel.bind()
        sock.settimeout(5)
        assert channel.peers() == []  # listed now; not again for a second
        newcomer = PeerChannel(channel.directory)
        newcomer.bind()  # says hello to the peers it finds
        try:
            payload = channel.receive(sock)
            assert payload == HELLO
            assert channel.peers() == []  # still the old list...
            site.notifier.received_datagram(payload)
            assert [name for name, _ in channel.peers()] == [newcomer.token]  # ...until the hello
            assert site.notifier.received == 0  # a hello is no commit
        finally:
            newcomer.close()
    finally:
        site.close()


def test_a_notify_sender_is_a_process_of_this_machine_or_none() -> None:
    import socket

    from framework.storage.postgres import PostgresStore

    assert PostgresStore.local_sender_pid(f"{socket.gethostname()}/123/456") == 123
    assert PostgresStore.local_sender_pid("another-host/123/456") is None
    assert PostgresStore.local_sender_pid("garbage") is None
