"""The actions a seat can ask for: a discriminated union on `type`.

Commands carry only what the player chooses; `domain.decide` validates them against the
state and the ruleset and turns them into events. Limits on sizes are part of the schema
so that hostile input is refused before it reaches the domain.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from domain.state import Box, MoraleDie, Position, Unit

Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Text = Annotated[str, Field(max_length=2000)]
Short = Annotated[str, Field(min_length=1, max_length=64)]
Int = StrictInt  # JSON numbers only: no true/false or "3" taken for a number
MAX_INT = 2**31 - 1  # every number a request carries fits a 32-bit column
Count = Annotated[Int, Field(ge=1, le=1000)]
SAFE_INT = 2**53 - 1  # the largest whole number every JSON reader holds exactly


def _json_safe(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE_INT:
        raise ValueError(f"whole numbers lie within ±{SAFE_INT}")
    return value


# A track's, option's or extra field's value: no NaN or infinity (JSON has neither), and no
# whole number a JSON reader would round (it would not even fit the store's encoder).
Value = Annotated[StrictInt | Annotated[StrictFloat, Field(allow_inf_nan=False)] | StrictStr,
                  BeforeValidator(_json_safe)]
Flags = Annotated[list[Short], Field(max_length=32)]


class Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitSpec(Command):
    id: Id
    side: Id
    name: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Short = "unit"
    figures: Annotated[Int, Field(ge=0, le=10_000)] | None = None
    steps: Annotated[Int, Field(ge=0, le=100)] | None = None
    morale_die: MoraleDie | None = None
    qv: Annotated[Int, Field(ge=-20, le=20)] | None = None
    cv: Annotated[Int, Field(ge=-20, le=20)] | None = None
    lv: Annotated[Int, Field(ge=-20, le=20)] | None = None
    casualty_value: Annotated[Int, Field(ge=0, le=100)] | None = None
    q: Annotated[Int, Field(ge=-20, le=20)] | None = None
    extra: Annotated[dict[Id, Value], Field(max_length=32)] = Field(default_factory=dict)
    position: Position | None = None
    status: Flags = Field(default_factory=list)
    markers: Annotated[dict[Short, Count], Field(max_length=32)] = Field(default_factory=dict)

    def to_unit(self) -> Unit:
        return Unit(**{**self.model_dump(), "status": tuple(sorted(set(self.status)))})


class DeployUnit(Command):
    type: Literal["deploy_unit"] = "deploy_unit"
    unit: UnitSpec


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
    """Split `figures` figures (and the given markers) off `unit_id` into `new_unit_id`.
    Where the ruleset divides the unit itself (AA-3), leave out `figures` and `markers` and
    say with `odd_to` which half (`first`: the unit, `second`: the new one) takes an odd
    marker of each kind."""

    type: Literal["split_unit"] = "split_unit"
    unit_id: Id
    new_unit_id: Id
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
    passing only optional steps."""

    type: Literal["advance"] = "advance"
    to: Annotated[str, Field(max_length=200)] | None = None


class AddNote(Command):
    type: Literal["add_note"] = "add_note"
    text: Annotated[str, Field(min_length=1, max_length=2000)]
    about_version: Annotated[Int, Field(ge=1, le=MAX_INT)] | None = None
    private: StrictBool = False  # for the author and the referee only


class ActivateUnit(Command):
    """AA-1: the activating side activates one of its units not yet activated this turn."""

    type: Literal["activate_unit"] = "activate_unit"
    unit_id: Id


class ActivateBattlegroup(Command):
    """BG-7: activate a battlegroup, declaring the auxiliary squads that go with it."""

    type: Literal["activate_battlegroup"] = "activate_battlegroup"
    battlegroup: Id
    auxiliaries: Annotated[list[Id], Field(max_length=32)] = Field(default_factory=list)


class RollMorale(Command):
    """AA-7: a unit's morale roll on its shifted die; `result` records a table die."""

    type: Literal["roll_morale"] = "roll_morale"
    unit_id: Id
    source: Literal["server", "table"] = "server"
    result: Annotated[Int, Field(ge=1, le=12)] | None = None


class RollInitiative(Command):
    """BG-2..BG-4: roll for every player still to be ranked (all, then the tied ones);
    `results` records table dice, one natural roll per side."""

    type: Literal["roll_initiative"] = "roll_initiative"
    source: Literal["server", "table"] = "server"
    results: Annotated[dict[Id, Annotated[Int, Field(ge=1, le=6)]], Field(max_length=8)] | None = None


class PassInitiative(Command):
    """BG-5: the winner hands first place to the second-placed player."""

    type: Literal["pass_initiative"] = "pass_initiative"


class DrawCards(Command):
    """Draw from the top of your deck: `count` cards, or (BG-6) up to your hand size."""

    type: Literal["draw_cards"] = "draw_cards"
    count: Annotated[Int, Field(ge=1, le=100)] | None = None


class DiscardCards(Command):
    type: Literal["discard_cards"] = "discard_cards"
    cards: Annotated[list[Short], Field(min_length=1, max_length=100)]


class PlayCard(Command):
    type: Literal["play_card"] = "play_card"
    card: Short


class ShuffleDeck(Command):
    """AA-8: collect every card of your side and shuffle them with the server's dice."""

    type: Literal["shuffle_deck"] = "shuffle_deck"


class CutDeck(Command):
    """AA-8: cut the opponent's (`side`) shuffled deck: the top `at` cards go under."""

    type: Literal["cut_deck"] = "cut_deck"
    side: Id
    at: Annotated[Int, Field(ge=1, le=1000)]


class _Rolled(Command):
    """An action the service rolls for: with its own dice (`source: server`), or recording
    physical dice (`table`, with `results`, one natural result per die)."""

    source: Literal["server", "table"] = "server"
    results: Annotated[list[Annotated[Int, Field(ge=1, le=100)]], Field(max_length=12)] | None = None


class RuleRoll(_Rolled):
    """A roll the ruleset names and resolves itself (`roll`: e.g. `unit_morale`, `repair`):
    the service knows the dice, the modifiers and what follows. `unit_id` is the unit that
    rolls; `leader_id` the officer or leader who helps (and whose `leadership` cubes are
    spent, WC); `dice` how many dice where the player chooses (WC-6: 1 to 3)."""

    type: Literal["rule_roll"] = "rule_roll"
    roll: Id
    unit_id: Id | None = None
    leader_id: Id | None = None
    leadership: Annotated[Int, Field(ge=0, le=20)] = 0
    dice: Annotated[Int, Field(ge=1, le=3)] | None = None
    new_unit_id: Id | None = None  # ES-2: the id of a leader a self-rally creates


class Fire(_Rolled):
    """`unit_id` fires at `target_id`: the service rolls, marks the firer (ES-5 prepared
    fire and ROF; WC-7 unloaded) and waits for the result the players read from their table.
    `differential` is WC-7's fire differential; `modifier` is added to the roll."""

    type: Literal["fire"] = "fire"
    unit_id: Id
    target_id: Id | None = None
    differential: Annotated[Int, Field(ge=-20, le=20)] = 0
    modifier: Annotated[Int, Field(ge=-20, le=20)] = 0


class EnterResult(Command):
    """The result of the last roll, read by the players from a table the service does not
    hold (WC-6 Activation Table, NO-2 Combat Results Table); `failed` marks a failure."""

    type: Literal["enter_result"] = "enter_result"
    result: Annotated[str, Field(min_length=1, max_length=200)]
    failed: StrictBool = False


class AnnounceReinforcements(Command):
    """ES-1: the attacker names the units about to arrive and where they will enter."""

    type: Literal["announce_reinforcements"] = "announce_reinforcements"
    unit_ids: Annotated[list[Id], Field(min_length=1, max_length=100)]
    entry: Short


class CallArtillery(_Rolled):
    """ES-1: one step of an off-board artillery mission: `radio_contact` (rolled), then a
    `spotting_round` at `location`, `correction`s, and up to four `fire_for_effect`."""

    type: Literal["call_artillery"] = "call_artillery"
    mission: Id
    stage: Literal["radio_contact", "spotting_round", "correction", "fire_for_effect"]
    location: Short | None = None


class DeclareOperation(Command):
    """NO-1: a side declares its operations (the HQs that flip); a German operation may
    put the German player-turn first this turn (NO-5)."""

    type: Literal["declare_operation"] = "declare_operation"
    hqs: Annotated[list[Id], Field(max_length=32)] = Field(default_factory=list)
    first: StrictBool = False
    carpet_bombing: Short | None = None


class SetSupply(Command):
    """NO-1: the supply status of units, held until the next Supply segment."""

    type: Literal["set_supply"] = "set_supply"
    unit_ids: Annotated[list[Id], Field(min_length=1, max_length=500)]
    status: Literal["in_supply", "out_of_supply", "isolated"]


class ResolveCombat(_Rolled):
    """NO-2: an attack, declared with its odds and modifiers before the 2d6 are rolled; the
    players then enter the result they read on their Combat Results Table."""

    type: Literal["resolve_combat"] = "resolve_combat"
    attackers: Annotated[list[Id], Field(min_length=1, max_length=32)]
    defenders: Annotated[list[Id], Field(min_length=1, max_length=32)]
    odds: Annotated[str, Field(pattern=r"^[0-9]{1,2}:[0-9]{1,2}$")]
    modifiers: Annotated[dict[Short, Annotated[Int, Field(ge=-10, le=10)]],
                         Field(max_length=16)] = Field(default_factory=dict)


class LoseStep(Command):
    """A unit loses a step (full -> reduced); a unit with no step left is eliminated."""

    type: Literal["lose_step"] = "lose_step"
    unit_id: Id


class OpenDispute(Command):
    """Open a dispute about event `about_version` (or up to `upto_version`); the referee
    rules on it (`POST .../disputes/{version}/ruling`)."""

    type: Literal["open_dispute"] = "open_dispute"
    about_version: Annotated[Int, Field(ge=1, le=MAX_INT)]
    upto_version: Annotated[Int, Field(ge=1, le=MAX_INT)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=2000)]


class EndMatch(Command):
    type: Literal["end_match"] = "end_match"
    winner: Id | None = None  # None: a tie
    reason: Annotated[str, Field(max_length=200)] = ""


Action = Annotated[
    DeployUnit | MoveUnit | SetStatus | PlaceMarker | RemoveMarker | RollDice | SplitUnit
    | RallyUnit | RemoveUnit | SetTrack | ScoreVP | Advance | AddNote | EndMatch
    | ActivateUnit | ActivateBattlegroup | RollMorale | RollInitiative | PassInitiative
    | DrawCards | DiscardCards | PlayCard | ShuffleDeck | CutDeck | RuleRoll | Fire
    | EnterResult | AnnounceReinforcements | CallArtillery | DeclareOperation | SetSupply
    | ResolveCombat | LoseStep | OpenDispute | RecordRoll,
    Field(discriminator="type"),
]
ACTION_TYPES: tuple[str, ...] = (
    "deploy_unit", "move_unit", "set_status", "place_marker", "remove_marker", "roll_dice",
    "split_unit", "rally_unit", "remove_unit", "set_track", "score_vp", "advance", "add_note",
    "end_match", "activate_unit", "activate_battlegroup", "roll_morale", "roll_initiative",
    "pass_initiative", "draw_cards", "discard_cards", "play_card", "shuffle_deck", "cut_deck",
    "rule_roll", "fire", "enter_result", "announce_reinforcements", "call_artillery",
    "declare_operation", "set_supply", "resolve_combat", "lose_step", "open_dispute",
    "record_roll",
)


class SideSpec(Command):
    id: Id
    name: Annotated[str, Field(min_length=1, max_length=120)]


class CreateMatch(Command):
    """What `create_match` needs: ruleset, scenario, sides and options (`casual`, ...), and
    the scenario's set-up: the units on the table and each side's deck of cards. A scenario
    file is this document (see docs/scenarios.md)."""

    ruleset: Short = "freeform"
    scenario: Annotated[str, Field(min_length=1, max_length=200)]
    sides: Annotated[list[SideSpec], Field(min_length=2, max_length=8)]
    casual: StrictBool = False
    options: Annotated[dict[Id, Value | list[Short] | dict[Id, Id]], Field(max_length=32)] = (
        Field(default_factory=dict)
    )
    units: Annotated[list[UnitSpec], Field(max_length=500)] = Field(default_factory=list)
    decks: Annotated[dict[Id, Annotated[list[Short], Field(max_length=200)]],
                     Field(max_length=8)] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _set_up_for_these_sides(self) -> CreateMatch:
        sides = {s.id for s in self.sides}
        for i, unit in enumerate(self.units):
            if unit.side not in sides:
                raise ValueError(f"units[{i}] ({unit.id}): there is no side '{unit.side}'")
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError("units: unit ids must be distinct")
        for side in self.decks:
            if side not in sides:
                raise ValueError(f"decks: there is no side '{side}'")
        return self
