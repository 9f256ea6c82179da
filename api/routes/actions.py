"""Acting on a match: one action, undo, redo. Each appends events or nothing at all."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any, Literal
from uuid import UUID

import orjson
from fastapi import APIRouter, Body, Query, Response, status

from api.deps import (
    BEARER,
    Acting,
    ActingDep,
    ActorDep,
    IdempotencyDep,
    IfMatchDep,
    MatchesDep,
    TokenDep,
    in_worker,
)
from api.problems import PreconditionFailed
from api.schemas import (
    ActedPublic,
    LastActionPublic,
    TakenBackPublic,
    UndoCreate,
    UndoDecline,
    UndoRequestPublic,
    UndoStatus,
)
from domain.app import ConcurrencyConflict, Matches, Result
from domain.commands import Action
from domain.errors import VersionConflict
from domain.events import Event
from projections.sentences import Narrator, public_line
from projections.sentences_outcome import outcome
from projections.undo_words import taken_back

router = APIRouter(prefix="/api/matches/{match_id}", tags=["actions"])


def _answer_of(result: Result, seat: str) -> tuple[int, list[dict[str, Any]]]:
    """The answer's version (a replayed request's: its own last event's) and its events
    as `seat` may see them."""
    version = result.events[-1].version if result.replayed else result.frame.version
    return version, [e.public(seat) for e in result.events]


def _told(matches: Matches, match_id: UUID, result: Result, seat: str) -> dict[str, Any]:
    """The action's answer: its version, its events as `seat` may see them, each with its
    sentence (`said`, the log's), and the outcome of the whole action in one place
    (`outcome`: projections.sentences_outcome), what the page says after the tap."""
    version = result.events[-1].version if result.replayed else result.frame.version
    narrator = Narrator.of_state(result.frame.state, seat, lambda after, upto: list(
        matches.events_of(match_id, after=after, upto=upto)))
    for e in result.events:
        narrator.see(e)
    return {"version": version, "events": [public_line(e, narrator) for e in result.events],
            "outcome": outcome(result.events, narrator)}


def _acted(result: Result, seat: str, response: Response) -> ActedPublic:
    response.headers["ETag"] = f'"{result.frame.version}"'
    if result.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    version, events = _answer_of(result, seat)
    return ActedPublic(version=version, events=events)


def _stale(exc: VersionConflict) -> PreconditionFailed | VersionConflict:
    if isinstance(exc, ConcurrencyConflict):
        return exc
    return PreconditionFailed(exc.detail, rule=exc.rule)


@router.post("/actions", status_code=status.HTTP_201_CREATED, response_model=ActedPublic,
             openapi_extra=BEARER)
async def act(match_id: UUID, action: Annotated[Action, Body()], who: ActingDep,
              then: Annotated[Literal["done"] | None, Query(description=(
                  "done: and then this seat's Next step, in the same request (the legal "
                  "answer's choices with then_done)"))] = None) -> Response:
    """Perform one action (see `type`) as the seat whose token is sent; `?then=done`: and
    then its Next step, recorded as the two taps would be (domain.acting.then)."""
    # The hot route: who acts, If-Match and Idempotency-Key in one dependency (`acting`).
    # Most actions do not come through here but through its lane (`api.hot_action`), which
    # does the same with no framework layer; this route serves the rest (a query string,
    # such as ?then=done, among them) and the schema.
    return await acted(match_id, action, who, then)


async def acted(match_id: UUID, action: Action, who: Acting, then: str | None = None) -> Response:
    """One hop to a worker thread for the use case (it commits), and the answer encoded
    once on the event loop: its events are the JSON `public()` made, so FastAPI's checking
    them again against `ActedPublic` (a dict of anything) would add nothing."""
    def acting() -> tuple[Result, dict[str, Any]]:
        result = who.matches.act(match_id, action, actor=who.seat,
                                 expected_version=who.if_match, idempotency_key=who.key,
                                 token=who.token, then=then)
        return result, _told(who.matches, match_id, result, who.seat)

    try:
        result, answer = await in_worker(acting)
    except VersionConflict as exc:
        raise _stale(exc) from None
    headers = {"ETag": f'"{result.frame.version}"'}
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(orjson.dumps(answer), status_code=201,
                    headers=headers, media_type="application/json")


@router.post("/undo", status_code=status.HTTP_201_CREATED)
def undo(match_id: UUID, matches: MatchesDep, seat: ActorDep, token: TokenDep,
         key: IdempotencyDep, if_match: IfMatchDep, response: Response,
         body: UndoCreate | None = None) -> ActedPublic:
    """Undo the last `actions` actions, or back to version `to`. Nothing leaves the log.
    Over your own actions since the last barrier (a die roll, cards seen or shown, another
    seat's action) it is immediate; further back it appends an `UndoRequested` that the
    other sides accept or decline (`GET .../undo` says how far back is immediate)."""
    body = body or UndoCreate()
    try:
        result = matches.undo(match_id, actor=seat, to=body.to, actions=body.actions,
                              expected_version=if_match, idempotency_key=key, token=token)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)


@router.get("/undo")
def undo_status(match_id: UUID, matches: MatchesDep, seat: ActorDep) -> UndoStatus:
    """How far back your undo goes at once, and the undo request waiting for an answer."""
    head = matches.head(match_id)
    immediate = head.state.casual or seat == "referee"
    reach = 1 if immediate else matches.undo_reach(match_id, seat, head)
    request = head.undo_request

    def events(after: int, upto: int) -> list[Event]:
        return list(matches.events_of(match_id, after=after, upto=upto))

    def said(to: int, upto: int) -> dict[str, Any]:
        return asdict(taken_back(events, head.state, to, upto, seat))

    base = head.state.action_base
    last = None if head.state.last_command is None or head.state.outcome is not None else (
        LastActionPublic(to=base, immediate=base >= reach, **said(base, head.version)))
    return UndoStatus(
        immediate_to=reach, version=head.version, casual=head.state.casual, last=last,
        pending=None if request is None else UndoRequestPublic(
            version=request.version, to=request.to, by=request.by,
            accepted=list(request.accepted),
            takes_back=TakenBackPublic(**said(request.to, request.version - 1))))


@router.post("/undo/accept", status_code=status.HTTP_201_CREATED)
def accept_undo(match_id: UUID, matches: MatchesDep, seat: ActorDep, token: TokenDep,
                if_match: IfMatchDep, response: Response) -> ActedPublic:
    """Accept the pending undo request (another side; the referee forces it)."""
    return _answer(matches, match_id, seat, token, if_match, response, accept=True, reason="")


@router.post("/undo/decline", status_code=status.HTTP_201_CREATED)
def decline_undo(match_id: UUID, matches: MatchesDep, seat: ActorDep, token: TokenDep,
                 if_match: IfMatchDep, response: Response,
                 body: UndoDecline | None = None) -> ActedPublic:
    """Decline the pending undo request (another side; the referee refuses it)."""
    return _answer(matches, match_id, seat, token, if_match, response, accept=False,
                   reason=(body or UndoDecline()).reason)


def _answer(matches: Matches, match_id: UUID, seat: str, token: str, if_match: int | None,
            response: Response, *, accept: bool, reason: str) -> ActedPublic:
    try:
        result = matches.answer_undo(match_id, actor=seat, accept=accept, reason=reason,
                                     expected_version=if_match, token=token)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)


@router.post("/redo", status_code=status.HTTP_201_CREATED)
def redo(match_id: UUID, matches: MatchesDep, seat: ActorDep, token: TokenDep,
         key: IdempotencyDep, if_match: IfMatchDep, response: Response) -> ActedPublic:
    """Reverse the most recent undo (until a new action is taken): by the seat that undid
    (the side whose request it made), or the referee."""
    try:
        result = matches.redo(match_id, actor=seat, expected_version=if_match,
                              idempotency_key=key, token=token)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)
