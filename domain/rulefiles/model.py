"""The ruleset file format, version 1: what a file declares, as frozen pydantic models.

A file (YAML or JSON, the same structure) says which sides a game takes (a count, and the
roles sides can hold), its unit kinds and their typed, bounded attributes, its marker kinds,
statuses and tracks, the action types it uses, the named conditions its sequence reads, its
sequence of play (phases and steps, the same tree `domain.sequence` moves the turn marker
through) and its words (titles, what a step expects). `RulesetFile.model_json_schema()` is
the JSON Schema served at GET /api/rulesets/schema.

What a file cannot say yet (named Python procedures: conditions, an action's procedure) is
named, never written, here; docs/rulesets/authoring.md lists each as a gap.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Field, Tag, model_validator

from domain.commands import SAFE_INT
from domain.rulefiles.model_end import End, Scoring
from domain.rulefiles.model_initiative import Initiative
from domain.rulefiles.model_rolls import Roll
from domain.rulefiles.parts import Expression, Name, Part, Rule, TrackName, Words

FORMAT_VERSION = 1

# A value a track or a choice takes (`clear`, `NE`, `2-1`).
Value = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_ .+-]{0,39}$")]
Procedure = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}(\.[a-z][a-z0-9_]{0,39}){0,3}$")]
Bound = Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)]
MAX_ITEMS = 200  # entries in any one list or table of a file


_Part = Part


class Role(_Part):
    title: Words = ""


class Sides(_Part):
    """How many sides the game takes (`count`, or `fewest` to `most`, within 2 to 8) and the
    roles a side can hold (`attacker`, `german`): a step's `acting`, `advanced_by` and
    `only`, and a player-turn's `roles`, name them."""

    count: Annotated[int, Field(ge=2, le=8)] | None = None
    fewest: Annotated[int, Field(ge=2, le=8)] | None = None
    most: Annotated[int, Field(ge=2, le=8)] | None = None
    rule: Rule = "core-sides"
    roles: Annotated[dict[Name, Role], Field(max_length=8)] = Field(default_factory=dict)

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


class IntegerAttribute(_Part):
    type: Literal["integer"]
    title: Words = ""
    minimum: Bound
    maximum: Bound
    required: bool = False

    @model_validator(mode="after")
    def _bounded(self) -> IntegerAttribute:
        if self.minimum > self.maximum:
            raise ValueError("minimum is more than maximum")
        return self


class ChoiceAttribute(_Part):
    type: Literal["choice"]
    title: Words = ""
    values: Annotated[tuple[Value, ...], Field(min_length=1, max_length=MAX_ITEMS)]
    required: bool = False


class TextAttribute(_Part):
    type: Literal["text"]
    title: Words = ""
    max_length: Annotated[int, Field(ge=1, le=200)] = 40
    required: bool = False


class FlagAttribute(_Part):
    type: Literal["flag"]
    title: Words = ""


_ATTRIBUTES = {"integer": "IntegerAttribute", "choice": "ChoiceAttribute", "text": "TextAttribute",
               "flag": "FlagAttribute"}


def _attribute_kind(value: Any) -> str | None:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return _ATTRIBUTES.get(kind) if isinstance(kind, str) else None


Attribute = Annotated[
    Annotated[IntegerAttribute, Tag("IntegerAttribute")]
    | Annotated[ChoiceAttribute, Tag("ChoiceAttribute")]
    | Annotated[TextAttribute, Tag("TextAttribute")]
    | Annotated[FlagAttribute, Tag("FlagAttribute")],
    Discriminator(_attribute_kind, custom_error_type="attribute_type",
                  custom_error_message="an attribute's type is one of: integer, choice, "
                                       "text, flag")]


class UnitKind(_Part):
    title: Words = ""
    attributes: Annotated[dict[Name, Attribute], Field(max_length=40)] = Field(
        default_factory=dict)


class MarkerKind(_Part):
    title: Words = ""
    most: Annotated[int, Field(ge=1, le=999)] | None = None  # how many a unit may carry


class Status(_Part):
    title: Words = ""


class Track(_Part):
    """The values a track takes: named ones (`values`), or whole numbers `minimum` to
    `maximum`."""

    title: Words = ""
    values: Annotated[tuple[Value, ...], Field(min_length=1, max_length=MAX_ITEMS)] | None = None
    minimum: Bound | None = None
    maximum: Bound | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Track:
        numbers = (self.minimum, self.maximum)
        if self.values is not None and numbers != (None, None):
            raise ValueError("give either values or minimum and maximum, not both")
        if self.values is None and None in numbers:
            raise ValueError("give values, or both minimum and maximum")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError("minimum is more than maximum")
        return self


class Action(_Part):
    """An action type the game uses (one of the service's: `move_unit`, `fire`, ...), its
    words, and the named procedure that carries it out where the core's handling is not
    the game's (a gap: docs/rulesets/authoring.md)."""

    title: Words = ""
    rule: Rule | None = None
    where: Words = ""  # said when the action is taken out of its steps
    procedure: Procedure | None = None


class Condition(_Part):
    """A named test the sequence reads (`leave_when`, `repeat_while`, `eligible`): an
    expression over the view (`when`), or a named Python procedure (a gap)."""

    title: Words = ""
    when: Expression | None = None
    procedure: Procedure | None = None

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
    when: Expression
    rule: Rule
    says: Annotated[str, Field(min_length=1, max_length=200)]
    refusal: Literal["invalid", "not_your_turn"] = "invalid"
    binds_referee: bool = False


Acting = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]  # any|active|...|a role
Allows = Annotated[tuple[Annotated[str, Field(pattern=r"^(\*|[a-z][a-z0-9_]{0,39})$")], ...],
                   Field(max_length=60)]


class Step(_Part):
    step: Name  # its id
    title: Words = ""
    rule: Rule | None = None
    expects: Words = ""  # what the step waits for, in the players' words
    allows: Allows = ("*",)
    acting: Acting = "any"
    advanced_by: Acting | None = None
    optional: bool = False
    shared: bool = False
    only: Acting | None = None
    leave_when: Name | None = None

    @model_validator(mode="after")
    def _one_mover(self) -> Step:
        if self.shared and self.advanced_by is not None:
            raise ValueError("a shared step is left when every side is done: it takes no "
                             "advanced_by")
        return self


class Phase(_Part):
    phase: Name  # its id
    title: Words = ""
    rule: Rule | None = None
    steps: Annotated[tuple[Node, ...], Field(min_length=1, max_length=60)]
    player_turns: bool = False
    roles: tuple[Acting, Acting] | None = None
    repeat_while: Name | None = None
    alternate: bool = False
    eligible: Name | None = None

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
TAGS = ("Phase", "Step", *_ATTRIBUTES.values())


class RulesetFile(_Part):
    """A ruleset file: a game as data (format version 1)."""

    model_config = ConfigDict(frozen=True, extra="forbid",
                              json_schema_extra={"title": "battlelog ruleset file"})

    format_version: Literal[1]
    id: Name
    title: Annotated[str, Field(min_length=1, max_length=120)]
    version: Annotated[int, Field(ge=1, le=SAFE_INT)] = 1
    description: Annotated[str, Field(max_length=2000)] = ""
    sides: Sides = Sides()
    unit_kinds: Annotated[dict[Name, UnitKind], Field(max_length=40)] = Field(
        default_factory=dict)
    marker_kinds: Annotated[dict[Name, MarkerKind], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    statuses: Annotated[dict[Name, Status], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    tracks: Annotated[dict[TrackName, Track], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict)
    actions: Annotated[dict[Name, Action], Field(max_length=60)] = Field(default_factory=dict)
    conditions: Annotated[dict[Name, Condition], Field(max_length=60)] = Field(
        default_factory=dict)
    guards: Annotated[tuple[Guard, ...], Field(max_length=MAX_ITEMS)] = ()
    rolls: Annotated[dict[Name, Roll], Field(max_length=60)] = Field(default_factory=dict)
    scoring: Annotated[tuple[Scoring, ...], Field(max_length=20)] = ()
    end: End | None = None
    initiative: Initiative | None = None
    sequence: Annotated[tuple[Node, ...], Field(min_length=1, max_length=60)]


Phase.model_rebuild()
RulesetFile.model_rebuild()
