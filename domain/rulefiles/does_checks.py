"""The checks at load of what a file's actions do (`does:`, model_does.py): their dice's
units, modifiers and words, their effects (the names they give, their expressions and
words) over the view with the action (whether each of the last effects is made with the
dice's `faces` too), the casualty marker's kind (`undeclared-name`), and
`own` on an action that has no own event to make (`invalid-value`)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.model_does import OWN, THROWN
from domain.rulefiles.problems import Near, Problem
from domain.rulefiles.rolls_checks import effects_problems
from domain.rulefiles.spend_checks import effect_expressions, listed, undeclared
from domain.rulefiles.template import check_template
from domain.rulefiles.types import BOOL, DYN, INT, STRING
from domain.rulefiles.view import COMMANDS, Declared, types


def check_does(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    actions = data.get("actions")
    declared = Declared.of(data)
    problems: list[Problem] = []
    for name, action in actions.items() if isinstance(actions, dict) else ():
        does = action.get("does") if isinstance(action, dict) else None
        if not isinstance(does, dict) or name not in COMMANDS:
            continue
        here = ("actions", name, "does")
        view = types(declared, (name,))
        with_each = {**view, "each": STRING}
        if does.get("own") is True and name not in OWN:
            problems.append(Problem("invalid-value", (*here, "own"), f"'{name}' has no own "
                                    f"event to make: own is for {', '.join(OWN)}"))
        casualty = does.get("casualty")
        marker = casualty.get("marker") if isinstance(casualty, dict) else None
        if isinstance(marker, str) and marker not in declared.markers:
            problems.append(undeclared("marker kind", marker, (*here, "casualty", "marker"),
                                       sorted(declared.markers), near))
        for path, die in listed(does.get("dice"), (*here, "dice")):
            for key in ("unit", "each"):
                problems += check_one(die.get(key), (*path, key), view, near, budget, DYN)
            problems += check_one(die.get("modifier"), (*path, "modifier"), with_each, near,
                                  budget, INT)
            problems += check_one(die.get("when"), (*path, "when"), view, near, budget, BOOL)
            problems += check_template(die.get("purpose"), (*path, "purpose"), with_each,
                                       near, budget)
        problems += check_template(does.get("awaits"), (*here, "awaits"), view, near, budget)
        for key in ("first", "effects"):
            effects = listed(does.get(key), (*here, key))
            problems += effects_problems(does.get(key), (*here, key), declared, near)
            if key == "effects":  # whether each is made reads the dice's faces too
                problems += [p for path, effect in effects for p in check_one(
                    effect.get("when"), (*path, "when"), {**view, **THROWN}, near, budget,
                    BOOL)]
                effects = [(path, {k: v for k, v in effect.items() if k != "when"})
                           for path, effect in effects]
            problems += effect_expressions(effects, view, near, budget)
    return problems
