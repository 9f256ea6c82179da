"""The board, VP tracks and turn marker, now or at any point of the match."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Response

from api.deps import MatchesDep, ReaderDep, ReadingDep, held_read, in_worker
from api.schemas import BoardPublic, TurnPublic, VPPublic
from domain.commands import MAX_INT
from domain.history import Frame
from projections.timeline import PointQuery, frame_at
from projections.views import Point, board_view, turn_view, vp_view

router = APIRouter(prefix="/api/matches/{match_id}", tags=["views"])


async def point_query(
    at: Annotated[int | None, Query(ge=1, le=MAX_INT, description="a version of the match")] = None,
    turn: Annotated[int | None, Query(ge=1, le=MAX_INT, description="with `step`: a turn")] = None,
    step: Annotated[str | None, Query(max_length=200, description="a step path")] = None,
    time: Annotated[datetime | None, Query(description="an ISO-8601 moment")] = None,
) -> PointQuery:
    return PointQuery(at=at, turn=turn, step=step, time=time)


PointDep = Annotated[PointQuery, Depends(point_query)]


def _at(matches: MatchesDep, match_id: UUID, query: PointQuery,
        response: Response) -> tuple[Frame, Point]:
    frame, head = frame_at(matches, match_id, query)
    response.headers["ETag"] = f'"{head}"'
    return frame, Point(version=frame.version, head_version=head, past=frame.version != head)


@router.get("/board", response_model=BoardPublic)
async def board(match_id: UUID, reading: ReadingDep, query: PointDep) -> Response:
    # The page's most frequent read: who reads in one dependency (`reading`); the board
    # now is read where it is cheapest (`held_read`), a point in the past in a worker
    # thread; the answer is encoded once, by pydantic, from the view `board_view` built
    # and checked (FastAPI would dump it, check it again against `BoardPublic` and encode
    # it once more).
    matches, who = reading.matches, reading.who

    def read() -> Response:
        frame, head = frame_at(matches, match_id, query)
        point = Point(version=frame.version, head_version=head, past=frame.version != head)
        view = board_view(frame.state, who.name, frame.undo_request)
        body = BoardPublic.model_construct(point=point, **dict(view)).model_dump_json()
        return Response(body, media_type="application/json", headers={"ETag": f'"{head}"'})

    if not query.given():
        return await held_read(matches, match_id, read)
    return await in_worker(read)


@router.get("/vp")
def vp(match_id: UUID, matches: MatchesDep, who: ReaderDep, query: PointDep, response: Response) -> VPPublic:
    frame, point = _at(matches, match_id, query, response)
    return VPPublic(point=point, **dict(vp_view(frame.state)))


@router.get("/turn")
def turn(match_id: UUID, matches: MatchesDep, who: ReaderDep, query: PointDep,
         response: Response) -> TurnPublic:
    frame, point = _at(matches, match_id, query, response)
    return TurnPublic(point=point, **dict(turn_view(frame.state)))
