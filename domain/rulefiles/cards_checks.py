"""The checks of a file's `cards:` and `activation:` beyond their shape: a hand size is a
whole number over the view with `side` (checked as every expression); the step each names
is one of the file's (`undeclared-name`); the actions they make are declared under
`actions` (`undeclared-action`)."""

from __future__ import annotations

from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.types import INT, STRING
from domain.rulefiles.view import Declared, types

MADE = {"cards": ("draw_cards",), "activation": ("activate_battlegroup",)}


def check_cards(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    declared = Declared.of(data)
    problems: list[Problem] = []
    for name, actions in MADE.items():
        block = data.get(name)
        if not isinstance(block, dict):
            continue
        if name == "cards":
            problems += check_one(block.get("hand_size"), (name, "hand_size"),
                                  {**types(declared), "side": STRING}, near, budget, INT)
        problems += _step(block.get("step"), (name, "step"), declared, near)
        problems += [Problem("undeclared-action", (name,),
                             f"{name} is played with '{action}', which the file's actions do "
                             "not declare") for action in actions
                     if action not in declared.actions]
    return problems


def _step(step: Any, path: Path, declared: Declared, near: Near) -> list[Problem]:
    if not isinstance(step, str) or step in declared.steps:
        return []
    meant = near(step, declared.steps)
    return [Problem("undeclared-name", path, f"'{step}' is no step the file's sequence holds"
                    + (f"; did you mean '{meant}'?" if meant else ""))]


def conditions_made(data: dict[Any, Any]) -> frozenset[str]:
    """The conditions the blocks make (`cards.filled`), which steps may read as declared."""
    cards = data.get("cards")
    filled = cards.get("filled") if isinstance(cards, dict) else None
    return frozenset({filled} if isinstance(filled, str) else ())
