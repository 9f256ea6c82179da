"""The checks of a file's `initiative:` beyond its shape: its `bonus`, a whole number over
the view with `side` (the side it is read for), as every expression is checked; and the
action it makes, `roll_initiative`, declared under `actions` (`undeclared-action`)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Problem
from domain.rulefiles.types import INT, STRING
from domain.rulefiles.view import Declared, types


def check_initiative(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    block = data.get("initiative")
    if not isinstance(block, dict):
        return []
    declared = Declared.of(data)
    problems = check_one(block.get("bonus"), ("initiative", "bonus"),
                         {**types(declared), "side": STRING}, near, budget, INT)
    if "roll_initiative" not in declared.actions:
        problems.append(Problem("undeclared-action", ("initiative",),
                                "the initiative is rolled with 'roll_initiative', which the "
                                "file's actions do not declare"))
    return problems
