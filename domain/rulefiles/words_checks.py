"""The checks of what a step `expects` when it is computed (a list of cases): each case's
`when` (true or false) and `says` (a text or a list of texts), over the view, as every
expression is checked."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.types import BOOL, DYN
from domain.rulefiles.view import Declared, types


def check_words(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    view = types(Declared.of(data))
    problems: list[Problem] = []
    for path, step in _steps(data.get("sequence"), ("sequence",)):
        cases = step.get("expects")
        for index, case in enumerate(cases if isinstance(cases, list) else ()):
            if isinstance(case, dict):
                here = (*path, "expects", index)
                problems += check_one(case.get("when"), (*here, "when"), view, near, budget,
                                      BOOL)
                problems += check_one(case.get("says"), (*here, "says"), view, near, budget,
                                      DYN)
    return problems


def _steps(nodes: Any, path: Path) -> list[tuple[Path, dict[Any, Any]]]:
    out: list[tuple[Path, dict[Any, Any]]] = []
    for index, node in enumerate(nodes if isinstance(nodes, list) else ()):
        if isinstance(node, dict) and "steps" in node:
            out += _steps(node.get("steps"), (*path, index, "steps"))
        elif isinstance(node, dict):
            out.append(((*path, index), node))
    return out
