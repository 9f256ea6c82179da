"""The live feed: which matches have new events, for the pages that follow them (SSE).

One thread per process follows the store's notification log (woken by this process's saves
and every quarter second for other processes' writes), reading only the stored records'
match id and version, never decoding an event. A match's annotation stream (a stream of its
own, `annotations_stream`) wakes the match's followers too, with its own count (`notes`):
what each page is then told of it is the route's to filter by who may see it. Subscribers wait on an `asyncio.Event` of
their own loop and are woken with the match's newest version. Nothing is queried while nobody
follows a match, so an idle server costs nothing.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from uuid import UUID

from domain.app import Matches
from domain.events import annotations_stream
from projections.ticker import Ticker

POLL_SECONDS = 0.25
BATCH = 1000


@dataclass(eq=False)
class Subscription:
    """One follower of one match: `version` is the newest version the feed has seen,
    `notes` how many annotation events."""

    match_id: UUID
    version: int
    loop: asyncio.AbstractEventLoop
    notes: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    idle: float = 0.0  # seconds waited without news

    async def wait(self, timeout: float) -> bool:
        """True when the match moved on within `timeout` seconds."""
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        self.changed.clear()
        self.idle = 0.0
        return True


class MatchFeed:
    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self._subscribers: dict[UUID, set[Subscription]] = {}
        self._notes: dict[UUID, UUID] = {}  # a followed match's annotation stream -> the match
        self._lock = threading.Lock()  # the subscribers
        self._following = threading.Lock()  # the position in the notification log
        self._position = 0
        self._ticker = Ticker(matches, "feed", self._advance, interval=POLL_SECONDS,
                              follows_saves=False)

    def start(self) -> None:
        self._ticker.start()
        # A save wakes the feed's thread only when a page follows a match it saved: otherwise
        # that thread would wake (and take the GIL) after every action for nothing.
        self.matches.saved_listeners.append(self._wake_if_followed)

    def stop(self) -> None:
        if self._wake_if_followed in self.matches.saved_listeners:
            self.matches.saved_listeners.remove(self._wake_if_followed)
        self._ticker.stop()

    def _wake_if_followed(self, saved: frozenset[UUID]) -> None:
        # (read without the lock, a lookup per match saved, never iterating the maps that
        # others change: a page that subscribes meanwhile reads the head after
        # subscribing, see `subscribe`)
        if any(m in self._subscribers or m in self._notes for m in saved):
            self._ticker.wake()

    def subscribe(self, match_id: UUID, loop: asyncio.AbstractEventLoop) -> Subscription:
        """Follow `match_id` from now on (blocking: call it off the event loop). Read the
        match's head after this, so that no version falls between the two."""
        sub = Subscription(match_id, 0, loop)
        with self._following:
            with self._lock:
                first = not self._subscribers
                self._subscribers.setdefault(match_id, set()).add(sub)
                self._notes[annotations_stream(match_id)] = match_id
            if first:  # the feed was idle: start from the store's newest notification
                self._position = self.matches.recorder.max_notification_id() or 0
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.match_id]
                    self._notes.pop(annotations_stream(sub.match_id), None)

    @property
    def followers(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())

    def _advance(self) -> None:
        with self._lock:
            if not self._subscribers:
                return  # nobody follows: no query at all
            notes_of = dict(self._notes)
        newest: dict[UUID, int] = {}
        notes: dict[UUID, int] = {}
        with self._following:
            while True:
                batch = self.matches.recorder.select_notifications(start=self._position + 1,
                                                                   limit=BATCH)
                for n in batch:
                    match = n.originator_id
                    match = match if isinstance(match, UUID) else UUID(match)
                    if match in notes_of:
                        notes[notes_of[match]] = n.originator_version
                    else:
                        newest[match] = n.originator_version
                    self._position = n.id
                if len(batch) < BATCH:
                    break
        if newest or notes:
            self._publish(newest, notes)

    def _publish(self, newest: dict[UUID, int], notes: dict[UUID, int]) -> None:
        with self._lock:
            woken = [(sub, newest.get(m, 0), notes.get(m, 0))
                     for m in (newest.keys() | notes.keys()) & self._subscribers.keys()
                     for sub in self._subscribers[m]]
        for sub, version, count in woken:
            def wake(sub: Subscription = sub, version: int = version, count: int = count) -> None:
                sub.version = max(sub.version, version)
                sub.notes = max(sub.notes, count)
                sub.changed.set()
            try:
                sub.loop.call_soon_threadsafe(wake)
            except RuntimeError:  # its loop has closed: the page is gone
                self.unsubscribe(sub)


__all__ = ["MatchFeed", "Subscription"]
