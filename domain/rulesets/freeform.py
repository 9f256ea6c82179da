"""`freeform`: any action in any step; the phases are the match's option `phases`.

A ledger with a turn marker and nothing else: usable for any game before its own ruleset
lands. Every step is optional, so `advance` may jump to any later step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import InvalidAction
from domain.rulesets.base import Ruleset, Sides
from domain.sequence import SequenceOfPlay, Step

DEFAULT_PHASES = ("setup", "movement", "combat", "end")


def freeform(options: Mapping[str, Any]) -> Ruleset:
    phases = options.get("phases") or DEFAULT_PHASES
    if (
        not isinstance(phases, (list, tuple))
        or not 1 <= len(phases) <= 50
        or not all(isinstance(p, str) and p.isidentifier() for p in phases)
        or len(set(phases)) != len(phases)
    ):
        raise InvalidAction(
            "option 'phases' must be a list of 1 to 50 distinct names (letters, digits, _)",
            rule="core-ruleset",
        )
    sequence = SequenceOfPlay(
        phases=tuple(
            Step(id=name, title=name.replace("_", " ").title(), optional=True)
            for name in phases
        )
    )
    return Ruleset(id="freeform", version=1, title="Freeform", sequence=sequence,
                   sides=Sides())  # any number a match may have
