"""Dependencies shared by the routes: the application, who is asking, `If-Match`,
`Idempotency-Key`, `Last-Event-ID`. Those that touch no store are `async def`: FastAPI runs a
plain `def` dependency in a worker thread, and those hops were most of a request's CPU under
load. Every header the API reads is taken from the request's bytes by `header()`, the one
place that decides what a header may hold."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated, TypeVar
from uuid import UUID

from fastapi import Depends, Header, Request
from fastapi.dependencies.models import Dependant
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.problems import BadHeader, Forbidden, Unauthorized
from api.workers import Workers
from domain.app import JOIN, SPECTATOR, Matches
from domain.app.usecases import seat_of
from domain.decide import REFEREE
from domain.errors import InvalidAction, MatchNotFound
from domain.history import Frame
from projections.catalogue import CatalogueService

T = TypeVar("T")


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


_VISIBLE_ASCII = re.compile(rb"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")


def header(request: Request, name: str, *, max_length: int) -> str | None:
    """The value of the header `name`, None when it is absent or empty. It must
    be sent once and be at most `max_length` visible ASCII characters (spaces inside): no
    header read here holds anything else, and a server decoding other bytes (Latin-1, as
    ASGI does) would hand on what no client meant, e.g. "²", which `str.isdigit` accepts
    and `int` refuses. Anything else is a 422 problem, before a route runs."""
    key = name.lower().encode("ascii")
    found = [value for field, value in request.scope["headers"] if field == key]
    if len(found) > 1:
        raise BadHeader(f"send the {name} header once", rule="core-requests")
    raw = found[0].strip(b" \t") if found else b""
    if not raw:
        return None
    if len(raw) > max_length or not _VISIBLE_ASCII.fullmatch(raw):
        raise BadHeader(f"the {name} header must be at most {max_length} visible ASCII "
                        "characters", rule="core-requests")
    return raw.decode("ascii")


_bearer = HTTPBearer(auto_error=False, description="a seat token of the match")


def _token(request: Request) -> str:
    scheme, _, token = (header(request, "Authorization", max_length=1024) or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send the seat's token as 'Authorization: Bearer <token>'",
                           rule="core-seats")
    return token.strip()


async def bearer(request: Request,
                 declared: Annotated[HTTPAuthorizationCredentials | None,
                                     Depends(_bearer)]) -> str:
    """The bearer token (`declared` only puts the scheme in the OpenAPI document)."""
    return _token(request)


@dataclass(frozen=True)
class Seat:
    """Who is asking: `referee`, `spectator`, a side id, or `join:<side>` (a join token)."""

    name: str

    @property
    def side(self) -> str | None:
        if self.name in (REFEREE, SPECTATOR) or self.name.startswith(JOIN):
            return None
        return self.name


def _authenticate(matches: Matches, match_id: UUID, token: str,
                  held: bool = False) -> str | None:
    try:
        return matches.authenticate(match_id, token, held=held)
    except MatchNotFound:
        return None  # an unknown match and a wrong token look alike


def _local(matches: Matches) -> bool:
    """Whether the store is in this process or a file beside it (SQLite), not a server."""
    return "postgres" not in matches.env.get("PERSISTENCE_MODULE", "")


_working = 0  # requests of this process in a worker thread through `in_worker`, now


WORKERS = Workers()  # the hot routes' threads (api/workers.py: lighter than anyio's hop)


def _worked() -> None:
    global _working
    _working -= 1


async def in_worker(fn: Callable[[], T]) -> T:
    """`fn()` in a worker thread (it may wait on the store), counted in `_working` until
    it ended (a caller cancelled meanwhile does not end it)."""
    global _working
    _working += 1
    return await WORKERS.run(fn, _worked)


async def held_read(matches: Matches, match_id: UUID, read: Callable[[], T]) -> T:
    """`read()`, a read of the match's head, on the event loop when that is cheap: no
    request is in a worker thread, the store is local and this process holds the match's
    head, so the read is one query for newer events (SQLite's WAL reads beside the writer)
    and CPU work, cheaper than a hop to a worker thread and back. Otherwise (a match to
    load, a store across the network, or workers that may hold the store's connections
    while they wait for its write lock) in a worker thread."""
    if _working == 0 and _local(matches) and matches.holds(match_id):
        return read()
    return await in_worker(read)


async def _seat(matches: Matches, match_id: UUID, token: str, held: bool = False) -> Seat:
    """The seat `token` opens. `held` (an action): looked up at the head this process
    holds, on the event loop (no store, no worker thread); the action checks its token
    again at the head it appends after. A seat that may not act there (or no seat) is
    looked up again at the store's head, so every refusal is the one the newest head
    gives."""
    name = None
    if held and matches.holds(match_id):
        name = _authenticate(matches, match_id, token, held=True)
    if name is None or name == SPECTATOR or name.startswith(JOIN):
        name = await held_read(matches, match_id,
                               partial(_authenticate, matches, match_id, token))
    if name is None:
        raise Unauthorized("this token opens no seat of this match", rule="core-seats")
    return Seat(name)


def _reading(who: Seat) -> Seat:
    if who.name.startswith(JOIN):
        raise Forbidden("a join token only joins; join the side to get your seat's token",
                        rule="core-seats")
    return who


def _acting(who: Seat) -> str:
    if who.name == SPECTATOR:
        raise Forbidden("spectators watch; they do not act", rule="core-seats")
    return who.name


async def seat(match_id: UUID, matches: MatchesDep,
               token: Annotated[str, Depends(bearer)]) -> Seat:
    return await _seat(matches, match_id, token)


async def reader(who: Annotated[Seat, Depends(seat)]) -> Seat:
    return _reading(who)


async def actor(who: Annotated[Seat, Depends(reader)]) -> str:
    return _acting(who)


IF_MATCH = "The match version the action was decided on; 412 if the match moved on."
IDEMPOTENCY_KEY = ("Retrying with the same key (same seat, same body) returns the first "
                   "response and appends nothing; at most 200 visible ASCII characters")


@dataclass(frozen=True)
class Acting:
    """Who acts on the hot route, in one dependency: the application, the seat that acts
    and its token (what `MatchesDep`, `ActorDep` and `TokenDep` give, checked in the same
    order: the token, the seat it opens, not a join token, not a spectator). FastAPI's
    dependency solving costs about as much per dependency as a small use case."""

    matches: Matches
    seat: str
    token: str
    key: str | None = None  # Idempotency-Key
    if_match: int | None = None


@dataclass(frozen=True)
class Reading:
    """Who reads on the hot route (the board), in one dependency: what `MatchesDep` and
    `ReaderDep` give, checked in the same order."""

    matches: Matches
    who: Seat | None  # None: looked up by the route at the head it reads (see `reading`)
    token: str = ""


# The hot routes declare the bearer scheme in their operation (`openapi_extra=BEARER`),
# as `Depends(_bearer)` would, without a dependency solved on every request for it.
BEARER: dict[str, object] = {"security": [{_bearer.scheme_name: []}]}


async def reading(request: Request, match_id: UUID) -> Reading:
    """Who reads. With no query string (the board now), only the token is taken here and
    `who` is None: the route looks the seat up at the head it reads the board from (one
    read of the head, not two), and nothing it could refuse is checked before that. With
    one, the seat is looked up here, before FastAPI checks the query's parameters."""
    matches: Matches = request.app.state.matches
    token = _token(request)
    if not request.scope.get("query_string"):
        return Reading(matches, None, token)
    return Reading(matches, _reading(await _seat(matches, match_id, token)), token)


def seat_at(head: Frame | None, token: str) -> Seat:
    """The reading seat `token` opens at `head` (None: no such match), refused as `reading`
    refuses it."""
    name = None if head is None else seat_of(head, token)
    if name is None:
        raise Unauthorized("this token opens no seat of this match", rule="core-seats")
    return _reading(Seat(name))


async def acting(request: Request, match_id: UUID,
                 idempotency_key: Annotated[str | None, Header(
                     min_length=1, max_length=200, description=IDEMPOTENCY_KEY)] = None,
                 if_match: Annotated[str | None, Header(max_length=32,
                                                        description=IF_MATCH)] = None,
                 ) -> Acting:
    """Who acts, then `If-Match` and `Idempotency-Key` (what `IfMatchDep` and
    `IdempotencyDep` give; the header parameters only describe them, as there)."""
    matches: Matches = request.app.state.matches
    token = _token(request)
    who = await _seat(matches, match_id, token, held=True)
    return Acting(matches, _acting(_reading(who)), token, _key(request), _version(request))


async def referee(who: Annotated[Seat, Depends(seat)]) -> str:
    if who.name != REFEREE:
        raise Forbidden("only the referee may do this", rule="core-seats")
    return who.name


# The header parameters below only describe the headers in the OpenAPI document; their
# values are read through `header()`.

def _version(request: Request) -> int | None:
    raw = header(request, "If-Match", max_length=32)
    if raw is None:
        return None
    version = raw.removeprefix("W/").strip('"')
    if not version.isdigit():  # ASCII digits only: header() let nothing else through
        raise InvalidAction('If-Match must be a match version, e.g. "12"',
                            rule="core-concurrency")
    return int(version)


def _key(request: Request) -> str | None:
    return header(request, "Idempotency-Key", max_length=200)


async def expected_version(
    request: Request,
    if_match: Annotated[str | None, Header(max_length=32, description=IF_MATCH)] = None,
) -> int | None:
    return _version(request)


async def idempotency_key(
    request: Request,
    idempotency_key: Annotated[str | None, Header(min_length=1, max_length=200,
                                                  description=IDEMPOTENCY_KEY)] = None,
) -> str | None:
    return _key(request)


async def last_event_id(
    request: Request,
    last_event_id: Annotated[str | None, Header(max_length=20, description=(
        "The last version this stream sent, when reconnecting"))] = None,
) -> int | None:
    raw = header(request, "Last-Event-ID", max_length=20)
    if raw is None:
        return None
    if not raw.isdigit():
        raise BadHeader("Last-Event-ID must be a version this stream sent, e.g. 12",
                        rule="core-live")
    return int(raw)


SeatDep = Annotated[Seat, Depends(seat)]
ReaderDep = Annotated[Seat, Depends(reader)]
ActorDep = Annotated[str, Depends(actor)]
ActingDep = Annotated[Acting, Depends(acting)]
ReadingDep = Annotated[Reading, Depends(reading)]
RefereeDep = Annotated[str, Depends(referee)]
IfMatchDep = Annotated[int | None, Depends(expected_version)]
IdempotencyDep = Annotated[str | None, Depends(idempotency_key)]
LastEventDep = Annotated[int | None, Depends(last_event_id)]
# The bearer token itself, for use cases that must see it still live as they append.
TokenDep = Annotated[str, Depends(bearer)]
