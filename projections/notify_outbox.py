"""The outbox: a projection of the event log that turns each handoff into notices.

For each event of a match that has registrations it works out the seats the match waits for
at that version (`domain.waiting`), compares them with the last set it kept for the match
(`battlelog_notify_waiting`), and writes one outbox row per registration of each seat that
is newly waited for. The rows, the new set and the projection's tracking position are
written in one transaction, so an event is turned into notices exactly once, whatever
crashes or how many processes run it (a second writer of the same position fails on the
tracking record and writes nothing).

(ours) A handoff is a seat that was not waited for and now is. A seat still waited for
after another seat finished (the other side said it is done with a shared step) is not
told again, and a seat waited for for a new reason without a pause (its own step led to
another of its steps) is not told either: it already knows it is its move. A registration
is told of the handoffs recorded after it was made, none before. Matches with no
registration are passed over; when one gains its first registration, the set before its
next event is worked out from the log.

Only a confirmed registration is told, of the handoffs recorded after it was confirmed,
and only while the token that made it is live: when the referee reissues a seat's token,
that seat's registrations and those its old token made end, in the transaction of that
event (`SeatTokenRevoked`, and the new `SeatTokenIssued`, which a side nobody joined has
alone; docs/seats.md).

Budgets (`projections.notify_budget`): each notice is counted against its match's budget
and the budget of the address the match was created from; one over either is written as
`refused`, with an attempt that says `refused: over budget`, and never sent. The words of
a notice that came from players are made plain (`projections.notify_words`).

Reminders: while a seat is still waited for since the same version, each handoff notice is
followed by a reminder after every `quiet` seconds, at most `reminders` of them
(`schedule_reminders`); their delivery ids are fixed in advance, so two processes that
schedule the same reminder write one row."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent, Tracking

from domain import events as ev
from domain.app import Matches
from domain.history import Frame, first_frame, fold
from domain.rulesets import get_ruleset
from domain.state import MatchState
from domain.waiting import Waiting, waiting_at
from projections.isolation import Failing
from projections.log_read import LogRecord, read_log
from projections.notify_budget import Budget
from projections.notify_registrations import reissued
from projections.notify_store import CONFIRMED, Notice, NotifyView, Registration, Sql
from projections.notify_words import NAME, OUTCOME, SENTENCE, plain
from projections.sentences import Narrator
from projections.sentences_outcome import command_events, outcome

APPLICATION = "battlelog-notify"  # the outbox's own tracking position, beside the catalogue's
RECORD_EVERY = 30.0  # seconds between recordings of a position that made no row
FRAMES_KEPT = 1000  # matches whose recent frames the outbox keeps
OUTCOME_BACK = 64  # how far back the events of the action that handed over are read
FRAMES_PER_MATCH = 64
DELIVERIES = uuid.UUID("6d1f0a8e-51c4-4f55-9a3e-0b6c2f1e7d21")


def delivery_id(match_id: str, version: int, registration_id: str, reminder: int = 0) -> str:
    """The stable id of one notice (the handoff at `version`, or its `reminder`-th
    reminder) to one registration: every attempt sends it as `webhook-id`."""
    return "msg_" + uuid.uuid5(DELIVERIES,
                               f"{match_id}/{version}/{registration_id}/{reminder}").hex


@dataclass(frozen=True)
class OutboxConfig:
    public_url: str = "http://127.0.0.1:8000"
    quiet: float = 12 * 3600.0  # seconds of quiet before a reminder
    reminders: int = 2  # at most this many reminders per handoff
    budget_match: str = "200/hour;1000/day"  # notices per match ("off": none)
    budget_creator: str = "1000/hour;5000/day"  # notices per creating address
    confirm_ttl: float = 24 * 3600.0  # seconds a registration may stay unconfirmed


class Outbox:
    """The outbox projection over `matches`'s log, writing through `view`."""

    def __init__(self, matches: Matches, view: NotifyView, config: OutboxConfig,
                 clock: Callable[[], float] = time.time) -> None:
        self.matches = matches
        self.view = view
        self.config = config
        self.clock = clock
        # recent frames of the matches lately seen: match -> version -> frame
        self._frames: dict[UUID, dict[int, Frame]] = {}
        self.budget = Budget(config.budget_match, config.budget_creator)
        self._creators: dict[str, str] = {}  # the creating address of each match met
        self._spent: dict[str, None] = {}  # reminders counted (rewritten ones are not)
        self._passed = 0  # the last event applied that made no row (not yet recorded)
        self._known: int | None = None  # the recorded position, as last read
        self._recorded = time.monotonic()
        self.written = 0  # outbox rows and sets written so far (the delivery is woken on them)
        # the matches that had a registration when last looked (a save of another does
        # not wake the outbox: `NotifyService._saved`); None until the first look
        self.registered: frozenset[str] | None = None
        self.failing = Failing("notifier outbox")  # matches whose events fail (isolation)

    def position(self) -> int:
        """The last event applied: the recorded tracking position (read once, then kept:
        this runner is the one that moves it, and `forget_position` reads it again), or
        further on where this runner passed over events that made no row."""
        if self._known is None:
            self._known = self.view.max_tracking_id(APPLICATION) or 0
        return max(self._known, self._passed)

    def forget_position(self) -> None:
        """Read the recorded position again at the next step (another runner may have
        moved it: a lost race for the tracking record)."""
        self._known = None

    def catch_up(self, batch: int = 50, window: int = 2000) -> int:
        """Apply every event not yet applied; how many. The log is read `window` events at a
        time, and of those only the events of matches with registrations, chosen by the
        store (`read_log`'s `only`), `batch` to a transaction. Events that make no row write
        nothing: the position moves on in memory and is recorded with the next rows, or
        after `RECORD_EVERY` seconds (so that an action on SQLite is not followed by a
        second commit for nothing; applying such events again after a restart makes
        nothing either).

        Work no one asked for costs nothing: the events of matches with no registration are
        never read (while no match has one, not even the others', only the last event's
        position). The position is read before the registrations, so every event passed
        over was saved before any registration there is now."""
        done = 0
        while True:
            start = self.position() + 1
            last = self.matches.recorder.max_notification_id() or 0
            if last < start:
                return done
            registered = self.view.registered_matches()
            self.registered = frozenset(registered)
            if not registered:
                self._pass(last, [])
                return done + last - start + 1
            stop = min(last, start + window - 1)
            records = read_log(self.matches, start, batch, stop=stop, only=registered)
            if len(records) == batch:
                stop = records[-1][0]  # a whole batch: the rest of the window is next
            stored = {(match_id, version): StoredEvent(match_id, version, topic, state)
                      for _, match_id, version, topic, state in records}
            if not self._applied(start, stop, stored):
                continue
            done += stop - start + 1
            if stop >= last:
                return done

    def apply(self, records: Sequence[LogRecord], batch: int = 50) -> int:
        """Apply those of `records` past this outbox's position (one read of the log shared
        with the catalogue: `projections.projector`), `batch` to a transaction; how many.
        The registrations are read once, after the records, so every event of a match with
        none was saved before any registration it may have now (see `catch_up`)."""
        registered = self.view.registered_matches()
        self.registered = frozenset(registered)
        done = 0
        while True:
            start = self.position() + 1
            new = [r for r in records if r[0] >= start][:batch]
            if not new:
                return done
            stored = {(match_id, version): StoredEvent(match_id, version, topic, state)
                      for _, match_id, version, topic, state in new
                      if str(match_id) in registered}
            if not self._applied(start, new[-1][0], stored):
                return done
            done += len(new)

    def _applied(self, start: int, last: int, stored: dict[tuple[UUID, int], Any]) -> bool:
        """The events from `start` to `last` applied: the rows of those in `stored` (the
        events of matches with registrations) written with the position; False when
        another runner applied them first (nothing written; the position is read again)."""
        rows = self.rows(list(stored), stored) if stored else []
        if rows and (self.view.max_tracking_id(APPLICATION) or 0) >= start:
            self.forget_position()  # another runner applied these events first
            return False
        self._pass(last, rows)
        return True

    def _pass(self, last: int, rows: list[Sql]) -> None:
        """The events up to `last` applied: `rows` written with the position (or the
        position alone, every `RECORD_EVERY` seconds), else kept in memory."""
        now = time.monotonic()
        if rows or now - self._recorded >= RECORD_EVERY:
            self.view.record(rows, Tracking(APPLICATION, last))
            self._recorded = now
            self._known = last
            self.written += len(rows)
        self._passed = last

    def rows(self, events: list[tuple[UUID, int]],
             stored: dict[tuple[UUID, int], Any] | None = None) -> list[Sql]:
        """The outbox rows and waited-for sets of `events` ((match, version), log order);
        `stored`: their records as read from the log, if at hand."""
        regs = self.view.registrations_in(sorted({str(m) for m, _ in events}))
        versions: dict[UUID, list[int]] = {}
        for match_id, version in events:
            if str(match_id) in regs:
                versions.setdefault(match_id, []).append(version)
        kept = self.view.waitings(sorted(regs))
        unknown = sorted(m for m in regs if m not in self._creators)
        self._creators.update({m: "" for m in unknown} | self.view.creators(unknown))
        sqls: list[Sql] = []
        for match_id, wanted in versions.items():
            if self.failing.skip(match_id):
                continue  # failing: its events are passed over until its retry
            try:
                sqls += self._rows_of(match_id, wanted, regs[str(match_id)],
                                      kept.get(str(match_id)), stored)
            except Exception as error:  # noqa: BLE001 - this match's, not the others'
                self.failing.failed(match_id, error)
                self._frames.pop(match_id, None)
            else:
                self.failing.recovered(match_id)
        return sqls

    def _rows_of(self, match_id: UUID, wanted: list[int], regs: list[Registration],
                 kept: tuple[dict[str, int], int] | None,
                 stored: dict[tuple[UUID, int], Any] | None) -> list[Sql]:
        logged = None
        if stored is not None and len(wanted) == wanted[-1] - wanted[0] + 1:
            mapper = self.matches.mapper
            logged = [cast(ev.Event, mapper.to_domain_event(StoredEvent(
                match_id, v, stored[match_id, v].topic, stored[match_id, v].state)))
                for v in wanted]
        return self._match_rows(match_id, wanted, regs, kept, logged)

    def _match_rows(self, match_id: UUID, wanted: list[int], regs: list[Registration],
                    kept: tuple[dict[str, int], int] | None,
                    logged: list[ev.Event] | None) -> list[Sql]:
        """One match's events from `wanted[0]` to `wanted[-1]` (`logged`, or read from the
        log), each folded onto the frame before it (not a rebuild per event; the frames
        just made are kept for the next batch and for the undos that go back to them)."""
        first, last = wanted[0], wanted[-1]
        frames = self._frames.pop(match_id, {})
        self._frames[match_id] = frames  # the most recent match last
        while len(self._frames) > FRAMES_KEPT:
            del self._frames[next(iter(self._frames))]
        frame = frames.get(first - 1)
        if frame is None and first > 1:
            frame = self.matches.frame_at(match_id, first - 1)

        def earlier(k: int) -> MatchState:
            known = frames.get(k)
            return known.state if known else self.matches.state_at(match_id, k)

        if kept is not None and kept[1] == first - 1:
            before = kept[0]
        else:  # the match's first registration, or its events went by with none
            before = {} if frame is None else {s: first - 1 for s in self._waits(frame).seats}
        sqls: list[Sql] = []
        events = logged if logged is not None else self.matches.events_of(
            match_id, after=first - 1, upto=last)
        for event in events:
            ended = reissued(event)
            if ended is not None:  # a reissue ends the old holder's, and the seat's
                at = event.timestamp.timestamp()
                sqls += self.view.end_sql(str(match_id), ended[0], ended[1], at)
                regs = [r for r in regs if r.holder != ended[1]
                        and (r.seat != ended[0] or r.created > at)]
            frame = (first_frame(event) if frame is None else  # type: ignore[arg-type]
                     fold(frame, [event], earlier))
            frames[frame.version] = frame
            if len(frames) > FRAMES_PER_MATCH:
                del frames[min(frames)]
            now = self._waits(frame)
            after = {seat: before.get(seat, event.version) for seat in now.seats}
            newly = [seat for seat in after if seat not in before]
            if newly:
                live = {hashed for hashed, _ in frame.tokens}
                sqls += self._notices(match_id, frame.state, now, newly, event,
                                      [r for r in regs if r.status == CONFIRMED
                                       and r.holder in live])
            before = after
        sqls.append(self.view.waiting_sql(str(match_id), before, last))
        return sqls

    @staticmethod
    def _waits(frame: Frame) -> Waiting:
        return waiting_at(frame, get_ruleset(frame.state.ruleset, frame.state.options, frame.state.ruleset_hash))

    def _notices(self, match_id: UUID, state: MatchState, now: Waiting,
                 seats: Iterable[str], event: ev.Event,
                 registered: list[Registration]) -> list[Sql]:
        out: list[Sql] = []
        version = event.version
        made = self.clock()
        when = event.timestamp.timestamp()
        for seat in seats:
            regs = [r for r in registered
                    if r.seat == seat and (r.confirmed or r.created) <= when]
            if not regs:
                continue
            payload = self.payload(match_id, version, now, seat, event, state)
            for reg in regs:
                out += self._budgeted(Notice(
                    delivery_id=delivery_id(str(match_id), version, reg.registration_id),
                    registration_id=reg.registration_id, match_id=str(match_id), seat=seat,
                    version=version, reminder=0, payload=payload, status="pending",
                    attempts=0, due=made, lease_until=None, created=made, done=None))
        return out

    def _budgeted(self, notice: Notice) -> list[Sql]:
        """`notice` to be sent, or recorded as refused when its match or its match's
        creator is over budget. A reminder written again (each is written until it has
        a row; the row is kept once) is counted once."""
        if notice.reminder > 0:
            if notice.delivery_id in self._spent:
                return [self.view.notice_sql(notice)]
            self._spent[notice.delivery_id] = None
            if len(self._spent) > 10 * FRAMES_KEPT:
                del self._spent[next(iter(self._spent))]
        creator = self._creators.get(notice.match_id)
        if creator is None:
            creator = self._creators[notice.match_id] = self.view.creators(
                [notice.match_id]).get(notice.match_id, "")
        if self.budget.spend(notice.match_id, creator or None):
            return [self.view.notice_sql(notice)]
        return self.view.refused_sql(notice, "over budget")

    def payload(self, match_id: UUID, version: int, now: Waiting, seat: str,
                event: ev.Event, state: MatchState | None = None) -> dict[str, Any]:
        """What a notice says, as `seat` may see it: the match, whom it waits for and why,
        the step, and the event that handed over, in words for that seat (a hidden card, a
        private roll stay hidden; the dice seed is never said)."""
        if state is None:
            state = self.matches.frame_at(match_id, version).state
        narrator = Narrator.of_state(state, viewer=seat, lookup=lambda after, upto: list(
            self.matches.events_of(match_id, after=after, upto=upto)))
        names = narrator.names
        # the outcome of the action that handed over (its roll and what followed), the one
        # the page said after the tap and the log's sentences make
        done = command_events(list(self.matches.events_of(
            match_id, after=max(0, event.version - OUTCOME_BACK), upto=event.version)), event)
        last = outcome(done, narrator) or narrator.sentence(event)
        return {
            "type": "turn.handoff",
            "match_id": str(match_id),
            "title": plain(state.scenario),
            "version": version,
            "seat": seat,
            "waiting_for": [{"seat": w.seat, "name": plain(names.seat(w.seat)),
                             "reason": plain(w.reason, SENTENCE)} for w in now.waits],
            "step": f"Turn {state.turn.turn}, {plain(names.step(state.turn.step), NAME)}",
            "last": plain(last, OUTCOME),
            "handed_over_at": event.timestamp.isoformat(),
            "link": f"{self.config.public_url.rstrip('/')}/play/{match_id}",
        }

    def schedule_reminders(self) -> int:
        """Write the reminders that are due (each once: its delivery id is fixed)."""
        quiet, most = self.config.quiet, self.config.reminders
        if most <= 0:
            return 0
        now = self.clock()
        self.view.drop_unconfirmed(now - self.config.confirm_ttl)
        sqls: list[Sql] = []
        waiting: dict[str, dict[str, int]] = {}
        for first in self.view.reminder_candidates(now - quiet, most):
            if first.match_id not in waiting:
                kept = self.view.waiting(first.match_id)
                waiting[first.match_id] = kept[0] if kept else {}
            if waiting[first.match_id].get(first.seat) != first.version:
                continue  # no longer waited for since that handoff
            if self.view.registration(first.registration_id) is None:
                continue  # deleted, or ended by a reissue
            for k in range(1, min(most, int((now - first.created) // quiet)) + 1):
                due = first.created + k * quiet
                sqls += self._budgeted(Notice(
                    delivery_id=delivery_id(first.match_id, first.version,
                                            first.registration_id, k),
                    registration_id=first.registration_id, match_id=first.match_id,
                    seat=first.seat, version=first.version, reminder=k,
                    payload={**first.payload, "type": "turn.reminder", "reminder": k},
                    status="pending", attempts=0, due=due, lease_until=None, created=due,
                    done=None))
        if sqls:
            self.view.execute(sqls)
        return len(sqls)

