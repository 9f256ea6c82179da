"""The annotations' use cases (docs/replay.md), a layer of `Matches`: add, edit, delete
and read a match's annotations, and keep those an import brings.

A match's annotations are a stream of their own (`ev.annotations_stream(match_id)`), beside
the match's: appending one never touches the match's log, so its versions, state, hash
chain, dice and undo are what they were (docs/architecture.md). The stream is appended
under the match's lock, conditioned on its version like the match's own."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain import annotations as notes
from domain import events as ev
from domain.app.matchlog import MatchLog
from domain.commands.annotations import AddAnnotation, DeleteAnnotation, EditAnnotation
from domain.errors import MatchNotFound, VersionConflict

TRIES = 3  # appends tried again when another process appended first


class AnnotationUseCases(MatchLog):
    def annotation_events(self, match_id: UUID) -> list[ev.Event]:
        """The match's annotation stream, in order (404 for an unknown match)."""
        self.head(match_id)
        return cast(list[ev.Event], list(self.events.get(ev.annotations_stream(match_id))))

    def annotations_version(self, match_id: UUID) -> int:
        """How many events the match's annotation stream holds (0: none), read cheaply."""
        last = self.recorder.select_events(ev.annotations_stream(match_id), desc=True, limit=1)
        return last[0].originator_version if last else 0

    def annotations(self, match_id: UUID, viewer: str) -> list[notes.Annotation]:
        """The annotations standing now that `viewer` sees, by version."""
        return notes.visible(notes.fold(self.annotation_events(match_id)).values(), viewer)

    def annotate(self, match_id: UUID, command: AddAnnotation, *, actor: str,
                 caps: notes.Caps = notes.CAPS) -> notes.Annotation:
        def make(held: dict[str, notes.Annotation],
                 events: int) -> tuple[type[ev.Event], dict[str, Any]]:
            head = self.head(match_id)
            fields = notes.decide_add(
                command, actor=actor, sides=head.state.side_ids(), head=head.version,
                state_at=lambda v: self.state_at(match_id, v), held=len(held),
                fork_origin=self._fork_origin, match_id=match_id, caps=caps, events=events)
            return ev.AnnotationAdded, {**fields, "annotation_id": uuid4().hex}
        return self._append(match_id, actor, make)

    def edit_annotation(self, match_id: UUID, annotation_id: str, command: EditAnnotation,
                        *, actor: str, caps: notes.Caps = notes.CAPS) -> notes.Annotation:
        def make(held: dict[str, notes.Annotation],
                 events: int) -> tuple[type[ev.Event], dict[str, Any]]:
            head = self.head(match_id)
            return ev.AnnotationEdited, notes.decide_edit(
                command, actor=actor, held=held, annotation_id=annotation_id,
                head=head.version, state_at=lambda v: self.state_at(match_id, v),
                caps=caps, events=events)
        return self._append(match_id, actor, make)

    def delete_annotation(self, match_id: UUID, annotation_id: str,
                          command: DeleteAnnotation, *, actor: str) -> None:
        self._append(match_id, actor, lambda held, _: (
            ev.AnnotationDeleted, notes.decide_delete(command, actor=actor, held=held,
                                                      annotation_id=annotation_id)))

    def keep_annotations(self, match_id: UUID, events: Iterable[ev.Event]) -> int:
        """Store an import's annotation events (already rebuilt under the match's stream);
        how many."""
        kept = list(events)
        if kept:
            self.save(*kept)
        return len(kept)

    def _fork_origin(self, fork: UUID) -> UUID | None:
        for created in self.events_of(fork, upto=1):
            return cast(ev.MatchCreated, created).forked_from
        raise MatchNotFound(f"there is no match {fork}", rule="core-annotations")

    def _append(self, match_id: UUID, actor: str, make: Any) -> notes.Annotation:
        """Decide against the stream as it stands (`make` is given the annotations standing
        and how many events the stream holds) and append the event made, conditioned on
        the stream's version; the annotation as it then stands."""
        stream = ev.annotations_stream(match_id)
        with self._lock_for(match_id):
            for _ in range(TRIES):
                events = self.annotation_events(match_id)
                held = notes.fold(events)
                cls, fields = make(held, len(events))
                head = self.head(match_id)
                event = cls(originator_id=stream, originator_version=len(events) + 1,
                            timestamp=self.clock(), actor=actor, command_id=uuid4().hex,
                            rule="core-annotations", turn=head.state.turn.turn, **fields)
                try:
                    self.save(event)
                except IntegrityError:
                    continue  # another process appended first: decide again
                standing = notes.fold([*events, event]).get(fields["annotation_id"])
                return standing if standing is not None else held[fields["annotation_id"]]
        raise VersionConflict("the annotations changed while this was decided; try again",
                              rule="core-annotations")

