"""The ruleset file format, version 1: what a file declares, as frozen pydantic models.

A file (YAML or JSON, the same structure) says which sides a game takes (a count, and the
roles sides can hold), its unit kinds and their typed, bounded attributes, its marker kinds,
statuses and tracks, the action types it uses, the named conditions its sequence reads, its
sequence of play (phases and steps, the same tree `domain.sequence` moves the turn marker
through) and its words (titles, what a step expects). `RulesetFile.model_json_schema()` is
the JSON Schema served at GET /api/rulesets/schema. The pieces of the game (unit kinds and
their attributes, marker kinds, statuses, tracks) are `model_pieces`; each other block
(rolls, the end, the initiative, cards, activation, words, ...) is a `model_*` of its own.

What a file cannot say yet (named Python procedures: conditions, an action's procedure) is
named, never written, here; docs/rulesets/authoring.md lists each as a gap.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Field, Tag, model_validator

from domain.commands import SAFE_INT
from domain.rulefiles.model_activation import Activation
from domain.rulefiles.model_after import AfterAction
from domain.rulefiles.model_cards import Cards
from domain.rulefiles.model_does import Does
from domain.rulefiles.model_duties import Owes
from domain.rulefiles.model_end import End, Scoring
from domain.rulefiles.model_initiative import Initiative
from domain.rulefiles.model_pieces import (
    ATTRIBUTE_TAGS,
    MAX_ITEMS,
    MarkerKind,
    Status,
    Track,
    UnitKind,
)
from domain.rulefiles.model_rolls import Roll
from domain.rulefiles.model_shows import Arrive, Expect, Shown
from domain.rulefiles.model_spend import Template
from domain.rulefiles.model_words import Said
from domain.rulefiles.parts import (
    Expression,
    Line,
    Name,
    Paragraphs,
    Part,
    Rule,
    TrackName,
    Words,
)

FORMAT_VERSION = 1

Procedure = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}(\.[a-z][a-z0-9_]{0,39}){0,3}$")]


_Part = Part


class Role(_Part):
    """A role a side can hold (`attacker`), named by steps and player-turns."""

    title: Words = ""
    """The role's title, as the page says it."""


class Sides(_Part):
    """How many sides the game takes (`count`, or `fewest` to `most`, within 2 to 8) and the
    roles a side can hold (`attacker`, `german`): a step's `acting`, `advanced_by` and
    `only`, and a player-turn's `roles`, name them."""

    count: Annotated[int, Field(ge=2, le=8)] | None = None
    """The sides the game takes, exactly (2 to 8); or give `fewest` and `most`."""
    fewest: Annotated[int, Field(ge=2, le=8)] | None = None
    """The fewest sides the game takes (with `most`)."""
    most: Annotated[int, Field(ge=2, le=8)] | None = None
    """The most sides the game takes (with `fewest`)."""
    rule: Rule = "core-sides"
    """The rule a match with another number of sides is refused by."""
    roles: Annotated[dict[Name, Role], Field(max_length=8)] = Field(default_factory=dict)
    """The roles a side can hold, by id: steps and player-turns name them."""

    @model_validator(mode="after")
    def _one_way(self) -> Sides:
        if self.count is not None and (self.fewest is not None or self.most is not None):
            raise ValueError("give either count or fewest and most, not both")
        if (self.fewest is None) != (self.most is None):
            raise ValueError("fewest and most go together")
        if self.fewest is not None and self.most is not None and self.fewest > self.most:
            raise ValueError("fewest is more than most")
        return self

    def bounds(self) -> tuple[int, int]:
        if self.count is not None:
            return self.count, self.count
        return self.fewest or 2, self.most or 8


class Action(_Part):
    """An action type the game uses (one of the service's: `move_unit`, `fire`, ...), its
    words, and the named procedure that carries it out where the core's handling is not
    the game's (a gap: docs/rulesets/authoring.md)."""

    title: Words = ""
    rule: Rule | None = None
    """The rule the action is taken under, named by its refusals and its events."""
    where: Words = ""  # said when the action is taken out of its steps
    procedure: Procedure | None = None
    """The named Python procedure that carries it out (a gap: a file that names one this battlelog
    lacks is not stored)."""
    does: Does | None = None
    """What it does, as data, in place of the core's handling (`does`)."""

    @model_validator(mode="after")
    def _one_way(self) -> Action:
        if self.procedure is not None and self.does is not None:
            raise ValueError("an action names a procedure or says what it does, not both")
        return self


class Condition(_Part):
    """A named test the sequence reads (`leave_when`, `repeat_while`, `eligible`): an
    expression over the view (`when`), or a named Python procedure (a gap)."""

    title: Words = ""
    when: Expression | None = None
    """An expression over the view of the match that must hold (true or false)."""
    procedure: Procedure | None = None
    """The named Python procedure that answers it, instead of `when` (a gap)."""

    @model_validator(mode="after")
    def _one_way(self) -> Condition:
        if (self.when is None) == (self.procedure is None):
            raise ValueError("a condition gives either when (an expression) or procedure")
        return self


class Guard(_Part):
    """A refusal: an action of one of `actions` is refused unless `when` holds, naming
    `rule` and saying `says`; as not the actor's turn (`refusal: not_your_turn`) or as an
    action against the rules (`invalid`, the default). (ours) It binds the referee only
    with `binds_referee`, as the built-in games leave the referee's hand free."""

    actions: Annotated[tuple[Name, ...], Field(min_length=1, max_length=60)]
    """The action types it guards (each declared under `actions`)."""
    when: Expression
    """An expression that must hold for the action to be taken; it reads the view and the action
    (`action`, `actor`, `role`, `unit`)."""
    rule: Rule
    """The rule the refusal names."""
    says: Template
    """What the refusal says, in the players' words (words with placeholders: the refusal
    names what was asked)."""
    refusal: Literal["invalid", "not_your_turn"] = "invalid"
    """How it refuses: as against the rules (`invalid`, 422) or as not the actor's turn
    (`not_your_turn`, 403)."""
    binds_referee: bool = False
    """Whether the referee is held to it too."""


Acting = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]  # any|active|...|a role
Allows = Annotated[tuple[Annotated[str, Field(pattern=r"^(\*|[a-z][a-z0-9_]{0,39})$")], ...],
                   Field(max_length=60)]


class Step(_Part):
    """A step of the sequence of play (`step: <id>`): who acts in it, who moves the marker
    on, what it allows, and its words."""

    step: Name
    """The step's id (unique within its phase)."""
    title: Words = ""
    rule: Rule | None = None
    # what the step waits for, in the players' words (or computed: model_words.Said)
    expects: Words | Annotated[tuple[Said, ...], Field(max_length=10)] = ""
    allows: Allows = ("*",)
    """The action types taken in it, each declared under `actions`; `*`: any. `advance`,
    `record_roll`, `add_note`, `open_dispute`, `end_match`, `concede` and `reopen_match` are
    allowed in every step."""
    acting: Acting = "any"
    """Who acts: `any`, `active` (the side whose player-turn or run it is), `inactive`, `referee`,
    or a declared role."""
    advanced_by: Acting | None = None
    """Who moves the marker on, if not who acts (the same words as `acting`)."""
    optional: bool = False
    """Whether the step may be jumped over."""
    shared: bool = False
    """Every side acts, and the marker moves on once each side has said it is done."""
    only: Acting | None = None
    """A role: the step is in that role's player-turn only."""
    leave_when: Name | None = None
    """A condition (declared under `conditions`) that must hold before the marker leaves the step.
"""
    owes: Owes = ()
    """What the step owes (its duties): leaving it waits for each, the match waits for whoever
    owes one, and they may take the actions that discharge it out of turn."""

    @model_validator(mode="after")
    def _one_mover(self) -> Step:
        if self.shared and self.advanced_by is not None:
            raise ValueError("a shared step is left when every side is done: it takes no "
                             "advanced_by")
        return self


class Phase(_Part):
    """A phase of the sequence of play (`phase: <id>`): its steps and phases in order, and
    how it runs (once, once for each side, or again while a condition holds)."""

    phase: Name
    """The phase's id (unique within its phase)."""
    title: Words = ""
    rule: Rule | None = None
    steps: Annotated[tuple[Node, ...], Field(min_length=1, max_length=60)]
    """Its steps and phases, in order."""
    player_turns: bool = False
    """It runs once for each side, in initiative order: a player-turn."""
    roles: tuple[Acting, Acting] | None = None
    """With `player_turns`: the role the side whose player-turn it is holds, then the other side's.
"""
    repeat_while: Name | None = None
    """A condition: the phase runs again while it holds."""
    alternate: bool = False
    """With `repeat_while`: the active side alternates each run."""
    eligible: Name | None = None
    """With `alternate`: a condition read for a side; one for whom it fails is passed over."""

    @model_validator(mode="after")
    def _runs(self) -> Phase:
        if self.roles is not None and not self.player_turns:
            raise ValueError("roles are the two roles of a player-turn: they need player_turns")
        if self.alternate and self.repeat_while is None:
            raise ValueError("alternate needs repeat_while: the sides alternate as it repeats")
        if self.eligible is not None and not self.alternate:
            raise ValueError("eligible passes over a side of an alternating phase: it needs "
                             "alternate")
        return self


def _node_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return "Phase" if "phase" in value or "steps" in value else "Step"
    if isinstance(value, Phase):
        return "Phase"
    return "Step" if isinstance(value, Step) else None


Node = Annotated[Annotated[Phase, Tag("Phase")] | Annotated[Step, Tag("Step")],
                 Discriminator(_node_kind, custom_error_type="sequence_entry",
                               custom_error_message="each entry of a sequence is a step "
                                                    "(step: its id) or a phase (phase: its id)")]
# the tags pydantic puts in an error's location (never a name a file gives: those are lower case)
TAGS = ("Phase", "Step", *ATTRIBUTE_TAGS.values())


class RulesetFile(_Part):
    """A ruleset file: a game as data (format version 1)."""

    model_config = ConfigDict(frozen=True, extra="forbid",
                              json_schema_extra={"title": "battlelog ruleset file"})

    format_version: Literal[1]
    """The version of the format the file is written in: 1."""
    id: Name
    """The game's id: a match names it as its `ruleset` (a built-in game's id always means the
    built-in game)."""
    title: Annotated[str, Line, Field(min_length=1, max_length=120)]
    """The game's title, as the page says it."""
    version: Annotated[int, Field(ge=1, le=SAFE_INT)] = 1
    """The file's own version: a match by id is created under the highest stored."""
    description: Annotated[str, Paragraphs, Field(max_length=2000)] = ""
    """A paragraph about the game, shown in the lobby."""
    sides: Sides = Sides()
    """How many sides the game takes, and the roles they can hold."""
    unit_kinds: Annotated[dict[Name, UnitKind], Field(max_length=40)] = Field(
        default_factory=dict)
    """The kinds of unit, by id, and their attributes."""
    marker_kinds: Annotated[dict[Name, MarkerKind], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    """The kinds of marker a unit can carry, by id."""
    statuses: Annotated[dict[Name, Status], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    """The flags a unit can carry (`broken`), by id."""
    tracks: Annotated[dict[TrackName, Track], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    """The match's tracks, by name; a name holding `*` is a family of tracks (`control.*`)."""
    actions: Annotated[dict[Name, Action], Field(max_length=60)] = Field(default_factory=dict)
    """The action types the game uses (the service's own), by type, with their words."""
    conditions: Annotated[dict[Name, Condition], Field(max_length=60)] = Field(
        default_factory=dict)
    """The named tests the sequence of play reads (`leave_when`, `repeat_while`, `eligible`)."""
    guards: Annotated[tuple[Guard, ...], Field(max_length=MAX_ITEMS)] = ()
    """The refusals the referee applies, each an expression that must hold."""
    rolls: Annotated[dict[Name, Roll], Field(max_length=60)] = Field(default_factory=dict)
    """The dice procedures the service resolves itself (`rule_roll` with `roll: <name>`)."""
    scoring: Annotated[tuple[Scoring, ...], Field(max_length=20)] = ()
    """The victory points the service scores, and when."""
    end: End | None = None
    """When the match ends (the service ends it)."""
    initiative: Initiative | None = None
    """How the sides' initiative is rolled each turn (`roll_initiative`), if the game rolls it."""
    cards: Cards | None = None
    """Card hands: their size, and the step they are filled in (`draw_cards`)."""
    activation: Activation | None = None
    """Groups of units activated in turn (`activate_battlegroup`)."""
    on_enter: Annotated[tuple[Arrive, ...], Field(max_length=MAX_ITEMS)] = ()
    """What the service does itself as the marker arrives at a step."""
    after_action: Annotated[tuple[AfterAction, ...], Field(max_length=20)] = ()
    """What the service does itself after every action that made events."""
    expects: Annotated[tuple[Expect, ...], Field(max_length=MAX_ITEMS)] = ()
    """What each step waits for, in the players' words (the first entry that holds)."""
    unit_info: Annotated[tuple[Shown, ...], Field(max_length=40)] = ()
    """What the page shows for a unit."""
    sequence: Annotated[tuple[Node, ...], Field(min_length=1, max_length=60)]
    """The sequence of play: its steps and phases, in order, run once a turn."""


Phase.model_rebuild()
RulesetFile.model_rebuild()
