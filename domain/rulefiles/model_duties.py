"""What a step owes (`owes:` of a step of a ruleset file): its duties, each a rule, the
players' words for it, who owes it, the units it concerns or while it is owed, and the
actions that discharge it. Compiled into `domain.duties.Duty` (duties.py); checked at load
(duties_checks.py). docs/rulesets/authoring.md, "Duties: what a step owes", explains them."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from domain.rulefiles.parts import Expression, Line, Name, Rule
from domain.rulefiles.parts import Part as _Part

MAX_DUTIES = 10  # (ours) the duties one step owes at most: a step asks a handful of things
OWNER = "owner"
SEATS = ("owner", "active", "inactive", "each", "referee")


class OwedDuty(_Part):
    """One thing a step owes: leaving the step waits for it, the match waits for whoever
    owes it, and they may take the actions that discharge it even out of their turn."""

    rule: Rule
    """The rule that owes it: the refusal to leave the step names it."""
    says: Annotated[str, Line, Field(min_length=1, max_length=200)]
    """What is owed, in the players' words, read after "to" ("roll for the weather"): the
    page says "North is to roll for the weather"."""
    by: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")] = "active"
    """Who owes it: `owner` (the owner of each unit it concerns, whoever's step it is: needs
    `units`), `active` (the side whose player-turn or run it is), `inactive`, `each` (every
    side), `referee`, or a declared role (the side holding it now)."""
    units: Expression | None = None
    """The units it concerns: an expression over the view and `unit` (each unit in play in
    turn) that holds for each unit concerned. Owed while at least one unit is concerned;
    with `by: owner`, each owner owes it for its own units."""
    while_: Expression | None = Field(default=None, alias="while")
    """While it is owed: an expression over the view and `side` (the side that owes it)
    that holds while it is owed. With `units` too, it must hold as well."""
    done_by: Annotated[tuple[Name, ...], Field(min_length=1, max_length=20)]
    """The action types that discharge it (declared under `actions`, or allowed in every
    step: `advance`, `record_roll`, ...); it is done when its test stops holding."""

    @model_validator(mode="after")
    def _said(self) -> OwedDuty:
        if self.units is None and self.while_ is None:
            raise ValueError("a duty says which units it concerns (units) or while it is "
                             "owed (while)")
        if self.by == OWNER and self.units is None:
            raise ValueError("a duty owed by each unit's owner (by: owner) says which units "
                             "it concerns (units)")
        return self


Owes = Annotated[tuple[OwedDuty, ...], Field(max_length=MAX_DUTIES)]

__all__ = ["MAX_DUTIES", "SEATS", "OwedDuty", "Owes"]
