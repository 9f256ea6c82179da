"""A thread that follows the store: it runs its work after every save of this process and
at least every `interval` seconds (for what other processes sharing the store wrote). The
match catalogue (on SQLite) and the live feed are kept this way."""

from __future__ import annotations

import threading
from collections.abc import Callable

from domain.application import Matches


class Ticker:
    def __init__(self, matches: Matches, name: str, work: Callable[[], object],
                 interval: float) -> None:
        self.matches = matches
        self.work = work
        self.interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self.matches.saved_listeners.append(self.wake)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self.wake in self.matches.saved_listeners:
            self.matches.saved_listeners.remove(self.wake)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.work()
            except Exception:  # noqa: BLE001 - a store hiccup: the next tick tries again
                self._stop.wait(self.interval)
            self._wake.wait(timeout=self.interval)
            self._wake.clear()
