"""The dispute toolkit: one event by its permalink, a step replay in either direction, the
diff between two points, dispute tickets and the referee's rulings, what-if forks."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Path, Query, Request, Response, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from api.deps import MatchesDep, ReaderDep, RefereeDep, TokenDep
from api.problems import RATE_LIMITED
from api.quotas import client_key
from api.schemas import ActedPublic, MatchCreated
from domain import events as ev
from domain.authority import check_viewpoint
from domain.commands import MAX_INT
from domain.errors import InvalidAction, VersionNotFound
from projections.diff import MAX_REPLAY_STEPS, diff, replay_steps
from projections.sentences import Narrator, public_line

router = APIRouter(prefix="/api/matches/{match_id}", tags=["disputes"])
Version = Annotated[int, Query(ge=1, le=MAX_INT)]


class RulingCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruling: Annotated[str, Field(min_length=1, max_length=2000)]
    order: Literal["none", "undo", "reroll", "fork"] = "none"
    to: Annotated[int, Field(ge=1, le=MAX_INT)] | None = Field(
        default=None, description="for `undo` and `fork`: the version to go back to; for "
        "`reroll`: the version of the roll to make again (by default, the disputed event)")


def _permalink(match_id: UUID, version: int) -> str:
    return f"/api/matches/{match_id}/events/{version}"


@router.get("/events/{version}")
def event(match_id: UUID, version: Annotated[int, Path(ge=1, le=MAX_INT)],
          matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """One event by its version: the stable permalink of a note, dispute or ruling."""
    head = matches.head(match_id)
    if not 1 <= version <= head.version:
        raise VersionNotFound(f"the match has versions 1 to {head.version}",
                              rule="core-events")
    found = next(iter(matches.events_of(match_id, after=version - 1, upto=version)))
    return found.public(who.name)


@router.get("/replay", responses={
    200: {"content": {"text/html": {}, "application/json": {}}}, **RATE_LIMITED})
def replay(match_id: UUID, matches: MatchesDep, who: ReaderDep, request: Request,
           start: Annotated[int | None, Query(alias="from", ge=1, le=MAX_INT)] = None,
           to: Annotated[int | None, Query(ge=1, le=MAX_INT)] = None,
           viewpoint: Annotated[str | None, Query(max_length=64, description=(
               "the replay file's seat (the referee may choose any; default: yours)"))] = None,
           ) -> Any:
    """Without `from` and `to`: the replay file (docs/replay.md), one HTML page that plays
    the match back offline, as your seat sees it (the referee may choose a `viewpoint`),
    and checks its own log. With both: step from version `from` to `to`, forwards or
    backwards: each event with what it changed in that direction (at most 500 steps per
    call). A file is written once per version and kept; one too large to write is 413, and
    files count against quotas per address and per match (429)."""
    if start is None and to is None:
        return _replay_file(request, matches, match_id, who.name, viewpoint)
    if start is None or to is None:
        raise InvalidAction("give both `from` and `to` for a step replay, or neither for the "
                            "replay file", rule="core-replay")
    _versions(matches, match_id, start, to)
    if abs(to - start) > MAX_REPLAY_STEPS:
        raise InvalidAction(f"replay at most {MAX_REPLAY_STEPS} steps per call",
                            rule="core-replay")
    return {"from": start, "to": to, "direction": "forward" if to >= start else "backward",
            "steps": list(replay_steps(matches, match_id, start, to, who.name))}


def _replay_file(request: Request, matches: MatchesDep, match_id: UUID, asker: str,
                 viewpoint: str | None) -> HTMLResponse:
    """The file, from the cache or written in this worker thread (api/replay_files.py)."""
    seat = viewpoint or asker
    check_viewpoint(asker, seat, matches.head(match_id).state.side_ids())
    request.app.state.replay_quota.spend(client_key(request.scope))
    body = request.app.state.replay_files.file(matches, match_id, seat)
    return HTMLResponse(body, headers={
        "Content-Disposition": f'attachment; filename="{match_id}-{seat}-replay.html"'})


@router.get("/diff")
def changes(match_id: UUID, matches: MatchesDep, who: ReaderDep,
            start: Annotated[int, Query(alias="from", ge=1, le=MAX_INT)],
            to: Version) -> dict[str, Any]:
    """What differs between the match at version `from` and at version `to`: units added,
    removed and changed, markers, tracks, victory points, the turn marker."""
    _versions(matches, match_id, start, to)
    return {"from": start, "to": to, "changes": diff(matches.state_at(match_id, start),
                                                     matches.state_at(match_id, to))}


@router.get("/disputes")
def disputes(match_id: UUID, matches: MatchesDep, who: ReaderDep) -> list[dict[str, Any]]:
    """Every dispute with its ruling, if any, and their permalinks; `about`: the disputed
    event in words (`said`, its `type`: what a ruling may order), `said`: each in words."""
    opened: dict[int, dict[str, Any]] = {}
    narrator = Narrator.of_state(matches.head(match_id).state, who.name)
    for found in matches.events_of(match_id):
        narrator.see(found)
        if isinstance(found, ev.DisputeOpened):
            about = narrator.seen.get(found.about_version)
            opened[found.version] = {
                "dispute": public_line(found, narrator), "ruling": None,
                "permalink": _permalink(match_id, found.version),
                "about": None if about is None else {
                    "version": about.version, "type": about.type_name(),
                    "actor": about.actor, "said": narrator.sentence(about)}}
        elif isinstance(found, ev.DisputeRuled) and found.dispute in opened:
            opened[found.dispute]["ruling"] = {**public_line(found, narrator),
                                               "permalink": _permalink(match_id, found.version)}
    return list(opened.values())


@router.post("/disputes/{dispute}/ruling", status_code=status.HTTP_201_CREATED)
def rule(match_id: UUID, dispute: Annotated[int, Path(ge=1, le=MAX_INT)], body: RulingCreate,
         matches: MatchesDep, who: RefereeDep, token: TokenDep,
         response: Response) -> ActedPublic:
    """The referee's ruling: it may order an undo back to `to`, the roll at `to` (or the
    disputed one) made again, or a fork at `to`."""
    result = matches.rule_dispute(match_id, dispute, ruling=body.ruling, order=body.order,
                                  to=body.to, actor=who, token=token)
    response.headers["ETag"] = f'"{result.frame.version}"'
    return ActedPublic(version=result.frame.version,
                       events=[e.public(who) for e in result.events])


@router.post("/fork", status_code=status.HTTP_201_CREATED)
def fork(match_id: UUID, at: Version, matches: MatchesDep, who: RefereeDep,
         response: Response) -> MatchCreated:
    """A what-if: a new match whose history is this one's up to version `at` (referee only;
    the answer holds the new match's seat tokens). The original is untouched."""
    result = matches.fork(match_id, at, actor=who)
    new_id = result.events[0].originator_id
    base = f"/api/matches/{new_id}"
    response.headers["Location"] = base
    return MatchCreated(match_id=new_id, version=result.frame.version, tokens=result.tokens,
                        links={"self": base, "origin": f"/api/matches/{match_id}"})


def _versions(matches: MatchesDep, match_id: UUID, *versions: int) -> None:
    head = matches.head(match_id).version
    for version in versions:
        if version > head:
            raise VersionNotFound(f"the match has versions 1 to {head}", rule="core-time-travel")
