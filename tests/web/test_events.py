"""Server-Sent Events: ids are gamelog ids, resuming from Last-Event-ID gives exactly the
missed notifications, in order, once; private rows reach only their player."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from flask import Flask

from framework.web.play import event_stream
from tests.web.conftest import Browser


def parse_sse(body: bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """Message events and the names of other events of an SSE body."""
    messages, named = [], []
    for block in body.decode().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key] = value.lstrip(" ")
        if "event" in fields:
            named.append(fields["event"])
        elif "data" in fields:
            event = json.loads(fields["data"])
            assert fields["id"] == str(event["id"])
            messages.append(event)
    return messages, named


def test_stream_headers_and_format(browser: Browser, table_id: int, players: list[int]) -> None:
    r = browser.get(f"/table/{table_id}/events?as={players[0]}")
    assert r.status_code == 200
    assert r.mimetype == "text/event-stream" and r.headers["Cache-Control"] == "no-store"  # one player's events: never kept
    messages, named = parse_sse(r.data)
    assert messages and "status" in named
    assert [m["id"] for m in messages] == sorted({m["id"] for m in messages})
    assert b"retry: 1000" in r.data


def test_private_rows_reach_only_their_player(browser: Browser, table_id: int, players: list[int]) -> None:
    browser.act(table_id, players[0], "pick", number=5)
    mine, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}").data)
    theirs, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[1]}").data)
    watcher, _ = parse_sse(browser.get(f"/table/{table_id}/events").data)
    assert any(m["type"] == "myPick" for m in mine)
    assert not any(m["type"] == "myPick" or m["private"] and m["args"].get("number") for m in theirs)
    assert not any(m["private"] for m in watcher)
    assert all(not m["private"] or m["type"] != "myPick" for m in theirs)
    hints = [m for m in theirs if m["type"] == "gameStateChangePrivateArg"]
    assert hints and all(h["args"]["args"]["hint"] == players[1] % 5 + 1 for h in hints)


def test_resuming_gives_exactly_the_missed_notifications(browser: Browser, table_id: int,
                                                         players: list[int]) -> None:
    first, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}").data)
    seen = first[-1]["id"]
    browser.act(table_id, players[0], "pick", number=1)
    browser.act(table_id, players[1], "pick", number=2)
    resumed, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}",
                                       headers={"Last-Event-ID": str(seen)}).data)
    everything, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}").data)
    assert [m["id"] for m in first + resumed] == [m["id"] for m in everything]
    assert all(m["id"] > seen for m in resumed) and resumed
    # Last-Event-ID wins over ?after= (the browser sends it on its own reconnections).
    again, _ = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}&after=0",
                                     headers={"Last-Event-ID": str(everything[-1]["id"])}).data)
    assert again == []
    assert browser.get(f"/table/{table_id}/events?after=nope").status_code == 400


def test_a_commit_wakes_a_waiting_stream_at_once(app: Flask, table_id: int, players: list[int]) -> None:
    rt = app.extensions["arena"].runtime
    last = rt.get_data(table_id, players[0])["notifications"]["last_packet_id"]
    with app.app_context():
        stream = event_stream(table_id, players[0], last, "en", "labgame", keepalive=30.0, poll=30.0,
                              max_seconds=30.0)
        assert next(stream).startswith(b"retry:")

        def later() -> None:
            time.sleep(0.2)
            rt.act(table_id, players[0], "pick", {"number": 3})

        threading.Thread(target=later).start()
        started = time.monotonic()
        chunk = next(stream)
        assert time.monotonic() - started < 5  # woken by the runtime, not by the 30 s poll
        # what one wake-up found goes out as one chunk: the events, then the status
        messages, named = parse_sse(chunk)
        assert messages[0]["id"] == last + 1 and named == ["status"]
        status = json.loads(chunk.decode().split("event: status\ndata: ", 1)[1].split("\n", 1)[0])
        data = rt.get_data(table_id, players[0])
        assert status["progression"] == data["progression"]
        assert status["scores"] == {
            pid: {"score": p["score"], "score_aux": p["score_aux"], "time_left": status["scores"][pid]["time_left"]}
            for pid, p in data["players"].items()}
        assert all(0 < s["time_left"] <= 100_000 for s in status["scores"].values())
        assert [m["id"] for m in messages] == list(range(last + 1, last + 1 + len(messages)))
        stream.close()


def test_keepalive_comments_while_nothing_happens(app: Flask, table_id: int, players: list[int]) -> None:
    rt = app.extensions["arena"].runtime
    last = rt.get_data(table_id, players[0])["notifications"]["last_packet_id"]
    with app.app_context():
        body = b"".join(event_stream(table_id, players[0], last, "en", "labgame", keepalive=0.05, poll=0.02,
                                     max_seconds=0.3)).decode()
    assert ": keepalive" in body and "id:" not in body


def test_a_stream_ahead_of_the_log_is_told_to_reload(browser: Browser, table_id: int, players: list[int]) -> None:
    _, named = parse_sse(browser.get(f"/table/{table_id}/events?as={players[0]}",
                                     headers={"Last-Event-ID": "100000"}).data)
    assert named == ["reset"]


def test_the_stream_of_a_finished_game_ends(app: Flask, browser: Browser) -> None:
    rt = app.extensions["arena"].runtime
    table_id = rt.create_table("labgame", 2, {"rounds": 1, "bonus": 0}, seed=3)
    ann, bob = (int(p) for p in rt.get_data(table_id, None)["playerorder"])
    last = rt.get_data(table_id, ann)["notifications"]["last_packet_id"]
    with app.app_context():
        # open while the game ends: the end of the game, then ``end`` (not the 5 s limit)
        stream = event_stream(table_id, ann, last, "en", "labgame", keepalive=30.0, poll=30.0,
                              max_seconds=5.0)
        assert next(stream).startswith(b"retry:")
        assert browser.act(table_id, ann, "pick", number=2).status_code == 200
        assert browser.act(table_id, bob, "pick", number=4).status_code == 200
        assert rt.is_over(table_id)
        messages, named = parse_sse(b"".join(stream))
    assert named[-1] == "end" and named.count("end") == 1
    assert any(m["type"] == "gameStateChange" and m["args"]["id"] == 99 for m in messages)
    end_id = messages[-1]["id"]
    # a page opened later gets what it missed, then ``end``; one that missed nothing, ``end``
    messages, named = parse_sse(browser.get(f"/table/{table_id}/events?as={bob}",
                                            headers={"Last-Event-ID": str(last)}).data)
    assert messages[-1]["id"] == end_id and named[-1] == "end"
    messages, named = parse_sse(browser.get(f"/table/{table_id}/events?as={bob}",
                                            headers={"Last-Event-ID": str(end_id)}).data)
    assert messages == [] and named == ["end"]


def test_the_stream_of_a_game_in_play_does_not_end(app: Flask, table_id: int, players: list[int]) -> None:
    rt = app.extensions["arena"].runtime
    last = rt.get_data(table_id, players[0])["notifications"]["last_packet_id"]
    with app.app_context():
        body = b"".join(event_stream(table_id, players[0], last, "en", "labgame", keepalive=0.05,
                                     poll=0.02, max_seconds=0.2)).decode()
    assert "event: end" not in body and ": keepalive" in body


def test_the_route_passes_the_streams_bytes_through(app: Flask, table_id: int, players: list[int]) -> None:
    """The server iterates the stream itself: no werkzeug wrapper (nor the Response) is kept
    for the stream's life."""
    from framework.web.play import events

    with app.test_request_context(f"/table/{table_id}/events?as={players[0]}"):
        response = events(table_id)
        assert response.direct_passthrough and response.mimetype == "text/event-stream"
        body = response.response
        assert next(iter(body)) == b"retry: 1000\n\n"
        body.close()  # type: ignore[attr-defined]


def test_a_waiting_stream_keeps_no_batch(app: Flask, table_id: int, players: list[int]) -> None:
    """What a stream sent (a read of the log: its own packets) is not kept while it waits,
    nor a closure's cell per value it was given."""
    with app.app_context():
        stream = event_stream(table_id, players[0], 0, "en", "labgame", keepalive=0.05, poll=0.02,
                              max_seconds=30.0)
        assert not stream.gi_code.co_freevars  # type: ignore[attr-defined]
        assert next(stream).startswith(b"retry:")
        assert b"id: " in next(stream)  # everything so far, read from the log
        assert next(stream) == b": keepalive\n\n"
        assert "batch" not in stream.gi_frame.f_locals  # type: ignore[attr-defined]
        stream.close()
