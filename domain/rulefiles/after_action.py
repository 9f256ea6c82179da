"""What the service does after every action that made events (`after_action:` of a ruleset
file): effects on the units their `falls_on` names, read on the board the action left (a
routed unit whose suppression reaches its quality is eliminated, ES-4): the `Ruleset.react`
hook it builds, and its checks at load (its model is model_after.py).

(ours) It follows the actions only, not an undo or a redo (they restore a board the service
already followed), and its own events are not followed again (no chain of reactions)."""

from __future__ import annotations

from typing import Any

from domain.context import Emit
from domain.rulefiles.effects import Tracks, apply, effect_words
from domain.rulefiles.evaluate import Roles
from domain.rulefiles.expression_checks import Budget
from domain.rulefiles.model_after import AfterAction
from domain.rulefiles.model_rolls import UNIT_EFFECTS
from domain.rulefiles.problems import Near, Problem
from domain.rulefiles.rolls_checks import effects_problems
from domain.rulefiles.spend_checks import effect_expressions, listed
from domain.rulefiles.view import Declared, types
from domain.state import MatchState


def reactions(after: tuple[AfterAction, ...], tracks: Tracks, declared: Declared,
              roles: Roles) -> dict[str, Any]:
    """The `Ruleset.react` hook of the file's `after_action` (nothing when it has none)."""
    if not after:
        return {}
    view = types(declared)
    compiled = [(one, effect_words(list(one.effects), view, declared, roles)) for one in after]

    def react(state: MatchState, emit: Emit) -> None:
        left = emit.state  # the board the action left
        for one, words in compiled:
            for effect in one.effects:
                apply(effect, None, left, emit, one.rule, tracks, None, words)
    return {"react": react}


def check_after_action(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    """The names its effects give (`undeclared-name`), their expressions over the view, and
    an effect on a unit that names no units (`invalid-value`: no unit acts here)."""
    entries = data.get("after_action")
    declared = Declared.of(data)
    view = types(declared)
    problems: list[Problem] = []
    for path, one in listed(entries, ("after_action",)):
        effects = one.get("effects")
        problems += effects_problems(effects, (*path, "effects"), declared, near)
        problems += effect_expressions(listed(effects, (*path, "effects")), view, near, budget)
        for at, effect in listed(effects, (*path, "effects")):
            if any(k in UNIT_EFFECTS for k in effect) and not isinstance(
                    effect.get("falls_on"), dict):
                problems.append(Problem("invalid-value", at, "an effect on a unit, after an "
                                        "action, names its units (falls_on)"))
    return problems
