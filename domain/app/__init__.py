"""`Matches`: the eventsourcing Application, the only entry point for use cases.

It is assembled from three layers, each in a module of its own:
- `domain.app.matchlog.MatchLog`: the store, and reading a match back (head, any version,
  time travel by clock or step, checkpoints, caches, the current dice seed);
- `domain.app.usecases.MatchUseCases`: the use cases that append (create, join, reissue, act,
  undo, answer an undo, redo, reveal the seed), all through one `_execute`;
- `domain.app.copies.MatchCopies`: forks, imports and dispute rulings;
and the game clock's use cases on top of them (`domain.app.clock.ClockUseCases`).

The package is the only part of `domain/` that knows about storage: eventsourcing's
Application, the mapper and checkpoints (`persistence`), what a use case answers
(`results`). It may import everything else in `domain/` (the pure core, `events`,
`commands`, `rulesets`, `clock`); nothing in `domain/` imports it, and `projections/` and
`api/` reach the domain's use cases through it.
"""

from __future__ import annotations

from uuid import UUID

from domain.app.clock import ClockUseCases
from domain.app.usecases import (
    JOIN,
    SPECTATOR,
    ConcurrencyConflict,
    IdempotencyKeyReused,
    Result,
    token_hash,
)

__all__ = ["JOIN", "SPECTATOR", "ConcurrencyConflict", "IdempotencyKeyReused", "Matches",
           "Result", "token_hash"]


class Matches(ClockUseCases):  # ClockUseCases: the game clock, on MatchCopies
    """Every match of one store; use cases and queries (see the layers above)."""

    def holds(self, match_id: UUID) -> bool:
        """Whether this process holds the match's head (reading it back is then one query
        for newer events, not a load from a checkpoint)."""
        with self._cache_lock:
            return match_id in self._heads
