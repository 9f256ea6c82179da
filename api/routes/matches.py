"""Creating, listing and reading matches; joining a seat."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from api.deps import CatalogueDep, MatchesDep, ReaderDep, RefereeDep, SeatDep, TokenDep, bearer
from api.imports import ImportFile
from api.problems import RATE_LIMITED, Forbidden, Unauthorized, problem
from api.quotas import client_key
from api.routes.rulefiles import upload_refusal
from api.schemas import (
    MatchCreated,
    MatchPublic,
    SeatCreate,
    SeatJoinedPublic,
    SeatPublic,
    TokenCreate,
    TokenPublic,
)
from domain.app import JOIN
from domain.commands import MAX_INT, CreateMatch
from domain.decide import REFEREE
from projections.catalogue import CatalogueEntry
from projections.ruleset_store import resolve, store_of
from projections.views import side_views, turn_view, waiting_view

router = APIRouter(prefix="/api/matches", tags=["matches"])


def created_from(request: Request, match_id: str) -> None:
    """Record the client address a match was created from, for the notices' budgets
    (docs/notifications.md); kept beside the notifications' tables, never in the log."""
    who = client_key(request.scope)
    if who is not None:
        request.app.state.notify.view.set_creator(match_id, who)


@router.post("", status_code=status.HTTP_201_CREATED, responses=RATE_LIMITED)
def create_match(body: CreateMatch, matches: MatchesDep, response: Response,
                 request: Request) -> MatchCreated:
    """Create a match: ruleset, scenario, sides (2 to 8) and options (`casual`, `phases`).
    A ruleset file the service holds is named by its `ruleset_hash`, or by its id as
    `ruleset` when no built-in game has that id (docs/rulesets/authoring.md)."""
    pinned = resolve(store_of(matches), body.ruleset, body.ruleset_hash)
    if pinned != body.ruleset_hash:
        body = body.model_copy(update={"ruleset_hash": pinned})
    result = matches.create_match(body)
    match_id = result.events[0].originator_id
    created_from(request, str(match_id))
    base = f"/api/matches/{match_id}"
    response.headers["Location"] = base
    response.headers["ETag"] = f'"{result.frame.version}"'
    return MatchCreated(
        match_id=match_id, version=result.frame.version, tokens=result.tokens,
        links={name: f"{base}/{name}" if name != "self" else base
               for name in ("self", "actions", "board", "vp", "turn", "events", "undo", "redo",
                             "export", "verify")},
    )


@router.post("/import", status_code=status.HTTP_201_CREATED, responses=RATE_LIMITED,
             openapi_extra={
    "requestBody": {"required": True, "content": {"application/x-ndjson": {
        "schema": {"type": "string", "description": "a referee's export (JSON Lines)"}}}}})
async def import_match(request: Request, matches: MatchesDep,
                       response: Response) -> MatchCreated:
    """Rebuild a match from a referee's export (`GET .../export`): the same events, versions,
    state and hash chain under the same match id. A bad file is refused naming its line and
    leaves nothing behind. The answer holds fresh seat tokens. The file is spooled as it
    arrives (at most `BATTLELOG_MAX_IMPORT_BYTES`, else 413) and checked and imported in a
    worker thread, `BATTLELOG_IMPORTS_AT_ONCE` at a time (api/imports.py). A ruleset file
    the export carries that is not stored here is stored (unlisted, bound to the match)
    only where `BATTLELOG_RULESET_UPLOAD` would take it as an upload, else 403 (or 401 for
    `admin` without the admin token) and nothing is stored."""
    upload = await ImportFile.receive(request.stream())
    try:
        async with request.app.state.importing:
            result = await run_in_threadpool(upload.import_into, matches,
                                             may_store=lambda found: _may_store(request, found))
    finally:
        upload.close()
    await run_in_threadpool(created_from, request, str(result.match_id))
    base = f"/api/matches/{result.match_id}"
    response.headers["Location"] = base
    return MatchCreated(match_id=result.match_id, version=result.version, tokens=result.tokens,
                        links={"self": base, "export": f"{base}/export"},
                        verified=result.verified)


def _may_store(request: Request, content_hash: str) -> None:
    """An import whose export carries a ruleset file not stored here stores it only where
    `BATTLELOG_RULESET_UPLOAD` would take it as an upload (docs/interchange.md)."""
    refusal = upload_refusal(request, f"the ruleset file this export carries ({content_hash}) "
                                      "is not stored here")
    if refusal is not None:
        raise refusal


@router.api_route("/import", methods=["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"],
                  include_in_schema=False)
def import_takes_post_only(request: Request) -> JSONResponse:
    """`/api/matches/import` is not a match id: other methods are 405, not a bad id."""
    response = problem(405, "Method Not Allowed", "import a match with POST",
                       code="http-405", instance=request.url.path)
    response.headers["Allow"] = "POST"
    return response


def admin(request: Request, token: Annotated[str, Depends(bearer)]) -> None:
    import hmac

    if not hmac.compare_digest(token.encode(), request.app.state.settings.admin_token.encode()):
        raise Unauthorized("the catalogue needs the server's admin token "
                           "(BATTLELOG_ADMIN_TOKEN, printed by battlelog serve)",
                           rule="core-seats")


@router.get("", dependencies=[Depends(admin)])
def list_matches(
    catalogue: CatalogueDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
    status: Literal["active", "ended"] | None = None,
) -> list[CatalogueEntry]:
    """The match catalogue, most recently active first (admin token)."""
    catalogue.wait_until_caught_up(timeout=2.0)
    return catalogue.list(limit=limit, offset=offset, status=status)


@router.get("/{match_id}")
def get_match(match_id: UUID, matches: MatchesDep, who: ReaderDep,
              response: Response) -> MatchPublic:
    head = matches.head(match_id)
    state = head.state
    response.headers["ETag"] = f'"{head.version}"'
    return MatchPublic(
        match_id=match_id, ruleset=state.ruleset, ruleset_version=state.ruleset_version,
        scenario=state.scenario, casual=state.casual, sides=side_views(state),
        seats=[SeatPublic(side=side, player=player) for side, player in head.seats],
        version=head.version, turn=turn_view(state), outcome=state.outcome,
        chain_head=head.chain_head, dice_commitment=matches.dice_commitment(match_id),
        viewer=who.name, waiting=waiting_view(state, head.undo_request),
    )


@router.post("/{match_id}/seats", status_code=status.HTTP_201_CREATED)
def join_seat(match_id: UUID, body: SeatCreate, matches: MatchesDep, who: SeatDep,
              token: TokenDep, response: Response) -> SeatJoinedPublic:
    """Take a side's seat with its join token (used up: the answer holds the seat's own
    token), or name the referee with the referee's token."""
    if who.name.startswith(JOIN):
        side: str | None = who.name.removeprefix(JOIN)
    elif who.name == REFEREE:
        side = None
    else:
        raise Forbidden("join with a side's join token or the referee's token",
                        rule="core-seats")
    result = matches.join(match_id, side=side, player=body.player, entropy=body.entropy,
                          token=token)
    response.headers["ETag"] = f'"{result.frame.version}"'
    return SeatJoinedPublic(side=side, player=body.player, token=result.tokens.get(side or ""))


@router.post("/{match_id}/tokens", status_code=status.HTTP_201_CREATED)
def reissue_token(match_id: UUID, body: TokenCreate, matches: MatchesDep, who: RefereeDep,
                  token: TokenDep, response: Response) -> TokenPublic:
    """Revoke every token of a seat and issue a new one (referee only)."""
    result = matches.reissue(match_id, body.seat, actor=who, token=token)
    response.headers["ETag"] = f'"{result.frame.version}"'
    return TokenPublic(seat=body.seat, token=result.tokens[body.seat])
