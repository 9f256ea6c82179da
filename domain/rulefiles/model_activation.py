"""Activating groups of units as data (`activation:` in a ruleset file): in its `step`, the
side whose turn it is activates one of its groups (`activate_battlegroup`), the units whose
attribute `group` names it within the side, with the units of no group it names beside them
(auxiliaries, each once a turn); units in the box `held` cannot act and are left out, and a
group none of whose units can act cannot be activated. The activation's units carry the
status `flag` until the marker moves; while the side's activation lasts only they act (move,
rally, or roll naming units), and before it activates no unit does.
`domain/rulefiles/activation.py` makes it the referee's."""

from __future__ import annotations

from domain.rulefiles.parts import Name, Rule
from domain.rulefiles.parts import Part as _Part


class Activation(_Part):
    """BG-7: battlegroups by the attribute `battlegroup`, the `reserve` box held back."""

    rule: Rule
    """The rule the activation and its refusals name."""
    step: Name
    """The id of the step in which a side activates a group (`activate_battlegroup`)."""
    group: Name
    """The unit attribute naming a unit's group within its side (none: an auxiliary)."""
    held: Name | None = None
    """A box whose units cannot act (left out of their group's activation)."""
    flag: Name = "acting"
    """The status the activation's units carry until the marker moves."""
    auxiliaries: bool = True
    """Units of no group may be named with a group's activation, once a turn each."""
