"""`RecordPlan`: how an event's public line is made straight from its stored record (the
export's fast path), for event classes whose visibility is the same for every seat.

It knows an event class as a pydantic model and imports no event module:
`domain.events.base` imports it and decides which classes may have a plan."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, get_args, get_origin
from uuid import UUID

from pydantic import BaseModel


@dataclass(frozen=True)
class RecordPlan:
    """For one event class whose visibility is the same for every seat (its
    `private_fields`, hidden from everyone): the stored record's keys, what the public line
    drops from it, and whether a float may be anywhere in it."""

    name: str
    class_version: int
    keys: frozenset[str]  # of a record of the current class version
    drop: tuple[str, ...]  # `class_version` and the private fields
    nullable: tuple[str, ...]  # top-level fields that may be null (canonical JSON drops them)
    floats: bool

    @classmethod
    def of(cls, event_class: type[BaseModel], class_version: int,
           private_fields: frozenset[str]) -> RecordPlan | None:
        """The plan for `event_class` (of `class_version`, hiding `private_fields` from
        everyone), None where a field is named like the line's own keys."""
        fields = {name: f for name, f in event_class.model_fields.items()
                  if name not in ("originator_id", "originator_version")}
        if {"version", "type", "class_version"} & set(fields):
            return None
        return cls(
            name=event_class.__name__, class_version=class_version,
            keys=frozenset(fields) | {"class_version"},
            drop=("class_version", *sorted(private_fields)),
            nullable=tuple(name for name, f in fields.items()
                           if name not in private_fields
                           and _may_be_none(f.annotation)),
            floats=may_hold_floats(event_class))

    def public(self, version: int, record: dict[str, Any]) -> dict[str, Any] | None:
        """`record` (decoded, and changed in place) as `public(viewer)` shows it, with the
        top-level nulls left out as canonical JSON does; None if the record is not of the
        current class version and fields."""
        if record.get("class_version") != self.class_version or record.keys() != self.keys:
            return None
        for key in self.drop:
            del record[key]
        for key in self.nullable:
            if record[key] is None:
                del record[key]
        record["version"] = version
        record["type"] = self.name
        return record


def _may_be_none(annotation: Any) -> bool:
    """Whether a field of this type may hold null (unknown types: yes)."""
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    origin = get_origin(annotation)
    if origin is None:
        return not isinstance(annotation, type) or annotation is object
    if origin in (tuple, list, dict, set, frozenset):
        return False
    return any(_may_be_none(a) for a in get_args(annotation) if a is not Ellipsis)


def may_hold_floats(annotation: Any, seen: frozenset[type] = frozenset()) -> bool:
    """Whether a value of this type may hold a float anywhere (unknown types: yes)."""
    if annotation in (int, str, bool, type(None), datetime, UUID):
        return False
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation not in seen and any(
            may_hold_floats(f.annotation, seen | {annotation})
            for f in annotation.model_fields.values())
    origin = get_origin(annotation)
    if origin is Literal:
        return any(isinstance(a, float) for a in get_args(annotation))
    if origin is None:
        return True  # float, Any, or a type this does not know
    return any(may_hold_floats(a, seen) for a in get_args(annotation) if a is not Ellipsis)


