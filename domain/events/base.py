"""The envelope every domain event carries, and who may see what of it (`Event`).

Every event carries the envelope eventsourcing needs (`originator_id`, `originator_version`,
`timestamp`) and ours: the `actor` (the seat that caused it), the `command_id` it came
from, the `rule` that produced it (if any) and the `turn` in which it happened. The events
themselves are in `domain.events.match`, `domain.events.play`, `domain.events.cards` and
`domain.events.clock`; `domain.events` names them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, cast
from uuid import UUID

from pydantic import BaseModel, ConfigDict, field_validator

from domain.events.commitments import commitment_to
from domain.events.record_plan import RecordPlan

# (ours) The times an event may carry: from the Unix epoch to the year 3000, with a UTC
# offset. Every reader of a log (Python's datetime, JavaScript's Date, PostgreSQL) holds
# them, and the clock's arithmetic (a flag moment days or years after an event) stays far
# from the last moment Python can hold. A stored event outside it does not load: its match
# answers 409 (unreadable) and every other match goes on.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)


def usable_time(value: datetime) -> datetime:
    """`value` when an event may carry it (above), else a ValueError saying why."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("an event's time needs a UTC offset")
    if not EARLIEST <= value < LATEST:
        raise ValueError(f"an event's time must lie from {EARLIEST:%Y-%m-%d} to before "
                         f"{LATEST:%Y-%m-%d}, not {value.isoformat()}")
    return value


NOBODY = ""  # a viewer who holds no seat: shown only what every seat is shown
# The salts of an event's secret fields (field -> hex), drawn by the application
# (`domain.integrity.salted`); None on events recorded before commitments.
Salts = dict[str, str] | None


def sees_private(viewer: str, owner: str) -> bool:
    """Whether seat `viewer` sees what is private to seat `owner` (its own and the referee)."""
    return viewer in ("referee", owner)


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    # The event's JSON once made (`keep_json`), shared by the hash chain, the stored record
    # and the answer of the action that made it. A slot, not a field or a private
    # attribute: equality, copies (`model_copy`) and pickles leave it out.
    __slots__ = ("_json",)
    class_version: ClassVar[int] = 1
    private_fields: ClassVar[frozenset[str]] = frozenset()
    # Fields only their owner and the referee see (a hand, a deck's order, a private
    # note): the seat named by the field `secret_owner` (None: the referee alone), and only
    # while the field `secret_when` (if any) is true. The hash covers a commitment to each
    # (`domain.events.commitments`), under a salt of its own kept in the event's `salts`.
    secret_fields: ClassVar[frozenset[str]] = frozenset()
    secret_owner: ClassVar[str | None] = None
    secret_when: ClassVar[str | None] = None

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    command_id: str | None = None
    rule: str | None = None
    turn: int = 0
    # The hash chain (domain.integrity): the previous event's hash and this one's. Empty on
    # events recorded before the chain existed.
    prev_hash: str = ""
    hash: str = ""

    @field_validator("timestamp")
    @classmethod
    def _usable(cls, value: datetime) -> datetime:
        return usable_time(value)

    @property
    def version(self) -> int:
        return self.originator_version

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__

    def hidden_from(self, viewer: str) -> set[str]:
        """The fields `viewer` (a seat) may not see: the one place visibility is decided.
        `private_fields` are seen by nobody; `secret_fields` (those holding a value) by
        their owner and the referee only (`secret_from`)."""
        decided_by = {k: getattr(self, k) for k in (self.secret_owner, self.secret_when) if k}
        return set(self.private_fields) | {f for f in self.secret_from(viewer, decided_by)
                                           if getattr(self, f) is not None}

    @classmethod
    def secret_from(cls, viewer: str, values: Mapping[str, Any]) -> frozenset[str]:
        """The `secret_fields` seat `viewer` may not see, decided by the event's public
        `values` (its fields, or its line in an export: `domain.integrity.verify` asks the
        same question of a file): none for the referee, for the seat the field
        `secret_owner` names, or while the field `secret_when` is false; else all."""
        if viewer == "referee" or not cls.secret_fields or (
                cls.secret_when is not None and not values.get(cls.secret_when)) or (
                cls.secret_owner is not None and values.get(cls.secret_owner) == viewer):
            return frozenset()
        return cls.secret_fields

    def committed_fields(self) -> set[str]:
        """The fields some seat may not see: the hash covers a commitment to each."""
        return self.hidden_from(NOBODY) - set(self.private_fields)

    def as_json(self) -> dict[str, Any]:
        """Every field as JSON (`model_dump(mode="json")`): the dict `keep_json` kept, if
        it did (then the same dict each time: read it, never change it), else made now."""
        try:
            return cast(dict[str, Any], object.__getattribute__(self, "_json"))
        except AttributeError:
            return self.model_dump(mode="json")

    def keep_json(self, dumped: dict[str, Any]) -> None:
        """Keep `dumped`, this event's `model_dump(mode="json")`, for `as_json` and `public`:
        an event just decided is dumped once for its hash, its stored record and the
        answer that tells it (`domain.integrity.chained`)."""
        object.__setattr__(self, "_json", dumped)

    def public(self, viewer: str = "") -> dict[str, Any]:
        """The event as `viewer` may see it on any surface: JSON-ready, hidden fields left
        out (and named in `hidden`). An event with salts carries the commitment to each
        secret field (`commitments`), and the salt of each field `viewer` is shown
        (`salts`), never of one it is not."""
        hidden = self.hidden_from(viewer)
        full = self.as_json()
        body = {k: v for k, v in full.items() if k not in hidden and k != "salts"}
        salts = full.get("salts")
        if salts:
            body["commitments"] = {f: commitment_to(salt, full.get(f))
                                   for f, salt in salts.items()}
            shown_salts = {f: salt for f, salt in salts.items() if f not in hidden}
            if shown_salts:
                body["salts"] = shown_salts
        shown = hidden - set(self.private_fields)
        if shown:
            body["hidden"] = sorted(shown)
        body.pop("originator_id")
        version = body.pop("originator_version")
        return {"version": version, "type": self.type_name(), **body}

    @classmethod
    def record_plan(cls) -> RecordPlan | None:
        """How `public(viewer)` is made from this class's stored record (the mapper's
        `model_dump(mode="json")` plus `class_version`) without building the model: the
        export's fast path. None where only the model can tell: visibility that depends on
        the event's values (a class with secret fields or salts, or overriding
        `hidden_from`, `public` or `type_name`), or a field named like the line's own keys."""
        if cls not in _RECORD_PLANS:
            _RECORD_PLANS[cls] = RecordPlan.of(cls, cls.class_version, cls.private_fields) if (
                not cls.secret_fields and "salts" not in cls.model_fields
                and cls.hidden_from is Event.hidden_from and cls.public is Event.public
                and cls.type_name.__func__ is Event.type_name.__func__  # type: ignore[attr-defined]
            ) else None
        return _RECORD_PLANS[cls]


_RECORD_PLANS: dict[type[Event], RecordPlan | None] = {}
