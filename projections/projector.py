"""`battlelog project`'s runner (issue 30): one read of the log's new events feeds both read
models that follow it, the match catalogue and the notifier's outbox.

Each step reads the records after the lower of the two positions (`projections.log_read`),
at most `batch` of them, and hands them to the catalogue (those past its tracking position,
one transaction) and to the outbox (those past its own; it reads the registrations after
them and decodes only the events of matches that have some). Each keeps its own tracking
record, so a restart resumes each where it stopped, and where several runners share a
database the outbox's lost races stay no error (`Outbox.apply`). A step that fails in one
of them is logged, and the other is fed all the same.

It steps again at once while a whole batch came, else when woken: on PostgreSQL by the
NOTIFY each append sends (`projections.store_pg.listen_for_saves`), `trail` seconds after
it (the saves of those seconds are read in one go, not one read and one catalogue
transaction per action), and every `poll` seconds in any case (on SQLite, which has no
notifications, that is all). The delivery of notices runs in a thread of its own
(`NotifyService.deliver_forever`).

An API process on PostgreSQL that keeps its read models itself (`BATTLELOG_PROJECTIONS=
inline`) runs one too, started by its catalogue with no notifier: the notifier attaches its
outbox when it starts (`NotifyService.start`) and detaches it when it stops, and delivers
with its own thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Protocol

from eventsourcing.postgres import PostgresApplicationRecorder

from domain.app import Matches
from projections.log_read import LogRecord, read_log
from projections.store_pg import listen_for_saves

log = logging.getLogger(__name__)


class Catalogue(Protocol):
    """What the runner feeds first (`projections.catalogue.CatalogueService`)."""

    def position(self) -> int: ...

    def apply(self, records: Sequence[LogRecord]) -> int: ...


class Notifier(Protocol):
    """What it feeds beside (`projections.notify.NotifyService`): its outbox's position,
    a step of the outbox over records, and the delivery of what the outbox wrote."""

    def position(self) -> int: ...

    def step_outbox(self, records: Sequence[LogRecord] | None = None) -> int: ...

    def deliver_forever(self, stopping: threading.Event) -> None: ...


class Projector:
    def __init__(self, matches: Matches, catalogue: Catalogue,
                 notify: Notifier | None = None, poll: float = 0.25, trail: float = 0.1,
                 batch: int = 500) -> None:
        self.matches = matches
        self.catalogue = catalogue
        self.notify = notify
        self.poll = poll
        self.trail = trail
        self.batch = batch
        self.reads = 0  # reads of the log that brought records (one per step that did)
        self._saved = threading.Event()
        self._stepping = threading.Lock()  # one step at a time: one writer of each position

    def step(self) -> int:
        """Read the new records once and feed both projections; how many were read. What
        fails in one is logged and the other is fed: the catalogue's failure is raised
        after the outbox's turn (the caller waits before the next step). With no notifier
        (none attached), the catalogue's alone."""
        with self._stepping:
            notify = self.notify
            applied = self.catalogue.position()
            start = applied if notify is None else min(applied, notify.position())
            records = read_log(self.matches, start + 1, self.batch)
            if not records:
                return 0
            self.reads += 1
            failed: Exception | None = None
            try:
                self.catalogue.apply([r for r in records if r[0] > applied])
            except Exception as error:  # noqa: BLE001 - raised below, after the outbox's turn
                failed = error
            if notify is not None:
                notify.step_outbox(records)  # its own failures are its own (a lost race)
            if failed is not None:
                raise failed
            return len(records)

    def wake(self) -> None:
        """Look at once (at `stopping`, say), not at the next save or poll."""
        self._saved.set()

    def run_forever(self, stopping: threading.Event) -> None:
        """Step until `stopping`; the delivery of notices (of the notifier given at the
        start) and the PostgreSQL listener in threads of their own, joined before it
        returns."""
        threads = [] if self.notify is None else [threading.Thread(
            target=self.notify.deliver_forever, args=(stopping,), name="notify-delivery")]
        recorder = self.matches.recorder
        if isinstance(recorder, PostgresApplicationRecorder):
            threads.append(threading.Thread(target=listen_for_saves, name="log-listener",
                                             args=(recorder, self._saved, stopping)))
        for thread in threads:
            thread.start()
        try:
            while not stopping.is_set():
                self._saved.clear()  # a save from now on wakes the wait below
                try:
                    full = self.step() >= self.batch
                except Exception:  # a runner that stops is no runner: log it and resume
                    log.exception("projection failed; resuming from its position")
                    stopping.wait(1.0)
                    continue
                if not full and self._saved.wait(self.poll):
                    stopping.wait(self.trail)  # let a burst of saves gather: one read for all
        finally:
            stopping.set()
            self._saved.set()
            for thread in threads:
                thread.join(timeout=30)
