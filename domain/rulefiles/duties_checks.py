"""The checks at load of each step's duties (`owes:`, model_duties.py), beyond their shape,
each placed at the field it is about:

- `units` and `while` are expressions that hold or not (`expression-type`, ...): `units`
  reads the view and `unit` (each unit in turn), `while` the view and `side`;
- `by` is `owner`, `active`, `inactive`, `each`, `referee` or a role the file's sides
  declare (`undeclared-role`);
- `done_by` names action types the file declares or ones every step allows
  (`undeclared-action`);
- `never-discharged`: a duty none of whose `done_by` the step allows: whoever owes it could
  never do it there, and the step would never be left.

And the warning `unsaid-leave-when`: a step that waits for a condition (`leave_when`) but
owes nothing, so nobody is told what leaving it waits for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.rulefiles.duties import side_view, unit_view
from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.model_duties import SEATS
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.view import Declared

# the action types every step allows (domain.decide.ALWAYS_ALLOWED)
EVERY_STEP = ("advance", "record_roll", "add_note", "open_dispute", "end_match", "concede",
              "reopen_match")
UNSAID = "unsaid-leave-when"  # the warning's check


def check_duties(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    declared = Declared.of(data)
    on_units, on_sides = unit_view(declared), side_view(declared)
    problems: list[Problem] = []
    for here, step in steps(data.get("sequence"), ("sequence",)):
        owes = step.get("owes")
        allows = step.get("allows", ["*"])
        allowed = ({a for a in allows if isinstance(a, str)} if isinstance(allows, list)
                   else {"*"})
        for index, duty in enumerate(owes if isinstance(owes, list) else ()):
            if not isinstance(duty, dict):
                continue
            at: Path = (*here, "owes", index)
            problems += check_one(duty.get("units"), (*at, "units"), on_units, near, budget)
            problems += check_one(duty.get("while"), (*at, "while"), on_sides, near, budget)
            problems += _by(duty.get("by"), (*at, "by"), declared, near)
            problems += _done_by(duty, at, step, allowed, declared, near)
    return problems


def unsaid_leave_when(data: Any) -> list[Problem]:
    """(ours) A warning, not a refusal: a step with a `leave_when` and no `owes` refuses
    to be left without telling anyone what it waits for."""
    return [Problem(UNSAID, (*here, "leave_when"),
                    f"step '{step.get('step')}' waits for '{step.get('leave_when')}' before "
                    "it is left, but owes nothing: nobody is told what leaving waits for "
                    "(say it in owes)")
            for here, step in steps(data.get("sequence") if isinstance(data, dict) else None,
                                    ("sequence",))
            if isinstance(step.get("leave_when"), str) and not step.get("owes")]


def steps(nodes: Any, path: Path) -> Iterator[tuple[Path, dict[Any, Any]]]:
    """Each step of a parsed sequence, with its path into the file."""
    for index, node in enumerate(nodes if isinstance(nodes, list) else ()):
        if not isinstance(node, dict):
            continue
        if "phase" in node or "steps" in node:
            yield from steps(node.get("steps"), (*path, index, "steps"))
        else:
            yield (*path, index), node


def _by(by: Any, path: Path, declared: Declared, near: Near) -> list[Problem]:
    if not isinstance(by, str) or by in SEATS or by in declared.roles:
        return []
    meant = near(by, [*SEATS, *declared.roles])
    return [Problem("undeclared-role", path,
                    f"a duty is owed by '{by}', which is none of {', '.join(SEATS)} and no "
                    "role the file's sides declare" + (f"; did you mean '{meant}'?"
                                                       if meant else ""))]


def _done_by(duty: dict[Any, Any], at: Path, step: dict[Any, Any], allowed: set[str],
             declared: Declared, near: Near) -> list[Problem]:
    done_by = duty.get("done_by")
    listed = [(i, a) for i, a in enumerate(done_by if isinstance(done_by, list) else ())
              if isinstance(a, str)]
    problems = []
    for index, action in listed:
        if action not in declared.actions and action not in EVERY_STEP:
            meant = near(action, [*declared.actions, *EVERY_STEP])
            problems.append(Problem("undeclared-action", (*at, "done_by", index),
                                    f"the duty is done by '{action}', which the file's "
                                    "actions do not declare"
                                    + (f"; did you mean '{meant}'?" if meant else "")))
    if listed and not problems and "*" not in allowed and not any(
            a in allowed or a in EVERY_STEP for _, a in listed):
        problems.append(Problem("never-discharged", (*at, "done_by"),
                                f"step '{step.get('step')}' allows none of the actions the "
                                f"duty is done by ({', '.join(a for _, a in listed)}): whoever "
                                "owes it could never do it there"))
    return problems
