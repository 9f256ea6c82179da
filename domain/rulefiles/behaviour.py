"""What a ruleset file makes the referee do beyond its sequence of play: its conditions, its
guards, its rolls and their effects, as the `Ruleset` fields that carry them.

`behaviour(file)` gives those fields (keyword arguments of `domain.rulesets.base.Ruleset`)
built from what the file declares. A file of format version 1 declares none yet: its
sequence is refereed as the sequence alone (who acts, what each step allows)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.model import RulesetFile


def behaviour(file: RulesetFile) -> dict[str, Any]:
    """The `Ruleset` fields the file's declarations build (none yet)."""
    return {}
