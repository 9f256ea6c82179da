"""`MatchLog`: the store of matches and how a match is read back from it.

The match's log is the aggregate's event stream (one stream per match, versions 1..n).
A `Frame` (state plus log facts) is rebuilt from the nearest checkpoint at or before the
wanted version, never by a full replay. Checkpoints are `Checkpoint` records written to the
application's snapshot store every `CHECKPOINT_INTERVAL` events; they are a cache. Heads and
frames are kept in small LRU caches. Store-specific settings come in through `env` (see
`projections.store`).
"""

from __future__ import annotations

import bisect
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import datetime_now_with_tzinfo
from eventsourcing.persistence import IntegrityError, Mapper
from eventsourcing.utils import get_topic

from domain import events as ev
from domain.app.persistence import (
    Checkpoint,
    OrjsonTranscoder,
    PydanticMapper,
    StaleCheckpoint,
    UnreadableEvent,
)
from domain.dice import DiceSource, MatchDice, SeededDice, UnknownCards, UnknownDice
from domain.errors import (
    MatchNotFound,
    VersionNotFound,
)
from domain.events.commitments import SALT_BYTES
from domain.history import (
    Frame,
    first_frame,
    fold,
    undo_reach,
)
from domain.interchange import UNKNOWN_SEED
from domain.state import MatchState


class MatchLog(Application[UUID]):
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
        salt_source: Callable[[], bytes] = lambda: secrets.token_bytes(SALT_BYTES),
    ) -> None:
        super().__init__(env)
        self.clock = clock
        self.seed_source = seed_source
        self.token_source = token_source
        self.salt_source = salt_source  # a fresh salt for each hidden field's commitment
        self.checkpoint_interval = int(self.env.get(self.CHECKPOINT_INTERVAL) or 100)
        self._cache_size = int(self.env.get(self.HEAD_CACHE_SIZE) or 1000)
        self._heads: OrderedDict[UUID, Frame] = OrderedDict()
        self._frames: OrderedDict[tuple[UUID, int], Frame] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._match_locks: dict[UUID, threading.Lock] = {}
        self._seeds: dict[tuple[UUID, int], str] = {}
        self._card_seeds: dict[tuple[UUID, int], tuple[str | None, str | None]] = {}
        # called after each save with the ids of the matches saved
        self.saved_listeners: list[Callable[[frozenset[UUID]], None]] = []

    def construct_mapper(self) -> Mapper[UUID]:
        return PydanticMapper(transcoder=OrjsonTranscoder())

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Append a match's events. Only events are saved here (never an aggregate):
        eventsourcing's own `save` asks of each object whether it is an aggregate through
        runtime `Protocol` checks, a large share of a small action's CPU."""
        if not all(isinstance(obj, ev.Event) for obj in objs):
            return super().save(*objs, **kwargs)
        processing = ProcessingEvent[UUID]()
        processing.events.extend(objs)
        processing.saved_kwargs.update(kwargs)
        recordings = self._record(processing)
        self._notify(recordings)
        return recordings

    def _notify(self, recordings: Any) -> None:
        if self.saved_listeners:
            saved = frozenset(r.domain_event.originator_id for r in recordings)
            for listener in self.saved_listeners:
                listener(saved)

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

    def _held_head(self, match_id: UUID) -> tuple[Frame, bool]:
        """(the head this process holds, False) without asking the store; when it holds
        none, (the head read from the store, True). A writer appending on a held head
        conditions the append on its version (another process's append makes it fail)."""
        with self._cache_lock:
            cached = self._heads.get(match_id)
        return (cached, False) if cached is not None else (self.head(match_id), True)

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

    # ---- internals -------------------------------------------------------------------

    def _event(self, match_id: UUID, version: int) -> ev.Event:
        return next(iter(self.events_of(match_id, after=version - 1, upto=version)))

    def _dice(self, match_id: UUID, head: Frame) -> DiceSource:
        """Rolls from the current dice seed; shuffles from the card seed (from the dice seed
        for a match created before card seeds). Both mixed with the players' entropy."""
        seed = self._seed(match_id, head)
        rolls: DiceSource = SeededDice(bytes.fromhex(seed), head.entropy) if (
            seed != UNKNOWN_SEED) else UnknownDice()
        if self._cards(match_id, 1)[0] is None:  # a match created before card seeds
            return rolls
        card_seed = self._cards(match_id, head.seed_version)[1]  # None, or unknown: ""
        cards: DiceSource = SeededDice(bytes.fromhex(card_seed), head.entropy) if (
            card_seed) else UnknownCards()
        return MatchDice(rolls, cards)

    def _cards(self, match_id: UUID, version: int) -> tuple[str | None, str | None]:
        """(commitment, seed) of the card seed that the event at `version` holds (the one
        holding a dice seed: `MatchCreated` or a `DiceCommitted`, which carries the card
        seed in force on); (None, None) if it holds none."""
        key = (match_id, version)
        found = self._card_seeds.get(key)
        if found is None:
            holder = cast(ev.MatchCreated | ev.DiceCommitted, self._event(match_id, version))
            found = self._card_seeds[key] = (holder.card_commitment, holder.card_seed)
        return found

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
        try:
            for checkpoint in self.snapshots.get(match_id, lte=version, desc=True, limit=1):
                return cast(Checkpoint, checkpoint).frame()
        except (StaleCheckpoint, UnreadableEvent):
            pass  # an older version's, or unreadable: a cache, so fold from the events
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
