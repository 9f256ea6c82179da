"""The legal actions as served: each answer computed once per match version, seat and part
(page or unit), kept in a bounded LRU cache of its JSON bytes, and computed in a lane of its
own so that a large board does not take the server from the other matches
(docs/legal-actions.md, "Cost").

- The cache is keyed by (match, version, seat, unit, page): any new event is a new version,
  so an answer is never stale, and old versions fall out as the cache fills (its size is the
  total of the answers' bytes, at most `max_bytes`).
- Asked for at once, an answer not yet cached is computed once: the other requests wait for
  it (cachetools' `cached` with a condition) instead of each computing it again.
- At most `lanes` answers are computed at a time, and at most `queue` more wait for a lane:
  past that a request is refused (503, `LegalBusy`) rather than hold one of the server's
  worker threads. Between two bodies decided, the computing thread lets the interpreter go
  (`time.sleep(0)`), so a request of another match waiting for it runs at once instead of
  after the interpreter's switch interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from cachetools import LRUCache, cached

from domain.errors import DomainError
from domain.history import Frame
from domain.legal import legal_actions
from domain.legal.model import LegalActions
from domain.rulesets import get_ruleset

MAX_BYTES = 32 * 1024 * 1024
LANES = 1
QUEUE = 8


class LegalBusy(DomainError):
    """Too many legal answers are being computed at once: read again in a moment."""

    status = 503
    title = "Busy"

Render = Callable[[LegalActions, int], bytes]  # an answer and its version as the bytes served


def _yield() -> None:
    time.sleep(0)  # releases the interpreter to a thread waiting for it


class LegalAnswers:
    """The legal answers of recent versions, as served (`answer`)."""

    def __init__(self, *, max_bytes: int = MAX_BYTES, lanes: int = LANES,
                 queue: int = QUEUE) -> None:
        self._lane = threading.BoundedSemaphore(lanes)
        self._room = threading.BoundedSemaphore(lanes + queue)  # computing or waiting
        self.computed = 0  # answers computed (not served from the cache)
        cache: LRUCache[Any, bytes] = LRUCache(maxsize=max_bytes, getsizeof=len)
        lock = threading.Condition()

        def key(frame: Frame, match_id: UUID, seat: str, unit: str | None, page: int,
                render: Render) -> tuple[Any, ...]:
            return (match_id, frame.version, seat, unit, page)

        self._answer = cached(cache, key=key, lock=lock, condition=lock, info=True)(
            self._compute)
        self._cache = cache

    def answer(self, frame: Frame, match_id: UUID, seat: str, *, unit: str | None = None,
               page: int = 1, render: Render) -> bytes:
        """The bytes of `seat`'s legal actions at `frame` (its page `page`, or the unit
        `unit`'s choices), from the cache when this version's answer was made already.
        A refusal (no such unit or page) is raised, never cached."""
        found: bytes = self._answer(frame, match_id, seat, unit, page, render)
        return found

    def _compute(self, frame: Frame, match_id: UUID, seat: str, unit: str | None, page: int,
                 render: Render) -> bytes:
        state = frame.state
        if not self._room.acquire(blocking=False):
            raise LegalBusy("too many legal answers are being computed at once: read again "
                            "in a moment", rule="core-legal")
        try:
            with self._lane:
                self.computed += 1
                found = legal_actions(state, get_ruleset(state.ruleset, state.options, state.ruleset_hash), seat,
                                      version=frame.version, unit=unit, page=page,
                                      between=_yield)
                return render(found, frame.version)
        finally:
            self._room.release()

    @property
    def held(self) -> int:
        """The bytes the cache holds."""
        return int(self._cache.currsize)
