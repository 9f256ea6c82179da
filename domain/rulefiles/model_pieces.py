"""The pieces of a game a ruleset file declares (format version 1): its unit kinds and their
typed, bounded attributes (integer, choice, text, flag), its marker kinds, statuses and
tracks. `domain/rulefiles/model.py` holds the file these are part of."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from domain.commands import SAFE_INT
from domain.rulefiles.parts import Name, Part, Words

# A value a track or a choice takes (`clear`, `NE`, `2-1`).
Value = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_ .+-]{0,39}$")]
Bound = Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)]
MAX_ITEMS = 200  # entries in any one list or table of a file

_Part = Part


class IntegerAttribute(_Part):
    """A whole-number attribute (`type: integer`), bounded by `minimum` and `maximum`."""

    type: Literal["integer"]
    title: Words = ""
    minimum: Bound
    """The smallest value a unit may give (every number is bounded)."""
    maximum: Bound
    """The largest value a unit may give."""
    required: bool = False
    """Whether a unit of this kind must give it."""

    @model_validator(mode="after")
    def _bounded(self) -> IntegerAttribute:
        if self.minimum > self.maximum:
            raise ValueError("minimum is more than maximum")
        return self


class ChoiceAttribute(_Part):
    """An attribute that is one of its `values` (`type: choice`)."""

    type: Literal["choice"]
    title: Words = ""
    values: Annotated[tuple[Value, ...], Field(min_length=1, max_length=MAX_ITEMS)]
    """The values a unit may give, one of them."""
    required: bool = False
    """Whether a unit of this kind must give it."""


class TextAttribute(_Part):
    """A text attribute (`type: text`), at most `max_length` characters."""

    type: Literal["text"]
    title: Words = ""
    max_length: Annotated[int, Field(ge=1, le=200)] = 40
    """The longest text a unit may give."""
    required: bool = False
    """Whether a unit of this kind must give it."""


class FlagAttribute(_Part):
    """A flag (`type: flag`): a unit gives it as `1` or `"true"`; expressions read it as
    true or false."""

    type: Literal["flag"]
    title: Words = ""


ATTRIBUTE_TAGS = {"integer": "IntegerAttribute", "choice": "ChoiceAttribute", "text": "TextAttribute",
               "flag": "FlagAttribute"}


def _attribute_kind(value: Any) -> str | None:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return ATTRIBUTE_TAGS.get(kind) if isinstance(kind, str) else None


Attribute = Annotated[
    Annotated[IntegerAttribute, Tag("IntegerAttribute")]
    | Annotated[ChoiceAttribute, Tag("ChoiceAttribute")]
    | Annotated[TextAttribute, Tag("TextAttribute")]
    | Annotated[FlagAttribute, Tag("FlagAttribute")],
    Discriminator(_attribute_kind, custom_error_type="attribute_type",
                  custom_error_message="an attribute's type is one of: integer, choice, "
                                       "text, flag")]


class UnitKind(_Part):
    """A kind of unit (`squad`): its title and its typed, bounded attributes."""

    title: Words = ""
    """The kind's title, as the page says it."""
    attributes: Annotated[dict[Name, Attribute], Field(max_length=40)] = Field(
        default_factory=dict)
    """The attributes a unit of this kind has, by name; expressions read them as
    `u.attributes.<name>` (one a unit does not give reads as 0, '' or false)."""


class MarkerKind(_Part):
    """A kind of marker a unit can carry (`pinned`)."""

    title: Words = ""
    """The marker's title, as the page says it."""
    most: Annotated[int, Field(ge=1, le=999)] | None = None  # how many a unit may carry
    """How many of it a unit may carry (no limit when left out)."""


class Status(_Part):
    """A flag a unit can carry (`broken`): `'broken' in u.status` reads it."""

    title: Words = ""


class Track(_Part):
    """The values a track takes: named ones (`values`), or whole numbers `minimum` to
    `maximum`."""

    title: Words = ""
    values: Annotated[tuple[Value, ...], Field(min_length=1, max_length=MAX_ITEMS)] | None = None
    """The track's values, in order (its first is its value until set); or give `minimum` and
    `maximum`."""
    minimum: Bound | None = None
    """The smallest whole number of a numbered track (its value until set)."""
    maximum: Bound | None = None
    """The largest whole number of a numbered track."""

    @model_validator(mode="after")
    def _one_kind(self) -> Track:
        numbers = (self.minimum, self.maximum)
        if self.values is not None and numbers != (None, None):
            raise ValueError("give either values or minimum and maximum, not both")
        if self.values is None and None in numbers:
            raise ValueError("give values, or both minimum and maximum")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError("minimum is more than maximum")
        return self
