"""Acting on a match: one action, undo, redo. Each appends events or nothing at all."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Body, Response, status

from api.deps import ActorDep, IdempotencyDep, IfMatchDep, MatchesDep
from api.problems import PreconditionFailed
from api.schemas import ActedPublic, UndoCreate
from domain.application import ConcurrencyConflict, Result
from domain.commands import Action
from domain.errors import VersionConflict

router = APIRouter(prefix="/api/matches/{match_id}", tags=["actions"])


def _acted(result: Result, seat: str, response: Response) -> ActedPublic:
    response.headers["ETag"] = f'"{result.frame.version}"'
    if result.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    version = result.events[-1].version if result.replayed else result.frame.version
    return ActedPublic(version=version, events=[e.public(seat) for e in result.events])


def _stale(exc: VersionConflict) -> PreconditionFailed | VersionConflict:
    if isinstance(exc, ConcurrencyConflict):
        return exc
    return PreconditionFailed(exc.detail, rule=exc.rule)


@router.post("/actions", status_code=status.HTTP_201_CREATED)
def act(match_id: UUID, action: Annotated[Action, Body()], matches: MatchesDep, seat: ActorDep, key: IdempotencyDep,
        if_match: IfMatchDep, response: Response) -> ActedPublic:
    """Perform one action (see `type`) as the seat whose token is sent."""
    try:
        result = matches.act(match_id, action, actor=seat, expected_version=if_match,
                             idempotency_key=key)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)


@router.post("/undo", status_code=status.HTTP_201_CREATED)
def undo(match_id: UUID, matches: MatchesDep, seat: ActorDep, key: IdempotencyDep, if_match: IfMatchDep,
         response: Response, body: UndoCreate | None = None) -> ActedPublic:
    """Undo the last `actions` actions, or back to version `to`. Nothing leaves the log."""
    body = body or UndoCreate()
    try:
        result = matches.undo(match_id, actor=seat, to=body.to, actions=body.actions,
                              expected_version=if_match, idempotency_key=key)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)


@router.post("/redo", status_code=status.HTTP_201_CREATED)
def redo(match_id: UUID, matches: MatchesDep, seat: ActorDep, key: IdempotencyDep, if_match: IfMatchDep,
         response: Response) -> ActedPublic:
    """Reverse the most recent undo (until a new action is taken)."""
    try:
        result = matches.redo(match_id, actor=seat, expected_version=if_match,
                             idempotency_key=key)
    except VersionConflict as exc:
        raise _stale(exc) from None
    return _acted(result, seat, response)
