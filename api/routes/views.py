"""The board, VP tracks and turn marker, now or at any point of the match."""

from __future__ import annotations

import threading
from datetime import datetime
from time import sleep
from typing import Annotated
from uuid import UUID

from cachetools import LRUCache
from fastapi import APIRouter, Depends, Query, Response

from api.deps import (
    BEARER,
    MatchesDep,
    ReaderDep,
    Reading,
    ReadingDep,
    held_read,
    in_worker,
    seat_at,
)
from api.schemas import BoardPublic, TurnPublic, VPPublic
from domain.commands import MAX_INT
from domain.errors import MatchNotFound
from domain.history import Frame
from projections.timeline import PointQuery, frame_at
from projections.views import Point, board_view, turn_view, vp_view

router = APIRouter(prefix="/api/matches/{match_id}", tags=["views"])
# The boards lately served, as their JSON bytes, by (store, match, version, head version,
# seat): a version never changes, so a board read again (every page following a match reads
# the new version's) is not built and encoded again. Bounded by the bytes it holds.
_boards: LRUCache[tuple[int, UUID, int, int, str], bytes] = LRUCache(
    maxsize=8 * 1024 * 1024, getsizeof=len)
_boards_lock = threading.Lock()


AtQuery = Annotated[int | None, Query(ge=1, le=MAX_INT, description="a version of the match")]
TurnQuery = Annotated[int | None, Query(ge=1, le=MAX_INT, description="with `step`: a turn")]
StepQuery = Annotated[str | None, Query(max_length=200, description="a step path")]
TimeQuery = Annotated[datetime | None, Query(description="an ISO-8601 moment")]


async def point_query(at: AtQuery = None, turn: TurnQuery = None, step: StepQuery = None,
                      time: TimeQuery = None) -> PointQuery:
    return PointQuery(at=at, turn=turn, step=step, time=time)


PointDep = Annotated[PointQuery, Depends(point_query)]


def _at(matches: MatchesDep, match_id: UUID, query: PointQuery,
        response: Response) -> tuple[Frame, Point]:
    frame, head = frame_at(matches, match_id, query)
    response.headers["ETag"] = f'"{head}"'
    return frame, Point(version=frame.version, head_version=head, past=frame.version != head)


@router.get("/board", response_model=BoardPublic, openapi_extra=BEARER)
async def board(
    match_id: UUID, reading: ReadingDep, at: AtQuery = None, turn: TurnQuery = None,
    step: StepQuery = None, time: TimeQuery = None,
) -> Response:
    # The page's most frequent read. Who reads in one dependency (`reading`), the point's
    # parameters on the route itself (not one more dependency to solve; the same
    # parameters as `point_query`'s). The board now: the head is read once, and the seat
    # looked up at that head (`seat_at`), where it is cheapest (`held_read`); a point in the
    # past in a worker thread. The answer is encoded once, by pydantic, from the view
    # `board_view` built and checked (FastAPI would dump it, check it again against
    # `BoardPublic` and encode it once more).
    return await served_board(match_id, reading,
                              PointQuery(at=at, turn=turn, step=step, time=time))


async def served_board(match_id: UUID, reading: Reading, query: PointQuery) -> Response:
    """The board `reading` asked for, as served (the route's, and the board now through
    the lane of `api.hot_board`). The head is looked up on the event loop when that is
    cheap (`held_read`); a board not served already is built in a worker thread, never on
    the event loop (a ruleset file's readings take up to their work budget: one match's
    board never holds the other matches' requests)."""
    matches = reading.matches

    def find() -> tuple[Frame, int, str, bytes | None]:
        if query.given():  # a query string: `reading` looked the seat up
            frame, head = frame_at(matches, match_id, query)
            who = reading.who
        else:
            try:
                now = matches.head(match_id)
            except MatchNotFound:  # an unknown match and a wrong token look alike (401)
                now = None
            who = reading.who or seat_at(now, reading.token)
            assert now is not None  # a seat was found: the match exists
            frame, head = now, now.version
        assert who is not None
        with _boards_lock:
            body = _boards.get((id(matches), match_id, frame.version, head, who.name))
        return frame, head, who.name, body

    def build(frame: Frame, head: int, seat: str) -> bytes:
        point = Point(version=frame.version, head_version=head, past=frame.version != head)
        view = board_view(frame.state, seat, frame.undo_request, between=_let_others_run)
        body = BoardPublic.model_construct(point=point, **dict(view)).model_dump_json(
            ).encode()
        with _boards_lock:
            _boards[(id(matches), match_id, frame.version, head, seat)] = body
        return body

    def whole() -> tuple[bytes, int]:  # in one worker thread: a point in the past
        frame, head, seat, body = find()
        return (body if body is not None else build(frame, head, seat)), head

    if query.given():
        body, head = await in_worker(whole)
    else:
        frame, head, seat, found = await held_read(matches, match_id, find)
        body = found if found is not None else await in_worker(
            lambda: build(frame, head, seat))
    return Response(body, media_type="application/json", headers={"ETag": f'"{head}"'})


def _let_others_run() -> None:
    sleep(0)  # releases the interpreter to a thread waiting for it (the event loop)


@router.get("/vp")
def vp(match_id: UUID, matches: MatchesDep, who: ReaderDep, query: PointDep, response: Response) -> VPPublic:
    frame, point = _at(matches, match_id, query, response)
    return VPPublic(point=point, **dict(vp_view(frame.state)))


@router.get("/turn")
def turn(match_id: UUID, matches: MatchesDep, who: ReaderDep, query: PointDep,
         response: Response) -> TurnPublic:
    frame, point = _at(matches, match_id, query, response)
    return TurnPublic(point=point, **dict(turn_view(frame.state)))
