"""What the asking seat may do now: its legal actions, each with its choices and the body to
post for each, and whether it may move the turn marker on (docs/legal-actions.md). A large
board is answered in pages of units, or one unit's choices with `unit`; answers are cached
per match version and seat (`projections.legal_answers`)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Request, Response

from api.deps import MatchesDep, ReaderDep
from domain.commands.base import Id
from domain.legal.model import LegalActions
from projections.legal_answers import LegalAnswers

router = APIRouter(prefix="/api/matches/{match_id}", tags=["views"])

UnitQuery = Annotated[Id | None, Query(description="only this unit's choices")]
PageQuery = Annotated[int, Query(ge=1, le=10_000, description="a page of the units' choices "
                                 "(a large board's answer comes in pages: see `page`)")]


class LegalPublic(LegalActions):
    """The legal actions of the asking seat at `version` (post with `If-Match: "<version>"`
    to act on exactly this state). When `page.truncated`, `more` is the address of the next
    page."""

    version: int
    more: str | None = None


def answers(request: Request) -> LegalAnswers:
    found: LegalAnswers = request.app.state.legal_answers
    return found


@router.get("/legal", response_model=LegalPublic)
def legal(match_id: UUID, matches: MatchesDep, who: ReaderDep, request: Request,
          unit: UnitQuery = None, page: PageQuery = 1) -> Response:
    """What your seat may do now (a side's or the referee's; a spectator gets none, with the
    reason): each action with its title and rule id in the game's words, its choices, the
    exact body to `POST .../actions` for each, and whether `advance` is legal or why not.
    On a large board the answer holds a page of the units' choices (`page`: which, and how
    to read the rest); `unit=<id>` answers that unit's choices alone."""
    head = matches.head(match_id)
    path = request.url.path

    def render(found: LegalActions, version: int) -> bytes:
        more = f"{path}?page={found.page.next}" if found.page.next is not None else None
        return LegalPublic(version=version, more=more, **dict(found)).model_dump_json(
            ).encode()

    body = answers(request).answer(head, match_id, who.name, unit=unit, page=page,
                                   render=render)
    return Response(body, media_type="application/json",
                    headers={"ETag": f'"{head.version}"'})
