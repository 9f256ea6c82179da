"""The referee's commands for the game clock (docs/clock.md): ordinary actions, sent like any
other (`POST .../actions`), decided by `domain.clock.decide`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt

from domain.commands.base import Command, Id
from domain.events.clock import MAX_ADJUSTMENT, TimeControl

Reason = Annotated[str, Field(max_length=200)]


class StartClock(Command):
    """Start the clock with each side's time control (every side of the match, once)."""

    type: Literal["start_clock"] = "start_clock"
    controls: Annotated[dict[Id, TimeControl], Field(min_length=1, max_length=8)]


class PauseClock(Command):
    type: Literal["pause_clock"] = "pause_clock"
    reason: Reason = ""


class ResumeClock(Command):
    type: Literal["resume_clock"] = "resume_clock"
    reason: Reason = ""


class AdjustClock(Command):
    """Give a side time (`seconds` > 0) or take it (< 0), saying why: at most
    `MAX_ADJUSTMENT` seconds either way, and `MAX_ADJUSTED` added up for a side."""

    type: Literal["adjust_clock"] = "adjust_clock"
    side: Id
    seconds: Annotated[StrictInt, Field(ge=-MAX_ADJUSTMENT, le=MAX_ADJUSTMENT)]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


CLOCK_COMMANDS = ("start_clock", "pause_clock", "resume_clock", "adjust_clock")
