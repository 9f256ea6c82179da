"""Creating, listing and reading matches; joining a seat."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Query, Response, status

from api.deps import CatalogueDep, MatchesDep
from api.schemas import MatchCreated, MatchPublic, SeatCreate, SeatPublic
from domain.commands import CreateMatch
from projections.catalogue import CatalogueEntry
from projections.views import turn_view

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.post("", status_code=status.HTTP_201_CREATED)
def create_match(body: CreateMatch, matches: MatchesDep, response: Response) -> MatchCreated:
    """Create a match: ruleset, scenario, sides (2 to 8) and options (`casual`, `phases`)."""
    result = matches.create_match(body)
    match_id = result.events[0].originator_id
    base = f"/api/matches/{match_id}"
    response.headers["Location"] = base
    response.headers["ETag"] = f'"{result.frame.version}"'
    return MatchCreated(
        match_id=match_id, version=result.frame.version,
        links={name: f"{base}/{name}" if name != "self" else base
               for name in ("self", "actions", "board", "vp", "turn", "events", "undo", "redo")},
    )


@router.get("")
def list_matches(
    catalogue: CatalogueDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
    status: Literal["active", "ended"] | None = None,
) -> list[CatalogueEntry]:
    """The match catalogue, most recently active first."""
    catalogue.wait_until_caught_up(timeout=2.0)
    return catalogue.list(limit=limit, offset=offset, status=status)


@router.get("/{match_id}")
def get_match(match_id: UUID, matches: MatchesDep, response: Response) -> MatchPublic:
    head = matches.head(match_id)
    state = head.state
    response.headers["ETag"] = f'"{head.version}"'
    return MatchPublic(
        match_id=match_id, ruleset=state.ruleset, ruleset_version=state.ruleset_version,
        scenario=state.scenario, casual=state.casual, sides=state.sides,
        seats=[SeatPublic(side=side, player=player) for side, player in head.seats],
        version=head.version, turn=turn_view(state), outcome=state.outcome,
    )


@router.post("/{match_id}/seats", status_code=status.HTTP_201_CREATED)
def join_seat(match_id: UUID, body: SeatCreate, matches: MatchesDep,
              response: Response) -> SeatPublic:
    """Take a seat: a side, or the referee's (`side: null`)."""
    result = matches.join(match_id, side=body.side, player=body.player)
    response.headers["ETag"] = f'"{result.frame.version}"'
    return SeatPublic(side=body.side, player=body.player)
