"""The game clock, derived from the log: a pure fold over the events and their stored
timestamps (docs/clock.md). Nothing here reads a clock: `now` comes from outside.

Between two events, the clock of every side the match waits for (`domain.waiting`) runs,
unless the referee has paused it or the match has ended. An increment is added to a side at
the end of each of its activations (`UnitsActivated` by it), player-turns (the active side
changes away from it) or turns (the turn number goes on: every side), as its control says.
A move limit bounds one stretch of waiting for a side: it starts when the side becomes
waited for. A flag falls when the time left (or the move's) reaches zero: `flags_due` says
at which exact moment, so that the `FlagFell` can be stamped with it whoever notices.

Times are kept as `timedelta`s (whole microseconds), so the arithmetic is exact. It is
also total: a flag moment beyond the last moment a `datetime` can hold is no flag (the
referee's adjustments are bounded too: `domain.clock.decide`).

The package owns the game clock: this module the fold (`ClockFold`, `flags_due`); `decide`
the referee's clock commands and the flag falls. It sits above the core: it may import the
pure core (`state`, `history`, `waiting`, `authority`, `context`, `errors`), `events`,
`commands` and `rulesets`, never `domain.app` nor `domain.legal`; nothing in the core
imports it. Its use cases, which store, are `domain.app.clock`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from domain import events as ev
from domain.context import REFEREE
from domain.events.clock import TimeControl
from domain.history import Frame, first_frame, fold
from domain.rulesets import get_ruleset
from domain.state import MatchState
from domain.waiting import waiting_at

ZERO = timedelta(0)
LAST_MOMENT = datetime.max.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class SideClock:
    side: str
    remaining: timedelta  # may go below zero once the flag has fallen
    running: bool
    flag_fallen: bool
    move_left: timedelta | None  # with a move limit: what is left of this move


@dataclass(frozen=True, slots=True)
class ClockFold:
    """The clock as of `since` (the timestamp of the last event folded)."""

    since: datetime | None = None
    controls: dict[str, TimeControl] = field(default_factory=dict)
    remaining: dict[str, timedelta] = field(default_factory=dict)
    adjusted: dict[str, timedelta] = field(default_factory=dict)  # the referee's, added up
    move_used: dict[str, timedelta] = field(default_factory=dict)
    running: tuple[str, ...] = ()
    paused: bool = False
    ended: bool = False
    fallen: frozenset[str] = frozenset()
    active_side: str | None = None
    turn: int = 0
    version: int = 0

    @property
    def started(self) -> bool:
        return bool(self.controls)

    def _ticking(self) -> tuple[str, ...]:
        return () if self.paused or self.ended or not self.started else self.running


def _elapse(clock: ClockFold, until: datetime) -> ClockFold:
    if clock.since is None or until <= clock.since:
        return replace(clock, since=until if clock.since is None else clock.since)
    spent = until - clock.since
    ticking = clock._ticking()
    return replace(
        clock, since=until,
        remaining={s: t - spent if s in ticking else t for s, t in clock.remaining.items()},
        move_used={s: t + spent if s in ticking else t for s, t in clock.move_used.items()})


def _plus(clock: ClockFold, sides: Iterable[str], per: str) -> dict[str, timedelta]:
    """The time left after each of `sides` is given its increment, where its control
    gives one `per` this."""
    out = dict(clock.remaining)
    for side in sides:
        control = clock.controls.get(side)
        if control is not None and control.per == per and side in out:
            out[side] += timedelta(seconds=control.increment)
    return out


def _apply(clock: ClockFold, event: ev.Event, state: MatchState) -> ClockFold:
    """The clock's own events, and the increments an event earns."""
    if isinstance(event, ev.ClockStarted):
        return replace(clock, controls=dict(event.controls), paused=False, fallen=frozenset(),
                       remaining={s: timedelta(seconds=c.total)
                                  for s, c in event.controls.items()},
                       move_used={s: ZERO for s in event.controls},
                       adjusted={s: ZERO for s in event.controls})
    if isinstance(event, ev.ClockPaused | ev.ClockResumed):
        return replace(clock, paused=isinstance(event, ev.ClockPaused))
    if isinstance(event, ev.ClockAdjusted) and event.side in clock.remaining:
        given = timedelta(seconds=event.seconds)
        left = clock.remaining[event.side] + given
        fallen = clock.fallen - {event.side} if left > ZERO else clock.fallen
        adjusted = {**clock.adjusted,
                    event.side: clock.adjusted.get(event.side, ZERO) + given}
        return replace(clock, remaining={**clock.remaining, event.side: left}, fallen=fallen,
                       adjusted=adjusted)
    if isinstance(event, ev.FlagFell):
        return replace(clock, fallen=clock.fallen | {event.side})
    remaining = clock.remaining
    if isinstance(event, ev.UnitsActivated):
        remaining = _plus(replace(clock, remaining=remaining), [event.side], "activation")
    if clock.active_side is not None and state.turn.active_side != clock.active_side:
        remaining = _plus(replace(clock, remaining=remaining), [clock.active_side],
                          "player_turn")
    if clock.turn and state.turn.turn > clock.turn:
        remaining = _plus(replace(clock, remaining=remaining), clock.controls, "turn")
    return replace(clock, remaining=remaining)


def advance(clock: ClockFold, event: ev.Event, state: MatchState,
            waited: Iterable[str]) -> ClockFold:
    """The clock after `event`, `state` and `waited` being the match's state and the seats
    it waits for after it."""
    clock = _apply(_elapse(clock, event.timestamp), event, state)
    sides = tuple(s for s in dict.fromkeys(waited) if s != REFEREE and s in clock.controls)
    fresh = {s: ZERO for s in sides if s not in clock.running}  # a new stretch: a new move
    fallen = clock.fallen - {s for s in fresh if clock.remaining[s] > ZERO}
    return replace(clock, running=sides, move_used={**clock.move_used, **fresh}, fallen=fallen,
                   ended=state.outcome is not None, active_side=state.turn.active_side,
                   turn=state.turn.turn, version=event.originator_version)


def frames(events: Iterable[ev.Event]) -> Iterator[tuple[ev.Event, Frame]]:
    """Each event of a match's log (from `MatchCreated`) with the frame after it."""
    states: dict[int, MatchState] = {}
    frame: Frame | None = None
    for event in events:
        if frame is None:
            assert isinstance(event, ev.MatchCreated)
            frame = first_frame(event)
        else:
            frame = fold(frame, [event], states.__getitem__)
        states[frame.version] = frame.state
        yield event, frame


def step(clock: ClockFold, event: ev.Event, frame: Frame) -> ClockFold:
    """`advance` with the seats the match waits for at `frame` (the frame after `event`)."""
    state = frame.state
    waited = waiting_at(frame, get_ruleset(state.ruleset, state.options, state.ruleset_hash)).seats
    return advance(clock, event, state, waited)


def clock_fold(events: Iterable[ev.Event]) -> ClockFold:
    """The clock after the last of `events` (a match's log from `MatchCreated`)."""
    clock = ClockFold()
    for event, frame in frames(events):
        clock = step(clock, event, frame)
    return clock


def flag_moment(clock: ClockFold, side: str) -> tuple[datetime, str] | None:
    """When `side`'s flag falls if nothing happens first (and why), or None: its clock is
    not running, its flag has fallen already, or the moment lies beyond the last one a
    `datetime` holds (no flag can fall before then)."""
    if clock.since is None or side not in clock._ticking() or side in clock.fallen:
        return None
    left, why = clock.remaining[side], "total"
    limit = clock.controls[side].move_limit
    if limit is not None:
        move_left = timedelta(seconds=limit) - clock.move_used[side]
        if move_left < left:
            left, why = move_left, "move_limit"
    left = max(left, ZERO)
    if left > LAST_MOMENT - clock.since:
        return None
    return clock.since + left, why


def flags_due(clock: ClockFold, now: datetime) -> list[tuple[str, datetime, str]]:
    """The flags that have fallen by `now` and are not recorded yet: (side, the exact moment,
    why), earliest first."""
    due = [(side, *moment) for side in clock.controls
           if (moment := flag_moment(clock, side)) is not None and moment[0] <= now]
    return sorted(due, key=lambda d: d[1])


def clocks_at(clock: ClockFold, now: datetime) -> list[SideClock]:
    """Every side's clock at `now` (at or after the last event folded)."""
    later = _elapse(clock, now)
    ticking = later._ticking()
    out = []
    for side, control in later.controls.items():
        left = later.remaining[side]
        move_left = None if control.move_limit is None else (
            timedelta(seconds=control.move_limit) - later.move_used[side])
        fallen = side in later.fallen or left <= ZERO or (
            move_left is not None and move_left <= ZERO and side in ticking)
        out.append(SideClock(side=side, remaining=left, running=side in ticking,
                             flag_fallen=fallen, move_left=move_left))
    return out
