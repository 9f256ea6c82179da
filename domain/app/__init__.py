"""`Matches`: the eventsourcing Application, the only entry point for use cases.

It is assembled from three layers, each in a module of its own:
- `domain.app.matchlog.MatchLog`: the store, and reading a match back (head, any version,
  time travel by clock or step, checkpoints, caches, the current dice seed);
- `domain.app.usecases.MatchUseCases`: the use cases that append (create, join, reissue, act,
  undo, answer an undo, redo, reveal the seed), all through one `_execute`;
- `domain.app.copies.MatchCopies`: forks, imports and dispute rulings;
and the game clock's use cases on top of them (`domain.app.clock.ClockUseCases`), and
the annotations' (`domain.app.annotations.AnnotationUseCases`: a stream of their own).

The package is the only part of `domain/` that knows about storage: eventsourcing's
Application, the mapper and checkpoints (`persistence`), what a use case answers
(`results`). It may import everything else in `domain/` (the pure core, `events`,
`commands`, `rulesets`, `clock`); nothing in `domain/` imports it, and `projections/` and
`api/` reach the domain's use cases through it.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from datetime import datetime
from uuid import UUID

from domain import json_input
from domain.app.annotations import AnnotationUseCases
from domain.app.clock import ClockUseCases
from domain.app.usecases import (
    JOIN,
    SPECTATOR,
    ConcurrencyConflict,
    IdempotencyKeyReused,
    Result,
    token_hash,
)
from domain.errors import DomainError
from domain.events import Event
from domain.history import Frame
from domain.interchange import ExportFile, ListedExport, read_annotations, read_export

__all__ = ["JOIN", "SPECTATOR", "ConcurrencyConflict", "IdempotencyKeyReused", "Matches",
           "Result", "token_hash"]


class Matches(ClockUseCases, AnnotationUseCases):  # the clock, on MatchCopies; annotations
    """Every match of one store; use cases and queries (see the layers above)."""

    def holds(self, match_id: UUID) -> bool:
        """Whether this process holds the match's head (reading it back is then one query
        for newer events, not a load from a checkpoint)."""
        with self._cache_lock:
            return match_id in self._heads

    def import_match(self, export: ExportFile | Iterable[str], *, now: datetime | None = None,
                     frames: MutableMapping[int, Frame] | None = None) -> Result:
        """As `MatchCopies.import_match`, with the annotations the file carries after its
        events, read and checked first: a file whose annotations do not load is refused
        whole, nothing stored."""
        file = export if isinstance(export, ExportFile) else ListedExport(export)
        try:
            header = json_input.loads(next(file.lines()))
            match_id, events = UUID(str(header["match_id"])), int(header["events"])
        except (StopIteration, DomainError, KeyError, ValueError, TypeError):
            annotations: list[Event] = []  # no header to read: the import refuses the file itself
        else:
            try:
                annotations = read_annotations(file, match_id, events)
            except DomainError:
                read_export(file, {})  # a file that does not verify: refused for that, first
                raise
        result = super().import_match(file, now=now, frames=frames)
        self.keep_annotations(match_id, annotations)
        return result
