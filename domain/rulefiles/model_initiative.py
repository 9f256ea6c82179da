"""The initiative as data (`initiative:` in a ruleset file): every side throws a d6 and adds
its `bonus` (a whole-number expression over the view, read for each side: `side`), the
sides are ranked best first, sides on the same total stay tied and re-roll among
themselves (the rule `reroll_rule`) until every tie is broken; with `lone_natural`, a face
thrown by one side alone comes first whatever the totals; with `handover` (a rule), the
side that won may hand first place to the side that came second (`pass_initiative`), once
a turn, until it has said it is done. `domain/rulefiles/initiative.py`
makes it the action `roll_initiative` through the core's own procedure
(`domain.rulesets.base.initiative`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from domain.rulefiles.parts import Expression, Rule
from domain.rulefiles.parts import Part as _Part


class Initiative(_Part):
    """BG-2..BG-4 (`bonus`: the best CV on the table, `lone_natural: 6`); WC-1 (`bonus`:
    the CO's LV, ranked by totals alone)."""

    rule: Rule
    """The rule the initiative is rolled under."""
    reroll_rule: Rule | None = None  # the rule a re-roll among tied sides names (`rule`)
    """The rule a re-roll among tied sides names (default: `rule`)."""
    bonus: Expression = "0"  # added to each side's die; `side` is the side it is read for
    """A whole-number expression added to each side's die, read for each side (`side`)."""
    lone_natural: Annotated[int, Field(ge=1, le=6)] | None = None
    """A face that, thrown by one side alone, comes first whatever the totals."""
    handover: Rule | None = None
    """The rule under which the side that won may hand first place to the second
    (`pass_initiative`), once a turn."""
