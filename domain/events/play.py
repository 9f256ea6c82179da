"""What happens on the table: units deployed, moved, split, rallied, removed; markers,
dice and results; tracks and victory points; the turn marker; reinforcements, combats and
operations declared."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from domain.events.base import Event
from domain.state import Box, Name, Position, TrackValue, TurnMarker, Unit


class UnitDeployed(Event):
    unit: Unit


class UnitMoved(Event):
    unit_id: Name
    origin: Position | None = None  # None: from no position (off the map)
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
    faces (`declared` names this version). A referee's ruling that orders a roll made again
    declares it for the roll's owner: `replaces` names the roll, and its `modifier` and
    `awaits` carry over (None: the notation's modifier, no result to read)."""

    class_version: ClassVar[int] = 2  # 2: `replaces`, `modifier`, `awaits`

    notation: str
    purpose: str
    unit_ids: tuple[Name, ...] = ()
    success: str | None = None
    replaces: int | None = None
    modifier: int | None = None
    awaits: str | None = None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "replaces": None, "modifier": None, "awaits": None}


class DiceRolled(Event):
    class_version: ClassVar[int] = 4  # 2: `awaits`; 3: `declared`, `success`; 4: `replaces`

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
    # The roll a referee's ruling ordered made again (its version): this one takes its place
    # in the effective history (the dice log, the statistics).
    replaces: int | None = None

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "awaits": None}

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "declared": None, "success": None}

    @staticmethod
    def upcast_v3_v4(state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "replaces": None}


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


# `by`: who said the done when it was not the seat's tap: "standing_pass" (issue 26: the
# seat's standing pass recorded it for it, domain.acting.standing); None, a tap. (None is
# left out of the line and its hash, so the events recorded before it read the same.)
ByStandingPass = Literal["standing_pass"] | None


class PhaseAdvanced(Event):
    origin: str
    marker: TurnMarker
    by: ByStandingPass = None


class TurnAdvanced(Event):
    marker: TurnMarker
    by: ByStandingPass = None


class SideDone(Event):
    """In a step where every side acts (`Step.shared`), a side has said it is done; the
    marker moves on when the last side says so."""

    side: Name
    step: str
    by: ByStandingPass = None


class StandingPassStarted(Event):
    """A side passes its optional moves until it must act, for the rest of this turn (issue
    26): its done is recorded for it where it could only act optionally."""

    side: Name


class StandingPassEnded(Event):
    """A side's standing pass ends before the turn does: `why` is "cancelled" (the side, or
    the referee, stopped it) or "refused" (a done it would have said was refused: `reason`,
    in words, and the side must act). The end of the turn ends every pass without an event."""

    side: Name
    why: Literal["cancelled", "refused"]
    reason: str = ""


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
