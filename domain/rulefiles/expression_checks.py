"""The checks of a file's expressions (its conditions' `when`, its guards' `when`), each
over the view of the match as the file declares it, every problem placed inside the
expression (docs/rulesets/authoring.md lists the checks; `expression` says them)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression import check_expression
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.types import BOOL, Ty
from domain.rulefiles.view import Declared, types


def check_expressions(data: dict[Any, Any], near: Near) -> list[Problem]:
    declared = Declared.of(data)
    problems: list[Problem] = []
    conditions = data.get("conditions")
    view = types(declared)
    for name, condition in conditions.items() if isinstance(conditions, dict) else ():
        if isinstance(condition, dict):
            problems += _one(condition.get("when"), ("conditions", name, "when"), view, near)
    guards = data.get("guards")
    for index, guard in enumerate(guards if isinstance(guards, list) else ()):
        if not isinstance(guard, dict):
            continue
        actions = guard.get("actions")
        chosen = tuple(a for a in actions if isinstance(a, str)) if isinstance(
            actions, list) else ()
        for at, action in enumerate(chosen):
            if action not in declared.actions:
                problems.append(Problem("undeclared-action", ("guards", index, "actions", at),
                                        f"the guard names '{action}', which the file's "
                                        "actions do not declare"))
        known = tuple(a for a in chosen if a in declared.actions)
        problems += _one(guard.get("when"), ("guards", index, "when"),
                         types(declared, known), near)
    return problems


def _one(text: Any, path: Path, view: dict[str, Ty], near: Near) -> list[Problem]:
    if not isinstance(text, str) or not text:
        return []  # its shape's problem, said by the model's checks
    return [Problem(flaw.check, path, flaw.message,
                    within=(text[:flaw.offset].count(flaw.token) if flaw.token else 0,
                            flaw.token))
            for flaw in check_expression(text, view, BOOL, near)]
