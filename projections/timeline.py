"""Time travel: which version a request means, and the state there.

A point is given as exactly one of: `at=<version>`, `turn=<n>&step=<path>` (the first version
at which that step was current), or `time=<ISO-8601>` (the last version recorded at or before
that moment). With none, the point is the head of the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from domain.app import Matches
from domain.errors import InvalidAction
from domain.history import Frame


@dataclass(frozen=True)
class PointQuery:
    at: int | None = None
    turn: int | None = None
    step: str | None = None
    time: datetime | None = None

    def given(self) -> bool:
        return any(v is not None for v in (self.at, self.turn, self.step, self.time))


def resolve(app: Matches, match_id: UUID, query: PointQuery) -> int:
    """The version the query names (the head when it names none)."""
    kinds = [query.at is not None, query.turn is not None or query.step is not None,
             query.time is not None]
    if kinds.count(True) > 1:
        raise InvalidAction("give one of: at, turn and step, time", rule="core-time-travel")
    if query.at is not None:
        return query.at
    if query.turn is not None or query.step is not None:
        if query.turn is None or query.step is None:
            raise InvalidAction("turn and step go together", rule="core-time-travel")
        return app.version_at_step(match_id, query.turn, query.step)
    if query.time is not None:
        when = query.time if query.time.tzinfo else query.time.replace(tzinfo=UTC)
        return app.version_at_time(match_id, when)
    return app.head(match_id).version


def frame_at(app: Matches, match_id: UUID, query: PointQuery) -> tuple[Frame, int]:
    """The frame at the point, and the head version (to tell the past from now)."""
    head = app.head(match_id)
    version = resolve(app, match_id, query) if query.given() else head.version
    return app.frame_at(match_id, version), head.version
