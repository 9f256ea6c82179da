"""A thread that follows the store: it runs its work after every save of this process and
at least every `interval` seconds (for what other processes sharing the store wrote). The
match catalogue (on SQLite), the live feed and the notifier are kept this way.

A failing match is its work's to isolate (`projections.isolation`); what still fails here
fails the whole step (the store does not answer, say): it is logged once, with the number of
failures in a row when it works again, and the step is tried again after a wait that
doubles from `interval` up to `MOST_WAIT` seconds, so that a broken store is not hammered
and the log not flooded."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from uuid import UUID

from domain.app import Matches

log = logging.getLogger("battlelog.ticker")
MOST_WAIT = 30.0  # seconds between two tries of a failing step, at most


class Ticker:
    def __init__(self, matches: Matches, name: str, work: Callable[[], object],
                 interval: float, follows_saves: bool = True, pause: float = 0.0) -> None:
        self.matches = matches
        self.work = work
        self.interval = interval
        self.name = name
        self.follows_saves = follows_saves  # woken by every save of this process
        self.pause = pause  # seconds at least between two steps: the saves meanwhile wait
        self.failures = 0  # steps failed in a row
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        if self.follows_saves:
            self.matches.saved_listeners.append(self._saved)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def _saved(self, saved: frozenset[UUID]) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self._saved in self.matches.saved_listeners:
            self.matches.saved_listeners.remove(self._saved)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.step()
            if self.failures:
                self._stop.wait(min(MOST_WAIT, self.interval * 2 ** min(self.failures - 1, 20)))
            elif self.pause:
                self._stop.wait(self.pause)
            self._wake.wait(timeout=self.interval)
            self._wake.clear()

    def step(self) -> bool:
        """Run the work once; whether it worked (a failure is logged when a run of them
        begins and when it ends)."""
        try:
            self.work()
        except Exception:
            self.failures += 1
            if self.failures == 1:
                log.exception("%s: a step failed; retrying with backoff (logged once "
                              "until it works again)", self.name)
            return False
        if self.failures:
            log.warning("%s: works again after %d failed step(s)", self.name, self.failures)
            self.failures = 0
        return True
