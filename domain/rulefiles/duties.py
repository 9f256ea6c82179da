"""A file's duties (each step's `owes:`, model_duties.py) as the engine's: `duty_of` gives
the `domain.duties.Duty` a step declares (sequence.py puts it in the step), naming its tests
by the step's path and the duty's place (`combat#0.units`); `duty_tests` gives the
`Ruleset.unit_tests` and `side_tests` those names stand for, each the duty's expression.

A unit test reads the view and `unit` (each unit in play in turn, its view kept with the
state's: `Views.of_unit`); a side test the view and `side` (the side that owes it). Each
reading is charged to the request's meter as the file's other readings are (cost.py); one
that cannot be read refuses with the duty's rule, as a condition does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.duties import Duty
from domain.errors import InvalidAction
from domain.rulefiles.cost import WorkSpent
from domain.rulefiles.evaluate import (
    Compiled,
    Roles,
    TooCostly,
    Unreadable,
    Views,
    compile_expression,
)
from domain.rulefiles.model import Phase, RulesetFile, Step
from domain.rulefiles.model_duties import OwedDuty
from domain.rulefiles.types import BOOL, STRING, Ty
from domain.rulefiles.view import Declared, types, values
from domain.state import MatchState, Unit

UnitTest = Callable[[MatchState, Unit], bool]
SideTest = Callable[[MatchState, str], bool]


def named_tests(path: str, index: int) -> tuple[str, str]:
    """The names of a duty's unit test and side test: its step's path and its place."""
    return f"{path}#{index}.units", f"{path}#{index}.while"


def duty_of(owed: OwedDuty, path: str, index: int) -> Duty:
    """The engine's duty for the `index`th duty of the step at `path`."""
    units, side = named_tests(path, index)
    return Duty(rule=owed.rule, says=owed.says, done_by=owed.done_by, by=owed.by,
                units=units if owed.units is not None else None,
                owed_while=side if owed.while_ is not None else None)


def unit_view(declared: Declared) -> dict[str, Ty]:
    """What a duty's `units` reads: the view and `unit`."""
    return {**types(declared), "unit": types(declared, ())["unit"]}


def side_view(declared: Declared) -> dict[str, Ty]:
    """What a duty's `while` reads: the view and `side`."""
    return {**types(declared), "side": STRING}


def duty_tests(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Any]:
    """The `Ruleset` fields `unit_tests` and `side_tests` of the file's duties (none when
    it owes nothing)."""
    on_units, on_sides = unit_view(declared), side_view(declared)
    unit_tests: dict[str, UnitTest] = {}
    side_tests: dict[str, SideTest] = {}
    for path, step in _steps(file.sequence, ""):
        for index, owed in enumerate(step.owes):
            units, side = named_tests(path, index)
            if owed.units is not None:
                unit_tests[units] = _unit_test(owed.rule, compile_expression(
                    owed.units, on_units, BOOL, declared, roles))
            if owed.while_ is not None:
                side_tests[side] = _side_test(owed.rule, compile_expression(
                    owed.while_, on_sides, BOOL, declared, roles))
    out: dict[str, Any] = {}
    if unit_tests:
        out["unit_tests"] = unit_tests
    if side_tests:
        out["side_tests"] = side_tests
    return out


def _steps(nodes: tuple[Phase | Step, ...], prefix: str) -> list[tuple[str, Step]]:
    out: list[tuple[str, Step]] = []
    for node in nodes:
        if isinstance(node, Step):
            out.append((f"{prefix}{node.step}", node))
        else:
            out += _steps(node.steps, f"{prefix}{node.phase}/")
    return out


def _refused(rule: str, error: Unreadable) -> InvalidAction:
    kind = WorkSpent if isinstance(error, TooCostly) else InvalidAction
    return kind(f"{rule}: what this duty concerns cannot be read now: {error}", rule=rule)


def _unit_test(rule: str, expression: Compiled) -> UnitTest:
    views = Views([expression])  # the state's part built once for every unit read

    def concerns(state: MatchState, unit: Unit) -> bool:
        try:
            return expression.run(views.of_unit((expression,), state, unit)) is True
        except Unreadable as error:
            raise _refused(rule, error) from None
    return concerns


def _side_test(rule: str, expression: Compiled) -> SideTest:
    last: list[tuple[MatchState, dict[str, Any]]] = []  # the last state read, kept alive

    def holds(state: MatchState, side: str) -> bool:
        kept = last[0] if last else None
        if kept is not None and kept[0] is state:
            data = kept[1]
        else:
            data = values(state, expression.declared, expression.names - {"side"},
                          expression.roles, needs=expression.needs)
            last[:] = [(state, data)]
        try:
            return expression.run({**data, "side": side}) is True
        except Unreadable as error:
            raise _refused(rule, error) from None
    return holds
