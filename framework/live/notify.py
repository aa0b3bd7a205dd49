"""Wake-ups across processes: a commit in one worker wakes the event streams of that table
in every worker.

PostgreSQL: each write transaction sends ``NOTIFY arena_<site>, '<table id> <sender>'`` in
its own COMMIT round trip (delivered only if it commits); one listening connection per
process wakes the table's listeners. SQLite and MariaDB: while streams wait on tables, one
thread per process reads those tables' last gamelog id every ``interval`` seconds (one
statement for all tables on MariaDB) and wakes a table whose id moved.

A wake-up only tells a stream to read the gamelog after the last id it sent, so a late,
doubled or spurious wake-up can never lose, double or reorder a notification.

Processes of one site on one machine (gunicorn's workers), on every backend: each commit
is also sent to the other processes in a UNIX datagram (``PeerChannel``) that carries its
notifications and the table's status, so their streams send them at once without reading
the database (``Runtime.publish_remote``). The poll then only looks for writers that do
not announce (another machine, the command line), every ``PEER_POLL_S``; on PostgreSQL a
NOTIFY from a process that announces to this one is not woken again (its datagram does it),
while those of other machines and of the command line still wake.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import socket
import struct
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from framework.engine.runtime import Runtime
from framework.game.feed import Packet
from framework.storage.base import TableStore

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_S = 0.05
PEER_POLL_S = 0.5  # the poll's interval while the processes of the machine announce commits
HELLO = b"hello"  # a process that starts listening tells the others to list the peers again
FLUSH_S = 0.002  # how soon datagrams held for a busy peer are sent again
MAX_DATAGRAM = 60_000  # a larger commit is announced without its notifications


class PeerChannel:
    """Commits announced to the other processes of a site on this machine.

    Each listening process binds a Linux abstract UNIX datagram socket (no file, gone with
    the process) and leaves an empty file named ``<pid>-<token>`` in ``directory``; a
    committing process sends one datagram to each such peer. Sending never waits: a peer
    whose queue is full gets it a few milliseconds later, in order (a thread flushes what is
    held); a peer that is gone is forgotten.
    """

    MAX_HELD = 1024  # datagrams kept for one peer whose queue stays full

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.token: str | None = None
        self._sock: socket.socket | None = None
        self._sender: tuple[int, socket.socket] | None = None
        self._peers: list[tuple[str, bytes]] = []
        self._peers_read = 0.0
        self.sent = self.dropped = 0  # datagrams sent, and never sent (peer gone, held too long)
        self._pending: dict[str, deque[bytes]] = {}  # peer -> datagrams its full queue refused
        self._send_lock = threading.Lock()
        self._flusher: int | None = None  # the pid whose flusher thread runs
        self.foreign = 0  # datagrams from another user's process, ignored
        self.heard: dict[int, float] = {}  # pid -> when a datagram from it last came

    @staticmethod
    def supported() -> bool:
        return hasattr(socket, "AF_UNIX") and os.uname().sysname == "Linux"

    @staticmethod
    def _address(token: str) -> bytes:
        return b"\0arena-peer-" + token.encode()

    def bind(self) -> socket.socket:
        """Listen (a new token: a forked child never shares its parent's)."""
        self.close()
        self.token = f"{os.getpid()}-{secrets.token_hex(6)}"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(self._address(self.token))
        # An abstract socket has no file permissions: the kernel tells who sent each
        # datagram, and only this user's processes are heard (``sender_pid``).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        sock.settimeout(0.5)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        (self.directory / self.token).touch(mode=0o600)
        self._sock = sock
        self._peers_read = 0.0
        self.send(HELLO)  # the others list this process now, not at their next look
        return sock

    def close(self) -> None:
        if self.token is not None:
            with contextlib.suppress(OSError):
                (self.directory / self.token).unlink()
            self.token = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    @staticmethod
    def sender_pid(ancillary: list[tuple[int, int, bytes]]) -> int | None:
        """The sending process, when the datagram's credentials (``SCM_CREDENTIALS``: pid,
        uid, gid) name this process's user; else None."""
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(data) >= 12:
                pid, uid, _gid = struct.unpack("3i", data[:12])
                return int(pid) if uid == os.getuid() else None
        return None

    def receive(self, sock: socket.socket) -> bytes | None:
        """The next datagram from a process of this user (None: another user's, dropped)."""
        payload, ancillary, _flags, _address = sock.recvmsg(65536, socket.CMSG_SPACE(12))
        pid = self.sender_pid(ancillary)
        if pid is None:
            self.foreign += 1
            return None
        self.heard[pid] = time.monotonic()
        return bytes(payload)

    def announces(self, pid: int, within: float = 60.0) -> bool:
        """Process ``pid`` has sent this one a datagram in the last ``within`` seconds."""
        heard = self.heard.get(pid)
        return heard is not None and time.monotonic() - heard < within

    def forget_peers(self) -> None:
        """List the peers again at the next send (one has just started)."""
        self._peers_read = 0.0

    def peers(self) -> list[tuple[str, bytes]]:
        """The other listening processes (the folder is read at most once a second)."""
        now = time.monotonic()
        if now - self._peers_read > 1.0:
            try:
                names = os.listdir(self.directory)
            except OSError:
                names = []
            self._peers = [(n, self._address(n)) for n in names if n != self.token]
            self._peers_read = now
        return self._peers

    def send(self, payload: bytes) -> None:
        """Send ``payload`` to every peer, in the order of the calls. A peer whose queue is
        full (the kernel keeps ``net.unix.max_dgram_qlen`` datagrams, 10 by default: a
        worker busy for a few milliseconds fills it) gets it a few milliseconds later, from a
        thread that sends what is held (``flush``)."""
        peers = self.peers()
        if not peers:
            return
        with self._send_lock:
            sock = self._sender_socket()
            for name, address in peers:
                held = self._pending.get(name)
                if held:
                    self._hold(held, payload)
                elif not self._send_one(sock, name, address, payload):
                    self._hold(self._pending.setdefault(name, deque()), payload)
            if self._pending and self._flusher != os.getpid():
                self._flusher = os.getpid()
                threading.Thread(target=self._flush_held, daemon=True, name="arena-notify-held").start()

    def _flush_held(self) -> None:
        """Send the held datagrams every ``FLUSH_S`` until none is left (a thread, started
        when one is held: a process that commits need not stream); less often while a peer
        reads nothing (stopped, say)."""
        delay = FLUSH_S
        while True:
            time.sleep(delay)
            with self._send_lock:
                before = sum(len(held) for held in self._pending.values())
                if not self._flush_locked():
                    self._flusher = None
                    return
                stuck = sum(len(held) for held in self._pending.values()) >= before
            delay = min(delay * 2, 0.1) if stuck else FLUSH_S

    def flush(self) -> bool:
        """Send the datagrams held for peers whose queue was full, oldest first, until a
        queue is full again. True while some still wait."""
        with self._send_lock:
            return self._flush_locked()

    def _flush_locked(self) -> bool:
        sock = self._sender_socket()
        for name, held in list(self._pending.items()):
            address = self._address(name)
            while held and self._send_one(sock, name, address, held[0]):
                held.popleft()
            if not held:
                self._pending.pop(name, None)
        return bool(self._pending)

    def _sender_socket(self) -> socket.socket:
        pid = os.getpid()
        if self._sender is None or self._sender[0] != pid:
            sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sender.setblocking(False)
            self._sender = (pid, sender)
            self._pending.clear()  # a forked child holds nothing for its parent's peers
            self._flusher = None
        return self._sender[1]

    def _send_one(self, sock: socket.socket, name: str, address: bytes, payload: bytes) -> bool:
        """One datagram to one peer: True when it is sent or cannot ever be (the peer is
        gone), False when the peer's queue is full."""
        try:
            sock.sendto(payload, address)
        except BlockingIOError:
            return False
        except (ConnectionRefusedError, FileNotFoundError):
            self.dropped += 1 + len(self._pending.pop(name, ()))
            with contextlib.suppress(OSError):  # that process is gone
                (self.directory / name).unlink()
            self._peers_read = 0.0
            return True
        except OSError:  # too large, or refused otherwise: the poll finds the commit
            self.dropped += 1
            return True
        self.sent += 1
        return True

    def _hold(self, held: deque[bytes], payload: bytes) -> None:
        held.append(payload)
        if len(held) > self.MAX_HELD:  # that peer is stuck: the oldest go (its poll finds them)
            held.popleft()
            self.dropped += 1


class Notifier:
    """The per-process listener; started by the first stream that waits (``ensure_running``)."""

    def __init__(self, runtime: Runtime, store: TableStore, interval: float | None = None,
                 peers_dir: Path | None = None) -> None:
        self.runtime = runtime
        self.store = store
        env = os.environ.get("ARENA_NOTIFY_POLL_S")
        default = float(getattr(store, "poll_interval_s", DEFAULT_INTERVAL_S))
        self.interval = interval if interval is not None else float(env) if env else default
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._alive = False  # the thread runs (set before it starts, cleared as it ends)
        self._pid: int | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._seen: dict[int, int] = {}  # table -> last gamelog id the poller saw
        self.wakeups = 0  # tables woken for another process's commit (tests, monitoring)
        self.received = 0  # commits announced by another process
        self.channel: PeerChannel | None = None
        if peers_dir is not None and PeerChannel.supported():
            self.channel = PeerChannel(peers_dir)

    @property
    def mode(self) -> str:
        return "listen" if self.store.dialect == "postgresql" else "poll"

    def ensure_running(self) -> None:
        """Start the listener thread once per process (again in a forked child). Called
        before every wait: a flag, not ``Thread.is_alive`` (a lock under gevent)."""
        if self._alive and self._pid == os.getpid():
            return
        with self._lock:
            if self._alive and self._pid == os.getpid():
                return
            self._stop = threading.Event()
            self._ready = threading.Event()
            self._pid = os.getpid()
            self._alive = True
            self._thread = threading.Thread(target=self._run, name=f"arena-notify-{self.mode}", daemon=True)
            self._thread.start()
        # The first stream waits until the listener listens: a commit made after this returns
        # is heard (one made before is in the log the stream has just read, or woken below).
        self._ready.wait(5)

    def _run(self) -> None:
        receiver = None
        try:
            if self.channel is not None:
                try:
                    sock = self.channel.bind()
                except OSError as exc:
                    log.warning("no datagrams between processes (%s): polling only", exc)
                else:
                    receiver = threading.Thread(target=self._receive, args=(sock,), daemon=True,
                                                name="arena-notify-peers")
                    receiver.start()
            (self._listen if self.mode == "listen" else self._poll)()
        finally:
            self._alive = False
            if self.channel is not None:
                self.channel.close()
            if receiver is not None:
                receiver.join(timeout=2)

    # ------------------------------------------------------------------ datagrams (same machine)
    def announce(self, table_id: int, last_id: int | None, packets: list[Packet] | None,
                 status: dict[str, Any] | None) -> None:
        """Tell the other processes of this machine about a commit of this one (the
        runtime's ``on_commit``): its notifications and status, or only that it happened."""
        channel = self.channel
        if channel is None or not channel.peers():
            return
        body: list[Any] = [table_id, last_id, None, None]
        if packets is not None and status is not None:
            body[2:] = [[[p.id, p.move_id, p.private, p.player, p.time, p.type, p.msgid, p.args_json]
                         for p in packets], status]
        payload = json.dumps(body, separators=(",", ":")).encode()
        if len(payload) > MAX_DATAGRAM:
            payload = json.dumps([table_id, last_id, None, None]).encode()
        channel.send(payload)

    def received_datagram(self, payload: bytes) -> None:
        """Apply another process's announced commit to this process's streams."""
        if payload == HELLO:
            if self.channel is not None:
                self.channel.forget_peers()
            return
        try:
            table_id, last_id, rows, status = json.loads(payload)
            table_id = int(table_id)
            packets = None if rows is None else [Packet(*row) for row in rows]
        except (ValueError, TypeError):
            log.warning("a malformed datagram between processes was ignored")
            return
        self.received += 1
        if last_id is not None:
            # the poll need not wake the table again for this commit
            self._seen[table_id] = max(self._seen.get(table_id, 0), int(last_id))
        if packets and status is not None:
            self.runtime.publish_remote(table_id, packets, status)
        else:
            self.runtime.wake_if_listened(table_id)

    def _receive(self, sock: socket.socket) -> None:
        channel = self.channel
        assert channel is not None
        while not self._stop.is_set():
            try:
                payload = channel.receive(sock)
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            if payload is None:
                continue
            try:
                self.received_datagram(payload)
            except Exception:
                log.exception("applying another process's commit failed")

    def stop(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and self._pid == os.getpid():
            thread.join(timeout=5)
        self._thread = None
        self._alive = False

    # ------------------------------------------------------------------ polling (SQLite, MariaDB)
    def poll_once(self) -> list[int]:
        """Read the watched tables' last gamelog ids; wake those that moved. Returns them."""
        watched = self.runtime.watched_tables()
        if not watched:
            return []
        latest: dict[int, int] = self.store.latest_packets(watched)  # type: ignore[attr-defined]
        mine = self.runtime.committed_max
        moved = []
        for tid, last in latest.items():
            if self._seen.get(tid) == last:
                continue
            self._seen[tid] = last
            # This process's own commit up to ``last``: its streams were woken already. A
            # table seen for the first time is woken anyway (its stream may have read the log
            # just before a commit that this first look includes).
            if mine.get(tid) != last:
                moved.append(tid)
                self.runtime.wake(tid)
        self.wakeups += len(moved)
        if len(self._seen) > 100_000:
            self._seen = {tid: self._seen[tid] for tid in watched if tid in self._seen}
        return moved

    def _poll(self) -> None:
        self._ready.set()
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.poll_once()
            except Exception:  # a poll that fails is tried again; streams also time out
                log.exception("polling the gamelog for other processes' commits failed")
            # At most a tenth of a core for polling: with many tables watched, a round takes
            # longer and the next one waits longer (streams also re-read on their own timeout).
            spent = time.monotonic() - started
            interval = self.interval
            if self.channel is not None and self.channel.token is not None:
                interval = max(interval, PEER_POLL_S)  # the others announce their commits
            self._stop.wait(max(interval - spent, 9 * spent))

    # ------------------------------------------------------------------ LISTEN (PostgreSQL)
    def _announced_by(self, sender: str) -> bool:
        """The NOTIFY's sender (``host/pid/store``) is a process of this machine that
        announces its commits to this one in datagrams (one came from it lately), with their
        notifications: its datagram wakes the streams, which then need not read the
        database."""
        channel = self.channel
        if channel is None or channel.token is None:
            return False
        pid = self.store.local_sender_pid(sender)  # type: ignore[attr-defined]
        return pid is not None and channel.announces(pid)

    def _listen(self) -> None:
        import psycopg

        store: Any = self.store
        backoff = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(store.conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f'LISTEN "{store.channel}"')
                    backoff = 0.1
                    # Commits made while we were not listening: wake every stream of this
                    # process, waiting or about to wait.
                    for tid in self.runtime.listened_tables():
                        self.runtime.wake(tid)
                    self._ready.set()
                    me = store.sender
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            table, _, sender = note.payload.partition(" ")
                            if sender != me and table.isdigit() and not self._announced_by(sender):
                                self.wakeups += 1
                                self.runtime.wake_if_listened(int(table))
            except Exception as exc:
                self._ready.set()  # streams still time out and read the log themselves
                if self._stop.is_set():
                    return
                log.warning("LISTEN connection lost (%s); listening again in %.1fs", exc, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)
