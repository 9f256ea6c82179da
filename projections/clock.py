"""Every side's clock as the page and the API show it (docs/clock.md): at the live head with
the current time passed in, or as it stood at any version (time travel: "now" is then the
moment of that version's event). Derived from the log by `domain.clock`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID

from pydantic import BaseModel, Field

from domain import events as ev
from domain.clock import ClockFold, clock_fold, clocks_at
from domain.history import Frame
from domain.state import MatchState


class SideClockView(BaseModel):
    side: str
    name: str
    remaining: float = Field(description="seconds left (0 once the flag has fallen)")
    running: bool = Field(description="its time runs now: the match waits for this side")
    flag_fallen: bool
    move_left: float | None = Field(default=None, description="with a move limit: seconds "
                                    "left of this move")
    control: dict[str, object] = Field(description="its time control, as started")


class ClockView(BaseModel):
    started: bool = Field(description="false: the match is played without a clock")
    paused: bool
    at: datetime = Field(description="the moment these clocks are read at")
    version: int
    sides: list[SideClockView]


class ClockSource(Protocol):
    """What the view reads from the application (`domain.app.Matches`)."""

    def clock_of(self, match_id: UUID, head: Frame | None = None) -> ClockFold: ...

    def events_of(self, match_id: UUID, *, after: int = 0,
                  upto: int | None = None) -> Iterable[ev.Event]: ...


def _seconds(value: timedelta) -> float:
    return max(value.total_seconds(), 0.0)


def view(clock: ClockFold, state: MatchState, now: datetime, version: int) -> ClockView:
    names = {s.id: s.name for s in state.sides}
    order = {side: i for i, side in enumerate(state.side_ids())}  # the match's order of sides
    sides = [SideClockView(side=c.side, name=names.get(c.side, c.side),
                           remaining=_seconds(c.remaining), running=c.running,
                           flag_fallen=c.flag_fallen,
                           move_left=None if c.move_left is None else _seconds(c.move_left),
                           control=clock.controls[c.side].model_dump(exclude_defaults=True))
             for c in sorted(clocks_at(clock, now), key=lambda c: order.get(c.side, len(order)))]
    return ClockView(started=clock.started, paused=clock.paused, at=now, version=version,
                     sides=sides)


def clock_now(matches: ClockSource, match_id: UUID, head: Frame, now: datetime) -> ClockView:
    """The clocks at the head, read at `now` (the current time, from outside)."""
    clock = matches.clock_of(match_id, head)
    return view(clock, head.state, max(now, clock.since or now), head.version)


def clock_at_version(matches: ClockSource, match_id: UUID, frame: Frame) -> ClockView:
    """The clocks as they stood at `frame`'s version, read at the moment of its event."""
    events = list(matches.events_of(match_id, upto=frame.version))
    clock = clock_fold(events)
    return view(clock, frame.state, events[-1].timestamp, frame.version)
