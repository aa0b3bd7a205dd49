"""The bus between processes: in one process, and on real Redis and PostgreSQL servers
(``ARENA_TEST_REDIS_URL``, ``ARENA_TEST_POSTGRES_URL``), where two buses stand for two
machines."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from framework.live.bus import Bus, BusClosedError, InProcessBus, open_bus

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 20.0  # how long a test waits for messages before it fails
BAD_CHANNELS = ["", "a b", "x" * 64, "table;drop", "é", "a/b", "a\0b", "chan\n"]
SKIP = {
    "redis": "set ARENA_TEST_REDIS_URL=redis://127.0.0.1:6379/0 to test the Redis bus",
    "postgres": "set ARENA_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/postgres "
                "to test the PostgreSQL bus",
}


def new_channel() -> str:
    """A channel no other test (nor a parallel run) uses."""
    return f"test.{uuid.uuid4().hex}"


def wait_until(condition: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    deadline = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@dataclass
class Inbox:
    """A handler that keeps what it receives."""

    messages: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, message: str) -> None:
        with self.lock:
            self.messages.append(message)

    def received(self) -> list[str]:
        with self.lock:
            return list(self.messages)

    def has(self, message: str) -> bool:
        return message in self.received()

    __hash__ = object.__hash__  # a handler is subscribed by identity


def publish_from_threads(publish: Callable[[int, str], None], senders: int, count: int,
                         prefix: str = "", end: bool = False) -> None:
    """``senders`` threads, started together, each publishing ``<prefix><n>:<i>`` for
    ``i < count`` (then ``<prefix><n>:end`` with ``end``) through ``publish(n, message)``."""
    start = threading.Barrier(senders)

    def sender(n: int) -> None:
        start.wait()
        for i in range(count):
            publish(n, f"{prefix}{n}:{i}")
        if end:
            publish(n, f"{prefix}{n}:end")

    threads = [threading.Thread(target=sender, args=(n,)) for n in range(senders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# ---------------------------------------------------------------------------- in one process
def test_in_process_handlers_get_each_message_in_publish_order() -> None:
    bus = InProcessBus()
    first, second, other = Inbox(), Inbox(), Inbox()
    bus.subscribe("table.1", first)
    bus.subscribe("table.1", second)
    bus.subscribe("table.2", other)
    for i in range(5):
        bus.publish("table.1", f"m{i}")
    assert first.received() == second.received() == [f"m{i}" for i in range(5)]
    assert other.received() == []


def test_in_process_subscribing_twice_delivers_once() -> None:
    bus = InProcessBus()
    inbox = Inbox()
    bus.subscribe("c", inbox)
    bus.subscribe("c", inbox)
    bus.publish("c", "once")
    assert inbox.received() == ["once"]


def test_in_process_unsubscribe_stops_delivery() -> None:
    bus = InProcessBus()
    kept, dropped = Inbox(), Inbox()
    bus.subscribe("c", kept)
    bus.subscribe("c", dropped)
    bus.publish("c", "before")
    bus.unsubscribe("c", dropped)
    bus.unsubscribe("c", Inbox())  # never subscribed: nothing happens
    bus.publish("c", "after")
    assert kept.received() == ["before", "after"]
    assert dropped.received() == ["before"]


def test_in_process_handler_that_unsubscribes_another_stops_it_at_once() -> None:
    bus = InProcessBus()
    late = Inbox()

    def first(message: str) -> None:
        bus.unsubscribe("c", late)

    bus.subscribe("c", first)
    bus.subscribe("c", late)
    bus.publish("c", "m")
    assert late.received() == []


def test_in_process_publish_from_a_handler_keeps_one_order_for_all() -> None:
    bus = InProcessBus()
    seen_by_echo: list[str] = []
    after = Inbox()

    def echo(message: str) -> None:
        seen_by_echo.append(message)
        if message == "ping":
            bus.publish("c", "pong")

    bus.subscribe("c", echo)
    bus.subscribe("c", after)
    bus.publish("c", "ping")
    assert seen_by_echo == after.received() == ["ping", "pong"]


def test_in_process_publishing_threads_every_handler_sees_the_same_order() -> None:
    bus = InProcessBus()
    inboxes = [Inbox(), Inbox()]
    for inbox in inboxes:
        bus.subscribe("c", inbox)
    publish_from_threads(lambda _n, message: bus.publish("c", message), 4, 300, prefix="t")
    first, second = (inbox.received() for inbox in inboxes)
    assert first == second
    assert len(first) == 1200
    for n in range(4):
        assert [m for m in first if m.startswith(f"t{n}:")] == [f"t{n}:{i}" for i in range(300)]


def test_in_process_failing_handler_is_logged_and_others_still_called(
        caplog: pytest.LogCaptureFixture) -> None:
    bus = InProcessBus()
    inbox = Inbox()

    def broken(message: str) -> None:
        raise RuntimeError("handler bug")

    bus.subscribe("c", broken)
    bus.subscribe("c", inbox)
    with caplog.at_level(logging.ERROR, logger="framework.live.channels"):
        bus.publish("c", "m")
    assert inbox.received() == ["m"]
    assert any(r.exc_info and "handler bug" in str(r.exc_info[1]) for r in caplog.records)


@pytest.mark.parametrize("channel", BAD_CHANNELS)
def test_in_process_bad_channel_names_raise(channel: str) -> None:
    bus = InProcessBus()
    with pytest.raises(ValueError, match="invalid bus channel"):
        bus.publish(channel, "m")
    with pytest.raises(ValueError, match="invalid bus channel"):
        bus.subscribe(channel, Inbox())
    with pytest.raises(ValueError, match="invalid bus channel"):
        bus.unsubscribe(channel, Inbox())


def test_channel_names_up_to_63_characters_of_the_allowed_ones_are_accepted() -> None:
    bus = InProcessBus()
    inbox = Inbox()
    name = "Az09_.:-" + "x" * 55
    assert len(name) == 63
    bus.subscribe(name, inbox)
    bus.publish(name, "m")
    assert inbox.received() == ["m"]


def test_in_process_closed_bus_refuses_use() -> None:
    bus = InProcessBus()
    bus.close()
    bus.close()
    with pytest.raises(BusClosedError):
        bus.publish("c", "m")
    with pytest.raises(BusClosedError):
        bus.subscribe("c", Inbox())


@pytest.mark.parametrize("url", [None, "memory:", "memory://"])
def test_open_bus_without_a_server_is_in_process(url: str | None) -> None:
    assert isinstance(open_bus(url), InProcessBus)


@pytest.mark.parametrize("url", ["amqp://guest:secret@host/", "file:///x.db", "redis", "mysql://root@db/"])
def test_open_bus_unknown_scheme_names_the_accepted_ones(url: str) -> None:
    with pytest.raises(ValueError) as error:
        open_bus(url)
    text = str(error.value)
    assert "unknown bus URL scheme" in text
    for scheme in ("memory:", "redis:", "rediss:", "postgresql:", "postgresql+psycopg:", "sqlite:"):
        assert scheme in text
    assert "secret" not in text


# ---------------------------------------------------------------------------- on a server
def server_url(backend: str) -> str:
    """The test server's URL for ``backend``, or skip saying which variable to set."""
    if backend == "redis":
        url = os.environ.get("ARENA_TEST_REDIS_URL")
        if not url:
            pytest.skip(SKIP["redis"])
        import redis

        try:
            redis.Redis.from_url(url, socket_connect_timeout=3).ping()
        except redis.RedisError as exc:
            pytest.skip(f"Redis at ARENA_TEST_REDIS_URL is unreachable ({exc}); {SKIP['redis']}")
        return url
    url = os.environ.get("ARENA_TEST_POSTGRES_URL")
    if not url:
        pytest.skip(SKIP["postgres"])
    import psycopg

    from framework.live.bus_postgres import to_conninfo

    try:
        psycopg.connect(to_conninfo(url), connect_timeout=3).close()
    except psycopg.Error as exc:
        pytest.skip(f"PostgreSQL at ARENA_TEST_POSTGRES_URL is unreachable ({exc}); {SKIP['postgres']}")
    return url


class Servers:
    """Buses on one server, as if each ran on its own machine; closed after the test."""

    def __init__(self, backend: str, url: str) -> None:
        self.backend = backend
        self.url = url
        self.buses: list[Bus] = []

    def bus(self, on_reconnect: Callable[[], None] | None = None) -> Bus:
        url = self.url
        if self.backend == "redis":  # a name to find this bus's pubsub connection by
            url += ("&" if "?" in url else "?") + f"client_name=arena-test-{uuid.uuid4().hex[:12]}"
        bus = open_bus(url, on_reconnect=on_reconnect)
        self.buses.append(bus)
        return bus

    def kill_listener(self, bus: Bus) -> None:
        """Cut the bus's listening connection from the server side."""
        if self.backend == "postgres":
            import psycopg

            from framework.live.bus_postgres import PostgresBus, to_conninfo

            assert isinstance(bus, PostgresBus)
            assert wait_until(lambda: bus.listener_pid is not None)
            with psycopg.connect(to_conninfo(self.url), autocommit=True) as conn:
                row = conn.execute("SELECT pg_terminate_backend(%s)", (bus.listener_pid,)).fetchone()
            assert row == (True,)
            return
        import redis

        from framework.live.bus_redis import RedisBus

        assert isinstance(bus, RedisBus)
        name = bus._listener.connection_pool.connection_kwargs["client_name"]
        admin = redis.Redis.from_url(self.url)
        try:
            # CLIENT KILL TYPE pubsub would cut the buses of tests running in parallel too.
            ids = [c["id"] for c in admin.client_list(_type="pubsub") if c.get("name") == name]
            assert ids, "the bus has no pubsub connection to kill"
            for client_id in ids:
                admin.client_kill_filter(_id=client_id)
        finally:
            admin.close()

    def close(self) -> None:
        for bus in self.buses:
            bus.close()


@pytest.fixture(params=["redis", "postgres"])
def servers(request: pytest.FixtureRequest) -> Iterator[Servers]:
    found = Servers(request.param, server_url(request.param))
    yield found
    found.close()


def test_open_bus_chooses_the_server_bus_by_scheme(servers: Servers) -> None:
    from framework.live.bus_postgres import PostgresBus
    from framework.live.bus_redis import RedisBus

    bus = servers.bus()
    assert isinstance(bus, RedisBus if servers.backend == "redis" else PostgresBus)
    if servers.backend == "postgres":
        sqlalchemy_style = open_bus(servers.url.replace("postgresql://", "postgresql+psycopg://", 1))
        servers.buses.append(sqlalchemy_style)
        assert isinstance(sqlalchemy_style, PostgresBus)


def test_two_machines_every_subscriber_gets_every_message_once_in_each_senders_order(
        servers: Servers) -> None:
    channel = new_channel()
    machines = [servers.bus(), servers.bus()]
    inboxes = {(m, n): Inbox() for m in range(2) for n in range(2)}
    for (m, _n), inbox in inboxes.items():
        machines[m].subscribe(channel, inbox)
    count = 200
    publish_from_threads(lambda m, message: machines[m].publish(channel, message), 2, count, end=True)
    assert wait_until(lambda: all(inbox.has("0:end") and inbox.has("1:end") for inbox in inboxes.values()))
    for where, inbox in inboxes.items():
        received = inbox.received()
        assert len(received) == 2 * (count + 1), where
        for m in range(2):
            assert [x for x in received if x.startswith(f"{m}:")] == \
                [f"{m}:{i}" for i in range(count)] + [f"{m}:end"], where


def test_unsubscribe_stops_delivery(servers: Servers) -> None:
    channel, witness_channel = new_channel(), new_channel()
    a, b = servers.bus(), servers.bus()
    kept, dropped, alone, witness = Inbox(), Inbox(), Inbox(), Inbox()
    a.subscribe(channel, kept)
    a.subscribe(channel, dropped)
    b.subscribe(channel, alone)
    b.subscribe(witness_channel, witness)
    b.publish(channel, "before")
    assert wait_until(lambda: kept.has("before") and dropped.has("before") and alone.has("before"))
    a.unsubscribe(channel, dropped)
    b.publish(channel, "one left")
    assert wait_until(lambda: kept.has("one left") and alone.has("one left"))
    b.unsubscribe(channel, alone)  # b's last handler: b stops listening to the channel
    a.publish(channel, "none on b")
    # b hears a's messages in the order sent: once the witness has its message, b is past
    # "none on b" (a subscription made before that could have caught it in flight)
    a.publish(witness_channel, "sync")
    assert wait_until(lambda: kept.has("none on b") and witness.has("sync"))
    b.subscribe(channel, alone)
    a.publish(channel, "end")
    assert wait_until(lambda: kept.has("end") and alone.has("end"))
    assert dropped.received() == ["before"]
    assert alone.received() == ["before", "one left", "end"]
    assert kept.received() == ["before", "one left", "none on b", "end"]


def test_a_message_to_another_channel_is_not_delivered(servers: Servers) -> None:
    channel, other = new_channel(), new_channel()
    a, b = servers.bus(), servers.bus()
    inbox, other_inbox = Inbox(), Inbox()
    a.subscribe(channel, inbox)
    a.subscribe(other, other_inbox)
    b.publish(other, "elsewhere")
    b.publish(channel, "here")
    assert wait_until(lambda: inbox.has("here") and other_inbox.has("elsewhere"))
    assert inbox.received() == ["here"]
    assert other_inbox.received() == ["elsewhere"]


def test_a_publish_after_the_listener_was_killed_arrives_once_reconnected(servers: Servers) -> None:
    channel = new_channel()
    reconnected = threading.Event()
    listener = servers.bus(on_reconnect=reconnected.set)
    sender = servers.bus()
    inbox = Inbox()
    listener.subscribe(channel, inbox)
    sender.publish(channel, "before")
    assert wait_until(lambda: inbox.has("before"))
    servers.kill_listener(listener)
    assert reconnected.wait(DEADLINE_S), "the bus did not reconnect"
    sender.publish(channel, "after")
    assert wait_until(lambda: inbox.has("after"))
    assert inbox.received() == ["before", "after"]
    assert getattr(listener, "reconnects") == 1  # noqa: B009 (not on the Bus protocol)


def test_bad_channel_names_raise_and_publish_nothing(servers: Servers) -> None:
    a, b = servers.bus(), servers.bus()
    longest = "y" * 63  # where PostgreSQL would send a 64-character name, cut to 63
    inbox = Inbox()
    a.subscribe(longest, inbox)
    for channel in BAD_CHANNELS:
        with pytest.raises(ValueError, match="invalid bus channel"):
            b.publish(channel, "bad")
        with pytest.raises(ValueError, match="invalid bus channel"):
            b.subscribe(channel, Inbox())
    b.publish(longest, "good")
    assert wait_until(lambda: inbox.has("good"))
    assert inbox.received() == ["good"]


def test_postgres_payloads_of_8000_bytes_raise_and_publish_nothing(servers: Servers) -> None:
    if servers.backend != "postgres":
        pytest.skip("only PostgreSQL limits the payload")
    channel = new_channel()
    a, b = servers.bus(), servers.bus()
    inbox = Inbox()
    a.subscribe(channel, inbox)
    for message in ("x" * 8000, "é" * 4000, "x" * 100_000):
        with pytest.raises(ValueError, match="at most 7999 bytes"):
            b.publish(channel, message)
    with pytest.raises(ValueError, match="NUL"):
        b.publish(channel, "a\0b")
    largest = "é" * 3999 + "x"  # 7999 bytes
    b.publish(channel, largest)
    assert wait_until(lambda: inbox.has(largest))
    assert inbox.received() == [largest]


def test_closed_server_bus_refuses_use_and_close_twice_is_harmless(servers: Servers) -> None:
    bus = servers.bus()
    bus.subscribe(new_channel(), Inbox())
    bus.close()
    bus.close()
    with pytest.raises(BusClosedError):
        bus.publish(new_channel(), "m")
    with pytest.raises(BusClosedError):
        bus.subscribe(new_channel(), Inbox())


GEVENT_CHILD = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()

    import sys, threading
    from framework.live.bus import open_bus

    # A listener that blocked the process in its wait (psycopg's C wait, say) would hold
    # every greenlet for poll_s = 60 s: the parent's deadline is shorter.
    url, channel = sys.argv[1], sys.argv[2]
    options = {"poll_s": 60.0}
    if url.startswith("redis"):
        from framework.live.bus_redis import RedisBus as Kind
    else:
        from framework.live.bus_postgres import PostgresBus as Kind
    listener, sender = Kind(url, **options), Kind(url, **options)
    got = threading.Event()
    listener.subscribe(channel, lambda message: got.set() if message == "hi" else None)
    sender.publish(channel, "hi")
    if not got.wait(30):
        sys.exit("not delivered")
    listener.close()
    sender.close()
    print("delivered")
""")


def test_the_bus_works_in_a_gevent_patched_process(servers: Servers) -> None:
    pytest.importorskip("gevent")
    proc = subprocess.run([sys.executable, "-c", GEVENT_CHILD, servers.url, new_channel()], cwd=ROOT,
                          capture_output=True, text=True, timeout=45)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "delivered"


def test_handlers_run_off_the_publishing_thread_and_may_subscribe(servers: Servers) -> None:
    """A handler that subscribes to another channel (on the listener thread) is not stuck
    waiting for itself, and the new subscription delivers."""
    first, second = new_channel(), new_channel()
    a, b = servers.bus(), servers.bus()
    inbox = Inbox()
    threads: list[Any] = []

    def chain(message: str) -> None:
        threads.append(threading.current_thread())
        a.subscribe(second, inbox)

    a.subscribe(first, chain)
    b.publish(first, "go")
    assert wait_until(lambda: bool(threads))
    assert threads[0] is not threading.current_thread()
    # the subscription made by the handler is active once a's listener has confirmed it
    assert wait_until(lambda: _published_until_received(b, second, inbox))


def _published_until_received(bus: Bus, channel: str, inbox: Inbox) -> bool:
    bus.publish(channel, "probe")
    time.sleep(0.05)
    return inbox.has("probe")


def test_unsubscribing_and_subscribing_again_at_once_keeps_listening(
        servers: Servers, caplog: pytest.LogCaptureFixture) -> None:
    """However the listener interleaves with them, each ``subscribe`` returns listening
    (never after its timeout) and the last subscription delivers."""
    channel = new_channel()
    a, b = servers.bus(), servers.bus()
    inbox = Inbox()
    with caplog.at_level(logging.WARNING, logger="framework.live"):
        for _ in range(30):
            a.subscribe(channel, inbox)
            a.unsubscribe(channel, inbox)
        a.subscribe(channel, inbox)
    b.publish(channel, "still here")
    assert wait_until(lambda: inbox.has("still here"))
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
