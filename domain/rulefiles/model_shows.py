"""What the service does as the marker arrives at a step, what the page says a step waits
for, and what it shows for a unit (`on_enter`, `expects`, `unit_info` in a ruleset file).
`domain/rulefiles/arrive.py` and `shows.py` build them."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from domain.rulefiles.model_rolls import Effect
from domain.rulefiles.model_spend import Template
from domain.rulefiles.parts import Expression, Name, Rule
from domain.rulefiles.parts import Part as _Part

Steps = Annotated[tuple[Name, ...], Field(max_length=60)]


class Arrive(_Part):
    """As the marker arrives at one of `steps`: unless `unless` holds, the marker moves on at
    once past the steps `passes` names (a `PhaseAdvanced` naming `rule`, and what the file
    does on arriving where it lands), and the `effects` are made, each on the units its
    `falls_on` names or on the match."""

    steps: Annotated[tuple[Name, ...], Field(min_length=1, max_length=60)]
    """The steps it is done on arriving at."""
    rule: Rule
    """The rule its events name."""
    unless: Expression | None = None
    """An expression: nothing is done when it holds."""
    passes: Steps = ()
    """The steps the marker moves on past at once."""
    effects: Annotated[tuple[Effect, ...], Field(max_length=20)] = ()
    """Effects made as the marker arrives (on the units their `falls_on` names)."""

    @model_validator(mode="after")
    def _does(self) -> Arrive:
        if not self.passes and not self.effects:
            raise ValueError("an arrival moves the marker on (passes) or makes effects")
        return self


class Expect(_Part):
    """What a step waits for, in the players' words (with placeholders): said in `steps`
    (all when none is named) when `when` holds; the first that does is said."""

    steps: Steps = ()
    """The steps it is said in (all when none is named)."""
    when: Expression | None = None
    """An expression that must hold for it."""
    says: Template
    """What is said (words with placeholders)."""


class Shown(_Part):
    """What the page shows for a unit of one of `kinds` (when `when` holds): each value an
    expression over the view, `unit` being that unit."""

    kinds: Annotated[tuple[Name, ...], Field(min_length=1, max_length=40)]
    """The unit kinds it is shown for."""
    when: Expression | None = None
    """An expression that must hold for it."""
    shows: Annotated[dict[Name, Expression], Field(min_length=1, max_length=20)]
    """Each value shown, an expression over the view (`unit`: that unit)."""
