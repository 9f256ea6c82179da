"""Domain events: immutable facts, past tense, frozen pydantic, `extra="forbid"`.

Every event carries the envelope eventsourcing needs (`originator_id`, `originator_version`,
`timestamp`) and ours: the `actor` (the seat that caused it), the `command_id` it came
from, the `rule` that produced it (if any) and the `turn` in which it happened.

Schema changes bump `class_version` and add `upcast_vN_vN+1(state: dict)` static methods;
`domain.persistence.PydanticMapper` runs the chain when an old event is loaded.
Fields listed in `private_fields` are never shown on a public surface.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.record_plan import RecordPlan
from domain.state import Box, Name, Position, Side, TrackValue, TurnMarker, Unit


def sees_private(viewer: str, owner: str) -> bool:
    """Whether seat `viewer` sees what is private to seat `owner` (its own and the referee)."""
    return viewer in ("referee", owner)


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    class_version: ClassVar[int] = 1
    private_fields: ClassVar[frozenset[str]] = frozenset()

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

    @property
    def version(self) -> int:
        return self.originator_version

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__

    def hidden_from(self, viewer: str) -> set[str]:
        """The fields `viewer` (a seat) may not see: the one place visibility is decided.
        `private_fields` are seen by nobody; an event may hide more from some seats."""
        return set(self.private_fields)

    def public(self, viewer: str = "") -> dict[str, Any]:
        """The event as `viewer` may see it on any surface: JSON-ready, hidden fields left
        out (and named in `hidden`)."""
        hidden = self.hidden_from(viewer)
        body = self.model_dump(mode="json", exclude=hidden)
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
        the event's values (a class overriding `hidden_from`, `public` or `type_name`), or a
        field named like the line's own keys."""
        if cls not in _RECORD_PLANS:
            _RECORD_PLANS[cls] = RecordPlan.of(cls, Event)
        return _RECORD_PLANS[cls]


_RECORD_PLANS: dict[type[Event], RecordPlan | None] = {}


class MatchCreated(Event):
    ruleset: str
    ruleset_version: int
    scenario: str
    sides: tuple[Side, ...]
    casual: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    dice_commitment: str  # SHA-256 of the dice seed, hex
    dice_seed: str  # secret until revealed (issue: verifiable dice); never shown
    token_hashes: dict[str, str] = Field(default_factory=dict)  # seat -> SHA-256 of its token
    # The scenario's set-up: units on the table and each side's deck as listed (the match
    # starts with each deck dealt in an order drawn from the card seed: `domain.evolve`).
    units: tuple[Unit, ...] = ()
    decks: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # A what-if fork: the match and version it was forked from, and how many events after
    # this one were copied from there (their server rolls are the origin's to verify).
    forked_from: UUID | None = None
    forked_at: int | None = None
    inherited_events: int | None = None
    # The card seed (ours): decks are dealt and shuffled from a secret of their own, so that
    # revealing the dice seed mid-match discloses no hand and no deck order. Its SHA-256 is
    # public; the seed is revealed when the match ends (`DiceSeedRevealed.card_seed`).
    # None on matches created before it: their decks come from the dice seed.
    card_commitment: str | None = None
    card_seed: str | None = None  # secret until the match ends; never shown
    # A fork's decks in the order its origin dealt them (the fork's own card seed deals
    # nothing): the referee's to see, like every side's cards.
    dealt: dict[str, tuple[str, ...]] | None = None
    private_fields: ClassVar[frozenset[str]] = frozenset(
        {"dice_seed", "token_hashes", "card_seed"})

    def hidden_from(self, viewer: str) -> set[str]:
        hidden = super().hidden_from(viewer)
        if self.dealt is not None and viewer != "referee":
            hidden.add("dealt")
        return hidden


class SeatJoined(Event):
    side: Name | None  # None: the referee seat
    player: str
    entropy: str | None = None  # the player's contribution to the server dice (public)


class DiceSeedRevealed(Event):
    """The seed of the server dice so far, matching `dice_commitment`: when the match ends,
    or earlier when the referee reveals it to settle a dispute (a `DiceCommitted` follows).
    When the match ends, the card seed too (`card_seed`, matching the `card_commitment` in
    force); never earlier, so that no hand or deck order is disclosed mid-match."""

    seed: str  # hex
    dice_commitment: str
    card_seed: str | None = None  # hex
    card_commitment: str | None = None


class DiceCommitted(Event):
    """A fresh secret seed for the rest of the match; only its SHA-256 is shown. It holds
    the card seed in force from here on too (`card_commitment`; the seed is never shown):
    the same one after a mid-match reveal of the dice seed, a fresh one after the end
    revealed it; None for a match created before card seeds."""

    dice_commitment: str
    dice_seed: str
    card_commitment: str | None = None
    card_seed: str | None = None
    private_fields: ClassVar[frozenset[str]] = frozenset({"dice_seed", "card_seed"})


class SeatTokenIssued(Event):
    """A bearer token for `seat` (`referee`, `spectator`, a side id, or `join:<side>`); only
    its SHA-256 is kept, and even that is never shown."""

    seat: str
    token_hash: str
    private_fields: ClassVar[frozenset[str]] = frozenset({"token_hash"})


class SeatTokenRevoked(Event):
    seat: str
    token_hash: str
    private_fields: ClassVar[frozenset[str]] = frozenset({"token_hash"})


class UnitDeployed(Event):
    unit: Unit


class UnitMoved(Event):
    unit_id: Name
    origin: Position | None
    to: Position


class UnitStatusChanged(Event):
    unit_id: Name
    set: tuple[str, ...] = ()
    cleared: tuple[str, ...] = ()


class MarkerPlaced(Event):
    kind: str
    count: int
    unit_id: Name | None = None
    location: str | None = None


class MarkerRemoved(Event):
    kind: str
    count: int
    unit_id: Name | None = None
    location: str | None = None


class RollDeclared(Event):
    """Table dice declared before they are thrown: what for, which units, the notation and
    the success condition, fixed before the result exists; `DiceRolled` follows with the
    faces (`declared` names this version)."""

    notation: str
    purpose: str
    unit_ids: tuple[Name, ...] = ()
    success: str | None = None


class DiceRolled(Event):
    class_version: ClassVar[int] = 3  # 2: `awaits`; 3: `declared`, `success`

    notation: str
    dice: tuple[int, ...]
    modifier: int
    total: int
    purpose: str
    source: Literal["server", "table"]
    roll_index: int | None = None  # server rolls: the index the result was derived from
    unit_ids: tuple[Name, ...] = ()
    # The roll's outcome is read by the players from a table the service does not hold: the
    # match waits for `ResultRecorded` (WC-6 Activation Table, NO-2 Combat Results Table).
    awaits: str | None = None
    declared: int | None = None  # table dice: the version of their `RollDeclared`
    success: str | None = None  # the success condition, as declared

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "awaits": None}

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "declared": None, "success": None}


class UnitSplit(Event):
    unit_id: Name
    new_unit: Unit  # takes its figures and markers from the parent


class UnitRallied(Event):
    unit_id: Name
    cleared: tuple[str, ...] = ()
    markers_removed: dict[str, int] = Field(default_factory=dict)


class UnitRemoved(Event):
    unit_id: Name
    reason: Literal["destroyed", "eliminated", "surrendered", "withdrawn", "casualty"]
    to_box: Box = "eliminated"


class TrackSet(Event):
    name: Name
    value: TrackValue


class VictoryPointsScored(Event):
    side: Name
    points: int
    reason: str = ""


class PhaseAdvanced(Event):
    origin: str
    marker: TurnMarker


class TurnAdvanced(Event):
    marker: TurnMarker


class SideDone(Event):
    """In a step where every side acts (`Step.shared`), a side has said it is done; the
    marker moves on when the last side says so."""

    side: Name
    step: str


class NoteAdded(Event):
    """A note on the match, or on one version of it. A private note is for its author and
    the referee only (the referee's notes, a player's own reminders)."""

    text: str
    about_version: int | None = None
    private: bool = False

    def hidden_from(self, viewer: str) -> set[str]:
        hidden = super().hidden_from(viewer)
        if self.private and not sees_private(viewer, self.actor):
            hidden.add("text")
        return hidden


class ActionsUndone(Event):
    """The effective state becomes the state after version `to`. `requested_by`: the side
    whose undo request this makes (accepted by the others or forced by the referee)."""

    to: int
    resulting_turn: int
    requested_by: Name | None = None


class ActionsRedone(Event):
    """Reverses the undo at version `reverses`: the state becomes the one after `to`
    (the version just before that undo)."""

    to: int
    reverses: int
    resulting_turn: int


class DisputeOpened(Event):
    """A dispute ticket about event `about_version` (or the range up to `upto_version`)."""

    about_version: int
    upto_version: int | None = None
    text: str


class DisputeRuled(Event):
    """The referee's ruling on the dispute opened at version `dispute`. `order`: `none`, an
    `undo` back to version `to` (the `ActionsUndone` follows), a `reroll` of the disputed
    roll (the players roll again: the next roll index), or a `fork` at version `to` (a new
    match, `fork`, whose history is this one's up to there)."""

    dispute: int
    ruling: str
    order: Literal["none", "undo", "reroll", "fork"] = "none"
    to: int | None = None
    fork: UUID | None = None


class UndoRequested(Event):
    """The actor asks to undo back to version `to`, across a barrier (a die roll, private
    information revealed, another seat's action): the other sides must accept."""

    to: int
    resulting_turn: int


class UndoAccepted(Event):
    """The actor (another side, or the referee, who forces it) accepts the pending undo."""

    request: int  # the version of the `UndoRequested`


class UndoDeclined(Event):
    """The actor (another side, or the referee, who refuses it) declines the pending undo."""

    request: int
    reason: str = ""


class _CardEvent(Event):
    """An event about one side's cards; its `secret_fields` are for that side and the referee."""

    side: Name
    secret_fields: ClassVar[frozenset[str]] = frozenset()

    def hidden_from(self, viewer: str) -> set[str]:
        hidden = super().hidden_from(viewer)
        if not sees_private(viewer, self.side):
            hidden |= self.secret_fields
        return hidden


class UnitsActivated(Event):
    """`side` activates units (AA-1: one unit; BG-7: a battlegroup, `group`, with the
    auxiliary squads declared with it) in run `run` of the activation phase."""

    side: Name
    unit_ids: tuple[Name, ...]
    group: Name | None = None
    run: int = 0


class InitiativeRolled(Event):
    """BG-2..BG-4: one initiative roll for `dice` (side -> natural roll), with the CV added;
    `ranking` is the order after it, best first, tied sides still grouped."""

    dice: dict[Name, int]
    cv: dict[Name, int]
    source: Literal["server", "table"]
    roll_index: int | None = None
    ranking: tuple[tuple[Name, ...], ...]


class InitiativePassed(Event):
    """BG-5: the winner hands first place to the second-placed player."""

    side: Name
    to: Name
    order: tuple[Name, ...]


class CardsDrawn(_CardEvent):
    cards: tuple[str, ...]
    count: int
    secret_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


class CardsDiscarded(_CardEvent):
    """Cards leave the hand unseen (BG-6: unwanted Command Cards)."""

    cards: tuple[str, ...]
    count: int
    secret_fields: ClassVar[frozenset[str]] = frozenset({"cards"})


class CardPlayed(_CardEvent):
    card: str


class DeckShuffled(_CardEvent):
    """AA-8: every card of `side` (deck, hand, played) collected and shuffled with the
    server's dice; the order is for the owner and the referee."""

    order: tuple[str, ...]
    roll_index: int
    secret_fields: ClassVar[frozenset[str]] = frozenset({"order"})


class DeckCut(_CardEvent):
    """AA-8: `by` cuts `side`'s deck: the top `at` cards go to the bottom."""

    by: Name
    at: int


class ResultRecorded(Event):
    """The outcome of a roll: read by the players from their own table (the roll the match
    waited on, `DiceRolled.awaits`), or worked out by the service (WC-8: how many moves)."""

    of: str
    result: str
    failed: bool = False


class ReinforcementsAnnounced(Event):
    """ES-1: `side` names units about to arrive and their entry point."""

    side: Name
    unit_ids: tuple[Name, ...]
    entry: str


class CombatDeclared(Event):
    """NO-2: an attack's odds and modifiers, fixed before its roll."""

    attackers: tuple[Name, ...]
    defenders: tuple[Name, ...]
    odds: str
    modifiers: dict[str, int] = Field(default_factory=dict)


class OperationDeclared(Event):
    """NO-1: `side`'s operations (the HQs that flip); `order` is this turn's player-turn
    order (NO-5); `carpet_bombing` the Allied carpet-bombing target, if announced."""

    side: Name
    hqs: tuple[Name, ...] = ()
    order: tuple[Name, ...]
    carpet_bombing: str | None = None


class StepLost(Event):
    unit_id: Name
    steps: int  # the steps left


class StepGained(Event):
    unit_id: Name
    steps: int  # the steps it now has


class MatchEnded(Event):
    winner: Name | None  # None: a tie
    reason: str = ""


class MatchEndProposed(Event):
    """A side proposes (or agrees to) ending the match with this outcome; the match ends
    when every side has proposed the same."""

    winner: Name | None  # None: a tie
    reason: str = ""


class MatchReopened(Event):
    """The referee reopens an ended match (play goes on, or an undo across the end)."""

    reason: str = ""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        MatchCreated, SeatJoined, SeatTokenIssued, SeatTokenRevoked, UnitDeployed, UnitMoved,
        UnitStatusChanged, MarkerPlaced,
        MarkerRemoved, DiceRolled, UnitSplit, UnitRallied, UnitRemoved, TrackSet,
        VictoryPointsScored, PhaseAdvanced, TurnAdvanced, SideDone, NoteAdded, ActionsUndone,
        ActionsRedone, MatchEnded, MatchEndProposed, MatchReopened, UnitsActivated,
        InitiativeRolled, InitiativePassed,
        CardsDrawn, CardsDiscarded, CardPlayed, DeckShuffled, DeckCut, ResultRecorded,
        ReinforcementsAnnounced, CombatDeclared, OperationDeclared, StepLost, StepGained,
        DiceSeedRevealed, DiceCommitted, UndoRequested, UndoAccepted, UndoDeclined,
        DisputeOpened, DisputeRuled, RollDeclared,
    )
}

# Facts about the match's seats, dice and disputes, not its game: undo never takes them back
# (domain.history), and a fork does not copy them.
SEAT_EVENTS: tuple[type[Event], ...] = (SeatJoined, SeatTokenIssued, SeatTokenRevoked,
                                        DiceSeedRevealed, DiceCommitted, DisputeOpened,
                                        DisputeRuled)
# The undo consent protocol: not game actions, and no barrier to an undo.
UNDO_PROTOCOL: tuple[type[Event], ...] = (UndoRequested, UndoAccepted, UndoDeclined)
# What an undo cannot cross without the other sides' consent (besides another seat's
# action): dice rolled, cards seen or shown, the dice seed revealed.
UNDO_BARRIERS: tuple[type[Event], ...] = (
    DiceRolled, InitiativeRolled, DeckShuffled, DeckCut, CardsDrawn, CardPlayed,
    DiceSeedRevealed, DiceCommitted)
