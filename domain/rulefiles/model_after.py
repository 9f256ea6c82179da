"""What the service does after every action that made events (`after_action:` of a ruleset
file). `domain/rulefiles/after_action.py` builds and checks it."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from domain.rulefiles.model_rolls import Effect
from domain.rulefiles.parts import Part, Rule


class AfterAction(Part):
    """After every action that made events: the `effects`, each on the units its `falls_on`
    names (read on the board the action left), naming `rule`."""

    rule: Rule
    """The rule its events name."""
    effects: Annotated[tuple[Effect, ...], Field(min_length=1, max_length=20)]
    """Effects made after the action (on the units their `falls_on` names, or on the match)."""
