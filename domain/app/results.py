"""What the use cases share and give back: `Result` (the new head and the events appended),
bearer tokens and the seat a token opens, request digests for idempotency, the refusals of a
reused key and of a concurrent update, the envelopes of events a use case makes itself, and
what ends when a side's seat changes hands (`seat_ended`).
`domain.app.usecases` uses them; the API and the copies' use cases import them from there."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.context import Context
from domain.errors import InvalidAction, VersionConflict
from domain.history import Frame


@dataclass(frozen=True)
class Result:
    """What a use case did: the new head and the events it appended (for a repeated
    idempotent request: the events the first one appended, `replayed` set)."""

    frame: Frame
    events: list[ev.Event]
    tokens: dict[str, str] = field(default_factory=dict)  # seat -> new bearer token
    replayed: bool = False
    verified: dict[str, Any] | None = None  # an import: what its file's check found


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(head: Frame, token: str) -> str | None:
    """The seat a bearer token opens at this head, or None. Compared in constant time
    against every live token's hash."""
    wanted = token_hash(token)
    seat = None
    for hashed, owner in head.tokens:
        if hmac.compare_digest(hashed, wanted):
            seat = owner
    return seat


def request_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class IdempotencyKeyReused(InvalidAction):
    """The same Idempotency-Key came back with a different request."""

    title = "Idempotency key reused"


class _Replayed(Exception):  # not an error: the answer to a repeated request
    """A repeated idempotent request: its first answer, found while deciding."""

    def __init__(self, result: Result) -> None:
        self.result = result


class ConcurrencyConflict(VersionConflict):
    status = 409
    title = "Concurrent update"


SPECTATOR = "spectator"
JOIN = "join:"


def envelopes(head: Frame, context: Context) -> Callable[[], dict[str, Any]]:
    """Envelopes for events a use case makes itself, numbered on from the head."""
    counter = iter(range(head.version + 1, head.version + 1000))
    return lambda: {"originator_id": context.match_id, "originator_version": next(counter),
                    "timestamp": context.now, "actor": context.actor,
                    "command_id": context.command_id, "turn": head.state.turn.turn}


def seat_ended(head: Frame, stamp: Callable[[], dict[str, Any]], side: str,
               why: str) -> list[ev.Event]:
    """What ends when `side`'s seat changes hands (a reissue, or a join with a reissued
    link): every token of the side and its join link, and its standing pass (its next
    holder chooses its own), `why` said. The notifier ends the seat's registrations on
    the revocations and the new token's issue."""
    events: list[ev.Event] = [
        ev.SeatTokenRevoked(**stamp(), seat=owner, token_hash=hashed)
        for hashed, owner in head.tokens if owner in (side, f"{JOIN}{side}")]
    if side in head.state.passing:
        events.append(ev.StandingPassEnded(**stamp(), side=side, why="cancelled", reason=why,
                                           rule="core-seats"))
    return events
