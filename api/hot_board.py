"""The board's lane (issue 30): `GET /api/matches/{id}/board` with no query string (the
board now, the page's most frequent read), served with no framework layer between the one
ASGI layer of ours (`Gate`) and the board: who reads (`reading`: the token), then the same
function as the route's (`api.routes.views.served_board`: the head read once, the seat
looked up at it, the answer encoded once or taken from the boards already served), a
refusal as the same problem detail. A board at a point in time (a query string) and a
match id not in its canonical form go to the FastAPI route."""

from __future__ import annotations

import re
from uuid import UUID

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from api.deps import reading
from api.problems import domain_problem
from api.routes.views import served_board
from domain.errors import DomainError
from projections.timeline import PointQuery

PATH = re.compile(r"/api/matches/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                  r"[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/board")
NOW = PointQuery()


async def serve(scope: Scope, body: bytes) -> Response | None:
    """The board now; None when the route should answer instead (nothing done)."""
    if scope.get("method") != "GET" or scope.get("query_string") or body:
        return None
    match = PATH.fullmatch(str(scope.get("path", "")))
    if match is None:
        return None
    match_id = UUID(match.group(1))
    try:
        return await served_board(match_id, await reading(Request(scope), match_id), NOW)
    except DomainError as error:
        return domain_problem(error, str(scope["path"]))
