"""The checks at load of a file's `on_enter`, `expects` and `unit_info` (model_shows.py),
and of the words with placeholders a guard `says` and a roll is `refused` with:
the steps and unit kinds they name (`undeclared-name`), their expressions and words with
placeholders over the view, the names their effects give, and an effect on a unit that
names no units (`invalid-value`: no unit rolls as the marker arrives)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.model_rolls import UNIT_EFFECTS
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.rolls_checks import effects_problems
from domain.rulefiles.spend_checks import effect_expressions, listed, undeclared
from domain.rulefiles.template import check_template
from domain.rulefiles.types import BOOL, DYN
from domain.rulefiles.view import Declared, types


def check_shows(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    declared = Declared.of(data)
    view = types(declared)
    problems: list[Problem] = []

    def names(listed: Any, path: Path, what: str, known: frozenset[str]) -> None:
        for index, name in enumerate(listed if isinstance(listed, list) else ()):
            if isinstance(name, str) and name not in known:
                problems.append(undeclared(what, name, (*path, index), sorted(known), near))

    for index, arrive in _entries(data, "on_enter"):
        here: Path = ("on_enter", index)
        names(arrive.get("steps"), (*here, "steps"), "step", declared.steps)
        names(arrive.get("passes"), (*here, "passes"), "step", declared.steps)
        problems += check_one(arrive.get("unless"), (*here, "unless"), view, near, budget, BOOL)
        effects = arrive.get("effects")
        problems += effects_problems(effects, (*here, "effects"), declared, near)
        problems += effect_expressions(listed(effects, (*here, "effects")), view, near,
                                       budget)
        for at, effect in enumerate(effects if isinstance(effects, list) else ()):
            if not isinstance(effect, dict):
                continue
            if any(k in UNIT_EFFECTS for k in effect) and not isinstance(
                    effect.get("falls_on"), dict):
                problems.append(Problem("invalid-value", (*here, "effects", at), "an effect "
                                        "on a unit, as the marker arrives, names its units "
                                        "(falls_on): no unit rolls"))
    for index, expect in _entries(data, "expects"):
        here = ("expects", index)
        names(expect.get("steps"), (*here, "steps"), "step", declared.steps)
        problems += check_one(expect.get("when"), (*here, "when"), view, near, budget, BOOL)
        problems += check_template(expect.get("says"), (*here, "says"), view, near, budget)
    for index, guard in _entries(data, "guards"):
        actions = guard.get("actions")
        chosen = tuple(a for a in actions if isinstance(a, str) and a in declared.actions
                       ) if isinstance(actions, list) else ()
        problems += check_template(guard.get("says"), ("guards", index, "says"),
                                   types(declared, chosen), near, budget)
    rolls = data.get("rolls")
    for name, roll in rolls.items() if isinstance(rolls, dict) else ():
        if isinstance(roll, dict):
            problems += check_template(roll.get("refused"), ("rolls", name, "refused"),
                                       types(declared, ("rule_roll",)), near, budget)
    with_unit = types(declared, ())
    for index, shown in _entries(data, "unit_info"):
        here = ("unit_info", index)
        names(shown.get("kinds"), (*here, "kinds"), "unit kind", declared.kinds)
        problems += check_one(shown.get("when"), (*here, "when"), with_unit, near, budget,
                              BOOL)
        values = shown.get("shows")
        for name, text in values.items() if isinstance(values, dict) else ():
            problems += check_one(text, (*here, "shows", name), with_unit, near, budget, DYN)
    return problems


def _entries(data: dict[Any, Any], key: str) -> list[tuple[int, dict[Any, Any]]]:
    listed = data.get(key)
    return [(i, e) for i, e in enumerate(listed if isinstance(listed, list) else ())
            if isinstance(e, dict)]
