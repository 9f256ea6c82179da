"""What a roll may spend and how its dice may be read one by one (`rolls:` in a ruleset
file): a resource spent on the roll (`spend`), each die held against a number of its own
(`each_die`), how many dice the action asks for (`count`), and the activation of a unit
(`activate`, an effect). `domain/rulefiles/spend.py` resolves them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from domain.rulefiles.parts import Expression, Line, Name
from domain.rulefiles.parts import Part as _Part

# Words with {expression} placeholders (domain/rulefiles/template.py)
Template = Annotated[str, Line, Field(min_length=1, max_length=300)]


class Spend(_Part):
    """A resource the roller may spend on the roll: markers of the kind `marker` taken off
    the unit the action names as `leader_id`, as many as the action's `leadership` (0: none
    spent). That unit must be one of `holders` (unit kinds) on the rolling unit's side and
    carry that many. They come off before the dice are thrown (a `MarkerRemoved`), and each
    adds 1: to the total (`to: total`), or to the failing die closest to its number
    (`to: failing_dice`, with `each_die`)."""

    marker: Name
    """The marker kind spent (`leadership`)."""
    holders: Annotated[tuple[Name, ...], Field(min_length=1, max_length=20)]
    """The unit kinds whose markers may be spent (the unit `leader_id` names is one)."""
    to: Literal["total", "failing_dice"] = "total"
    """Where each spent marker adds 1: the total, or the failing die closest to its number."""


class EachDie(_Part):
    """Each die is held against its own number: it passes at `at_least` (an expression)
    or more. The roll's target then counts the dice that pass (`passed`), not their total."""

    at_least: Expression
    """The number each die passes at (an expression: `unit.attributes.qv`)."""


class Activate(_Part):
    """The rolling unit activates, with the units `taking_part` names (an expression: the
    list of their ids), as the group `group` (words with placeholders): a `UnitsActivated`
    of the rolling unit's side in this run of the phase."""

    group: Template
    """The group it activates as (words with placeholders: `wing:{unit.attributes.wing}`)."""
    taking_part: Expression = "[]"
    """An expression giving the ids of the units activated with it."""
