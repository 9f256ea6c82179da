"""`MatchCopies`: use cases that make a match from another's events: a what-if fork, an
import from an export, and the referee's ruling on a dispute (which may order a fork)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, cast
from uuid import UUID, uuid4

from domain import events as ev
from domain import json_input
from domain.decide import (
    REFEREE,
    Context,
    decide_undo,
)
from domain.dice import commitment
from domain.errors import (
    DomainError,
    InvalidAction,
    NotYourTurn,
    VersionNotFound,
)
from domain.history import (
    Frame,
    effective_events,
    first_frame,
    fold,
    replay,
)
from domain.integrity import GENESIS, chained
from domain.interchange import read_export
from domain.persistence import Checkpoint
from domain.state import MatchState
from domain.usecases import JOIN, SPECTATOR, MatchUseCases, Result, envelopes, token_hash


def _header(lines: list[str]) -> dict[str, Any]:
    try:
        header = json_input.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict):
        raise InvalidAction("line 1: not a battlelog match export (no header)",
                            rule="core-import")
    return header


class MatchCopies(MatchUseCases):
    def fork(self, match_id: UUID, at: int, *, actor: str = REFEREE) -> Result:
        """A what-if: a new match whose history is this one's effective history up to version
        `at` (renumbered, re-chained), linked to its origin; the origin is untouched. The
        answer holds the new match's seat tokens (referee only: the copy shows every seat's
        private information to its referee)."""
        if actor != REFEREE:
            raise NotYourTurn("only the referee forks a match", rule="core-fork",
                              allowed=[REFEREE])
        head = self.head(match_id)
        if not 1 <= at <= head.version:
            raise VersionNotFound(f"the match has versions 1 to {head.version}",
                                  rule="core-fork")
        kept = effective_events(self.events_of(match_id, upto=at))
        if any(isinstance(e, ev.MatchEnded) for e in kept):
            raise InvalidAction("fork before the match ended", rule="core-fork")
        origin = cast(ev.MatchCreated, kept[0])
        new_id, seed = uuid4(), self.seed_source()
        seats = [REFEREE, SPECTATOR, *(f"{JOIN}{side.id}" for side in origin.sides)]
        tokens = {seat: self.token_source() for seat in seats}
        renumber = {e.originator_version: i for i, e in enumerate(kept, start=1)}
        created = origin.model_copy(update={
            "originator_id": new_id, "timestamp": self.clock(), "actor": actor,
            "command_id": uuid4().hex, "dice_commitment": commitment(seed),
            "dice_seed": seed.hex(),
            "token_hashes": {seat: token_hash(token) for seat, token in tokens.items()},
            "forked_from": match_id, "forked_at": at, "inherited_events": len(kept) - 1})
        copies: list[ev.Event] = [created]
        for event in kept[1:]:
            update: dict[str, Any] = {"originator_id": new_id,
                                      "originator_version": renumber[event.originator_version]}
            if isinstance(event, ev.NoteAdded) and event.about_version is not None:
                update["about_version"] = renumber.get(event.about_version)
            copies.append(event.model_copy(update=update))
        copies = chained(copies, GENESIS)
        self.save(*copies)
        frame = fold(first_frame(cast(ev.MatchCreated, copies[0])), copies[1:],
                     lambda k: replay(copies[:k]).state)
        self._remember(new_id, frame)
        return Result(frame, copies, tokens=tokens)

    def import_match(self, lines: Iterable[str]) -> Result:
        """Rebuild a match from a referee's export: identical events, versions, state and
        hash chain, under the match id it had. All or nothing: a bad file is refused naming
        its line, and nothing is stored. The answer holds fresh seat tokens."""
        tokens: dict[str, str] = {}
        hashes: dict[str, str] = {}

        def seats(sides: Iterable[str]) -> dict[str, str]:
            for seat in (REFEREE, SPECTATOR, *(f"{JOIN}{side}" for side in sides)):
                tokens[seat] = self.token_source()
                hashes[seat] = token_hash(tokens[seat])
            return hashes

        text = list(lines)
        header = _header(text)
        match_id, events = read_export(text, seats(s["id"] for s in header.get("sides", [])))
        if self.recorder.select_events(match_id, limit=1):
            raise InvalidAction(f"match {match_id} is already here", rule="core-import")
        kept = {1: first_frame(cast(ev.MatchCreated, events[0]))}  # a frame per interval

        def state_at(k: int) -> MatchState:
            base = kept[max(v for v in kept if v <= k)]
            return fold(base, events[base.version:k], state_at).state

        frame = kept[1]
        try:
            for start in range(1, len(events), self.checkpoint_interval):
                frame = fold(frame, events[start:start + self.checkpoint_interval], state_at)
                kept[frame.version] = frame
        except (DomainError, KeyError, ValueError) as error:
            raise InvalidAction(f"the events do not replay to a match: {error}",
                                rule="core-import") from None
        self.save(*events)
        assert self.snapshots is not None
        self.snapshots.put([Checkpoint.of(match_id, f, self.clock())
                            for v, f in kept.items() if v > 1])
        frame = replace(frame, checkpoint=frame.version)
        self._remember(match_id, frame)
        return Result(frame, events[:1], tokens=tokens)

    def rule_dispute(self, match_id: UUID, dispute: int, *, ruling: str, order: str = "none",
                     to: int | None = None, actor: str = REFEREE) -> Result:
        """The referee's ruling on the dispute opened at version `dispute`; it may order an
        undo back to `to`, a re-roll, or a what-if fork at `to` (made first)."""
        if actor != REFEREE:
            raise NotYourTurn("the referee rules on disputes", rule="core-disputes",
                              allowed=[REFEREE])
        head = self.head(match_id)
        opened = self._event(match_id, dispute) if 1 <= dispute <= head.version else None
        if not isinstance(opened, ev.DisputeOpened):
            raise InvalidAction(f"version {dispute} does not open a dispute",
                                rule="core-disputes")
        if any(isinstance(e, ev.DisputeRuled) and e.dispute == dispute
               for e in self.events_of(match_id, after=dispute)):
            raise InvalidAction(f"the dispute at version {dispute} is ruled already",
                                rule="core-disputes")
        if order in ("undo", "fork") and to is None:
            raise InvalidAction(f"an order to {order} needs `to` (a version)",
                                rule="core-disputes")
        fork_id = self.fork(match_id, cast(int, to)).events[0].originator_id if (
            order == "fork") else None

        def ruled(head: Frame, context: Context) -> list[ev.Event]:
            stamp = envelopes(head, context)
            events: list[ev.Event] = [ev.DisputeRuled(
                **stamp(), dispute=dispute, ruling=ruling, order=order, to=to, fork=fork_id,
                rule="core-disputes")]
            if order == "undo":
                events += decide_undo(head.state, self._state_at(match_id), replace(
                    context, version=head.version + 1), to=to)  # numbered after the ruling
            return events

        return self._execute(match_id, ruled, actor=actor)

