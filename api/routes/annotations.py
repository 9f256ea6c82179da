"""A match's annotations (docs/replay.md): comments, arrows, highlighted units, chapter
marks and variations attached to its versions. Every seat reads those it may see; a side
or the referee adds them; who edits and deletes which is the domain's to say
(`domain.authority`). A refusal is a problem detail and records nothing."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Query, Request, Response, status

from api.deps import MatchesDep, ReaderDep
from api.problems import SEAT_RATE_LIMITED
from api.quotas import Quota
from domain.annotations import Caps
from domain.commands.annotations import AddAnnotation, DeleteAnnotation, EditAnnotation

router = APIRouter(prefix="/api/matches/{match_id}/annotations", tags=["annotations"])
AnnotationId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$")]


@router.get("")
def annotations(match_id: UUID, matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """The annotations your seat sees (yours, your side's, the public ones; the referee
    every one), by the version they are about."""
    return {"annotations": [a.public() for a in matches.annotations(match_id, who.name)]}


def _changing(request: Request, match_id: UUID, seat: str) -> Caps:
    """Count a change by `seat` against its rate (429 past it); what a match holds."""
    state = request.app.state
    rate: Quota = state.annotation_rate  # made with the app (api/app.py)
    rate.spend(str(match_id), seat)
    caps: Caps = state.settings.annotation_caps()
    return caps


@router.post("", status_code=status.HTTP_201_CREATED, responses=SEAT_RATE_LIMITED)
def add(match_id: UUID, body: AddAnnotation, request: Request, matches: MatchesDep,
        who: ReaderDep) -> dict[str, Any]:
    """Attach an annotation to a version of the match: a `comment` (its text), an `arrow`
    (`start` and `end`: each a `hex` id or a point `x`, `y`), a `highlight` (`units`), a
    `chapter` (its title as `text`, from `at_version` to `upto_version`) or a `variation`
    (a what-if `fork` of this match). `visibility`: `private` (yours), `side` or
    `public`. A side or the referee annotates; never the spectator. 429 past the seat's
    rate of changes; 422 `annotations-full` past what a match holds."""
    caps = _changing(request, match_id, who.name)
    return matches.annotate(match_id, body, actor=who.name, caps=caps).public()


@router.patch("/{annotation_id}", responses=SEAT_RATE_LIMITED)
def edit(match_id: UUID, annotation_id: AnnotationId, body: EditAnnotation, request: Request,
         matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """Change your annotation (its author's only): its `text` (or title), who sees it
    (`visibility`), a chapter's range (`at_version`, `upto_version`), an arrow's ends
    (`start` and `end` together), a highlight's `units`. What you leave out stays. 429
    past the seat's rate; 422 `annotations-full` past an annotation's edits or what a
    match holds."""
    caps = _changing(request, match_id, who.name)
    return matches.edit_annotation(match_id, annotation_id, body, actor=who.name,
                                   caps=caps).public()


@router.delete("/{annotation_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses=SEAT_RATE_LIMITED)
def delete(match_id: UUID, annotation_id: AnnotationId, request: Request, matches: MatchesDep,
           who: ReaderDep, reason: Annotated[str, Query(max_length=500)] = "") -> Response:
    """Delete an annotation (the deletion is recorded too): your own; the referee any,
    with a `reason`. 429 past the seat's rate."""
    _changing(request, match_id, who.name)
    matches.delete_annotation(match_id, annotation_id, DeleteAnnotation(reason=reason),
                              actor=who.name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
