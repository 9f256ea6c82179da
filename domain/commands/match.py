"""Creating a match: its sides, its set-up's units and decks, its options and clock, and
the size limits checked at creation and on an imported `MatchCreated` alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Annotated

from pydantic import Field, StrictBool, model_validator

from domain.commands.base import Command, Id, Short, Value
from domain.commands.units import UnitSpec
from domain.events.clock import TimeControl
from domain.state import Unit

FEWEST_SIDES, MOST_SIDES = 2, 8  # a match's sides, whatever its ruleset (each may say less)


class SideSpec(Command):
    id: Id
    name: Annotated[str, Field(min_length=1, max_length=120)]


# A match's size (docs/scenarios.md): at creation, and as units are deployed or split off.
UNITS_PER_SIDE = 200
UNITS_IN_ALL = 400


def past_size_limits(units: Sequence[UnitSpec | Unit]) -> str | None:
    """What makes a set-up's units too many for a match (docs/scenarios.md, size limits),
    or None: checked at creation and on an imported `MatchCreated` alike."""
    if len(units) > UNITS_IN_ALL:
        return f"units: at most {UNITS_IN_ALL} units in all ({len(units)} given)"
    for side, count in Counter(u.side for u in units).items():
        if count > UNITS_PER_SIDE:
            return f"units: at most {UNITS_PER_SIDE} units a side ('{side}' has {count})"
    return None


class CreateMatch(Command):
    """What `create_match` needs: ruleset, scenario, sides and options (`casual`, ...), and
    the scenario's set-up: the units on the table and each side's deck of cards. A scenario
    file is this document (see docs/scenarios.md)."""

    ruleset: Short = "freeform"
    # a ruleset file the service holds, by its content hash (docs/rulesets/authoring.md):
    # the match is played under it, and its first event pins the hash
    ruleset_hash: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] | None = None
    scenario: Annotated[str, Field(min_length=1, max_length=200)]
    sides: Annotated[list[SideSpec], Field(min_length=FEWEST_SIDES, max_length=MOST_SIDES)]
    casual: StrictBool = False
    options: Annotated[dict[Id, Value | list[Short] | Annotated[dict[Id, Short], Field(max_length=1000)]],
                       Field(max_length=32)] = (
        Field(default_factory=dict)
    )
    units: Annotated[list[UnitSpec], Field(max_length=UNITS_IN_ALL)] = Field(
        default_factory=list)
    decks: Annotated[dict[Id, Annotated[list[Short], Field(max_length=200)]],
                     Field(max_length=8)] = Field(default_factory=dict)
    # time controls chosen at creation: the clock starts with the match (docs/clock.md)
    clock: Annotated[dict[Id, TimeControl], Field(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _set_up_for_these_sides(self) -> CreateMatch:
        sides = {s.id for s in self.sides}
        if self.clock is not None and set(self.clock) != sides:
            raise ValueError("clock: give a time control for every side, and only for them")
        for i, unit in enumerate(self.units):
            if unit.side not in sides:
                raise ValueError(f"units[{i}] ({unit.id}): there is no side '{unit.side}'")
        too_many = past_size_limits(self.units)
        if too_many:
            raise ValueError(too_many)
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise ValueError("units: unit ids must be distinct")
        for side in self.decks:
            if side not in sides:
                raise ValueError(f"decks: there is no side '{side}'")
        return self
