"""Deciding the referee's clock commands (docs/clock.md): what each appends, or why not.

Authority is `domain.authority.check_clock`'s; the clock as it stands (`ClockFold`) comes
from the log (`domain.clock`), and the time from `Context.now`."""

from __future__ import annotations

from datetime import datetime, timedelta

from domain import events as ev
from domain.authority import check_clock
from domain.clock import ClockFold, flags_due
from domain.commands import clock as cc
from domain.context import REFEREE, Context, Emit
from domain.errors import InvalidAction, MatchOver
from domain.events.clock import MAX_ADJUSTED
from domain.state import MatchState

ClockCommand = cc.StartClock | cc.PauseClock | cc.ResumeClock | cc.AdjustClock


def decide_clock(command: ClockCommand, clock: ClockFold, state: MatchState,
                 context: Context) -> list[ev.Event]:
    check_clock(command.type, context.actor)
    if state.outcome is not None:
        raise MatchOver("the match has ended: its clock stands still", rule="core-clock")
    emit = Emit(context, state)
    if isinstance(command, cc.StartClock):
        if clock.started:
            raise InvalidAction("the clock has started already (pause it, or adjust a side's "
                                "time)", rule="core-clock")
        sides = set(state.side_ids())
        if set(command.controls) != sides:
            raise InvalidAction("give a time control for every side, and only for them",
                                rule="core-clock", allowed=sorted(sides))
        emit(ev.ClockStarted, controls=command.controls, rule="core-clock")
        return emit.events
    if not clock.started:
        raise InvalidAction("the clock has not been started (start_clock)", rule="core-clock",
                            allowed=["start_clock"])
    if isinstance(command, cc.PauseClock | cc.ResumeClock):
        pausing = isinstance(command, cc.PauseClock)
        if clock.paused == pausing:
            raise InvalidAction(f"the clock is {'paused' if pausing else 'running'} already",
                                rule="core-clock")
        emit(ev.ClockPaused if pausing else ev.ClockResumed, reason=command.reason,
             rule="core-clock")
        return emit.events
    if command.side not in clock.controls:
        raise InvalidAction(f"there is no side '{command.side}'", rule="core-clock",
                            allowed=sorted(clock.controls))
    if command.seconds == 0:
        raise InvalidAction("adjust by a number of seconds other than 0", rule="core-clock")
    check_adjusted(clock, command.side, command.seconds)
    emit(ev.ClockAdjusted, side=command.side, seconds=command.seconds, reason=command.reason,
         rule="core-clock")
    return emit.events


def check_adjusted(clock: ClockFold, side: str, seconds: int) -> None:
    """Refuse an adjustment that would take `side`'s adjustments, added up (given less
    taken), past `MAX_ADJUSTED` seconds either way."""
    so_far = clock.adjusted.get(side, timedelta(0))
    total = so_far + timedelta(seconds=seconds)
    if abs(total) > timedelta(seconds=MAX_ADJUSTED):
        raise InvalidAction(
            f"a side's clock adjustments add up to at most {MAX_ADJUSTED} seconds (30 days) "
            f"either way: {side}'s stand at {_signed(so_far)} s, and {seconds:+d} s would "
            f"make them {_signed(total)} s", rule="core-clock")


def _signed(value: timedelta) -> str:
    return f"{int(value.total_seconds()):+d}"


def decide_flags(clock: ClockFold, state: MatchState, context: Context,
                 now: datetime) -> list[ev.Event]:
    """The `FlagFell`s due by `now`, each stamped with the exact moment its flag fell (not
    `now`, nor when it was noticed); none when none is due. Recorded as the referee's."""
    events: list[ev.Event] = []
    for side, moment, why in flags_due(clock, now):
        flag_context = Context(match_id=context.match_id, version=context.version + len(events),
                               actor=REFEREE, command_id=context.command_id, now=moment,
                               dice=context.dice, roll_index=context.roll_index)
        events.append(Emit(flag_context, state)(ev.FlagFell, side=side, why=why,
                                                rule="core-clock"))
    return events
