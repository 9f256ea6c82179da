"""Replay files as served (docs/replay.md, "Cost"): each written once per match version,
viewpoint and annotations, kept in a bounded LRU cache of its bytes, written in a lane of
its own within a bound of work, and counted in the quotas.

- The cache is keyed by (match, version, viewpoint, the annotations' stream version, and
  each variation's fork and its head): any new event, annotation or move in a what-if is a
  new key, so a file is never stale, and old ones fall out as the cache fills (its size is
  the total of the files' bytes, at most `max_bytes`). (ours) A file is written from the
  match as it is when it is written: an event appended between reading the key and writing
  the file makes a file of that later version, kept under the key read (never an older
  one).
- Asked for at once, a file not yet cached is written once: the other requests wait for it
  (cachetools' `cached` with a condition) instead of each writing it again.
- At most `lanes` files are written at a time and at most `queue` more wait for a lane;
  past that a request is refused (503, `ReplayBusy`) rather than hold one of the server's
  worker threads. Between two versions, once every `YIELD_EVERY` seconds of writing, the
  writing thread lets the interpreter go (`time.sleep(0)`), so the other requests' threads
  run meanwhile. (ours) Not at every version: each `sleep(0)` is a system call that may give
  the processor away, and on a busy machine a file of 2,000 versions spent most of its time
  waiting to get it back.
- A file whose work passes `work` (board units over its versions) is refused (413,
  `projections.replay_file.ReplayTooLarge`); each file written (not from the cache) counts
  against its match's quota (`per_match`, 429), beside the route's per-address quota.
"""

from __future__ import annotations

import threading
import time
from typing import Any
from uuid import UUID

from cachetools import LRUCache, cached

from api.quotas import Quota
from api.replay_page import page
from domain.app import Matches
from domain.errors import DomainError, MatchNotFound
from projections.replay_file import MAX_WORK, Work, replay_data

MAX_BYTES = 64 * 1024 * 1024  # the cache's files, all together
YIELD_EVERY = 0.01  # seconds of writing between two times the interpreter is let go


class Yielding:
    """Called between two versions: lets the interpreter go (`time.sleep(0)`) when `every`
    seconds have passed since it last did, else returns at once."""

    def __init__(self, every: float = YIELD_EVERY) -> None:
        self.every = every
        self.due = time.monotonic() + every

    def __call__(self) -> None:
        now = time.monotonic()
        if now >= self.due:
            time.sleep(0)
            self.due = time.monotonic() + self.every


class ReplayBusy(DomainError):
    """Too many replay files are being written at once: ask again in a moment."""

    status = 503
    title = "Busy"


class ReplayFiles:
    """The replay files of recent versions, as served (`file`)."""

    def __init__(self, *, max_bytes: int = MAX_BYTES, work: int = MAX_WORK, lanes: int = 1,
                 queue: int = 4, per_match: str = "off") -> None:
        self._lane = threading.BoundedSemaphore(lanes)
        self._room = threading.BoundedSemaphore(lanes + queue)  # writing or waiting
        self._work = work
        self._per_match = Quota(per_match, "replay files written for one match")
        self.built = 0  # files written (not served from the cache)
        cache: LRUCache[Any, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        lock = threading.Condition()

        def key(matches: Matches, match_id: UUID, seat: str,
                version: tuple[Any, ...]) -> tuple[Any, ...]:
            return (match_id, seat, *version)

        self._file = cached(cache, key=key, lock=lock, condition=lock)(self._write)
        self._cache = cache

    def file(self, matches: Matches, match_id: UUID, seat: str) -> bytes:
        """The replay file of the match as `seat` sees it now, from the cache when this
        version of it was written already. A refusal is raised, never cached."""
        found: bytes = self._file(matches, match_id, seat, self.version(matches, match_id, seat))
        return found

    @staticmethod
    def version(matches: Matches, match_id: UUID, seat: str) -> tuple[Any, ...]:
        """What a seat's file depends on: the match's version, its annotations' version,
        and the head of each variation's fork the seat sees."""
        version = matches.head(match_id).version
        forks = []
        for note in matches.annotations(match_id, seat):
            if note.kind == "variation" and note.fork is not None:
                try:
                    forks.append((note.fork, matches.head(note.fork).version))
                except MatchNotFound:
                    forks.append((note.fork, 0))
        return (version, matches.annotations_version(match_id), tuple(forks))

    def _write(self, matches: Matches, match_id: UUID, seat: str,
               version: tuple[Any, ...]) -> bytes:
        if not self._room.acquire(blocking=False):
            raise ReplayBusy("too many replay files are being written at once: ask again in "
                             "a moment", rule="core-replay")
        try:
            with self._lane:
                self._per_match.spend(str(match_id))
                self.built += 1
                # between versions, now and then, the interpreter is let go to a thread
                # waiting for it
                data = replay_data(matches, match_id, seat, Work(self._work, Yielding()))
                return page(data).encode("utf-8")
        finally:
            self._room.release()

    @property
    def held(self) -> int:
        """The bytes the cache holds."""
        return int(self._cache.currsize)
