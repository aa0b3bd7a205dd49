"""The bus on Redis pub/sub: every process of every machine that uses the same Redis hears
every message."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from framework.live.channels import BusClosedError, validate_channel
from framework.live.listening import BACKOFF_FIRST_S, ListeningBus

log = logging.getLogger(__name__)

WAKE = "wake"  # the message on the bus's own control channel: subscriptions changed


class RedisBus(ListeningBus):
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

    label = "Redis"

    def __init__(self, url: str, *, on_reconnect: Callable[[], None] | None = None,
                 subscribe_timeout_s: float = 5.0, poll_s: float = 5.0) -> None:
        super().__init__(on_reconnect=on_reconnect, subscribe_timeout_s=subscribe_timeout_s, poll_s=poll_s)
        self.url = url
        self._publisher = redis.Redis.from_url(url)
        # The listener's errors must reach its loop, which subscribes again itself.
        self._listener = redis.Redis.from_url(url, decode_responses=True, retry=Retry(NoBackoff(), 0))
        self._waiters: dict[str, list[threading.Event]] = {}  # channel -> subscribe() calls
        self._start()

    # ------------------------------------------------------------------ the Bus interface
    def publish(self, channel: str, message: str) -> None:
        """Raises: ValueError (channel name), BusClosedError, redis.RedisError (server)."""
        validate_channel(channel)
        if self._closed:
            raise BusClosedError("publish on a closed bus")
        self._publisher.publish(channel, message)

    # ------------------------------------------------------------------ the listener thread
    def _add_waiter(self, channel: str, event: threading.Event) -> None:
        self._waiters.setdefault(channel, []).append(event)

    def _close_connections(self) -> None:
        self._publisher.close()
        self._listener.close()

    def _wake_listener(self) -> None:
        """Tell the listener to compare its subscriptions with the handlers' channels."""
        try:
            self._publisher.publish(self._control, WAKE)
        except redis.RedisError as exc:  # the listener is reconnecting: it will compare then
            log.warning("cannot wake the Redis bus listener (%s)", exc)

    def _run(self) -> None:
        backoff = BACKOFF_FIRST_S
        connected_before = False
        while not self._stop.is_set():
            listener: Any = self._listener  # redis before 8.2 leaves pubsub() untyped
            pubsub: Any = listener.pubsub()
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
                            connected_before, backoff = True, BACKOFF_FIRST_S
                            if reconnecting:
                                reconnecting = False
                                self._reconnected()
                    elif message["type"] == "message" and message["channel"] != self._control:
                        self._subscriptions.dispatch(message["channel"], message["data"])
            except (redis.RedisError, OSError) as exc:
                if self._stop.is_set():
                    break
                backoff = self._retry_after(backoff, exc, expected=True)
            except Exception as exc:
                backoff = self._retry_after(backoff, exc, expected=False)
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

    @staticmethod
    def _close_quietly(pubsub: Any) -> None:
        try:
            pubsub.close()
        except (redis.RedisError, OSError) as exc:
            log.debug("closing a lost Redis pubsub connection: %s", exc)
