"""Failing matches in the background loops (docs/deploy.md): one match whose log cannot be
read, or whose work fails, must not stop a loop for every other match.

Each loop (the flag watcher, the notifier's outbox, the catalogue) keeps a `Failing` of its
own: when its work on a match raises, the loop calls `failed` and goes on with the others.
The first failure of a match is logged once (a warning naming the loop, the match and the
error); the match is then passed over until its retry time, which doubles after each new
failure up to `MOST` seconds. A success (`recovered`) clears the mark and says so in the
log. A projection that follows the log (the catalogue, the outbox) cannot go back to an
event it passed over: the mark stays, and the event's effect is missing from its read model
until an operator repairs the match. The API process lists every loop's marks, for
operators, at `GET /api/health/failing` (admin token).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("battlelog.isolation")

FIRST = 5.0  # seconds before a failing match is tried again
MOST = 3600.0  # at most this long between two tries


@dataclass(frozen=True)
class Mark:
    """One failing match in one loop."""

    loop: str
    match_id: str
    error: str
    failures: int
    since: float  # when it first failed (the loop's clock: `time.time` unless given)
    retry_at: float


class Failing:
    """The failing matches of one loop, with when each may be tried again."""

    def __init__(self, loop: str, clock: Callable[[], float] | None = None,
                 first: float = FIRST, most: float = MOST) -> None:
        self.loop = loop
        self.clock = clock or (lambda: time.time())  # looked up at each call: freezegun
        self.first = first
        self.most = most
        self._marks: dict[str, Mark] = {}
        self._lock = threading.Lock()

    def skip(self, match_id: Any) -> bool:
        """Whether to pass `match_id` over now (it failed and its retry time is not due)."""
        with self._lock:
            mark = self._marks.get(str(match_id))
        return mark is not None and self.clock() < mark.retry_at

    def failed(self, match_id: Any, error: BaseException) -> None:
        """Mark `match_id` as failing (logged on its first failure only)."""
        key, now = str(match_id), self.clock()
        with self._lock:
            before = self._marks.get(key)
            failures = 1 if before is None else before.failures + 1
            wait = min(self.most, self.first * 2 ** min(failures - 1, 20))
            self._marks[key] = Mark(self.loop, key, _said(error), failures,
                                    now if before is None else before.since, now + wait)
        if before is None:
            log.warning("%s: match %s fails and is passed over (retried with backoff; "
                        "GET /api/health/failing lists it): %s", self.loop, key, _said(error),
                        exc_info=error)

    def recovered(self, match_id: Any) -> None:
        """`match_id` worked again: clear its mark."""
        with self._lock:
            was = self._marks.pop(str(match_id), None)
        if was is not None:
            log.warning("%s: match %s works again after %d failure(s)", self.loop,
                        was.match_id, was.failures)

    def marks(self) -> list[Mark]:
        with self._lock:
            return sorted(self._marks.values(), key=lambda m: m.since)


def _said(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:500]
