"""The SQLite bus of an SQLite site's processes (framework.live.bus_sqlite): two buses on one
file stand for two workers; one test publishes from another process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from framework.live.bus import BusClosedError, open_bus
from framework.live.bus_sqlite import MAX_MESSAGE, SqliteBus, path_of, url_of
from tests.live.test_bus import BAD_CHANNELS, ROOT, Inbox, new_channel, publish_from_threads, wait_until


class Buses:
    def __init__(self, path: Path) -> None:
        self.url = url_of(path)
        self.made: list[SqliteBus] = []

    def bus(self, **options: object) -> SqliteBus:
        bus = SqliteBus(self.url, **options)  # type: ignore[arg-type]
        self.made.append(bus)
        return bus


@pytest.fixture
def buses(tmp_path: Path) -> Iterator[Buses]:
    found = Buses(tmp_path / "live-bus.sqlite")
    yield found
    for bus in found.made:
        bus.close()


def test_open_bus_chooses_the_sqlite_bus_by_scheme(tmp_path: Path) -> None:
    bus = open_bus(url_of(tmp_path / "b.sqlite"))
    try:
        assert isinstance(bus, SqliteBus) and bus.path == (tmp_path / "b.sqlite").resolve()
    finally:
        bus.close()
    for bad in ("sqlite://", "sqlite:///"):
        with pytest.raises(ValueError, match="not an SQLite bus URL"):
            path_of(bad)


def test_two_workers_every_subscriber_gets_every_message_once_in_publish_order(buses: Buses) -> None:
    channel = new_channel()
    workers = [buses.bus(), buses.bus()]
    inboxes = [Inbox(), Inbox()]
    for bus, inbox in zip(workers, inboxes, strict=True):
        bus.subscribe(channel, inbox)
    count = 300
    publish_from_threads(lambda w, message: workers[w].publish(channel, message), 2, count)
    assert all(wait_until(lambda inbox=inbox: len(inbox.received()) >= 2 * count) for inbox in inboxes)
    first = inboxes[0].received()
    assert inboxes[1].received() == first  # one order for every listener: the file's
    assert sorted(first) == sorted(f"{w}:{i}" for w in range(2) for i in range(count))
    for w in range(2):  # each sender's messages in the order it sent them
        assert [m for m in first if m.startswith(f"{w}:")] == [f"{w}:{i}" for i in range(count)]


def test_unsubscribe_and_other_channels(buses: Buses) -> None:
    channel, other = new_channel(), new_channel()
    sender, listener = buses.bus(), buses.bus()
    inbox, elsewhere = Inbox(), Inbox()
    listener.subscribe(channel, inbox)
    listener.subscribe(other, elsewhere)
    sender.publish(channel, "one")
    assert wait_until(lambda: inbox.has("one"))
    listener.unsubscribe(channel, inbox)
    sender.publish(channel, "two")
    sender.publish(other, "marker")
    assert wait_until(lambda: elsewhere.has("marker"))
    assert inbox.received() == ["one"] and elsewhere.received() == ["marker"]


def test_a_listener_that_fell_behind_the_kept_rows_is_told_it_lost_messages(buses: Buses) -> None:
    lost: list[int] = []
    listener = buses.bus(on_reconnect=lambda: lost.append(1), poll_s=3600.0)  # never looks by itself
    sender = buses.bus(keep=10)
    channel = new_channel()
    inbox = Inbox()
    listener.subscribe(channel, inbox)
    for i in range(1000):  # the 1000th publish deletes all but the last 10 rows
        sender.publish(channel, str(i))
    listener._deliver()  # what one look of its listener does
    assert lost == [1] and listener.lost == 1
    assert inbox.received() == [str(i) for i in range(990, 1000)]


def test_a_message_published_by_another_process_arrives(buses: Buses) -> None:
    channel = new_channel()
    listener = buses.bus()
    inbox = Inbox()
    listener.subscribe(channel, inbox)
    code = textwrap.dedent(f"""
        from framework.live.bus_sqlite import SqliteBus
        bus = SqliteBus({buses.url!r})
        bus.publish({channel!r}, "from another process")
        bus.close()
    """)
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    assert wait_until(lambda: inbox.has("from another process"))


def test_bad_input_is_refused_and_publishes_nothing(buses: Buses) -> None:
    sender, listener = buses.bus(), buses.bus()
    channel = new_channel()
    inbox = Inbox()
    listener.subscribe(channel, inbox)
    for bad in BAD_CHANNELS:
        with pytest.raises(ValueError):
            sender.publish(bad, "x")
    with pytest.raises(ValueError, match="at most"):
        sender.publish(channel, "x" * (MAX_MESSAGE + 1))
    sender.publish(channel, "marker")
    assert wait_until(lambda: inbox.has("marker"))
    assert inbox.received() == ["marker"]


def test_a_closed_bus_refuses_use_and_closing_twice_is_harmless(buses: Buses) -> None:
    bus = buses.bus()
    bus.close()
    bus.close()
    with pytest.raises(BusClosedError):
        bus.publish(new_channel(), "x")
    with pytest.raises(BusClosedError):
        bus.subscribe(new_channel(), Inbox())
