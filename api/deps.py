"""Dependencies shared by the routes: the application, the acting seat, `If-Match`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from domain.application import Matches
from domain.errors import InvalidAction
from projections.catalogue import CatalogueService


def get_matches(request: Request) -> Matches:
    matches: Matches = request.app.state.matches
    return matches


def get_catalogue(request: Request) -> CatalogueService:
    catalogue: CatalogueService = request.app.state.catalogue
    return catalogue


def acting_seat(
    x_seat: Annotated[str | None, Header(max_length=64, description=(
        "The acting seat: a side id or `referee` (default). Seat tokens replace this header "
        "in a later version."))] = None,
) -> str:
    return x_seat or "referee"


def expected_version(
    if_match: Annotated[str | None, Header(max_length=32, description=(
        "The match version the action was decided on; 412 if the match moved on."))] = None,
) -> int | None:
    if if_match is None:
        return None
    raw = if_match.strip().removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise InvalidAction("If-Match must be a match version, e.g. \"12\"", rule="core-concurrency")
    return int(raw)


MatchesDep = Annotated[Matches, Depends(get_matches)]
CatalogueDep = Annotated[CatalogueService, Depends(get_catalogue)]
SeatDep = Annotated[str, Depends(acting_seat)]
IfMatchDep = Annotated[int | None, Depends(expected_version)]
