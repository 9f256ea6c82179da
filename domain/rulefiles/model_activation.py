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
    step: Name
    group: Name
    held: Name | None = None
    flag: Name = "acting"
    auxiliaries: bool = True
