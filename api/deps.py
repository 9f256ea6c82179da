"""Dependencies shared by the routes: the application, who is asking, `If-Match`,
`Idempotency-Key`. Those that touch no store are `async def`: FastAPI runs a plain `def`
dependency in a worker thread, and those hops were most of a request's CPU under load."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from uuid import UUID

from fastapi import Depends, Header, Request
from fastapi.dependencies.models import Dependant
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.problems import Forbidden, Unauthorized
from domain.application import JOIN, SPECTATOR, Matches
from domain.decide import REFEREE
from domain.errors import InvalidAction, MatchNotFound
from projections.catalogue import CatalogueService


def _query_names(dependant: Dependant) -> set[str]:
    names = {field.alias for field in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


async def known_query_only(request: Request) -> None:
    """Refuse query parameters the route does not take (a typo would silently mean 'now'),
    and repeated ones (which one would count?)."""
    route = request.scope.get("route")
    if route is None or not request.query_params:
        return
    allowed = _query_names(route.dependant)
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        raise InvalidAction(f"unknown query parameter(s): {', '.join(map(repr, unknown))}",
                            rule="core-requests", allowed=sorted(allowed))
    repeated = sorted({k for k in request.query_params if len(request.query_params.getlist(k)) > 1})
    if repeated:
        raise InvalidAction(f"give each query parameter once: {', '.join(map(repr, repeated))}",
                            rule="core-requests")


async def get_matches(request: Request) -> Matches:
    matches: Matches = request.app.state.matches
    return matches


async def get_catalogue(request: Request) -> CatalogueService:
    catalogue: CatalogueService = request.app.state.catalogue
    return catalogue


MatchesDep = Annotated[Matches, Depends(get_matches)]
CatalogueDep = Annotated[CatalogueService, Depends(get_catalogue)]


_bearer = HTTPBearer(auto_error=False, description="a seat token of the match")


async def bearer(credentials: Annotated[HTTPAuthorizationCredentials | None,
                                        Depends(_bearer)]) -> str:
    if credentials is None or not credentials.credentials.strip():
        raise Unauthorized("send the seat's token as 'Authorization: Bearer <token>'",
                           rule="core-seats")
    return credentials.credentials.strip()


@dataclass(frozen=True)
class Seat:
    """Who is asking: `referee`, `spectator`, a side id, or `join:<side>` (a join token)."""

    name: str

    @property
    def side(self) -> str | None:
        if self.name in (REFEREE, SPECTATOR) or self.name.startswith(JOIN):
            return None
        return self.name


def seat(match_id: UUID, matches: MatchesDep, token: Annotated[str, Depends(bearer)]) -> Seat:
    try:
        name = matches.authenticate(match_id, token)
    except MatchNotFound:
        name = None  # an unknown match and a wrong token look alike
    if name is None:
        raise Unauthorized("this token opens no seat of this match", rule="core-seats")
    return Seat(name)


async def reader(who: Annotated[Seat, Depends(seat)]) -> Seat:
    if who.name.startswith(JOIN):
        raise Forbidden("a join token only joins; join the side to get your seat's token",
                        rule="core-seats")
    return who


async def actor(who: Annotated[Seat, Depends(reader)]) -> str:
    if who.name == SPECTATOR:
        raise Forbidden("spectators watch; they do not act", rule="core-seats")
    return who.name


async def referee(who: Annotated[Seat, Depends(seat)]) -> str:
    if who.name != REFEREE:
        raise Forbidden("only the referee may do this", rule="core-seats")
    return who.name


async def expected_version(
    if_match: Annotated[str | None, Header(max_length=32, description=(
        "The match version the action was decided on; 412 if the match moved on."))] = None,
) -> int | None:
    if if_match is None:
        return None
    raw = if_match.strip().removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise InvalidAction('If-Match must be a match version, e.g. "12"',
                            rule="core-concurrency")
    return int(raw)


async def idempotency_key(
    idempotency_key: Annotated[str | None, Header(min_length=1, max_length=200, description=(
        "Retrying with the same key (same seat, same body) returns the first response and "
        "appends nothing"))] = None,
) -> str | None:
    return idempotency_key


SeatDep = Annotated[Seat, Depends(seat)]
ReaderDep = Annotated[Seat, Depends(reader)]
ActorDep = Annotated[str, Depends(actor)]
RefereeDep = Annotated[str, Depends(referee)]
IfMatchDep = Annotated[int | None, Depends(expected_version)]
IdempotencyDep = Annotated[str | None, Depends(idempotency_key)]
# The bearer token itself, for use cases that must see it still live as they append.
TokenDep = Annotated[str, Depends(bearer)]
