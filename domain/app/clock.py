"""The game clock's use cases (docs/clock.md), a layer of `Matches`: the referee's clock
commands through the ordinary action path, and `check_flags`, which records each flag that
has fallen, stamped at the exact moment it fell, before any action is decided (so that an
action after a flag fall is ordered after it) and whenever a watcher asks.

Two processes that notice the same flag append it once: the append is conditioned on the
head's version (the store's optimistic concurrency), and the one that loses decides again
on the newer head, where the flag is recorded and nothing is due.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.app.copies import MatchCopies
from domain.app.results import Result
from domain.clock import ClockFold, flags_due, frames, step
from domain.clock.decide import decide_clock, decide_flags
from domain.commands import Command
from domain.commands import clock as cc
from domain.context import REFEREE, Context
from domain.errors import InvalidAction
from domain.history import Frame, fold

CLOCK_TYPES = (cc.StartClock, cc.PauseClock, cc.ResumeClock, cc.AdjustClock)
FOLD_CHUNK = 500  # events read at once when a clock is folded on (memory: one chunk)


class ClockUseCases(MatchCopies):
    """Clock commands, flag falls, and the clock of a match as of its head."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # match -> (the clock, the frame it was folded to, or None before ClockStarted)
        self._clocks: dict[UUID, tuple[ClockFold, Frame | None, int]] = {}
        self._clocks_lock = threading.Lock()

    def clock_of(self, match_id: UUID, head: Frame | None = None) -> ClockFold:
        """The clock as of `head` (default: the match's head), folded on from the last
        one this process worked out. Before the clock starts, only the events' types are
        read."""
        head = head or self.head(match_id)
        with self._clocks_lock:
            known = self._clocks.get(match_id, (ClockFold(), None, 0))
        if known[2] > head.version:  # an older head than the one folded: start again
            known = (ClockFold(), None, 0)
        while known[2] < head.version:  # a chunk at a time: a long log is never held whole
            events = list(self.events_of(match_id, after=known[2], upto=head.version,
                                         limit=FOLD_CHUNK))
            folded = self._fold_on(match_id, known, events)
            if folded[2] == known[2]:  # nothing more to read (or a gap): as far as it goes
                break
            known = folded
        return known[0]

    def _fold_on(self, match_id: UUID, known: tuple[ClockFold, Frame | None, int],
                 events: list[ev.Event]) -> tuple[ClockFold, Frame | None, int]:
        """`known` with `events` (the ones right after it) folded in, and kept."""
        clock, frame, version = known
        if not events or events[0].originator_version != version + 1:
            return known
        if frame is None:
            start = next((e for e in events if isinstance(e, ev.ClockStarted)), None)
            if start is not None:
                before = start.originator_version - 1
                for event, at in frames(self.events_of(match_id, upto=before)):
                    clock = step(clock, event, at)
                frame = self.frame_at(match_id, before)
                events = [e for e in events if e.originator_version > before]
        if frame is not None:
            state_at = self._state_at(match_id)
            for event in events:
                frame = fold(frame, [event], state_at)
                clock = step(clock, event, frame)
        known = (clock, frame, events[-1].originator_version if events else version)
        with self._clocks_lock:
            if self._clocks.get(match_id, (None, None, 0))[2] <= known[2]:
                self._clocks[match_id] = known
        return known

    def _noted(self, match_id: UUID, result: Result) -> Result:
        """Fold an action's own events into the clock this process keeps (no query)."""
        with self._clocks_lock:
            known = self._clocks.get(match_id)
        if known is not None and result.events and not result.replayed:
            self._fold_on(match_id, known, list(result.events))
        return result

    def check_flags(self, match_id: UUID, now: datetime | None = None) -> Result | None:
        """Record every flag fallen by `now` (default: the clock's now) and not recorded
        yet, each stamped at the moment it fell; None when none is due (idempotent)."""
        now = now or self.clock()
        if not flags_due(self.clock_of(match_id, self._held_head(match_id)[0]), now):
            return None

        def fell(head: Frame, context: Context) -> list[ev.Event]:
            return decide_flags(self.clock_of(match_id, head), head.state, context, now)

        result = self._noted(match_id, self._execute(match_id, fell, actor=REFEREE))
        return result if result.events else None

    def running_clocks(self) -> list[UUID]:
        """The matches whose clock this process has started folding and which have not
        ended: the ones a watcher asks `check_flags` about every second."""
        with self._clocks_lock:
            return [m for m, (clock, _, _) in self._clocks.items()
                    if clock.started and not clock.ended]

    def act(self, match_id: UUID, command: Command, *, actor: str = REFEREE,
            command_id: str | None = None, expected_version: int | None = None,
            idempotency_key: str | None = None, token: str | None = None,
            then: str | None = None) -> Result:
        self.check_flags(match_id)
        if not isinstance(command, CLOCK_TYPES):
            return self._noted(match_id, super().act(
                match_id, command, actor=actor, command_id=command_id,
                expected_version=expected_version, idempotency_key=idempotency_key,
                token=token, then=then))
        if then is not None:
            raise InvalidAction("'then' follows an action of the match, not of its clock",
                                rule="core-requests")
        clock_command = command

        def decided(head: Frame, context: Context) -> list[ev.Event]:
            return decide_clock(clock_command, self.clock_of(match_id, head), head.state,
                                context)

        return self._noted(match_id, self._execute(
            match_id, decided, actor=actor, command_id=command_id,
            expected_version=expected_version, token=token,
            idempotency=self._idempotency(actor, idempotency_key, command)))

    def undo(self, match_id: UUID, **kwargs: Any) -> Result:
        self.check_flags(match_id)
        return self._noted(match_id, super().undo(match_id, **kwargs))

    def answer_undo(self, match_id: UUID, **kwargs: Any) -> Result:
        self.check_flags(match_id)
        return self._noted(match_id, super().answer_undo(match_id, **kwargs))

    def redo(self, match_id: UUID, **kwargs: Any) -> Result:
        self.check_flags(match_id)
        return self._noted(match_id, super().redo(match_id, **kwargs))
