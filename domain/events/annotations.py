"""Annotations' events (docs/replay.md): comments, arrows, highlighted units, chapter marks
and variations attached to a version of a match. They are never the match's own events:
each match's annotations are a stream of their own (`annotations_stream`), so the match's
log, its state, its hash chain and its dice never see them (docs/architecture.md)."""

from __future__ import annotations

from typing import Literal
from uuid import UUID, uuid5

from pydantic import BaseModel, ConfigDict

from domain.events.base import Event

Kind = Literal["comment", "arrow", "highlight", "chapter", "variation"]
Visibility = Literal["private", "side", "public"]


def annotations_stream(match_id: UUID) -> UUID:
    """The id of the stream that holds `match_id`'s annotations (one per match, derived)."""
    return uuid5(match_id, "annotations")


class Place(BaseModel):
    """One end of an arrow: a hex (or location) by its id, or a point of the table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hex: str | None = None
    x: float | None = None
    y: float | None = None


class AnnotationAdded(Event):
    """A seat attached an annotation to version `at_version` of the match (a chapter runs
    to `upto_version`)."""

    annotation_id: str
    kind: Kind
    at_version: int
    upto_version: int | None = None
    text: str = ""
    start: Place | None = None
    end: Place | None = None
    units: tuple[str, ...] = ()
    fork: UUID | None = None
    visibility: Visibility = "private"


class AnnotationEdited(Event):
    """Its author changed an annotation's text (or title) and who sees it, and may have
    moved it: a chapter's range (`at_version`, `upto_version`), an arrow's ends, a
    highlight's units. A field left None is as it was."""

    annotation_id: str
    text: str
    visibility: Visibility
    at_version: int | None = None
    upto_version: int | None = None
    start: Place | None = None
    end: Place | None = None
    units: tuple[str, ...] | None = None


class AnnotationDeleted(Event):
    """An annotation was taken away, by its author or by the referee (with a reason)."""

    annotation_id: str
    reason: str = ""


ANNOTATION_EVENTS: tuple[type[Event], ...] = (AnnotationAdded, AnnotationEdited,
                                              AnnotationDeleted)
ANNOTATION_TYPES = frozenset(cls.__name__ for cls in ANNOTATION_EVENTS)
