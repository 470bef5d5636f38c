"""Server-Sent Events: one broadcaster, one bounded queue per open page.

``publish`` never blocks: a page that stops reading loses its queue (and reconnects with
``EventSource``'s automatic retry, then reloads the game). Every stream holds a waitress thread, so
the number of open streams is capped below the thread count; past the cap a page gets 503.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

KEEPALIVE_SECONDS = 15.0
QUEUE_SIZE = 64


class TooManyStreams(RuntimeError):
    """Every stream slot is taken."""


class Subscription:
    def __init__(self, broadcaster: Broadcaster) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue(QUEUE_SIZE)
        self.broadcaster = broadcaster
        self.closed = False

    def close(self) -> None:
        self.broadcaster.unsubscribe(self)


def format_event(name: str, data: dict[str, Any], event_id: int | None = None) -> str:
    lines = [f"event: {name}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


class Broadcaster:
    """Fan events out to every open stream."""

    def __init__(self, max_streams: int = 64, keepalive: float = KEEPALIVE_SECONDS) -> None:
        self.max_streams = max_streams
        self.keepalive = keepalive
        self._subs: set[Subscription] = set()
        self._lock = threading.Lock()
        self.published = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._subs)

    def subscribe(self) -> Subscription:
        with self._lock:
            if len(self._subs) >= self.max_streams:
                raise TooManyStreams(f"{self.max_streams} live pages are open already; close one and reload")
            sub = Subscription(self)
            self._subs.add(sub)
            return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)
            sub.closed = True

    def publish(self, name: str, data: dict[str, Any], event_id: int | None = None) -> None:
        text = format_event(name, data, event_id)
        with self._lock:
            subs = list(self._subs)
            self.published += 1
        for sub in subs:
            try:
                sub.queue.put_nowait(text)
            except queue.Full:
                self.unsubscribe(sub)  # a page that stopped reading; it reconnects and reloads

    def close_all(self) -> None:
        """Wake every stream so it ends (server shutting down)."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            self.unsubscribe(sub)
            with contextlib.suppress(queue.Full):
                sub.queue.put_nowait(None)

    def stream(self, sub: Subscription, hello: str | None = None) -> Iterator[str]:
        """The body of one ``text/event-stream`` response."""
        try:
            yield "retry: 2000\n\n"
            if hello is not None:
                yield hello
            while not sub.closed:
                try:
                    text = sub.queue.get(timeout=self.keepalive)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            self.unsubscribe(sub)
