"""What a seat sends to annotate a match (docs/replay.md): add, edit, delete. Every value
is checked here (sizes bounded, numbers finite, text cleaned); what depends on the match
(the version exists, the units exist, the fork is this match's) is checked by
`domain.annotations` against the match."""

from __future__ import annotations

from typing import Annotated, Literal, Self
from uuid import UUID

from pydantic import AfterValidator, Field, StrictFloat, model_validator

from domain.commands.base import MAX_INT, Command, Id, Int
from domain.text import cleaned

COORDINATE = 100_000.0  # a table point lies within ±this (the map's own units)


Clean = Annotated[str, Field(max_length=2000), AfterValidator(cleaned)]
Reason = Annotated[str, Field(max_length=500), AfterValidator(cleaned)]
Coordinate = Annotated[StrictFloat | Int, Field(ge=-COORDINATE, le=COORDINATE,
                                                allow_inf_nan=False)]
Version = Annotated[Int, Field(ge=1, le=MAX_INT)]
Visibility = Literal["private", "side", "public"]
TITLE = 120  # a chapter's title, at most
UNITS = 32  # units one highlight names, at most


class PlaceIn(Command):
    """One end of an arrow: a hex or location id, or a point (x, y) of the table."""

    hex: Id | None = None
    x: Coordinate | None = None
    y: Coordinate | None = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        point = self.x is not None and self.y is not None
        if (self.hex is not None) == point or (self.x is None) != (self.y is None):
            raise ValueError("a place is a hex id, or a point with both x and y")
        return self


class AddAnnotation(Command):
    kind: Literal["comment", "arrow", "highlight", "chapter", "variation"]
    at_version: Version
    upto_version: Version | None = None  # a chapter's last version
    text: Clean = ""
    start: PlaceIn | None = None
    end: PlaceIn | None = None
    units: Annotated[tuple[Id, ...], Field(max_length=UNITS)] = ()
    fork: UUID | None = None
    visibility: Visibility = "private"

    @model_validator(mode="after")
    def _fits_kind(self) -> Self:
        kind = self.kind
        if kind in ("comment", "chapter") and not self.text:
            raise ValueError(f"a {kind} needs a text" + (" (its title)" if kind == "chapter"
                                                          else ""))
        if kind == "chapter" and len(self.text) > TITLE:
            raise ValueError(f"a chapter's title has at most {TITLE} characters")
        if (kind == "arrow") != (self.start is not None and self.end is not None) or (
                kind != "arrow" and (self.start or self.end)):
            raise ValueError("an arrow, and only an arrow, has a start and an end")
        if (kind == "highlight") != bool(self.units):
            raise ValueError("a highlight, and only a highlight, names units")
        if len(set(self.units)) != len(self.units):
            raise ValueError("each unit is named once")
        if (kind == "variation") != (self.fork is not None):
            raise ValueError("a variation, and only a variation, names its fork")
        if self.upto_version is not None and (kind != "chapter"
                                              or self.upto_version < self.at_version):
            raise ValueError("only a chapter has an `upto_version`, not before `at_version`")
        return self


class EditAnnotation(Command):
    """What an edit changes (what it leaves out stays as it was): the text, who sees it, a
    chapter's range, an arrow's two ends, a highlight's units (which the domain checks
    against the annotation's kind and the match)."""

    text: Clean | None = None
    visibility: Visibility | None = None
    at_version: Version | None = None
    upto_version: Version | None = None
    start: PlaceIn | None = None
    end: PlaceIn | None = None
    units: Annotated[tuple[Id, ...], Field(min_length=1, max_length=UNITS)] | None = None

    @model_validator(mode="after")
    def _something(self) -> Self:
        if not self.model_dump(exclude_none=True):
            raise ValueError("an edit changes the text, who sees it, the range, the ends "
                             "or the units")
        if (self.start is None) != (self.end is None):
            raise ValueError("an arrow's ends change together: `start` and `end`")
        if self.units is not None and len(set(self.units)) != len(self.units):
            raise ValueError("each unit is named once")
        if (self.at_version is not None and self.upto_version is not None
                and self.upto_version < self.at_version):
            raise ValueError("`upto_version` is not before `at_version`")
        return self


class DeleteAnnotation(Command):
    reason: Reason = ""
