"""The flag watcher: records a flag fall as it happens, not only when the next action comes
(docs/clock.md). It runs in the API process and in `battlelog project`; each tick asks the
application to record the flags due (`Matches.check_flags`), which stamps each at its own
second and appends it once however many processes notice it (the store's version check).

A match whose clock cannot be worked out (its log does not load, say) fails alone: it is
logged once, passed over with backoff and listed (`projections.isolation`), and every
other match's flags still fall on time."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar
from uuid import UUID

from domain.app import Matches
from projections.catalogue import CatalogueView
from projections.isolation import Failing

log = logging.getLogger("battlelog.clock")
DISCOVER_EVERY = 30  # ticks between two looks for matches this process has not folded yet
T = TypeVar("T")


class FlagWatcher:
    """Every `every` seconds, `check_flags` for each match whose clock runs; every
    `DISCOVER_EVERY` ticks, first fold the clocks of the matches `discover` names (the
    active ones in the catalogue). Each match on its own: one that fails is marked in
    `failing` and the others go on."""

    def __init__(self, matches: Matches, discover: Callable[[], Iterable[UUID]] | None = None,
                 every: float = 1.0) -> None:
        self.matches = matches
        self.discover = discover
        self.every = every
        self._ticks = 0
        self.failing = Failing("flag watcher")
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> int:
        """One look: how many flags it recorded."""
        if self.discover is not None and self._ticks % DISCOVER_EVERY == 0:
            for match_id in self.discover():
                self._alone(match_id, self.matches.clock_of)
        self._ticks += 1
        recorded = 0
        for match_id in self.matches.running_clocks():
            result = self._alone(match_id, self.matches.check_flags)
            recorded += len(result.events) if result is not None else 0
        return recorded

    def _alone(self, match_id: UUID, work: Callable[[UUID], T]) -> T | None:
        """`work(match_id)`, unless the match is failing and not due for a retry; a
        failure marks it (and is logged once) instead of stopping the tick."""
        if self.failing.skip(match_id):
            return None
        try:
            done = work(match_id)
        except Exception as error:  # noqa: BLE001 - this match's problem, not the others'
            self.failing.failed(match_id, error)
            return None
        self.failing.recovered(match_id)
        return done

    def run_forever(self, stopping: threading.Event) -> None:
        while not stopping.wait(self.every):
            try:
                self.tick()
            except Exception:  # the store or `discover` failed: try again next tick
                log.exception("the flag watcher's tick failed")

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run_forever, args=(self._stopping,),
                                        name="flags", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


def active_matches(view: CatalogueView, limit: int = 1000) -> Callable[[], list[UUID]]:
    """The catalogue's active matches, for `discover`."""
    def ids() -> list[UUID]:
        return [e.match_id for e in view.list(limit, 0, "active")]
    return ids
