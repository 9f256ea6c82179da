"""What a step owes, as data: `Duty` (declared by a step of the sequence of play) and
`Owed` (one duty owed now, by one seat).

A ruleset declares three things and the table derives everything else from them: what is
forbidden (guards: `decide` refuses), what is possible (each action input's domain: the
legal actions) and what is owed (this module). A step's `owes` lists its duties:

- `by`: who owes it. `owner`: the owner of each unit the duty concerns; `active`,
  `inactive` or a role: the side the step's words name now (as `acting` does); `each`:
  every side; `referee`.
- `units`: the name of a unit test (`Ruleset.unit_tests`): the units the duty concerns,
  each one owed (AA-3: every unit whose wounds pass its d4 splits or is removed). Owed
  while at least one unit passes the test.
- `owed_while`: the name of a side test (`Ruleset.side_tests`), read for each side that
  owes it: the duty is owed while it holds (ES-1: the weather is still to be rolled).
- `done_by`: the action types that discharge it (`split_unit`, `remove_unit`).
- `rule` and `says`: the rule that owes it and what is owed, in the players' words, read
  after "to" ("roll for the weather").

A duty is discharged when its test no longer holds: the data says what "done" is, the
actions it names say how. `domain.owed` reads the duties of the current step from a state;
from that one reading come whose turn it is (`domain.waiting`), the board's `owed`,
leaving a step (refused with the duty's rule while anything is owed), who may act out of
turn (a seat that owes a duty may take the actions that discharge it: South removes its own
unit after North's attack) and the standing pass (it never passes a duty).

Pure data: it imports nothing of the domain, so the sequence of play can hold it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

OWNER = "owner"
EACH = "each"


class Duty(BaseModel):
    """One thing a step owes (see the module's text)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    says: str = Field(min_length=1, max_length=300)
    done_by: tuple[str, ...] = Field(min_length=1)
    by: str = "active"  # owner | active | inactive | each | referee | a role
    units: str | None = None  # a unit test's name: the units it concerns
    owed_while: str | None = None  # a side test's name: owed while it holds for the side

    @model_validator(mode="after")
    def _said(self) -> Duty:
        if self.units is None and self.owed_while is None:
            raise ValueError(f"duty {self.rule}: say which units it concerns (units) or while "
                             "it is owed (owed_while)")
        if self.by == OWNER and self.units is None:
            raise ValueError(f"duty {self.rule}: owed by each unit's owner needs units")
        return self


@dataclass(frozen=True, slots=True)
class Owed:
    """A duty owed now by one seat (a side id, or `referee`), with the units it concerns."""

    seat: str
    rule: str
    says: str
    done_by: tuple[str, ...]
    units: tuple[str, ...] = ()

    def discharges(self, kind: str) -> bool:
        """Whether an action of type `kind` is one that discharges it."""
        return kind in self.done_by
