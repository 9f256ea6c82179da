"""`Matches`: the eventsourcing Application, the only entry point for use cases.

Use cases: create a match, join a seat, act, undo, redo. Queries: the head of a match, the
frame at any version (time travel), the version at a wall-clock time or at a step of the
sequence of play, and the raw events.

The match's log is the aggregate's event stream (one stream per match, versions 1..n).
A `Frame` (state plus log facts) is rebuilt from the nearest checkpoint at or before the
wanted version, never by a full replay. Checkpoints are `Checkpoint` records written to the
application's snapshot store every `CHECKPOINT_INTERVAL` events; they are a cache.
Store-specific settings come in through `env` (see `projections.store`).
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.domain import datetime_now_with_tzinfo
from eventsourcing.persistence import IntegrityError, Mapper
from eventsourcing.utils import get_topic

from domain import events as ev
from domain.commands import Command, CreateMatch
from domain.decide import (
    REFEREE,
    Context,
    decide,
    decide_redo,
    decide_undo,
    decide_undo_answer,
)
from domain.dice import DiceSource, SeededDice, UnknownDice, commitment
from domain.errors import (
    DomainError,
    InvalidAction,
    MatchNotFound,
    MatchOver,
    NotYourTurn,
    VersionConflict,
    VersionNotFound,
)
from domain.history import (
    IDEMPOTENCY_PREFIX,
    Frame,
    effective_events,
    first_frame,
    fold,
    replay,
    undo_reach,
)
from domain.integrity import GENESIS, chained
from domain.interchange import UNKNOWN_SEED, read_export
from domain.persistence import Checkpoint, OrjsonTranscoder, PydanticMapper
from domain.rulesets import get_ruleset
from domain.state import MatchState, Side


@dataclass(frozen=True)
class Result:
    """What a use case did: the new head and the events it appended (for a repeated
    idempotent request: the events the first one appended, `replayed` set)."""

    frame: Frame
    events: list[ev.Event]
    tokens: dict[str, str] = field(default_factory=dict)  # seat -> new bearer token
    replayed: bool = False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def request_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class IdempotencyKeyReused(InvalidAction):
    """The same Idempotency-Key came back with a different request."""

    title = "Idempotency key reused"


class ConcurrencyConflict(VersionConflict):
    status = 409
    title = "Concurrent update"


SPECTATOR = "spectator"
JOIN = "join:"


def _header(lines: list[str]) -> dict[str, Any]:
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict):
        raise InvalidAction("line 1: not a battlelog match export (no header)",
                            rule="core-import")
    return header


def _stamp(head: Frame, context: Context) -> Callable[[], dict[str, Any]]:
    """Envelopes for events a use case makes itself, numbered on from the head."""
    counter = iter(range(head.version + 1, head.version + 1000))
    return lambda: {"originator_id": context.match_id, "originator_version": next(counter),
                    "timestamp": context.now, "actor": context.actor,
                    "command_id": context.command_id, "turn": head.state.turn.turn}


class Matches(Application[UUID]):
    name = "battlelog"
    is_snapshotting_enabled = True
    CHECKPOINT_INTERVAL = "CHECKPOINT_INTERVAL"
    HEAD_CACHE_SIZE = "HEAD_CACHE_SIZE"

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        clock: Callable[[], datetime] = datetime_now_with_tzinfo,
        seed_source: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        token_source: Callable[[], str] = lambda: secrets.token_urlsafe(24),
    ) -> None:
        super().__init__(env)
        self.clock = clock
        self.seed_source = seed_source
        self.token_source = token_source
        self.checkpoint_interval = int(self.env.get(self.CHECKPOINT_INTERVAL) or 100)
        self._cache_size = int(self.env.get(self.HEAD_CACHE_SIZE) or 1000)
        self._heads: OrderedDict[UUID, Frame] = OrderedDict()
        self._frames: OrderedDict[tuple[UUID, int], Frame] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._match_locks: dict[UUID, threading.Lock] = {}
        self._seeds: dict[tuple[UUID, int], str] = {}
        self.saved_listeners: list[Callable[[], None]] = []

    def construct_mapper(self) -> Mapper[UUID]:
        return PydanticMapper(transcoder=OrjsonTranscoder())

    def _notify(self, recordings: Any) -> None:
        for listener in self.saved_listeners:
            listener()

    # ---- use cases -------------------------------------------------------------------

    def create_match(self, setup: CreateMatch, *, actor: str = REFEREE,
                     command_id: str | None = None) -> Result:
        ruleset = get_ruleset(setup.ruleset, setup.options)
        sides = tuple(Side(id=s.id, name=s.name) for s in setup.sides)
        if len({s.id for s in sides}) != len(sides):
            raise InvalidAction("side ids must be distinct", rule="core-sides")
        if {REFEREE, SPECTATOR} & {s.id for s in sides} or any(":" in s.id for s in sides):
            raise InvalidAction("'referee' and 'spectator' are seats, not sides, and a side id "
                                "has no ':'", rule="core-sides")
        roles = setup.options.get("roles")
        if isinstance(roles, dict) and not set(roles.values()) <= {s.id for s in sides}:
            raise InvalidAction("option 'roles' names a side the match does not have",
                                rule="core-sides", allowed=[s.id for s in sides])
        seed = self.seed_source()
        seats = [REFEREE, SPECTATOR, *(f"{JOIN}{side.id}" for side in sides)]
        tokens = {seat: self.token_source() for seat in seats}
        created = ev.MatchCreated(
            originator_id=uuid4(),
            originator_version=1,
            timestamp=self.clock(),
            actor=actor,
            command_id=command_id or uuid4().hex,
            turn=1,
            ruleset=ruleset.id,
            ruleset_version=ruleset.version,
            scenario=setup.scenario,
            sides=sides,
            casual=setup.casual,
            options=setup.options,
            dice_commitment=commitment(seed),
            dice_seed=seed.hex(),
            token_hashes={seat: token_hash(token) for seat, token in tokens.items()},
            units=tuple(u.to_unit() for u in setup.units),
            decks={side: tuple(cards) for side, cards in setup.decks.items()},
        )
        created = chained([created], GENESIS)[0]
        self.save(created)
        frame = first_frame(created)
        self._remember(created.originator_id, frame)
        return Result(frame, [created], tokens=tokens)

    def join(self, match_id: UUID, *, side: str | None, player: str,
             entropy: str | None = None) -> Result:
        """`player` takes the seat of `side` (None: the referee's). A side's join token is
        used up: the player gets a seat token of their own (ours: one player per join).
        `entropy`, if given, is mixed into every later server roll (recorded publicly)."""
        token = self.token_source()

        def joined(head: Frame, context: Context) -> list[ev.Event]:
            if side is not None and side not in head.state.side_ids():
                raise InvalidAction(f"there is no side '{side}'", rule="core-sides",
                                    allowed=list(head.state.side_ids()))
            stamp = _stamp(head, context)
            events: list[ev.Event] = [ev.SeatJoined(**stamp(), side=side, player=player,
                                                    entropy=entropy)]
            if side is not None:
                events += [ev.SeatTokenRevoked(**stamp(), seat=seat, token_hash=hashed)
                           for hashed, seat in head.tokens if seat == f"{JOIN}{side}"]
                events.append(ev.SeatTokenIssued(**stamp(), seat=side,
                                                 token_hash=token_hash(token)))
            return events

        result = self._execute(match_id, joined, actor=side or REFEREE)
        return replace(result, tokens={side: token} if side is not None else {})

    def reissue(self, match_id: UUID, seat: str, *, actor: str = REFEREE) -> Result:
        """Revoke every token of `seat` and issue a new one (the referee's remedy for a
        leaked or lost token). The old tokens stop working at once."""
        token = self.token_source()

        def reissued(head: Frame, context: Context) -> list[ev.Event]:
            known = {REFEREE, SPECTATOR, *head.state.side_ids(),
                     *(f"{JOIN}{s}" for s in head.state.side_ids())}
            if seat not in known:
                raise InvalidAction(f"there is no seat '{seat}'", rule="core-seats",
                                    allowed=sorted(known))
            stamp = _stamp(head, context)
            return [*(ev.SeatTokenRevoked(**stamp(), seat=seat, token_hash=hashed)
                      for hashed, owner in head.tokens if owner == seat),
                    ev.SeatTokenIssued(**stamp(), seat=seat, token_hash=token_hash(token))]

        result = self._execute(match_id, reissued, actor=actor)
        return replace(result, tokens={seat: token})

    def authenticate(self, match_id: UUID, token: str) -> str | None:
        """The seat a bearer token opens in this match, or None. Compared in constant time
        against every live token's hash."""
        wanted = token_hash(token)
        seat = None
        for hashed, owner in self.head(match_id).tokens:
            if hmac.compare_digest(hashed, wanted):
                seat = owner
        return seat

    def act(self, match_id: UUID, command: Command, *, actor: str = REFEREE,
            command_id: str | None = None, expected_version: int | None = None,
            idempotency_key: str | None = None) -> Result:
        def decided(head: Frame, context: Context) -> list[ev.Event]:
            state = head.state
            ruleset = get_ruleset(state.ruleset, state.options)
            return decide(command, state, ruleset, context)

        return self._execute(match_id, decided, actor=actor, command_id=command_id,
                             expected_version=expected_version,
                             idempotency=self._idempotency(actor, idempotency_key, command))

    def undo(self, match_id: UUID, *, actor: str = REFEREE, to: int | None = None,
             actions: int = 1, command_id: str | None = None,
             expected_version: int | None = None, idempotency_key: str | None = None) -> Result:
        def undone(head: Frame, context: Context) -> list[ev.Event]:
            consent = not head.state.casual and actor != REFEREE
            return decide_undo(head.state, self._state_at(match_id), context, to=to,
                               actions=actions, pending=head.undo_request,
                               reach=self.undo_reach(match_id, actor, head) if consent else 1)

        return self._execute(match_id, undone, actor=actor, command_id=command_id,
                             expected_version=expected_version,
                             idempotency=self._idempotency(actor, idempotency_key,
                                                           f"undo:{to}:{actions}"))

    def undo_reach(self, match_id: UUID, seat: str, head: Frame | None = None) -> int:
        """The earliest version `seat` can undo to without the other sides' consent."""
        head = head or self.head(match_id)

        def newest_first() -> Iterator[ev.Event]:
            upto = head.version
            while upto > 0:
                chunk = list(self.events.get(match_id, lte=upto, desc=True, limit=64))
                yield from cast(list[ev.Event], chunk)
                upto = chunk[-1].originator_version - 1 if chunk else 0

        return undo_reach(newest_first(), seat)

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
            stamp = _stamp(head, context)
            events: list[ev.Event] = [ev.DisputeRuled(
                **stamp(), dispute=dispute, ruling=ruling, order=order, to=to, fork=fork_id,
                rule="core-disputes")]
            if order == "undo":
                events += decide_undo(head.state, self._state_at(match_id), replace(
                    context, version=head.version + 1), to=to)  # numbered after the ruling
            return events

        return self._execute(match_id, ruled, actor=actor)

    def answer_undo(self, match_id: UUID, *, actor: str, accept: bool, reason: str = "",
                    expected_version: int | None = None) -> Result:
        """Accept or decline the pending undo request (another side, or the referee)."""
        def answered(head: Frame, context: Context) -> list[ev.Event]:
            return decide_undo_answer(head.state, head.undo_request, context, accept=accept,
                                      reason=reason)

        return self._execute(match_id, answered, actor=actor, expected_version=expected_version)

    def redo(self, match_id: UUID, *, actor: str = REFEREE, command_id: str | None = None,
             expected_version: int | None = None, idempotency_key: str | None = None) -> Result:
        def redone(head: Frame, context: Context) -> list[ev.Event]:
            return decide_redo(head.state, head.redo, self._state_at(match_id), context)

        return self._execute(match_id, redone, actor=actor, command_id=command_id,
                             expected_version=expected_version,
                             idempotency=self._idempotency(actor, idempotency_key, "redo"))

    @staticmethod
    def _idempotency(actor: str, key: str | None,
                     request: Command | str) -> tuple[str, str] | None:
        """(key digest, request digest) for an `Idempotency-Key`, scoped to the seat."""
        if key is None:
            return None
        body = request if isinstance(request, str) else request.model_dump_json()
        return request_digest(f"{actor}\0{key}"), request_digest(body)

    def _execute(self, match_id: UUID, make: Callable[[Frame, Context], list[ev.Event]], *,
                 actor: str, command_id: str | None = None,
                 expected_version: int | None = None,
                 idempotency: tuple[str, str] | None = None) -> Result:
        command_id = command_id or uuid4().hex
        if idempotency is not None:
            command_id = f"{IDEMPOTENCY_PREFIX}{idempotency[0]}:{idempotency[1]}"
        with self._lock_for(match_id):
            for _attempt in range(5):
                head = self.head(match_id)
                if idempotency is not None:
                    earlier = self._earlier_request(match_id, head, idempotency)
                    if earlier is not None:
                        return earlier
                if expected_version is not None and expected_version != head.version:
                    raise VersionConflict(
                        f"the match is at version {head.version}, not {expected_version}",
                        rule="core-concurrency")
                if actor != REFEREE and actor not in head.state.side_ids():
                    raise InvalidAction(f"'{actor}' is neither a side nor the referee",
                                        rule="core-seats",
                                        allowed=[*head.state.side_ids(), REFEREE])
                context = Context(
                    match_id=match_id, version=head.version, actor=actor,
                    command_id=command_id, now=self.clock(),
                    dice=self._dice(match_id, head),
                    roll_index=head.server_rolls,
                )
                events = make(head, context)
                if any(isinstance(e, ev.MatchEnded) for e in events):
                    events.append(self._reveal(head, context, len(events)))
                events = chained(events, head.chain_head)
                try:
                    self.save(*events)
                except IntegrityError:
                    self._forget(match_id)  # another process appended: reload and retry
                    if expected_version is not None:
                        raise VersionConflict("the match moved on while acting",
                                              rule="core-concurrency") from None
                    continue
                frame = fold(head, events, self._state_at(match_id))
                frame = self._maybe_checkpoint(match_id, frame)
                self._remember(match_id, frame)
                return Result(frame, events)
        raise ConcurrencyConflict("too many concurrent updates; try again",
                                  rule="core-concurrency")

    def _earlier_request(self, match_id: UUID, head: Frame,
                         idempotency: tuple[str, str]) -> Result | None:
        key, body = idempotency
        for known, known_body, first, last in head.requests:
            if known == key:
                if known_body != body:
                    raise IdempotencyKeyReused(
                        "this Idempotency-Key was used for a different request",
                        rule="core-idempotency")
                events = list(self.events_of(match_id, after=first - 1, upto=last))
                return Result(head, events, replayed=True)
        return None

    # ---- queries ---------------------------------------------------------------------

    def head(self, match_id: UUID) -> Frame:
        """The latest frame, from the cache brought up to date with the store."""
        with self._cache_lock:
            cached = self._heads.get(match_id)
        if cached is None:
            frame = self._load(match_id)
        else:
            newer = list(self.events_of(match_id, after=cached.version))
            frame = fold(cached, newer, self._state_at(match_id)) if newer else cached
        if frame is not cached:
            self._remember(match_id, frame)
        return frame

    def frame_at(self, match_id: UUID, version: int) -> Frame:
        """The frame at `version`: nearest checkpoint at or before it, then the rest."""
        head = self.head(match_id)
        if not 1 <= version <= head.version:
            raise VersionNotFound(f"the match has versions 1 to {head.version}",
                                  rule="core-time-travel")
        if version == head.version:
            return head
        return self._frame_at(match_id, version)

    def state_at(self, match_id: UUID, version: int) -> MatchState:
        return self.frame_at(match_id, version).state

    def version_at_time(self, match_id: UUID, when: datetime) -> int:
        """The last version recorded at or before `when`."""
        head = self.head(match_id)
        versions = range(1, head.version + 1)
        found = bisect.bisect_right(versions, when, key=lambda v: self._event(match_id, v).timestamp)
        if found == 0:
            raise VersionNotFound(f"the match did not exist yet at {when.isoformat()}",
                                  rule="core-time-travel")
        return found

    def version_at_step(self, match_id: UUID, turn: int, step: str) -> int:
        """The first version at which turn `turn`, step `step` was current."""
        topics = {get_topic(ev.MatchCreated), get_topic(ev.PhaseAdvanced),
                  get_topic(ev.TurnAdvanced)}
        for stored in self.recorder.select_events(match_id):
            if stored.topic not in topics:
                continue
            event = self.mapper.to_domain_event(stored)
            if isinstance(event, ev.MatchCreated):
                marker = first_frame(event).state.turn
            else:
                marker = cast(ev.PhaseAdvanced, event).marker
            if marker.turn == turn and marker.step == step:
                return stored.originator_version
        self.head(match_id)  # 404 for an unknown match
        raise VersionNotFound(f"turn {turn}, step '{step}' was never reached",
                              rule="core-time-travel")

    def events_of(self, match_id: UUID, *, after: int = 0, upto: int | None = None,
                  limit: int | None = None) -> Iterator[ev.Event]:
        return cast(Iterator[ev.Event],
                    self.events.get(match_id, gt=after, lte=upto, limit=limit))

    # ---- internals -------------------------------------------------------------------

    def _event(self, match_id: UUID, version: int) -> ev.Event:
        return next(iter(self.events_of(match_id, after=version - 1, upto=version)))

    def _dice(self, match_id: UUID, head: Frame) -> DiceSource:
        seed = self._seed(match_id, head)
        return SeededDice(bytes.fromhex(seed), head.entropy) if seed != UNKNOWN_SEED else (
            UnknownDice())

    def _seed(self, match_id: UUID, head: Frame) -> str:
        """The current dice seed: MatchCreated's, or the latest `DiceCommitted`'s."""
        key = (match_id, head.seed_version)
        seed = self._seeds.get(key)
        if seed is None:
            holder = self._event(match_id, head.seed_version)
            seed = self._seeds[key] = cast(ev.MatchCreated | ev.DiceCommitted, holder).dice_seed
        return seed

    def dice_commitment(self, match_id: UUID) -> str:
        """The commitment to the current dice seed."""
        holder = self._event(match_id, self.head(match_id).seed_version)
        return cast(ev.MatchCreated | ev.DiceCommitted, holder).dice_commitment

    def _reveal(self, head: Frame, context: Context, after: int) -> ev.DiceSeedRevealed:
        """The current seed, revealed (numbered after the `after` events of this action)."""
        seed = self._seed(context.match_id, head)
        stamp = _stamp(replace(head, version=head.version + after), context)
        return ev.DiceSeedRevealed(**stamp(), seed=seed, dice_commitment=commitment(
            bytes.fromhex(seed)), rule="core-dice")

    def reveal_seed(self, match_id: UUID, *, actor: str = REFEREE) -> Result:
        """The referee reveals the dice seed so far (to settle a dispute); a fresh secret
        seed is committed for the rest of the match."""
        fresh = self.seed_source()

        def revealed(head: Frame, context: Context) -> list[ev.Event]:
            if actor != REFEREE:
                raise NotYourTurn("only the referee reveals the dice seed", rule="core-dice",
                                  allowed=[REFEREE])
            if head.state.outcome is not None:
                raise MatchOver("the match has ended: its seed is revealed", rule="core-end")
            known = self._seed(match_id, head) != UNKNOWN_SEED  # (an imported match's may not be)
            revealed = [self._reveal(head, context, 0)] if known else []
            stamp = _stamp(replace(head, version=head.version + len(revealed)), context)
            return [*revealed, ev.DiceCommitted(**stamp(), dice_commitment=commitment(fresh),
                                                dice_seed=fresh.hex(), rule="core-dice")]

        return self._execute(match_id, revealed, actor=actor)

    def _state_at(self, match_id: UUID) -> Callable[[int], MatchState]:
        return lambda version: self._frame_at(match_id, version).state

    def _frame_at(self, match_id: UUID, version: int) -> Frame:
        key = (match_id, version)
        with self._cache_lock:
            hit = self._frames.get(key)
            if hit is not None:
                self._frames.move_to_end(key)
                return hit
        base = self._checkpoint(match_id, version)
        if base is None:
            base = self._created(match_id)
        frame = fold(base, self.events_of(match_id, after=base.version, upto=version),
                     self._state_at(match_id))
        with self._cache_lock:
            self._frames[key] = frame
            while len(self._frames) > self._cache_size:
                self._frames.popitem(last=False)
        return frame

    def _checkpoint(self, match_id: UUID, version: int | None = None) -> Frame | None:
        assert self.snapshots is not None
        for checkpoint in self.snapshots.get(match_id, lte=version, desc=True, limit=1):
            return cast(Checkpoint, checkpoint).frame()
        return None

    def _created(self, match_id: UUID) -> Frame:
        for created in self.events_of(match_id, upto=1):
            return first_frame(cast(ev.MatchCreated, created))
        raise MatchNotFound(f"there is no match {match_id}", rule="core-matches")

    def _load(self, match_id: UUID) -> Frame:
        base = self._checkpoint(match_id) or self._created(match_id)
        return fold(base, self.events_of(match_id, after=base.version), self._state_at(match_id))

    def _maybe_checkpoint(self, match_id: UUID, frame: Frame) -> Frame:
        if frame.version - frame.checkpoint < self.checkpoint_interval:
            return frame
        assert self.snapshots is not None
        try:
            self.snapshots.put([Checkpoint.of(match_id, frame, self.clock())])
        except IntegrityError:
            pass  # another process wrote the same checkpoint
        return replace(frame, checkpoint=frame.version)

    def _remember(self, match_id: UUID, frame: Frame) -> None:
        with self._cache_lock:
            self._heads[match_id] = frame
            self._heads.move_to_end(match_id)
            while len(self._heads) > self._cache_size:
                self._heads.popitem(last=False)

    def _forget(self, match_id: UUID) -> None:
        with self._cache_lock:
            self._heads.pop(match_id, None)

    def _lock_for(self, match_id: UUID) -> threading.Lock:
        with self._cache_lock:
            return self._match_locks.setdefault(match_id, threading.Lock())
