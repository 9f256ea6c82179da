"""A match's annotations (docs/replay.md): comments, arrows, highlighted units, chapter
marks and variations attached to its versions. Every seat reads those it may see; a side
or the referee adds them; who edits and deletes which is the domain's to say
(`domain.authority`). A refusal is a problem detail and records nothing."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Query, Response, status

from api.deps import MatchesDep, ReaderDep
from domain.commands.annotations import AddAnnotation, DeleteAnnotation, EditAnnotation

router = APIRouter(prefix="/api/matches/{match_id}/annotations", tags=["annotations"])
AnnotationId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$")]


@router.get("")
def annotations(match_id: UUID, matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """The annotations your seat sees (yours, your side's, the public ones; the referee
    every one), by the version they are about."""
    return {"annotations": [a.public() for a in matches.annotations(match_id, who.name)]}


@router.post("", status_code=status.HTTP_201_CREATED)
def add(match_id: UUID, body: AddAnnotation, matches: MatchesDep,
        who: ReaderDep) -> dict[str, Any]:
    """Attach an annotation to a version of the match: a `comment` (its text), an `arrow`
    (`start` and `end`: each a `hex` id or a point `x`, `y`), a `highlight` (`units`), a
    `chapter` (its title as `text`, from `at_version` to `upto_version`) or a `variation`
    (a what-if `fork` of this match). `visibility`: `private` (yours), `side` or
    `public`. A side or the referee annotates; never the spectator."""
    return matches.annotate(match_id, body, actor=who.name).public()


@router.patch("/{annotation_id}")
def edit(match_id: UUID, annotation_id: AnnotationId, body: EditAnnotation,
         matches: MatchesDep, who: ReaderDep) -> dict[str, Any]:
    """Change your annotation (its author's only): its `text` (or title), who sees it
    (`visibility`), a chapter's range (`at_version`, `upto_version`), an arrow's ends
    (`start` and `end` together), a highlight's `units`. What you leave out stays."""
    return matches.edit_annotation(match_id, annotation_id, body, actor=who.name).public()


@router.delete("/{annotation_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete(match_id: UUID, annotation_id: AnnotationId, matches: MatchesDep, who: ReaderDep,
           reason: Annotated[str, Query(max_length=500)] = "") -> Response:
    """Delete an annotation (the deletion is recorded too): your own; the referee any,
    with a `reason`."""
    matches.delete_annotation(match_id, annotation_id, DeleteAnnotation(reason=reason),
                              actor=who.name)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
