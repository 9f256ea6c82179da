"""The game clock in the players' words (docs/clock.md): started, paused, resumed, adjusted,
and a flag fallen, with the moment it fell (UTC, to the second).

`ClockSentences` is a part of `projections.sentences.Narrator`, which gives it the names."""

from __future__ import annotations

from typing import Protocol

from domain import events as ev


class ClockNames(Protocol):
    def side(self, side: str | None) -> str: ...


def duration(seconds: int) -> str:
    """`3725` -> `1:02:05`; a day or more: `2 d 3:00:00`."""
    days, rest = divmod(abs(seconds), 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{days} d {clock}" if days else clock


def _reason(text: str) -> str:
    return f": “{text}”" if text else "."


class ClockSentences:
    names: ClockNames

    def _say_ClockStarted(self, e: ev.ClockStarted, who: str, hidden: set[str]) -> str:
        parts = []
        for side, c in e.controls.items():
            extra = f" + {duration(c.increment)} per {c.per.replace('_', '-')}" if c.per else ""
            limit = f", at most {duration(c.move_limit)} a move" if c.move_limit else ""
            parts.append(f"{self.names.side(side)} {duration(c.total)}{extra}{limit}")
        return f"{who} started the clock: {'; '.join(parts)}."

    def _say_ClockPaused(self, e: ev.ClockPaused, who: str, hidden: set[str]) -> str:
        return f"{who} paused the clock{_reason(e.reason)}"

    def _say_ClockResumed(self, e: ev.ClockResumed, who: str, hidden: set[str]) -> str:
        return f"{who} restarted the clock{_reason(e.reason)}"

    def _say_ClockAdjusted(self, e: ev.ClockAdjusted, who: str, hidden: set[str]) -> str:
        side, time = self.names.side(e.side), duration(e.seconds)
        done = f"gave {side} {time}" if e.seconds > 0 else f"took {time} from {side}"
        return f"{who} {done} on the clock: “{e.reason}”"

    def _say_FlagFell(self, e: ev.FlagFell, who: str, hidden: set[str]) -> str:
        what = "time for one move" if e.why == "move_limit" else "time"
        return (f"{self.names.side(e.side)}'s flag fell at {e.timestamp:%H:%M:%S} UTC: its "
                f"{what} ran out. The referee rules on what it means.")
