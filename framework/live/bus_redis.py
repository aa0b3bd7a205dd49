"""The bus on Redis pub/sub: every process of every machine that uses the same Redis hears
every message."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from framework.live.channels import BusClosedError, Handler, Subscriptions, validate_channel

log = logging.getLogger(__name__)

WAKE = "wake"  # the message on the bus's own control channel: subscriptions changed


class RedisBus:
    """Publishing through a pooled client; listening on one PubSub connection read by one
    thread (a greenlet under gevent), which alone sends SUBSCRIBE and UNSUBSCRIBE.

    ``subscribe`` returns once Redis has confirmed the subscription (or after
    ``subscribe_timeout_s``, logged, while the connection is down): a message published
    after it returns is delivered. Handlers run on the listener thread, one message at a
    time, in the order Redis sent them; they should be quick. After a lost connection the
    listener logs a WARNING, connects again (backoff 0.1 s doubling to 5 s), subscribes to
    every channel again and calls ``on_reconnect``. A publish that fails is retried by
    redis-py (up to 3 times): it may then be delivered twice.
    """

    def __init__(self, url: str, *, on_reconnect: Callable[[], None] | None = None,
                 subscribe_timeout_s: float = 5.0, poll_s: float = 5.0) -> None:
        self.url = url
        self.on_reconnect = on_reconnect
        self.subscribe_timeout_s = subscribe_timeout_s
        self.poll_s = poll_s  # how long a read waits: a stuck connection is seen after it
        self._publisher = redis.Redis.from_url(url)
        # The listener's errors must reach its loop, which subscribes again itself.
        self._listener = redis.Redis.from_url(url, decode_responses=True, retry=Retry(NoBackoff(), 0))
        self._subscriptions = Subscriptions()
        self._control = f"arena.bus.{secrets.token_hex(8)}"
        self._waiters: dict[str, list[threading.Event]] = {}  # channel -> subscribe() calls
        self._stop = threading.Event()
        self._closed = False
        self.reconnects = 0  # connections lost and made again (tests, monitoring)
        self._thread = threading.Thread(target=self._run, name="arena-bus-redis", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the Bus interface
    def publish(self, channel: str, message: str) -> None:
        """Raises: ValueError (channel name), BusClosedError, redis.RedisError (server)."""
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("publish on a closed bus")
        self._publisher.publish(channel, message)

    def subscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("subscribe on a closed bus")
        with self._subscriptions.lock:
            if not self._subscriptions.add(channel, handler):
                return
            confirmed = threading.Event()
            self._waiters.setdefault(channel, []).append(confirmed)
        self._wake_listener()
        if threading.current_thread() is self._thread:
            return  # a handler subscribes: the listener confirms once the handler returns
        if not confirmed.wait(self.subscribe_timeout_s):
            log.warning("Redis has not confirmed the subscription to bus channel %r in %.0f s; "
                        "it will listen once connected", channel, self.subscribe_timeout_s)

    def unsubscribe(self, channel: str, handler: Handler) -> None:
        validate_channel(channel)
        if self._subscriptions.remove(channel, handler) and not self._closed:
            self._wake_listener()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._wake_listener()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=self.poll_s + 5)
        self._publisher.close()
        self._listener.close()

    # ------------------------------------------------------------------ the listener thread
    def _wake_listener(self) -> None:
        """Tell the listener to compare its subscriptions with the handlers' channels."""
        try:
            self._publisher.publish(self._control, WAKE)
        except redis.RedisError as exc:  # the listener is reconnecting: it will compare then
            log.warning("cannot wake the Redis bus listener (%s)", exc)

    def _run(self) -> None:
        backoff = 0.1
        connected_before = False
        while not self._stop.is_set():
            pubsub: Any = self._listener.pubsub()  # type: ignore[no-untyped-call]
            try:
                pubsub.subscribe(self._control)
                listening: set[str] = set()
                awaiting = {self._control: 1}  # channel -> SUBSCRIBEs sent, not yet confirmed
                reconnecting = connected_before
                while not self._stop.is_set():
                    self._reconcile(pubsub, listening, awaiting)
                    message = pubsub.get_message(timeout=self.poll_s)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        self._confirmed(message["channel"], listening, awaiting)
                        if not awaiting:
                            connected_before, backoff = True, 0.1
                            if reconnecting:
                                reconnecting = False
                                self._reconnected()
                    elif message["type"] == "message" and message["channel"] != self._control:
                        self._subscriptions.dispatch(message["channel"], message["data"])
            except (redis.RedisError, OSError) as exc:
                if self._stop.is_set():
                    break
                log.warning("Redis bus connection lost (%s); connecting again in %.1f s", exc, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)
            except Exception:
                log.exception("the Redis bus listener failed; connecting again in %.1f s", backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)
            finally:
                self._close_quietly(pubsub)
        with self._subscriptions.lock:
            for waiters in self._waiters.values():  # closed: nobody waits for a subscription
                for event in waiters:
                    event.set()
            self._waiters.clear()

    def _reconcile(self, pubsub: Any, listening: set[str], awaiting: dict[str, int]) -> None:
        """Subscribe to the channels that have handlers, unsubscribe from the others.

        A ``subscribe`` call is released once Redis has confirmed the last SUBSCRIBE of its
        channel with no UNSUBSCRIBE sent after it, or once its channel has no handler left.
        """
        with self._subscriptions.lock:
            wanted = self._subscriptions.channels()
            for channel in [c for c in self._waiters if c not in wanted]:
                self._release(channel)
        added, removed = wanted - listening, listening - wanted
        if added:
            pubsub.subscribe(*sorted(added))
            listening |= added
            for channel in added:
                awaiting[channel] = awaiting.get(channel, 0) + 1
        if removed:
            pubsub.unsubscribe(*sorted(removed))
            listening -= removed
        with self._subscriptions.lock:
            # a channel unsubscribed and subscribed again before this listener looked:
            # its subscription never stopped
            for channel in [c for c in self._waiters if c in listening and c not in awaiting]:
                self._release(channel)

    def _confirmed(self, channel: str, listening: set[str], awaiting: dict[str, int]) -> None:
        left = awaiting.get(channel, 0) - 1
        if left > 0:
            awaiting[channel] = left
            return
        awaiting.pop(channel, None)
        if channel in listening:
            with self._subscriptions.lock:
                self._release(channel)

    def _release(self, channel: str) -> None:
        """Let the ``subscribe`` calls waiting for ``channel`` return (lock held)."""
        for event in self._waiters.pop(channel, ()):
            event.set()

    def _reconnected(self) -> None:
        self.reconnects += 1
        log.warning("Redis bus listening again; messages published meanwhile were lost")
        if self.on_reconnect is not None:
            try:
                self.on_reconnect()
            except Exception:
                log.exception("the Redis bus's on_reconnect hook failed")

    @staticmethod
    def _close_quietly(pubsub: Any) -> None:
        try:
            pubsub.close()
        except (redis.RedisError, OSError) as exc:
            log.debug("closing a lost Redis pubsub connection: %s", exc)
