"""What an action does, said as data (`does:` of an action in a ruleset file), in place of
the core's handling of it: its own event (a move's, a removal's) naming the step's rule or
the action's, the dice it throws unit by unit (the last one waiting for the players'
result), the effects before and after, and a casualty marker where a removed unit stood.
`domain/rulefiles/does.py` carries it out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from domain.rulefiles.model_rolls import Dice, Effect
from domain.rulefiles.model_spend import Template
from domain.rulefiles.parts import Expression, Name, Rule
from domain.rulefiles.parts import Part as _Part
from domain.rulefiles.types import INT, list_of

# the actions whose own event `own` makes (a move's, a removal's, an announcement's)
OWN = ("move_unit", "remove_unit", "announce_reinforcements")
THROWN = {"faces": list_of(INT)}  # what the `when` of its last effects reads besides the view


class ActionDie(_Part):
    """One die the action throws for the unit whose id `unit` gives, or one for each unit
    whose id the list `each` gives (in its order; `each` in its words is that id), with
    its `modifier` and its `purpose` (words with placeholders), only when `when` holds,
    naming its own `rule` if it gives one. With table dice, the action's `results` hold
    one face per die, in the order they are thrown."""

    unit: Expression | None = None
    """An expression giving the id of the unit the die is thrown for."""
    each: Expression | None = None
    """Instead of `unit`: a list of ids, one die for each (`each` in its words)."""
    dice: Dice = "d6"
    """The die, or dice thrown together as one roll (`2d6`)."""
    modifier: Expression = "0"
    """A whole-number expression added to the die."""
    purpose: Template
    """The die's purpose (words with placeholders)."""
    when: Expression | None = None
    """An expression: the die is thrown only when it holds."""
    rule: Rule | None = None
    """The rule its roll names (and tags the unit's facts with: `<rule>:<unit>`), if not the
    action's; the players' own `roll_dice` may not name it."""

    @model_validator(mode="after")
    def _one(self) -> ActionDie:
        if (self.unit is None) == (self.each is None):
            raise ValueError("a die is thrown for a unit, or for each unit of a list: unit "
                             "or each, one of them")
        return self


class Casualty(_Part):
    """The unit the action removes leaves a `marker` where it stood (its hex or its place
    on the table) when the action's reason is one of `reasons`."""

    marker: Name
    """The marker kind left where the unit stood."""
    reasons: Annotated[tuple[Literal["destroyed", "eliminated", "surrendered", "withdrawn",
                                     "casualty"], ...], Field(min_length=1)]
    """The removal reasons that leave it."""


class Does(_Part):
    """What the action does, in order: the `first` effects, its own event (`own`: a move's
    `UnitMoved`, a removal's `UnitRemoved`), its `dice` (the last awaiting the players'
    result when `awaits` is given), then its `effects`; each naming the action's rule, or
    the current step's (`names: step`). Whether each of the `effects` is made (`when`) also
    reads `faces`, the faces of the dice thrown, in order."""

    names: Literal["action", "step"] = "action"
    """Whose rule its events name: the action's, or the current step's."""
    first: Annotated[tuple[Effect, ...], Field(max_length=20)] = ()
    """Effects made first."""
    own: bool = False
    """Whether it makes its own event (a move's `UnitMoved`, a removal's `UnitRemoved`, an
    announcement's `ReinforcementsAnnounced`)."""
    casualty: Casualty | None = None
    """A marker a removal leaves where the unit stood."""
    dice: Annotated[tuple[ActionDie, ...], Field(max_length=10)] = ()
    """The dice it throws, in order."""
    awaits: Template | None = None
    """What the last die waits for the players to enter (words with placeholders)."""
    effects: Annotated[tuple[Effect, ...], Field(max_length=20)] = ()
    """Effects made last."""

    @model_validator(mode="after")
    def _whole(self) -> Does:
        if self.awaits is not None and not self.dice:
            raise ValueError("awaits is said by the last die: give the dice")
        if self.casualty is not None and not self.own:
            raise ValueError("a casualty marker is left by the removal the action makes: own")
        return self
