"""The game clock, now or as it stood at any point of the match (docs/clock.md). Starting,
pausing, resuming and adjusting it are ordinary actions (`POST .../actions`, the referee's)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response

from api.deps import MatchesDep, ReaderDep
from api.routes.views import PointDep
from projections.clock import ClockView, clock_at_version, clock_now
from projections.timeline import frame_at

router = APIRouter(prefix="/api/matches/{match_id}", tags=["views"])


@router.get("/clock")
def clock(match_id: UUID, matches: MatchesDep, who: ReaderDep, query: PointDep,
          response: Response) -> ClockView:
    """Every side's clock: now (read at the server's current time; a page ticks it on from
    `remaining` and `running`), or at a version, turn and step, or moment (as it stood then,
    read at the moment of that version's event)."""
    frame, head = frame_at(matches, match_id, query)
    response.headers["ETag"] = f'"{head}"'
    if query.given():
        return clock_at_version(matches, match_id, frame)
    return clock_now(matches, match_id, frame, matches.clock())
