"""Dice procedures as data (`rolls:` in a ruleset file): the dice, their modifiers, the
natural-roll special cases and the outcome (a target, or a result table by column), each
outcome a sentence and its effects. `domain/rulefiles/rolls.py` resolves them through the
service's `rule_roll` action; `rolls_checks.py` checks them at load."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from domain.rulefiles.model_spend import Activate, EachDie, Spend, Template
from domain.rulefiles.parts import Expression, Line, Name, Rule
from domain.rulefiles.parts import Part as _Part

Said = Annotated[str, Line, Field(min_length=1, max_length=200)]
TrackName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_.-]{0,59}$")]  # one track, no pattern
Die = Annotated[str, Field(pattern=r"^d(4|6|8|10|12|20)$")]
Dice = Annotated[str, Field(pattern=r"^([1-9]|10)?d(4|6|8|10|12|20)$")]
Faces = Annotated[int, Field(ge=1, le=200)]
MAX_ROWS = 60  # rows of one column of a result table
Count = Annotated[int, Field(ge=1, le=99)]


class Chain(_Part):
    """A die-type chain (`[d12, d10, d8, d6, d4]`): the die is `start` (an expression that
    gives one of them, a unit's attribute, say) moved `shift` places along the chain (an
    expression: a whole number; positive moves right), held at its ends."""

    dice: Annotated[tuple[Die, ...], Field(min_length=2, max_length=10)]
    """The chain's dice, in order (`[d12, d10, d8, d6, d4]`)."""
    start: Expression
    """An expression that gives the die it starts from, one of `dice`."""
    shift: Expression = "0"
    """An expression: how many places it moves along the chain (positive: right), held at its ends.
"""


class Marker(_Part):
    """Markers of one kind, and how many."""

    kind: Name
    """The marker kind (declared under `marker_kinds`)."""
    count: Count = 1
    """How many."""


class MoveTrack(_Part):
    """A track moved along its values (or numbers) by `by`, held at its ends."""

    name: TrackName
    """The track (declared under `tracks`)."""
    by: Annotated[int, Field(ge=-99, le=99)]
    """How many values along the track it moves, held at its ends."""


class SetTrack(_Part):
    """A track set to one of its values."""

    name: TrackName
    """The track (declared under `tracks`)."""
    value: Annotated[str, Field(min_length=1, max_length=40)] | int
    """The value it is set to (one of the track's)."""


class RemoveUnit(_Part):
    """The rolling unit leaves play (`reason`), leaving a `casualty` marker where it stood."""

    reason: Literal["destroyed", "eliminated", "surrendered", "withdrawn",
                    "casualty"] = "eliminated"
    """Why the unit leaves play."""
    casualty: Name | None = None
    """A marker kind placed where it stood."""


class Split(_Part):
    """The unit splits in two as equal as possible: its figures halved (11 -> 6 + 5) and each
    kind of its markers halved, the new unit standing where it stands. An odd figure or marker goes to the
    part the owner says: in a `split_unit` action, its `odd_to` (`{figures: second,
    wound: first}`: `first` the unit, `second` the new unit); elsewhere, and when not said,
    the unit keeps it. In a `split_unit` action, the action's `new_unit_id` and `position`
    are the new unit's, and `figures` and `markers` are refused: the service divides."""

    evenly: Literal[True]
    """As equal as possible (the one split the service makes itself): `true`."""


class On(_Part):
    """The units an effect falls on, other than the rolling unit: each unit in play that
    carries a marker of the kind `marked` (the roll's target: `defender`), or each unit
    whose id is in the list `units` gives (an expression: a unit's pieces)."""

    marked: Name | None = None
    """The marker kind that names the units it falls on."""
    units: Expression | None = None
    """Instead of `marked`: an expression giving the list of their ids."""

    @model_validator(mode="after")
    def _one(self) -> On:
        if (self.marked is None) == (self.units is None):
            raise ValueError("'falls_on' gives marked (a marker kind) or units (an "
                             "expression), one of them")
        return self


UNIT_EFFECTS = ("place_marker", "remove_marker", "clear_markers", "set_status", "clear_status",
                "clear_statuses", "remove_unit", "activate", "split")


class Effect(_Part):
    """One effect on the rolling unit (or, with `falls_on`, the units it names) or on the match:
    exactly one of its fields besides `falls_on`."""

    place_marker: Marker | None = None
    """Place markers on the unit."""
    remove_marker: Marker | None = None
    """Take markers off the unit (as many as it has, at most)."""
    clear_markers: Annotated[tuple[Name, ...], Field(min_length=1, max_length=20)] | None = None
    """Take every marker of these kinds off the unit, kind by kind in this order (one
    `MarkerRemoved` for each kind it carries)."""
    set_status: Name | None = None
    """Set a status (declared under `statuses`) on the unit."""
    clear_status: Name | None = None
    """Clear a status from the unit."""
    clear_statuses: Annotated[tuple[Name, ...], Field(min_length=1, max_length=20)] | None = None
    """Clear those of these statuses the unit has, in one change (in this order)."""
    set_track: SetTrack | None = None
    """Set a track of the match."""
    move_track: MoveTrack | None = None
    """Move a track of the match along its values."""
    remove_unit: RemoveUnit | None = None
    """The unit leaves play."""
    activate: Activate | None = None
    """The unit activates, with the units taking part (a `UnitsActivated`)."""
    split: Split | None = None
    """The unit splits in two as equal as possible (a `UnitSplit`)."""
    falls_on: On | None = None  # the units it falls on, if not the rolling unit
    """The units a unit's effect falls on, if not the rolling unit."""
    when: Expression | None = None
    """An expression: the effect is made only when it holds."""
    rule: Rule | None = None
    """The rule its event names, if not the one of the roll, action or arrival it is part of."""

    @model_validator(mode="after")
    def _one(self) -> Effect:
        given = [name for name, value in self.__dict__.items()
                 if value is not None and name not in ("falls_on", "when", "rule")]
        if len(given) != 1:
            raise ValueError("an effect is one of: place_marker, remove_marker, "
                             "clear_markers, set_status, clear_status, clear_statuses, "
                             "set_track, move_track, remove_unit, activate, split")
        if self.falls_on is not None and given[0] not in UNIT_EFFECTS:
            raise ValueError("'falls_on' names the units an effect falls on: a track's effect "
                             "falls on the match")
        return self


class Outcome(_Part):
    """What a result does: the sentence the page says, and its effects."""

    says: Template | None = None
    """What the page says of the result, one sentence (words with placeholders); none: the
    effects say it, and no result is recorded."""
    effects: Annotated[tuple[Effect, ...], Field(max_length=20)] = ()
    """What the result does, in order."""
    failed: bool = False  # the roll failed (said as such; counted as a failed roll)
    """Whether the roll failed (said and counted as a failed roll)."""
    rule: Rule | None = None  # the rule its effects name (default: the roll's)
    """The rule its effects name, if not the roll's."""


class Natural(Outcome):
    """A natural roll (the dice's faces added, before modifiers) that is an outcome of its
    own: instead of the target or the table, or `also`, as well as it."""

    total: Faces
    """The natural roll: the dice's faces added, before modifiers."""
    also: bool = False
    """Whether the target or the table is read as well."""


class Target(_Part):
    """The roll passes when its total is `at_most` (or `at_least`) the expression."""

    at_most: Expression | None = None
    """An expression: the roll passes when its total is at most it."""
    at_least: Expression | None = None
    """An expression: the roll passes when its total is at least it."""

    @model_validator(mode="after")
    def _one(self) -> Target:
        if (self.at_most is None) == (self.at_least is None):
            raise ValueError("a target is at_most or at_least, one of them")
        return self


class Row(Outcome):
    """A row of a result table: the totals `rolls` (`3`, or `4-6`) and their outcome."""

    rolls: Annotated[str, Field(pattern=r"^-?[0-9]{1,3}(-(-?[0-9]{1,3}))?$")] | int
    """The totals the row holds: one (`3`) or a range (`4-6`)."""


class Table(_Part):
    """A result table: the column an expression picks (odds `2-1`, a differential `+2`), and
    each column's rows, which cover the dice's totals once each."""

    column: Expression
    """An expression that gives the column's name (odds `2-1`, a differential `+2`)."""
    columns: Annotated[dict[Annotated[str, Field(min_length=1, max_length=20)],
                            Annotated[tuple[Row, ...], Field(min_length=1,
                                                             max_length=MAX_ROWS)]],
                       Field(min_length=1, max_length=30)]
    """Each column's rows, by the column's name; together they hold every total of the dice once."""


class Roll(_Part):
    """A dice procedure the service resolves (`rule_roll` with `roll: <its name>`)."""

    title: Annotated[str, Line, Field(max_length=200)] = ""
    """The roll's title, as the page says it."""
    rule: Rule  # the rule it resolves: its refusals, its effects and its outcome name it
    """The rule it resolves: its refusals, effects and outcome name it."""
    # the rule its dice are tagged with (default: `rule`): `facts` holds `<tag>:<unit>` for
    # the rest of the turn, so that a roll apart from another of its rule counts apart
    tag: Rule | None = None
    """The rule its dice are tagged with in `facts` (`<tag>:<unit>`), if not `rule`."""
    steps: Annotated[tuple[Name, ...], Field(min_length=1, max_length=60)]
    """The steps it is rolled in."""
    unit: bool = True  # a unit rolls it (`unit_id`): `unit` in its expressions
    """Whether a unit rolls it (`unit_id`; `unit` in its expressions)."""
    helped_by: Expression | None = None
    """An expression giving the ids of the units that help roll it (a leader): its dice
    name them after the rolling unit, and `facts` holds `<tag>:<id>` for each of them too."""
    when: Expression | None = None  # must hold to roll
    """An expression that must hold to roll."""
    refused: Template = "this roll is not open now"
    """What a refusal says when `when` does not hold (words with placeholders)."""
    dice: Dice | None = None
    """The dice (`d6`, `2d6`: 1 to 10 dice of 4, 6, 8, 10, 12 or 20 faces); or give `chain`."""
    count: Expression | None = None
    """How many of `dice`'s one die are thrown: a whole-number expression (`action.dice`)."""
    chain: Chain | None = None
    """A die-type chain, instead of `dice`."""
    modifiers: Annotated[tuple[Expression, ...], Field(max_length=10)] = ()
    """Whole-number expressions added to the dice."""
    natural: Annotated[tuple[Natural, ...], Field(max_length=20)] = ()
    """Natural rolls that are outcomes of their own."""
    target: Target | None = None
    """The total to reach, with `passes` and `fails`; or give `table` or `awaits`."""
    passes: Outcome | None = None
    """The outcome when the target is reached."""
    fails: Outcome | None = None
    """The outcome when it is not."""
    table: Table | None = None
    """A result table by column, instead of a target."""
    awaits: Said | None = None  # no target nor table: the players enter the result
    """The players read the result from a table the file does not hold: what the page asks them to
    enter."""
    spend: Spend | None = None
    """A resource the action spends on the roll (markers off the unit `leader_id` names)."""
    each_die: EachDie | None = None
    """Each die held against its own number; the target counts the dice that pass."""
    first: Annotated[tuple[Effect, ...], Field(max_length=20)] = ()
    """Effects made before the dice are thrown, once the roll is accepted."""
    purpose: Template | None = None
    """The dice's purpose (words with placeholders), if not the one made for them."""
    of: Template | None = None
    """What the outcome is the result of (words with placeholders), if not `<rule> <title> of
    <unit>`."""

    @model_validator(mode="after")
    def _whole(self) -> Roll:
        if (self.dice is None) == (self.chain is None):
            raise ValueError("a roll gives its dice, or a chain of dice, one of them")
        ways = [self.target is not None, self.table is not None, self.awaits is not None]
        if sum(ways) != 1:
            raise ValueError("a roll's outcome is a target (with passes and fails), a table, "
                             "or awaits (the players enter it): one of them")
        if (self.target is not None) != (self.passes is not None and self.fails is not None):
            raise ValueError("a target goes with passes and fails")
        if self.count is not None and (self.dice is None or not self.dice.startswith("d")):
            raise ValueError("count says how many of one die are thrown: dice is one die (d6)")
        if self.spend is not None and self.spend.to == "failing_dice" and self.each_die is None:
            raise ValueError("spend to failing_dice goes with each_die: the dice held one by one")
        return self
