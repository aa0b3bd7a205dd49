"""The feed (framework.game.feed): a commit hands its notifications to the streams of its process
in memory. They must be exactly what the database gives, private rows must still reach only
their player, and a feed that might miss a commit must never be trusted."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from framework.engine.runtime import Runtime
from framework.game.feed import Feed, Packet
from framework.live.streams import CommitMessage
from framework.web.play import event_stream
from tests.web.test_events import parse_sse


def _runtime(app: Flask) -> Runtime:
    runtime: Runtime = app.extensions["arena"].runtime
    return runtime


def _count_reads(rt: Runtime, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    original = rt.streams._read_feed

    def counted(table_id: int, *args: Any) -> Any:
        reads.append(table_id)
        return original(table_id, *args)

    monkeypatch.setattr(rt.streams, "_read_feed", counted)
    return reads


def _sent(rt: Runtime, table_id: int, player: int | None, after: int) -> tuple[list[dict[str, Any]], list[str]]:
    """What a stream of ``player`` at ``after`` sends now (one wake-up's chunk, parsed)."""
    batch = rt.streams.batch(table_id, player, after, rt.streams.version(table_id), "en", None, 500)
    return parse_sse(("".join(p.sse("en", None) for p in batch.packets) + (batch.status or "")).encode())


def test_streams_get_a_commit_from_memory_exactly_as_the_database_has_it(
        app: Flask, table_id: int, players: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    rt = _runtime(app)
    last = rt.get_data(table_id, None)["notifications"]["last_packet_id"]
    assert _sent(rt, table_id, players[0], last) == ([], [])  # a stream's first read: the database
    reads = _count_reads(rt, monkeypatch)
    rt.act(table_id, players[0], "pick", {"number": 4})
    got = {pid: _sent(rt, table_id, pid, last) for pid in [*players, None]}
    assert reads == []  # every stream was served by the commit's own packets
    for pid, (messages, named) in got.items():
        assert named == ["status"]
        # the same events as the database gives this player (the log endpoint's query)
        assert messages == rt.events(table_id, pid, last)
        assert all(len(m["time"]) == 19 for m in messages)  # to the second, on every backend
    mine, theirs, watcher = got[players[0]][0], got[players[1]][0], got[None][0]
    assert any(m["type"] == "myPick" for m in mine)
    assert not any(m["type"] == "myPick" for m in theirs + watcher)
    assert not any(m["private"] for m in watcher)
    assert [m for m in mine if m["private"]] and not [m for m in theirs if m["private"]]
    # the stream itself, woken by a commit of this process: served from memory too (the
    # poll for other processes is kept out: its first look at a table wakes it anyway)
    monkeypatch.setattr(rt.streams, "poller", None)
    rt.streams.listen()  # subscribing wakes every stream once (a commit may have come meanwhile)
    top = got[None][0][-1]["id"]  # the feed goes on after it: private rows of players[0]
    with app.app_context():
        stream = event_stream(table_id, players[1], top, "en", "labgame", keepalive=30.0, poll=30.0,
                              max_seconds=30.0)
        assert next(stream).startswith(b"retry:")
        threading.Timer(0.2, rt.act, (table_id, players[1], "pick", {"number": 2})).start()
        messages, named = parse_sse(next(stream))
        stream.close()
    assert reads == [table_id]  # the stream's own first read only
    assert messages == rt.events(table_id, players[1], top) and named == ["status"]


def test_a_stream_first_reads_the_database_and_a_wake_up_without_packets_drops_the_feed(
        app: Flask, table_id: int, players: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    rt = _runtime(app)
    reads = _count_reads(rt, monkeypatch)
    with app.app_context():
        stream = event_stream(table_id, players[0], 0, "en", "labgame", keepalive=30.0, poll=30.0,
                              max_seconds=30.0)
        assert next(stream).startswith(b"retry:")
        messages, _ = parse_sse(next(stream))
        assert reads == [table_id] and messages
        entry = rt.streams._listeners[table_id]
        top = rt.get_data(table_id, None)["notifications"]["last_packet_id"]
        assert entry.feed is not None and entry.feed.top == top >= messages[-1]["id"]
        # A studio tool, a player leaving, another process's commit: a plain wake-up.
        rt.streams.wake(table_id)
        assert entry.feed is None
        stream.close()


def test_a_read_overtaken_by_a_wake_up_is_not_kept(app: Flask, table_id: int, players: list[int]) -> None:
    rt = _runtime(app)
    entry = rt.streams._listeners_for(table_id)
    seen = entry.version
    rt.streams.wake(table_id)  # a commit came while the stream was reading
    feed, packets = rt.streams._read_feed(table_id, entry, 0, seen, 500)
    assert packets and entry.feed is None  # sent, but not trusted by the other streams
    feed, packets = rt.streams._read_feed(table_id, entry, 0, entry.version, 500)
    assert entry.feed is feed and feed.version == entry.version


def test_packets_that_do_not_follow_the_feed_drop_it(app: Flask, table_id: int, players: list[int]) -> None:
    rt = _runtime(app)
    entry = rt.streams._listeners_for(table_id)
    rt.streams._read_feed(table_id, entry, 0, entry.version, 500)
    assert entry.feed is not None
    top = entry.feed.top
    gap = Packet(top + 2, 1, False, None, "2026-11-29 12:00:00", "x", "", "{}")
    rt.streams.committed(table_id, gap.id, ([gap], {}))
    assert entry.feed is None  # packet top + 1 (another process's) is missing: read it
    rt.streams._read_feed(table_id, entry, 0, entry.version, 500)
    follow = Packet(top + 1, 1, False, None, "2026-11-29 12:00:00", "x", "", "{}")
    rt.streams.committed(table_id, follow.id, ([follow], {"progression": 0, "scores": {}}))
    assert entry.feed is not None and entry.feed.top == top + 1
    assert entry.feed.version == entry.version


def test_a_feed_keeps_its_last_packets_only() -> None:
    from framework.game.feed import MAX_PACKETS

    feed = Feed(0, [], {}, 0)
    for i in range(1, MAX_PACKETS + 11):
        assert feed.extend([Packet(i, i, False, None, "t", "x", "", "{}")], {}, i)
    assert feed.base == 10 and feed.top == MAX_PACKETS + 10
    assert not feed.covers(9) and feed.covers(10)
    assert [p.id for p in feed.since(feed.top - 2, 5)] == [feed.top - 1, feed.top]


def test_a_packet_is_formatted_once_per_language() -> None:
    packet = Packet(3, 1, False, None, "2026-11-29 12:00:00", "note", "${who} plays", '{"who":"Ann"}')
    calls: list[str] = []

    def mark(text: str) -> str:
        calls.append(text)
        return "** " + text

    first = packet.sse("fr", mark)
    assert packet.sse("fr", mark) is first and calls == ["${who} plays"]
    messages, _ = parse_sse(first.encode())
    assert messages == [{"id": 3, "move_id": 1, "type": "note", "private": False, "log": "** Ann plays",
                         "msgid": "${who} plays", "args": {"who": "Ann"}, "time": "2026-11-29 12:00:00"}]
    assert parse_sse(packet.sse("en", None).encode())[0][0]["log"] == "Ann plays"


def test_a_commit_heard_after_a_stream_read_it_wakes_the_others_from_the_feed(
        app: Flask, table_id: int, players: list[int], registry: Any) -> None:
    """Another process's commit that a stream of this one read on its own (its first read)
    before the bus message came: the message must still wake the streams that were waiting,
    and they need not read the log again (the message's last id is in the feed)."""
    from framework.site import Site

    rt = _runtime(app)
    site = app.extensions["arena"]
    last = rt.get_data(table_id, None)["notifications"]["last_packet_id"]
    _sent(rt, table_id, players[0], last)  # a stream waiting at the log's end: the feed
    waiting_at = rt.streams.version(table_id)
    other = Site.open(site.instance_path, registry=registry)  # the other worker
    try:
        top = other.runtime.act(table_id, players[0], "pick", {"number": 1}).last_notification_id
    finally:
        other.close()
    # a new stream's first read (the database) finds the commit; no wake-up came yet
    batch = rt.streams.batch(table_id, players[1], last, rt.streams.version(table_id), "en", None, 500,
                             from_database=True)
    assert batch.packets and rt.streams.version(table_id) == waiting_at
    rt.streams._heard(CommitMessage(table_id, top, "elsewhere/1/x").to_text())  # the message arrives
    assert rt.streams.version(table_id) == waiting_at + 1  # the waiting stream wakes
    feed = rt.streams.feed(table_id)
    assert feed is not None and feed.top == top and feed.version == rt.streams.version(table_id)
    assert _sent(rt, table_id, players[0], last)[0] == rt.events(table_id, players[0], last)
    # a commit beyond the feed: the streams must read the log
    rt.streams._heard(CommitMessage(table_id, top + 1, "elsewhere/1/x").to_text())
    assert rt.streams.feed(table_id) is None


def test_the_status_is_read_only_when_someone_takes_the_packets(
        app: Flask, table_id: int, players: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    from framework.game.table import Table

    rt = _runtime(app)
    reads: list[int] = []
    status = Table.stream_status
    monkeypatch.setattr(Table, "stream_status", lambda self: reads.append(1) or status(self))
    rt.act(table_id, players[0], "pick", {"number": 1})  # no stream here, no other worker
    assert reads == []
    last = rt.get_data(table_id, None)["notifications"]["last_packet_id"]
    _sent(rt, table_id, players[0], last)  # a stream: the feed
    rt.act(table_id, players[1], "pick", {"number": 2})
    assert reads == [1]


def test_the_packets_a_feed_keeps_share_their_type_and_message_text() -> None:
    """A feed keeps up to MAX_PACKETS a table: each without a ``__dict__``, and its type and
    message text one copy for all the packets that have them, read from the log or heard on
    the bus."""
    def row(packet_id: int) -> dict[str, Any]:
        return {"gamelog_packet_id": packet_id, "gamelog_move_id": 1, "gamelog_private": 0,
                "gamelog_player": None, "gamelog_time": "2026-11-29 12:00:00",
                "gamelog_type": "".join(["no", "te"]), "gamelog_log": "".join(["${who} ", "plays"]),
                "gamelog_args": '{"who":"Ann"}'}

    first, second = Packet.from_row(row(1)), Packet.from_row(row(2))
    assert not hasattr(first, "__dict__")
    assert first.type is second.type and first.msgid is second.msgid
    heard = CommitMessage(7, 2, "host/1/ab", CommitMessage.carry([first, second], {})).carried_packets()
    assert heard is not None and all(p.msgid is first.msgid and p.type is first.type for p in heard[0])
