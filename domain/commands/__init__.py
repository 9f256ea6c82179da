"""The actions a seat can ask for: a discriminated union on `type`.

Commands carry only what the player chooses; `domain.decide` validates them against the
state and the ruleset and turns them into events. Limits on sizes are part of the schema
so that hostile input is refused before it reaches the domain.

The package owns every command: this module the table's actions and the `Action` union
(and names every command, so `from domain.commands import X` serves them all); `base` what
commands are made of (the base class, the checked types of client values); `units` a unit
in a command; `match` creating a match (`CreateMatch`, size limits); `game` the game
systems' own procedures; `clock` the referee's clock; `annotations` notes on a match. It
may import `domain.state` and `domain.events` (a clock's time control), nothing that
decides or stores.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    StrictBool,
    model_validator,
)

from domain.commands.base import (
    MAX_INT,
    SAFE_INT,
    Command,
    Count,
    Flags,
    Id,
    Int,
    Short,
    Text,
    Value,
)
from domain.commands.clock import AdjustClock, PauseClock, ResumeClock, StartClock
from domain.commands.game import (
    ActivateBattlegroup,
    ActivateUnit,
    AnnounceReinforcements,
    CallArtillery,
    CutDeck,
    DeclareOperation,
    DiscardCards,
    DrawCards,
    EnterResult,
    Fire,
    PassInitiative,
    PlayCard,
    ResolveCombat,
    RollInitiative,
    RollMorale,
    RuleRoll,
    SetSupply,
    ShuffleDeck,
)
from domain.commands.match import (
    FEWEST_SIDES,
    MOST_SIDES,
    UNITS_IN_ALL,
    UNITS_PER_SIDE,
    CreateMatch,
    SideSpec,
    past_size_limits,
)
from domain.commands.units import NewUnit, UnitSpec
from domain.state import Box, Position

__all__ = [
    "ACTION_TYPES",
    "FEWEST_SIDES",
    "MAX_INT",
    "MOST_SIDES",
    "SAFE_INT",
    "UNITS_IN_ALL",
    "UNITS_PER_SIDE",
    "Action",
    "ActivateBattlegroup",
    "ActivateUnit",
    "AddNote",
    "Advance",
    "AnnounceReinforcements",
    "CallArtillery",
    "Command",
    "Count",
    "CreateMatch",
    "CutDeck",
    "DeclareOperation",
    "DeployUnit",
    "DiscardCards",
    "DrawCards",
    "EndMatch",
    "EnterResult",
    "Fire",
    "Flags",
    "GainStep",
    "Id",
    "Int",
    "LoseStep",
    "MoveUnit",
    "NewUnit",
    "OpenDispute",
    "PassInitiative",
    "PlaceMarker",
    "PlayCard",
    "RallyUnit",
    "RecordRoll",
    "RemoveMarker",
    "RemoveUnit",
    "ResolveCombat",
    "RollDice",
    "RollInitiative",
    "RollMorale",
    "RuleRoll",
    "ScoreVP",
    "SetStatus",
    "SetSupply",
    "SetTrack",
    "Short",
    "ShuffleDeck",
    "SideSpec",
    "SplitUnit",
    "StandingPass",
    "Text",
    "UnitSpec",
    "Value",
    "past_size_limits",
]


class DeployUnit(Command):
    type: Literal["deploy_unit"] = "deploy_unit"
    unit: NewUnit


class MoveUnit(Command):
    type: Literal["move_unit"] = "move_unit"
    unit_id: Id
    to: Position


class SetStatus(Command):
    type: Literal["set_status"] = "set_status"
    unit_id: Id
    set: Flags = Field(default_factory=list)
    clear: Flags = Field(default_factory=list)


class PlaceMarker(Command):
    """A marker on a unit (`unit_id`) or at a location (`location`: a hex, a box, `x,y`)."""

    type: Literal["place_marker"] = "place_marker"
    kind: Short
    count: Count = 1
    unit_id: Id | None = None
    location: Short | None = None


class RemoveMarker(Command):
    type: Literal["remove_marker"] = "remove_marker"
    kind: Short
    count: Count = 1
    unit_id: Id | None = None
    location: Short | None = None


class RollDice(Command):
    """Roll with the server's dice (`source: server`) or record physical dice (`table`):
    declared first, then thrown. With `results` (one per die, before any modifier) both are
    recorded at once; without, the roll is only declared and `record_roll` gives the dice.
    `success` states the success condition before the result exists (e.g. `total >= 7`)."""

    type: Literal["roll_dice"] = "roll_dice"
    notation: Annotated[str, Field(min_length=2, max_length=16)]
    purpose: Annotated[str, Field(min_length=1, max_length=200)]
    rule: Short | None = None
    unit_ids: Annotated[list[Id], Field(max_length=32)] = Field(default_factory=list)
    source: Literal["server", "table"] = "server"
    results: Annotated[list[Int], Field(max_length=100)] | None = None
    success: Annotated[str, Field(min_length=1, max_length=200)] | None = None


class RecordRoll(Command):
    """The faces of the table dice declared last (one per die, before any modifier)."""

    type: Literal["record_roll"] = "record_roll"
    results: Annotated[list[Int], Field(min_length=1, max_length=100)]


class SplitUnit(Command):
    """Split `figures` figures (and the given markers) off `unit_id` into a new unit, whose
    id is `new_unit_id` or, left out, one the service makes (`<unit_id>-2`, ...).
    Where the ruleset divides the unit itself (AA-3), leave out `figures` and `markers` and
    say with `odd_to` which half (`first`: the unit, `second`: the new one) takes an odd
    marker of each kind."""

    type: Literal["split_unit"] = "split_unit"
    unit_id: Id
    new_unit_id: Id | None = None
    figures: Annotated[Int, Field(ge=1, le=10_000)] | None = None
    markers: Annotated[dict[Short, Count], Field(max_length=32)] = Field(default_factory=dict)
    odd_to: Annotated[dict[Short, Literal["first", "second"]], Field(max_length=32)] = Field(
        default_factory=dict)
    position: Position | None = None


class RallyUnit(Command):
    type: Literal["rally_unit"] = "rally_unit"
    unit_id: Id
    clear: Flags = Field(default_factory=lambda: ["broken", "routed"])
    remove_markers: Annotated[dict[Short, Count], Field(max_length=32)] = Field(
        default_factory=dict
    )


class RemoveUnit(Command):
    type: Literal["remove_unit"] = "remove_unit"
    unit_id: Id
    reason: Literal["destroyed", "eliminated", "surrendered", "withdrawn", "casualty"]
    to_box: Box = "eliminated"


class SetTrack(Command):
    type: Literal["set_track"] = "set_track"
    name: Id
    value: Value


class ScoreVP(Command):
    type: Literal["score_vp"] = "score_vp"
    side: Id
    points: Annotated[Int, Field(ge=-10_000, le=10_000)]
    reason: Annotated[str, Field(max_length=200)] = ""


class Advance(Command):
    """Move the turn marker to the next step, or forward to step `to` (same or next turn),
    passing only optional steps. `until: "mine"`: "done until something is mine", one
    advance after another while the steps hold nothing for the seat (domain.acting.ahead)."""

    type: Literal["advance"] = "advance"
    to: Annotated[str, Field(max_length=200)] | None = None
    until: Literal["mine"] | None = None

    @model_validator(mode="after")
    def _one_way(self) -> Advance:
        if self.to is not None and self.until is not None:
            raise ValueError("an advance goes on to a step (to) or until something is the "
                             "seat's (until), not both")
        return self


class AddNote(Command):
    type: Literal["add_note"] = "add_note"
    text: Annotated[str, Field(min_length=1, max_length=2000)]
    about_version: Annotated[Int, Field(ge=1, le=MAX_INT)] | None = None
    private: StrictBool = False  # for the author and the referee only


class LoseStep(Command):
    """A unit loses a step (full -> reduced); a unit with no step left is eliminated."""

    type: Literal["lose_step"] = "lose_step"
    unit_id: Id


class GainStep(Command):
    """A unit gets one step back (reduced -> full: a replacement, a re-supply); the ruleset
    says where and how far."""

    type: Literal["gain_step"] = "gain_step"
    unit_id: Id
    rule: Short | None = None  # the rule that gives the step (NO-2 replacements, ...)
    reason: Annotated[str, Field(max_length=200)] = ""


class OpenDispute(Command):
    """Open a dispute about event `about_version` (or up to `upto_version`); the referee
    rules on it (`POST .../disputes/{version}/ruling`)."""

    type: Literal["open_dispute"] = "open_dispute"
    about_version: Annotated[Int, Field(ge=1, le=MAX_INT)]
    upto_version: Annotated[Int, Field(ge=1, le=MAX_INT)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=2000)]


class EndMatch(Command):
    """End the match: the referee's word ends it; a side's is a proposal that ends the
    match once every side has proposed the same outcome."""

    type: Literal["end_match"] = "end_match"
    winner: Id | None = None  # None: a tie
    reason: Annotated[str, Field(max_length=200)] = ""


class Concede(Command):
    """Your side gives up: the other side wins (a match of two sides)."""

    type: Literal["concede"] = "concede"
    reason: Annotated[str, Field(max_length=200)] = ""


class StandingPass(Command):
    """"Pass until I must act" (issue 26, fewer taps): `on` starts the side's standing pass
    for the rest of this turn, where its done is recorded for it wherever it could only act
    optionally; `on: false` stops it. `side`: whose (default: the seat's own). Decided by
    `domain.acting.standing` (authority in `domain.authority.check_standing_pass`)."""

    type: Literal["standing_pass"] = "standing_pass"
    on: StrictBool = True
    side: Id | None = None


class ReopenMatch(Command):
    """The referee reopens an ended match; a fresh dice seed is committed."""

    type: Literal["reopen_match"] = "reopen_match"
    reason: Annotated[str, Field(max_length=200)] = ""


Action = Annotated[
    DeployUnit | MoveUnit | SetStatus | PlaceMarker | RemoveMarker | RollDice | SplitUnit
    | RallyUnit | RemoveUnit | SetTrack | ScoreVP | Advance | AddNote | EndMatch
    | ActivateUnit | ActivateBattlegroup | RollMorale | RollInitiative | PassInitiative
    | DrawCards | DiscardCards | PlayCard | ShuffleDeck | CutDeck | RuleRoll | Fire
    | EnterResult | AnnounceReinforcements | CallArtillery | DeclareOperation | SetSupply
    | ResolveCombat | LoseStep | GainStep | OpenDispute | RecordRoll | Concede | ReopenMatch
    | StartClock | PauseClock | ResumeClock | AdjustClock | StandingPass,
    Field(discriminator="type"),
]
ACTION_TYPES: tuple[str, ...] = (
    "deploy_unit", "move_unit", "set_status", "place_marker", "remove_marker", "roll_dice",
    "split_unit", "rally_unit", "remove_unit", "set_track", "score_vp", "advance", "add_note",
    "end_match", "activate_unit", "activate_battlegroup", "roll_morale", "roll_initiative",
    "pass_initiative", "draw_cards", "discard_cards", "play_card", "shuffle_deck", "cut_deck",
    "rule_roll", "fire", "enter_result", "announce_reinforcements", "call_artillery",
    "declare_operation", "set_supply", "resolve_combat", "lose_step", "gain_step",
    "open_dispute", "record_roll", "concede", "reopen_match",
)
