"""The checks at load of what a roll spends and says (model_spend.py, template.py): the
marker kind spent and the unit kinds that hold it (`undeclared-name`), the expressions of
`count`, `each_die`, an effect's `falls_on: {units}` and `activate` (over the view with the
rolling unit), and the words with placeholders (`purpose`, `of`, each outcome's `says`, an
activation's `group`: each placeholder an expression; `template-syntax`)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.template import AFTER, BEFORE, check_template
from domain.rulefiles.types import BOOL, INT, STRING, Ty, list_of
from domain.rulefiles.view import Declared


def check_spend(roll: dict[Any, Any], here: Path, outcomes: list[tuple[Path, dict[Any, Any]]],
                declared: Declared, view: dict[str, Ty], near: Near,
                budget: Budget) -> list[Problem]:
    problems: list[Problem] = []
    spend = roll.get("spend")
    if isinstance(spend, dict):
        marker = spend.get("marker")
        if isinstance(marker, str) and marker not in declared.markers:
            problems.append(undeclared("marker kind", marker, (*here, "spend", "marker"),
                                        sorted(declared.markers), near))
        holders = spend.get("holders")
        for index, kind in enumerate(holders if isinstance(holders, list) else ()):
            if isinstance(kind, str) and kind not in declared.kinds:
                problems.append(undeclared("unit kind", kind, (*here, "spend", "holders",
                                                                index),
                                            sorted(declared.kinds), near))
    problems += check_one(roll.get("count"), (*here, "count"), view, near, budget, INT)
    each = roll.get("each_die")
    if isinstance(each, dict):
        problems += check_one(each.get("at_least"), (*here, "each_die", "at_least"), view,
                              near, budget, INT)
    before, after = {**view, **BEFORE}, {**view, **AFTER}
    for key in ("purpose", "of"):
        problems += check_template(roll.get(key), (*here, key), before, near, budget)
    for path, outcome in outcomes:
        problems += check_template(outcome.get("says"), (*path, "says"), after, near, budget)
    first = roll.get("first")
    effects = [((*here, "first", i), e) for i, e in enumerate(
        first if isinstance(first, list) else ()) if isinstance(e, dict)]
    for path, outcome in outcomes:
        listed = outcome.get("effects")
        effects += [((*path, "effects", i), e) for i, e in enumerate(
            listed if isinstance(listed, list) else ()) if isinstance(e, dict)]
    return problems + effect_expressions(effects, view, near, budget)


def effect_expressions(effects: list[tuple[Path, dict[Any, Any]]], view: dict[str, Ty],
                       near: Near, budget: Budget) -> list[Problem]:
    """The expressions and words of effects: the units `falls_on` lists, an activation's
    units and group, and `when`."""
    problems: list[Problem] = []
    for path, effect in effects:
        falls_on, activate = effect.get("falls_on"), effect.get("activate")
        if isinstance(falls_on, dict):
            problems += check_one(falls_on.get("units"), (*path, "falls_on", "units"), view,
                                  near, budget, list_of(STRING))
        if isinstance(activate, dict):
            problems += check_one(activate.get("taking_part"),
                                  (*path, "activate", "taking_part"), view, near, budget,
                                  list_of(STRING))
            problems += check_template(activate.get("group"), (*path, "activate", "group"),
                                       view, near, budget)
        problems += check_one(effect.get("when"), (*path, "when"), view, near, budget, BOOL)
    return problems


def listed(value: Any, path: Path) -> list[tuple[Path, dict[Any, Any]]]:
    """The mappings of a list in a file, each with its place."""
    return [((*path, i), e) for i, e in enumerate(value if isinstance(value, list) else ())
            if isinstance(e, dict)]


def undeclared(what: str, name: str, path: Path, names: list[str], near: Near) -> Problem:
    meant = near(name, names)
    return Problem("undeclared-name", path, f"'{name}' is no {what} the file declares"
                   + (f"; did you mean '{meant}'?" if meant else ""))


__all__ = ["check_spend", "effect_expressions", "listed", "undeclared"]
