"""The game clock's events (docs/clock.md). The clocks themselves are derived from these
and from every event's stored `timestamp` (`domain.clock`); nothing here reads a clock.

They are facts about the match's log, not its game: an undo never takes them back."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt, model_validator

from domain.events.base import Event
from domain.state import Frozen, Name

MAX_TOTAL = 30 * 24 * 3600  # seconds: a side's time, 1 s .. 30 days
MAX_INCREMENT = 24 * 3600  # seconds: 0 .. 1 day added per activation, player-turn or turn
# (ours) The referee's adjustments: each at most 30 days either way, and a side's added up
# (what was given less what was taken) at most 30 days either way too, so that no number
# of adjustments can push a clock past what its arithmetic holds.
MAX_ADJUSTMENT = MAX_TOTAL
MAX_ADJUSTED = MAX_TOTAL
IncrementPer = Literal["activation", "player_turn", "turn"]


class TimeControl(Frozen):
    """A side's time: a `total`, optionally an `increment` added at the end of each
    activation, player-turn or turn (`per`), and a `move_limit`: the most one stretch of
    waiting for the side may last. Seconds, whole."""

    total: StrictInt = Field(ge=1, le=MAX_TOTAL)
    increment: StrictInt = Field(default=0, ge=0, le=MAX_INCREMENT)
    per: IncrementPer | None = None
    move_limit: StrictInt | None = Field(default=None, ge=1, le=MAX_TOTAL)

    @model_validator(mode="after")
    def _increment_has_a_when(self) -> TimeControl:
        if (self.increment > 0) != (self.per is not None):
            raise ValueError("an increment needs `per` (activation, player_turn or turn), "
                             "and `per` an increment above 0")
        return self


class ClockStarted(Event):
    """The referee starts the clock with each side's time control."""

    controls: dict[Name, TimeControl]


class ClockPaused(Event):
    reason: str = ""


class ClockResumed(Event):
    reason: str = ""


class ClockAdjusted(Event):
    """The referee gives (`seconds` > 0) or takes time from `side`, saying why."""

    side: Name
    seconds: int
    reason: str


class FlagFell(Event):
    """`side`'s time ran out (`why`: its total, or one move's limit). Stamped at the exact
    second it ran out, whoever noticed it. It only records: the referee rules on it."""

    side: Name
    why: Literal["total", "move_limit"] = "total"
