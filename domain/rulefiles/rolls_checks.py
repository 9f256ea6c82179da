"""The checks of a file's `rolls` beyond their shape: their expressions (over the view with
the rolling unit, `unit`), the steps, marker kinds, statuses and tracks they name, and each
result table's rows covering the dice's natural totals once each (`table-gap`,
`table-overlap`)."""

from __future__ import annotations

import re
from typing import Any

from domain.rulefiles.expression_checks import Budget, check_one
from domain.rulefiles.problems import Near, Path, Problem
from domain.rulefiles.spend_checks import check_spend
from domain.rulefiles.types import BOOL, DYN, INT, STRING, Ty, list_of
from domain.rulefiles.view import Declared, types

DICE = re.compile(r"^([1-9]|10)?d(4|6|8|10|12|20)$")
ROWS = re.compile(r"^(-?[0-9]{1,3})(?:-(-?[0-9]{1,3}))?$")


def check_rolls(data: dict[Any, Any], near: Near, budget: Budget) -> list[Problem]:
    rolls = data.get("rolls")
    if not isinstance(rolls, dict):
        return []
    declared = Declared.of(data)
    view = types(declared, ("rule_roll",))
    problems: list[Problem] = []
    if rolls and "rule_roll" not in declared.actions:
        problems.append(Problem("undeclared-action", ("rolls",), "the file declares rolls, "
                                "which are taken with 'rule_roll': declare it under actions",
                                True))
    for name, roll in rolls.items():
        if isinstance(roll, dict):
            problems += _roll(roll, ("rolls", name), declared, view, near, budget)
    return problems


def _roll(roll: dict[Any, Any], here: Path, declared: Declared, view: dict[str, Ty],
          near: Near, budget: Budget) -> list[Problem]:
    problems: list[Problem] = []

    def expression(value: Any, path: Path, wanted: Ty) -> None:
        problems.extend(check_one(value, path, view, near, budget, wanted))

    expression(roll.get("when"), (*here, "when"), BOOL)
    expression(roll.get("helped_by"), (*here, "helped_by"), list_of(STRING))
    modifiers = roll.get("modifiers")
    for index, modifier in enumerate(modifiers if isinstance(modifiers, list) else ()):
        expression(modifier, (*here, "modifiers", index), INT)
    chain = _part(roll, "chain")
    expression(chain.get("start"), (*here, "chain", "start"), STRING)
    expression(chain.get("shift"), (*here, "chain", "shift"), INT)
    target = _part(roll, "target")
    for key in ("at_most", "at_least"):
        expression(target.get(key), (*here, "target", key), INT)
    table = _part(roll, "table")
    expression(table.get("column"), (*here, "table", "column"), DYN)
    steps = roll.get("steps")
    for index, step in enumerate(steps if isinstance(steps, list) else ()):
        if isinstance(step, str) and step not in declared.steps:
            meant = near(step, declared.steps)
            problems.append(Problem("undeclared-name", (*here, "steps", index),
                                    f"'{step}' is no step the file's sequence holds"
                                    + (f"; did you mean '{meant}'?" if meant else "")))
    for path, outcome in _outcomes(roll, here):
        problems += effects_problems(outcome.get("effects"), (*path, "effects"), declared, near)
    problems += effects_problems(roll.get("first"), (*here, "first"), declared, near)
    problems += check_spend(roll, here, _outcomes(roll, here), declared, view, near, budget)
    span = _span(roll)
    columns = table.get("columns")
    if span is not None and isinstance(columns, dict):
        for column, rows in columns.items():
            if isinstance(rows, list):
                problems += _coverage(rows, (*here, "table", "columns", column), span)
    return problems


def _part(data: dict[Any, Any], key: str) -> dict[Any, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _outcomes(roll: dict[Any, Any], here: Path) -> list[tuple[Path, dict[Any, Any]]]:
    found = [((*here, key), roll[key]) for key in ("passes", "fails")
             if isinstance(roll.get(key), dict)]
    natural = roll.get("natural")
    found += [((*here, "natural", i), n) for i, n in enumerate(
        natural if isinstance(natural, list) else ()) if isinstance(n, dict)]
    columns = _part(_part(roll, "table"), "columns")
    for column, rows in columns.items():
        found += [((*here, "table", "columns", column, i), row) for i, row in enumerate(
            rows if isinstance(rows, list) else ()) if isinstance(row, dict)]
    return found


def effects_problems(effects: Any, path: Path, declared: Declared, near: Near) -> list[Problem]:
    problems = []
    for index, effect in enumerate(effects if isinstance(effects, list) else ()):
        if not isinstance(effect, dict):
            continue
        at = (*path, index)
        for key, value in effect.items():
            if key in ("clear_markers", "clear_statuses") and isinstance(value, list):
                known, what = ((declared.markers, "marker kind") if key == "clear_markers"
                               else (declared.statuses, "status"))
                problems += [Problem("undeclared-name", (*at, key, i), f"'{name}' is no {what} "
                                     "the file declares")
                             for i, name in enumerate(value) if name not in known]
                continue
            named = _named(key, value, declared)
            if named is None:
                continue
            what, name, names = named
            if name not in names:
                meant = near(name, names)
                problems.append(Problem("undeclared-name", (*at, key), f"'{name}' is no {what} "
                                        "the file declares"
                                        + (f"; did you mean '{meant}'?" if meant else "")))
    return problems


def _named(key: str, value: Any, declared: Declared) -> tuple[str, str, list[str]] | None:
    """What an effect names, and the names of that kind the file declares."""
    if key in ("place_marker", "remove_marker") and isinstance(value, dict):
        return "marker kind", str(value.get("kind")), sorted(declared.markers)
    if key in ("set_status", "clear_status") and isinstance(value, str):
        return "status", value, sorted(declared.statuses)
    if key in ("set_track", "move_track") and isinstance(value, dict):
        name = str(value.get("name"))
        return "track", name, [name] if declared.track(name) else sorted(declared.tracks)
    if key == "falls_on" and isinstance(value, dict) and "marked" in value:
        return "marker kind", str(value["marked"]), sorted(declared.markers)
    if key == "remove_unit" and isinstance(value, dict) and value.get("casualty"):
        return "marker kind", str(value["casualty"]), sorted(declared.markers)
    return None


def _span(roll: dict[Any, Any]) -> tuple[int, int] | None:
    """The natural totals the roll's dice can give."""
    dice = roll.get("dice")
    if isinstance(dice, str) and DICE.match(dice):
        count, sides = DICE.match(dice).groups()  # type: ignore[union-attr]
        return int(count or 1), int(count or 1) * int(sides)
    chain = roll.get("chain")
    faces = [int(str(d)[1:]) for d in (chain.get("dice") or []) if isinstance(
        d, str) and DICE.match(d)] if isinstance(chain, dict) else []
    return (1, max(faces)) if faces else None


def _coverage(rows: list[Any], path: Path, span: tuple[int, int]) -> list[Problem]:
    low, high = span
    held: dict[int, int] = {}
    problems = []
    for index, row in enumerate(rows):
        said = row.get("rolls") if isinstance(row, dict) else None
        matched = ROWS.match(str(said)) if isinstance(said, str | int) else None
        if matched is None:
            continue
        first = int(matched[1])
        last = int(matched[2]) if matched[2] is not None else first
        twice = [t for t in range(max(first, low), min(last, high) + 1) if t in held]
        if twice:
            problems.append(Problem("table-overlap", (*path, index, "rolls"),
                                    f"{_ranges(twice)}: in row {held[twice[0]] + 1} and in row "
                                    f"{index + 1} of this column"))
        held.update({t: index for t in range(max(first, low), min(last, high) + 1)
                     if t not in held})
    gaps = [t for t in range(low, high + 1) if t not in held]
    if gaps:
        problems.append(Problem("table-gap", path, f"no row of this column holds "
                                f"{_ranges(gaps)} (the dice roll {low} to {high})", True))
    return problems


def _ranges(numbers: list[int]) -> str:
    out, start = [], numbers[0]
    for previous, number in zip(numbers, [*numbers[1:], None], strict=True):
        if number != previous + 1 if number is not None else True:
            out.append(str(start) if start == previous else f"{start}-{previous}")
            start = number if number is not None else start
    return ", ".join(out)
