"""A match's annotations (docs/replay.md): what its annotation events add up to (`fold`),
who sees which (`visible`, by `domain.authority`), and deciding an add, an edit or a
delete against the match (`decide_add`, `decide_edit`, `decide_delete`). Pure: the
application (`domain.app.annotations`) reads the match and stores the events.

Annotations are never the match's own events: they refer to its versions and units, and
nothing of the match (its state, hash chain, dice, undo) ever reads them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from domain import authority
from domain.commands.annotations import (
    TITLE,
    AddAnnotation,
    DeleteAnnotation,
    EditAnnotation,
)
from domain.errors import DomainError, InvalidAction, MatchNotFound
from domain.events.annotations import (
    AnnotationAdded,
    AnnotationDeleted,
    AnnotationEdited,
    Place,
)
from domain.events.base import Event
from domain.state import MatchState


@dataclass(frozen=True)
class Caps:
    """(ours) How much a match's annotations hold: a study, not a log. The server's
    settings give these (docs/configuration.md); these are the defaults."""
    per_match: int = 300  # annotations standing at once
    edits: int = 20  # edits of one annotation
    events: int = 1000  # events of its annotation stream: adds, edits and deletes


CAPS = Caps()  # the defaults


class AnnotationsFull(DomainError):
    """An add or an edit past what a match's annotations hold (`Caps`): nothing is
    recorded; delete some (a delete is always taken) or write on another match."""

    status = 422
    title = "Annotation limit reached"


MOVABLE = ("at_version", "upto_version", "start", "end", "units")  # what an edit may move


@dataclass(frozen=True)
class Annotation:
    id: str
    author: str
    kind: str
    at_version: int
    visibility: str
    text: str = ""
    upto_version: int | None = None
    start: Place | None = None
    end: Place | None = None
    units: tuple[str, ...] = ()
    fork: UUID | None = None
    added: datetime | None = None
    edited: datetime | None = None
    edits: int = 0  # how many times it was edited (bounded: `Caps.edits`)

    def public(self) -> dict[str, Any]:
        """The annotation as its readers get it (JSON-ready)."""
        body: dict[str, Any] = {
            "id": self.id, "author": self.author, "kind": self.kind,
            "at_version": self.at_version, "visibility": self.visibility, "text": self.text,
            "added": self.added.isoformat() if self.added else None,
            "edited": self.edited.isoformat() if self.edited else None}
        if self.upto_version is not None:
            body["upto_version"] = self.upto_version
        if self.start is not None and self.end is not None:
            body["start"] = self.start.model_dump(exclude_none=True)
            body["end"] = self.end.model_dump(exclude_none=True)
        if self.units:
            body["units"] = list(self.units)
        if self.fork is not None:
            body["fork"] = str(self.fork)
        return body


def fold(events: Iterable[Event]) -> dict[str, Annotation]:
    """The annotations standing after `events` (a match's annotation stream), by id, in
    the order they were added."""
    held: dict[str, Annotation] = {}
    for e in events:
        if isinstance(e, AnnotationAdded):
            held[e.annotation_id] = Annotation(
                id=e.annotation_id, author=e.actor, kind=e.kind, at_version=e.at_version,
                visibility=e.visibility, text=e.text, upto_version=e.upto_version,
                start=e.start, end=e.end, units=e.units, fork=e.fork, added=e.timestamp)
        elif isinstance(e, AnnotationEdited) and e.annotation_id in held:
            old = held[e.annotation_id]
            moved = {k: getattr(e, k) for k in MOVABLE if getattr(e, k) is not None}
            held[e.annotation_id] = Annotation(**{
                **old.__dict__, **moved, "text": e.text, "visibility": e.visibility,
                "edited": e.timestamp, "edits": old.edits + 1})
        elif isinstance(e, AnnotationDeleted):
            held.pop(e.annotation_id, None)
    return held


def visible(annotations: Iterable[Annotation], viewer: str) -> list[Annotation]:
    """The annotations `viewer` sees, by version (then in the order they were added)."""
    shown = [a for a in annotations
             if authority.annotation_visible(viewer, a.author, a.visibility)]
    return sorted(shown, key=lambda a: a.at_version)


def changes_seen(events: Sequence[Event], since: int, viewer: str) -> list[dict[str, Any]]:
    """What `viewer`'s live page is told of the annotation events after the first `since`:
    each annotation it sees now that they added or changed (`{"annotation": ...}`), and each
    it saw before them and sees no more, deleted or hidden (`{"gone": id}`). An annotation
    it sees neither before nor after is never named."""
    before, after = fold(events[:since]), fold(events)
    told: list[dict[str, Any]] = []
    for aid in dict.fromkeys(str(getattr(e, "annotation_id", "")) for e in events[since:]):
        was, now = before.get(aid), after.get(aid)
        if now is not None and authority.annotation_visible(viewer, now.author, now.visibility):
            told.append({"annotation": now.public()})
        elif was is not None and authority.annotation_visible(viewer, was.author,
                                                              was.visibility):
            told.append({"gone": aid})
    return told


def _room(caps: Caps, events: int) -> None:
    """Refuse an add or an edit once the stream holds `caps.events` events."""
    if events >= caps.events:
        raise AnnotationsFull(
            f"this match's annotations have had {caps.events} changes (adds, edits and "
            "deletes), as many as a match keeps: no more are added or edited here (a "
            "delete is still taken)", rule="core-annotations")


def decide_add(command: AddAnnotation, *, actor: str, sides: Iterable[str], head: int,
               state_at: Callable[[int], MatchState], held: int,
               fork_origin: Callable[[UUID], UUID | None], match_id: UUID,
               caps: Caps = CAPS, events: int = 0) -> dict[str, Any]:
    """The fields of the `AnnotationAdded` that `command` makes, or a refusal naming why:
    the seat may annotate, the match has room (`held` annotations standing, `events` in
    its stream, within `caps`), the versions are the match's, the units were on the table
    at that version, a variation's fork was forked from this match."""
    authority.check_annotating(actor, sides)
    if held >= caps.per_match:
        raise AnnotationsFull(f"a match holds at most {caps.per_match} annotations: "
                              "delete one first", rule="core-annotations")
    _room(caps, events)
    _on_the_match(command.at_version, command.upto_version, command.units, head, state_at)
    if command.fork is not None:
        try:
            origin = fork_origin(command.fork)
        except MatchNotFound:
            origin = None
        if origin != match_id:
            raise InvalidAction(f"match {command.fork} is not a fork of this match",
                                rule="core-annotations")
    fields = command.model_dump(exclude={"start", "end", "units"})
    return {**fields, "units": tuple(command.units),
            "start": Place(**command.start.model_dump()) if command.start else None,
            "end": Place(**command.end.model_dump()) if command.end else None}


def _on_the_match(at: int, upto: int | None, units: Iterable[str], head: int,
                  state_at: Callable[[int], MatchState]) -> None:
    """Refuse versions the match does not have, or units not on its table at `at`."""
    if (upto or at) > head:
        raise InvalidAction(f"the match has versions 1 to {head}", rule="core-annotations")
    named = list(units)
    if named:
        there = state_at(at).units
        unknown = [u for u in named if u not in there]
        if unknown:
            raise InvalidAction(f"at version {at} the match has no unit "
                                f"{', '.join(unknown)}", rule="core-annotations")


def _found(held: dict[str, Annotation], annotation_id: str, actor: str) -> Annotation:
    found = held.get(annotation_id)
    if found is None or not authority.annotation_visible(actor, found.author,
                                                         found.visibility):
        raise MatchNotFound(f"this match has no annotation '{annotation_id}'",
                            rule="core-annotations")
    return found


def decide_edit(command: EditAnnotation, *, actor: str, held: dict[str, Annotation],
                annotation_id: str, head: int, state_at: Callable[[int], MatchState],
                caps: Caps = CAPS, events: int = 0) -> dict[str, Any]:
    """The fields of the `AnnotationEdited` that `command` makes: its author's only, while
    it has been edited fewer than `caps.edits` times and the stream has room; a range only
    a chapter's, ends only an arrow's, units only a highlight's, each on the match as an
    added one would be."""
    found = _found(held, annotation_id, actor)
    authority.check_annotation_change(actor, found.author, deleting=False)
    if found.edits >= caps.edits:
        raise AnnotationsFull(f"an annotation is edited at most {caps.edits} times: add a "
                              "new one (and delete this one) instead",
                              rule="core-annotations")
    _room(caps, events)
    moved = _moved(command, found)
    at = moved.get("at_version", found.at_version)
    upto = moved.get("upto_version", found.upto_version)
    if upto is not None and upto < at:
        raise InvalidAction("a chapter's last version is not before its first",
                            rule="core-annotations")
    _on_the_match(at, upto, moved.get("units", ()), head, state_at)
    text = found.text if command.text is None else command.text
    if not text and found.kind in ("comment", "chapter"):
        raise InvalidAction(f"a {found.kind} needs a text", rule="core-annotations")
    if found.kind == "chapter" and len(text) > TITLE:
        raise InvalidAction(f"a chapter's title has at most {TITLE} characters",
                            rule="core-annotations")
    return {"annotation_id": found.id, "text": text,
            "visibility": command.visibility or found.visibility, **moved}


def _moved(command: EditAnnotation, found: Annotation) -> dict[str, Any]:
    """What an edit moves, refused where the annotation's kind has no such thing."""
    fits = {"at_version": found.kind == "chapter", "upto_version": found.kind == "chapter",
            "start": found.kind == "arrow", "end": found.kind == "arrow",
            "units": found.kind == "highlight"}
    moved: dict[str, Any] = {}
    for name in MOVABLE:
        value = getattr(command, name)
        if value is None:
            continue
        if not fits[name]:
            raise InvalidAction(f"a {found.kind} has no {name.replace('_', ' ')} to change",
                                rule="core-annotations")
        moved[name] = (Place(**value.model_dump()) if name in ("start", "end")
                       else tuple(value) if name == "units" else value)
    return moved


def decide_delete(command: DeleteAnnotation, *, actor: str, held: dict[str, Annotation],
                  annotation_id: str) -> dict[str, Any]:
    """The fields of the `AnnotationDeleted` that `command` makes: its author's, or the
    referee's with a reason."""
    found = _found(held, annotation_id, actor)
    authority.check_annotation_change(actor, found.author, deleting=True,
                                      reason=command.reason)
    return {"annotation_id": found.id, "reason": command.reason}
