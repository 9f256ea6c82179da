"""The checks of a file's expressions (its conditions' `when`, its guards' `when`), each
over the view of the match as the file declares it, every problem placed inside the
expression (docs/rulesets/authoring.md lists the checks; `expression` says them)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression import check_expression
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.types import BOOL, Ty
from domain.rulefiles.view import Declared, types

MAX_FILE_CHARS = 10_000  # the characters of all a file's expressions together


class Budget:
    """(ours) The characters of expressions one file may hold, so that a file of hundreds
    of long expressions costs no more to refuse than one (each is parsed by a parser in
    Python: 10 to 20 ms for one of 500 characters); the extended sequence's hold 710."""

    def __init__(self) -> None:
        self.left = MAX_FILE_CHARS
        self.said = False

    def spend(self, text: str, path: Path) -> list[Problem]:
        """Nothing when `text` fits in what is left; else the one problem (said once) and
        every expression from there on left unchecked."""
        self.left -= len(text)
        if self.left >= 0 or self.said:
            return []
        self.said = True
        return [Problem("expression-too-large", path, "the file's expressions hold more "
                        f"than {MAX_FILE_CHARS} characters in all; the rest are not read")]

    @property
    def spent(self) -> bool:
        return self.left < 0


def check_expressions(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    declared = Declared.of(data)
    problems: list[Problem] = []
    conditions = data.get("conditions")
    view = types(declared)
    for name, condition in conditions.items() if isinstance(conditions, dict) else ():
        if isinstance(condition, dict):
            problems += check_one(condition.get("when"), ("conditions", name, "when"), view,
                                  near, budget)
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
        problems += check_one(guard.get("when"), ("guards", index, "when"),
                              types(declared, known), near, budget)
    return problems


def check_one(text: Any, path: Path, view: dict[str, Ty], near: Near, budget: Budget,
         wanted: Ty = BOOL) -> list[Problem]:
    """The problems of one expression, placed inside it."""
    if not isinstance(text, str) or not text:
        return []  # its shape's problem, said by the model's checks
    over = budget.spend(text, path)
    if over or budget.spent:
        return over
    return [Problem(flaw.check, path, flaw.message,
                    within=(text[:flaw.offset].count(flaw.token) if flaw.token else 0,
                            flaw.token))
            for flaw in check_expression(text, view, wanted, near)]
