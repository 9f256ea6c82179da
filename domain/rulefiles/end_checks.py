"""The checks of a file's `scoring` and `end` beyond their shape: their expressions (a
scoring's `points`, a whole number over the view with `side`, the side it is read for; an
end's `when`, true or false) and the step a scoring `enter`s (`undeclared-name`)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Problem
from domain.rulefiles.types import BOOL, INT, STRING
from domain.rulefiles.view import Declared, types


def check_ending(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    declared = Declared.of(data)
    problems: list[Problem] = []
    scoring = data.get("scoring")
    view = {**types(declared), "side": STRING}
    for index, entry in enumerate(scoring if isinstance(scoring, list) else ()):
        if not isinstance(entry, dict):
            continue
        here = ("scoring", index)
        problems += check_one(entry.get("points"), (*here, "points"), view, near, budget, INT)
        step = entry.get("enter")
        if isinstance(step, str) and step not in declared.steps:
            meant = near(step, declared.steps)
            problems.append(Problem("undeclared-name", (*here, "enter"),
                                    f"'{step}' is no step the file's sequence holds"
                                    + (f"; did you mean '{meant}'?" if meant else "")))
    end = data.get("end")
    if isinstance(end, dict):
        problems += check_one(end.get("when"), ("end", "when"), types(declared), near, budget,
                              BOOL)
    return problems
