"""How events and checkpoints become stored records, and back (no database code here).

eventsourcing's default mapper rebuilds events without calling their constructor and
ignores `class_version`; ours stores `model_dump(mode="json")` with the class version and,
on load, runs the class's `upcast_vN_vN+1` chain before validating with the constructor.

Nothing is stored that would not load back: each record is decoded and rebuilt before it
is appended, and must equal what was meant (a NaN the encoder would write as null, say,
is refused there). A stored record that cannot load anyway is an `UnreadableEvent` naming
the match and version, not a crash of every surface.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from eventsourcing.utils import get_topic, register_topic, resolve_topic
from pydantic import BaseModel, ConfigDict, ValidationError

from domain.errors import DomainError, InvalidAction
from domain.events.base import Event
from domain.history import Frame, UndoRequest
from domain.state import MatchState


class OrjsonTranscoder(Transcoder):
    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)


def plain_json(mapper: Mapper[Any]) -> bool:
    """Whether stored records are the events' JSON as is (orjson, neither compressed nor
    encrypted), so that a read model may read them without the mapper."""
    return (isinstance(mapper.transcoder, OrjsonTranscoder) and mapper.compressor is None
            and mapper.cipher is None)


class UnreadableEvent(DomainError):
    """A stored event of a match no longer loads (written by a faulty version, or changed
    in the store): that match is unreadable until repaired; every other match is not."""

    status = 409
    title = "Match unreadable"


class UnstorableEvent(InvalidAction):
    """An event would not load back as it was (a value its JSON cannot hold)."""

    title = "Value not storable"


ENVELOPE = ("originator_id", "originator_version")  # stored beside the record, not in it


class PydanticMapper(Mapper[UUID]):
    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        model = cast(BaseModel, domain_event)
        if isinstance(model, Event):  # its JSON as the hash chain made it, if it did
            state = {k: v for k, v in model.as_json().items() if k not in ENVELOPE}
        else:
            state = model.model_dump(mode="json", exclude=set(ENVELOPE))
        state["class_version"] = getattr(type(model), "class_version", 1)
        data = self.transcoder.encode(state)
        self._loads_back(domain_event, data)
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(model)),
            state=data,
        )

    def _loads_back(self, model: Any, data: bytes) -> None:
        """Refuse a record that would not load back equal to `model`."""
        name = type(model).__name__
        try:
            state = self.transcoder.decode(data)
            state.pop("class_version", None)
            again = type(model)(originator_id=model.originator_id,
                                originator_version=model.originator_version,
                                **state)
        except (ValidationError, ValueError, TypeError) as error:
            raise UnstorableEvent(f"{name} would not load back: {_first_error(error)}",
                                  rule="core-store") from None
        if again != model:
            changed = sorted(k for k in type(model).model_fields
                             if getattr(again, k) != getattr(model, k))
            raise UnstorableEvent(f"{name} would not load back as it was (field(s): "
                                  f"{', '.join(changed)}); numbers must be finite",
                                  rule="core-store")

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        try:
            return self._to_domain_event(stored_event)
        except (ValidationError, ValueError, TypeError, KeyError, AttributeError) as error:
            raise UnreadableEvent(
                f"match {stored_event.originator_id}: the stored event at version "
                f"{stored_event.originator_version} ({stored_event.topic.rpartition(':')[2]}) "
                f"does not load: {_first_error(error)}", rule="core-store") from None

    def _to_domain_event(self, stored_event: StoredEvent) -> Any:
        cls = resolve_topic(stored_event.topic)
        data = stored_event.state
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        state: dict[str, Any] = self.transcoder.decode(data)
        version = state.pop("class_version", 1)
        while version < getattr(cls, "class_version", 1):
            upcast = getattr(cls, f"upcast_v{version}_v{version + 1}")
            state = upcast(state) or state
            version += 1
        return cls(
            originator_id=stored_event.originator_id,
            originator_version=stored_event.originator_version,
            **state,
        )


def _first_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        return f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
    return str(error)


class StaleCheckpoint(Exception):
    """A stored checkpoint of an older `Checkpoint.class_version`: its state would not be what
    the events fold to now, so the reader drops it and folds from the events instead."""


class Checkpoint(BaseModel):
    """A stored `Frame` (state plus log facts) at a version: a cache, safe to drop.

    A change to what the state keeps bumps `class_version`; an older checkpoint is not
    upcast but refused (`StaleCheckpoint`), and the state is rebuilt from the events."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # The topic checkpoints are stored under (eventsourcing's `get_topic` reads `TOPIC`): the
    # one of the module that held this class before domain/ became packages, so that stored
    # checkpoints load, and a process of either version reads the other's.
    TOPIC: ClassVar[str] = "domain.persistence:Checkpoint"
    # 2: `MatchState.discarded` (cards discarded face down) apart from `discards` (played);
    # 3: the groups activated this turn are named with their side (`group:<side>:<name>`),
    # and the HQs declared in an operation are noted (`operation:<hq>`);
    # 4: the facts of this run of this step (`MatchState.this_step`), which duties read
    class_version: ClassVar[int] = 4

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
        raise StaleCheckpoint("a version 1 checkpoint keeps discarded and played cards in "
                              "one pile")

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> dict[str, Any]:
        raise StaleCheckpoint("a version 2 checkpoint names the groups activated this turn "
                              "without their side and notes no HQ in an operation")

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> dict[str, Any]:
        raise StaleCheckpoint("a version 3 checkpoint keeps no facts of the step under way "
                              "(the moves, rallies, rolls and attacks its duties read)")

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    state: MatchState
    seats: tuple[tuple[str | None, str], ...]
    server_rolls: int
    redo: tuple[int, ...]
    tokens: tuple[tuple[str, str], ...] = ()
    requests: tuple[tuple[str, str, int, int], ...] = ()
    chain_head: str = ""
    entropy: tuple[str, ...] = ()
    seed_version: int = 1
    undo_request: tuple[int, int, str, int, tuple[str, ...]] | None = None

    @classmethod
    def of(cls, match_id: UUID, frame: Frame, now: datetime) -> Checkpoint:
        return cls(originator_id=match_id, originator_version=frame.version, timestamp=now,
                   state=frame.state, seats=frame.seats, server_rolls=frame.server_rolls,
                   redo=frame.redo, tokens=frame.tokens, requests=frame.requests,
                   chain_head=frame.chain_head, entropy=frame.entropy,
                   seed_version=frame.seed_version, undo_request=None if (
                       request := frame.undo_request) is None else (
                       request.version, request.to, request.by, request.resulting_turn,
                       request.accepted))

    def frame(self) -> Frame:
        return Frame(version=self.originator_version, state=self.state, seats=self.seats,
                     server_rolls=self.server_rolls, redo=self.redo,
                     checkpoint=self.originator_version, tokens=self.tokens,
                     requests=self.requests, chain_head=self.chain_head, entropy=self.entropy,
                     seed_version=self.seed_version,
                     undo_request=None if self.undo_request is None else UndoRequest(
                         *self.undo_request))


register_topic(Checkpoint.TOPIC, Checkpoint)  # the stored topic resolves to this class
