"""The flag watcher: records a flag fall as it happens, not only when the next action comes
(docs/clock.md). It runs in the API process and in `battlelog project`; each tick asks the
application to record the flags due (`Matches.check_flags`), which stamps each at its own
second and appends it once however many processes notice it (the store's version check)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from uuid import UUID

from domain.application import Matches
from projections.catalogue import CatalogueView

log = logging.getLogger("battlelog.clock")
DISCOVER_EVERY = 30  # ticks between two looks for matches this process has not folded yet


class FlagWatcher:
    """Every `every` seconds, `check_all_flags`; every `DISCOVER_EVERY` ticks, first fold
    the clocks of the matches `discover` names (the active ones in the catalogue)."""

    def __init__(self, matches: Matches, discover: Callable[[], Iterable[UUID]] | None = None,
                 every: float = 1.0) -> None:
        self.matches = matches
        self.discover = discover
        self.every = every
        self._ticks = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> int:
        """One look: how many flags it recorded."""
        if self.discover is not None and self._ticks % DISCOVER_EVERY == 0:
            for match_id in self.discover():
                self.matches.clock_of(match_id)
        self._ticks += 1
        return self.matches.check_all_flags()

    def run_forever(self, stopping: threading.Event) -> None:
        while not stopping.wait(self.every):
            try:
                self.tick()
            except Exception:  # a store hiccup must not stop the watcher: try again next tick
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
