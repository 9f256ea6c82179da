"""What a unit is made of in a command: a scenario's unit with its id (`UnitSpec`), and a
unit deployed during play whose id the service may make (`NewUnit`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from domain.commands.base import Command, Count, Flags, Id, Int, Short, Value
from domain.state import MoraleDie, Position, Unit


class _UnitFields(Command):
    """What a unit is, but for its id (`UnitSpec` gives one; `NewUnit` may leave it out)."""

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

    def as_unit(self, unit_id: str) -> Unit:
        return Unit(**{**self.model_dump(exclude={"id"}), "id": unit_id,
                       "status": tuple(sorted(set(self.status)))})


class UnitSpec(_UnitFields):
    """A unit of a scenario's set-up, with the id the scenario gives it."""

    id: Id

    def to_unit(self) -> Unit:
        return self.as_unit(self.id)


class NewUnit(_UnitFields):
    """A unit deployed during play: the players name it; its `id` may be left out, and the
    service then makes one (`<side>-1`, `<side>-2`, ...: docs/api.md)."""

    id: Id | None = None
