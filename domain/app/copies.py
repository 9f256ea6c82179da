"""`MatchCopies`: use cases that make a match from another's events: a what-if fork, an
import from an export, and the referee's ruling on a dispute (which may order a fork)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import islice
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain import events as ev
from domain import json_input
from domain.app.persistence import Checkpoint
from domain.app.results import JOIN, SPECTATOR, Result, envelopes, token_hash
from domain.app.usecases import MatchUseCases
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
from domain.evolve_cards import deal
from domain.history import (
    Frame,
    effective_events,
    first_frame,
    fold,
    same_game,
)
from domain.integrity import GENESIS, chained, salted
from domain.interchange import ExportFile, ExportReader, ListedExport, checked, read_export
from domain.reroll import decide_reroll, rolled_again
from domain.rulesets import get_ruleset
from domain.state import MatchState

IMPORT_BATCH = 500  # events saved at once by an import
READ_AGAIN = 4  # intervals of an import's events kept once read again for an undo


def _header(line: str | None) -> dict[str, Any]:
    try:
        header = json_input.loads(line) if line is not None else None
    except ValueError:
        header = None
    if not isinstance(header, dict):
        raise InvalidAction("line 1: not a battlelog match export (no header)",
                            rule="core-import")
    return header


@dataclass(frozen=True)
class Copy:
    """A match made from another's events (a fork, an import), replayed in memory and not
    saved yet: its events, its frames (at version 1, every checkpoint interval, and the
    head) and its fresh seat tokens."""

    events: list[ev.Event]
    frames: dict[int, Frame]
    tokens: dict[str, str]

    @property
    def head(self) -> Frame:
        return self.frames[max(self.frames)]


class MatchCopies(MatchUseCases):
    def fork(self, match_id: UUID, at: int, *, actor: str = REFEREE) -> Result:
        """A what-if: a new match whose history is this one's effective history up to version
        `at` (renumbered, re-chained), linked to its origin; the origin is untouched. The
        answer holds the new match's seat tokens (referee only: the copy shows every seat's
        private information to its referee). Nothing is saved unless the whole copy
        replays to the origin's game at `at`."""
        copy = self._copy(match_id, at, actor=actor)
        return replace(self._keep(copy), events=copy.events)

    def _copy(self, match_id: UUID, at: int, *, actor: str) -> Copy:
        """The fork at `at`, made and replayed but not saved: its events, its head and its
        seat tokens. Raises if the copy does not replay to the origin's game at `at`."""
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
        # Fresh secrets: revealing the fork's seeds (at its end) says nothing of the origin's.
        new_id, seed, card_seed = uuid4(), self.seed_source(), self.seed_source()
        seats = [REFEREE, SPECTATOR, *(f"{JOIN}{side.id}" for side in origin.sides)]
        tokens = {seat: self.token_source() for seat in seats}
        renumber = {e.originator_version: i for i, e in enumerate(kept, start=1)}
        created = origin.model_copy(update={
            "originator_id": new_id, "timestamp": self.clock(), "actor": actor,
            "command_id": uuid4().hex, "dice_commitment": commitment(seed),
            "dice_seed": seed.hex(), "card_commitment": commitment(card_seed),
            "card_seed": card_seed.hex(),
            "dealt": deal(origin) or None,  # the decks as the origin dealt them, in order
            "token_hashes": {seat: token_hash(token) for seat, token in tokens.items()},
            "forked_from": match_id, "forked_at": at, "inherited_events": len(kept) - 1,
            "secrets_committed": True})
        copies: list[ev.Event] = [created]
        for event in kept[1:]:
            update: dict[str, Any] = {"originator_id": new_id,
                                      "originator_version": renumber[event.originator_version]}
            if isinstance(event, ev.NoteAdded) and event.about_version is not None:
                update["about_version"] = renumber.get(event.about_version)
            if isinstance(event, ev.DiceRolled) and event.declared is not None:
                update["declared"] = renumber.get(event.declared)
            if isinstance(event, ev.DiceRolled | ev.RollDeclared) and event.replaces is not None:
                update["replaces"] = renumber.get(event.replaces)
            copies.append(event.model_copy(update=update))
        copies = chained(salted(copies, self.salt_source), GENESIS)  # salted anew
        copy = Copy(copies, self._replayed(copies), tokens)
        if not same_game(copy.head.state, self.state_at(match_id, at)):
            raise RuntimeError(f"the fork of match {match_id} at version {at} does not "
                               "replay to its state there; nothing was saved")
        return copy

    def _replayed(self, events: list[ev.Event]) -> dict[int, Frame]:
        """A whole log replayed from `MatchCreated`, in memory: its frame at version 1 and
        every `checkpoint_interval` events, and at the head."""
        kept = {1: first_frame(cast(ev.MatchCreated, events[0]))}

        def state_at(k: int) -> MatchState:
            base = kept[max(v for v in kept if v <= k)]
            return fold(base, events[base.version:k], state_at).state

        frame = kept[1]
        for start in range(1, len(events), self.checkpoint_interval):
            frame = fold(frame, events[start:start + self.checkpoint_interval], state_at)
            kept[frame.version] = frame
        return kept

    def _keep(self, copy: Copy) -> Result:
        """Save a replayed copy (a fork, an import) with its checkpoints, and remember it.
        The result holds its first event and its seat tokens."""
        match_id = copy.events[0].originator_id
        self.save(*copy.events)
        assert self.snapshots is not None
        self.snapshots.put([Checkpoint.of(match_id, f, self.clock())
                            for v, f in copy.frames.items() if v > 1])
        frame = replace(copy.head, checkpoint=copy.head.version)
        self._remember(match_id, frame)
        return Result(frame, copy.events[:1], tokens=copy.tokens)

    def import_match(self, export: ExportFile | Iterable[str], *, now: datetime | None = None,
                     frames: MutableMapping[int, Frame] | None = None) -> Result:
        """Rebuild a match from a referee's export: identical events, versions, state and
        hash chain, under the match id it had. All or nothing: a bad file is refused naming
        its line, and nothing is stored. The answer holds fresh seat tokens.

        Streaming (docs/interchange.md): the file is read through, one event at a time,
        to verify it, check every event (`interchange.checked`, against the import's own
        time `now`, by default this application's clock) and replay it; only then is it read
        once more and saved, IMPORT_BATCH events at a time. The replay's checkpoint frames
        go to `frames` (a disk-backed mapping from a caller that spools the file; a dict
        by default), and an undo to an earlier version re-reads the file from the nearest
        checkpoint (the last READ_AGAIN intervals so read are kept): what is held is a
        batch, a few intervals of events and frames, and the file's seeds."""
        tokens: dict[str, str] = {}
        hashes: dict[str, str] = {}
        file = export if isinstance(export, ExportFile) else ListedExport(export)
        header = _header(next(file.lines(), None))
        for seat in (REFEREE, SPECTATOR, *(f"{JOIN}{side['id']}"
                                           for side in header.get("sides", []))):
            tokens[seat] = self.token_source()
            hashes[seat] = token_hash(tokens[seat])
        reader = read_export(file, hashes)
        self._not_here(reader.match_id)
        kept = {} if frames is None else frames
        head = self._replayed_file(reader, checked(reader.events(), now or self.clock()), kept)
        return self._keep_file(reader, kept, head, tokens)

    def _not_here(self, match_id: UUID) -> None:
        if self.recorder.select_events(match_id, limit=1):
            raise InvalidAction(f"match {match_id} is already here", rule="core-import")

    def _replayed_file(self, reader: ExportReader, events: Iterator[ev.Event],
                       frames: MutableMapping[int, Frame]) -> Frame:
        """Replay `events` (the file's, checked) one checkpoint interval at a time, keeping
        the frame at version 1 and after each interval in `frames`; the head frame."""
        interval = self.checkpoint_interval
        created = next(events, None)
        if created is None:
            raise InvalidAction("line 1: the file holds no events", rule="core-import")
        frame = frames[1] = first_frame(cast(ev.MatchCreated, created))
        read: OrderedDict[int, list[ev.Event]] = OrderedDict()  # a few intervals read again

        def state_at(k: int) -> MatchState:  # before the interval being folded
            base = frames[1 + (k - 1) // interval * interval]
            if base.version not in read:
                read[base.version] = list(islice(reader.events(base.version + 1), interval))
                if len(read) > READ_AGAIN:
                    read.popitem(last=False)
            return fold(base, read[base.version][:k - base.version], state_at).state

        while chunk := list(islice(events, interval)):
            try:
                frame = fold(frame, chunk, state_at)
            except (DomainError, KeyError, ValueError) as error:
                raise InvalidAction(f"the events do not replay to a match: {error}",
                                    rule="core-import") from None
            frames[frame.version] = frame
        return frame

    def _keep_file(self, reader: ExportReader, frames: MutableMapping[int, Frame],
                   head: Frame, tokens: dict[str, str]) -> Result:
        """Save an import that replayed: its events read once more, IMPORT_BATCH at a time
        (the first batch, with version 1, fails if another import of the same match won),
        each followed by its checkpoints; and remember it."""
        match_id = reader.match_id
        events = reader.events()
        first = list(islice(events, IMPORT_BATCH))
        try:
            self.save(*first)
        except IntegrityError:
            raise InvalidAction(f"match {match_id} is already here",
                                rule="core-import") from None
        checkpoints = sorted(v for v in frames if v > 1)
        batch = first
        while batch:
            # Each batch's checkpoints right after it: a reader meanwhile (the catalogue)
            # folds from one, not from the start of the match.
            last = batch[-1].originator_version
            self._checkpoints(match_id, frames, [v for v in checkpoints if v <= last])
            checkpoints = [v for v in checkpoints if v > last]
            batch = list(islice(events, IMPORT_BATCH))
            if batch:
                self.save(*batch)
        frame = replace(head, checkpoint=head.version)
        self._remember(match_id, frame)
        return Result(frame, first[:1], tokens=tokens, verified=reader.verified)

    def _checkpoints(self, match_id: UUID, frames: MutableMapping[int, Frame],
                     versions: list[int]) -> None:
        assert self.snapshots is not None
        if versions:
            self.snapshots.put([Checkpoint.of(match_id, frames[v], self.clock())
                                for v in versions])

    def rule_dispute(self, match_id: UUID, dispute: int, *, ruling: str, order: str = "none",
                     to: int | None = None, actor: str = REFEREE,
                     token: str | None = None) -> Result:
        """The referee's ruling on the dispute opened at version `dispute`; it may order an
        undo back to `to`, a re-roll of the roll at `to` (by default the disputed event), or
        a what-if fork at `to` (made first)."""
        if actor != REFEREE:
            raise NotYourTurn("the referee rules on disputes", rule="core-disputes",
                              allowed=[REFEREE])
        head = self.head(match_id)
        opened = self._event(match_id, dispute) if 1 <= dispute <= head.version else None
        if not isinstance(opened, ev.DisputeOpened):
            raise InvalidAction(f"version {dispute} does not open a dispute",
                                rule="core-disputes")
        self._not_ruled(match_id, dispute)
        if order in ("undo", "fork") and to is None:
            raise InvalidAction(f"an order to {order} needs `to` (a version)",
                                rule="core-disputes")
        if order == "reroll":
            to = to or opened.about_version  # the roll to make again
        # The fork is made and replayed first; if that fails, nothing at all is appended.
        fork = self._copy(match_id, cast(int, to), actor=actor) if order == "fork" else None
        saved: list[Result] = []

        def ruled(head: Frame, context: Context) -> list[ev.Event]:
            self._not_ruled(match_id, dispute)  # again, under the match's lock
            stamp = envelopes(head, context)
            events: list[ev.Event] = [ev.DisputeRuled(
                **stamp(), dispute=dispute, ruling=ruling, order=order, to=to,
                fork=fork.events[0].originator_id if fork else None, rule="core-disputes")]
            after = replace(context, version=head.version + 1)  # numbered after the ruling
            if order == "undo":
                events += decide_undo(head.state, self._state_at(match_id), after, to=to)
            if order == "reroll":
                events += decide_reroll(self._rerolled(match_id, head, cast(int, to)),
                                        head.state, after)
            if fork is not None and not saved:  # once the ruling is decided: the fork it names
                saved.append(self._keep(fork))
            return events

        return self._execute(match_id, ruled, actor=actor, token=token)

    def _rerolled(self, match_id: UUID, head: Frame, version: int) -> ev.DiceRolled:
        """The roll at `version`, if a ruling may have it made again now (`domain.reroll`)."""
        old = self._event(match_id, version) if 1 <= version <= head.version else None
        return rolled_again(old, version, effective_events(self.events_of(match_id)),
                            head.state, get_ruleset(head.state.ruleset, head.state.options, head.state.ruleset_hash))

    def _not_ruled(self, match_id: UUID, dispute: int) -> None:
        if any(isinstance(e, ev.DisputeRuled) and e.dispute == dispute
               for e in self.events_of(match_id, after=dispute)):
            raise InvalidAction(f"the dispute at version {dispute} is ruled already",
                                rule="core-disputes")
