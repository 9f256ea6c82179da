"""An expression's evaluation is bounded in steps before it runs (domain/rulefiles/cost.py):
its list functions are read at load (how deep each stands, whether it builds a list, the
lists it joins, the operations of its body: a step an item for every 4), and over a view
whose largest list holds n items its steps are bounded by n ** depth times an item's steps
for each (plus n ** (depth + 1) / 2 for one that builds a list). Past STEPS the
expression is not run: it is unreadable, and the guard reading it refuses naming its rule.
Hold the Towns' expressions stay within the bound on the largest board a match holds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import Table
from test_rulefile_ending import act, ruleset_of

from domain.commands.match import UNITS_IN_ALL
from domain.errors import InvalidAction
from domain.rulefiles.cost import (
    BUDGET,
    STEPS,
    Cost,
    Meter,
    Spent,
    WorkSpent,
    budgeted,
    charge,
    metered,
)
from domain.rulefiles.evaluate import Unreadable, compile_expression
from domain.rulefiles.expression import read_expression
from domain.rulefiles.types import BOOL, DYN
from domain.rulefiles.view import Declared, types
from domain.rulesets.base import Ruleset
from domain.sequence import start
from projections.rulefile_load import BUILT_IN, check_file

DECLARED = Declared.of({"unit_kinds": {"squad": {"attributes": {
    "q": {"type": "integer", "minimum": 0, "maximum": 9}}}}, "sequence": [{"step": "s"}]})
VIEW = types(DECLARED)
NESTED = "units.all(a, units.all(b, a.id != b.id || a.hex == b.hex))"


def cost(text: str) -> Cost:
    checked = read_expression(text, VIEW, DYN)
    assert checked.flaws == [], checked.flaws
    return checked.cost


def fresh(ruleset: Ruleset, set_up: list[dict[str, Any]]) -> Table:
    """A match of two sides with `set_up`'s units, at the first step of the file."""
    table = Table(units=set_up)
    table.frames[len(table.log)] = replace(table.head, state=table.state.model_copy(
        update={"turn": start(ruleset.sequence, table.state.side_ids())}))
    return table


def units(n: int) -> list[dict[str, Any]]:
    return [{"id": f"u{i}", "kind": "squad", "side": "a", "name": f"u{i}", "hex": "0101",
             "box": "", "status": [], "markers": {}, "attributes": {"q": 1}} for i in range(n)]


@pytest.mark.parametrize(("text", "sites", "joins"), [
    ("turn > 1", (), 0),
    ("units.exists(u, u.attributes.q > 3)", ((1, False),), 0),
    (NESTED, ((1, False), (2, False)), 0),
    ("units.map(a, units.filter(b, b.hex == a.hex).size()).size() > 0",
     ((1, True), (2, True)), 0),
    ("(units + units).exists(u, u.hex == '')", ((1, False),), 1),
    ("units.exists(u, u.hex == '') && units.exists(u, u.hex != '')", ((1, False), (1, False)),
     0),
])
def test_an_expressions_list_functions_are_its_cost(
        text: str, sites: tuple[tuple[int, bool], ...], joins: int) -> None:
    assert (cost(text).sites, cost(text).joins) == (sites, joins)


def test_the_bound_grows_with_the_board_as_the_list_functions_nest() -> None:
    """(NESTED's inner body holds 11 operations: each item it visits is 3 steps.)"""
    assert cost(NESTED).weights == ((1, 3),)
    assert cost(NESTED).steps(10) == 10 + 3 * 100
    assert cost(NESTED).steps(400) == 400 + 3 * 160_000
    assert cost("units.filter(u, true).size() > 0").steps(400) == 400 + 80_000
    assert cost("(units + units).exists(u, true)").steps(400) == 800  # a joined list
    assert cost("units.map(a, units.map(b, b.hex)).size() > 0").steps(400) > 10 * STEPS


def test_an_expression_past_the_bound_is_not_run_and_is_unreadable() -> None:
    costly = " && ".join([NESTED] * 2)
    compiled = compile_expression(costly, VIEW, BOOL, DECLARED, lambda s: {})
    assert compiled.run({"units": units(100)}) is True  # 2 * 30,100 steps: run
    with pytest.raises(Unreadable, match=r"could take 960,800 steps over this board"):
        compiled.run({"units": units(400)})
    alone = compile_expression(NESTED, VIEW, BOOL, DECLARED, lambda s: {})
    assert alone.run({"units": units(400)}) is True  # 480,400 steps alone


GUARDED = f"""\
format_version: 1
id: crowd
title: Crowd
sides: {{count: 2}}
unit_kinds: {{squad: {{}}}}
actions: {{move_unit: {{}}}}
guards:
  - {{actions: [move_unit], rule: CR-1, says: squads stand together, binds_referee: true,
     when: "{NESTED}"}}
  - {{actions: [move_unit], rule: CR-2, says: the same again, binds_referee: true,
     when: "{NESTED}"}}
sequence:
  - step: move
"""


@pytest.mark.parametrize(("count", "refused"), [(100, False), (UNITS_IN_ALL, True)])
def test_guards_read_together_are_bounded_together_and_refuse_naming_their_rule(
        count: int, refused: bool) -> None:
    """Each guard alone is within the bound over 400 units (480,400 steps); the two read
    over one view are not: the move is refused naming the first guard's rule, unread."""
    ruleset = ruleset_of(GUARDED)
    table = fresh(ruleset, [{"id": f"u{i}", "side": "red", "name": f"u{i}", "kind": "squad",
                             "position": {"hex": "0101"}}
                            for i in range(count)])
    move = {"type": "move_unit", "unit_id": "u0", "to": {"hex": "0101"}}
    if not refused:
        assert act(table, ruleset, **move)
        return
    with pytest.raises(InvalidAction) as error:
        act(table, ruleset, **move)
    assert error.value.rule == "CR-1" and "steps over this board" in str(error.value)
    assert len(table.log) == 1  # nothing recorded


def test_hold_the_towns_reads_within_the_bound_on_the_largest_board() -> None:
    report = check_file(BUILT_IN / "hold-the-towns.yaml")
    assert report.ruleset is not None and report.data is not None
    file, declared = report.ruleset, Declared.of(report.data)
    view = types(declared, ())
    texts = [c.when for c in file.conditions.values() if c.when]
    texts += [g.when for g in file.guards]
    for roll in file.rolls.values():
        texts += [t for t in (roll.when, roll.table.column if roll.table else None) if t]
        texts += list(roll.modifiers)
    texts += [s.points for s in file.scoring]
    worst = max(read_expression(t, {**view, "side": view["actor"]}, DYN).cost.steps(
        UNITS_IN_ALL) for t in texts)
    assert 100_000 < worst <= STEPS  # its nested exists, on 400 units


def test_one_request_shares_one_budget_and_says_so_when_it_is_spent() -> None:
    """The readings of one request charge one meter (`budgeted`): past BUDGET together the
    request is refused as WorkSpent (an action: 422, nothing recorded), naming the budget;
    inside a larger piece of work (a legal answer's bodies) the meter already set is
    charged instead."""
    with pytest.raises(WorkSpent) as error, budgeted():
        charge(BUDGET // 2)
        charge(BUDGET // 2)  # all of it: still within
        charge(1)
    assert error.value.rule == "core-ruleset-work" and error.value.status == 422
    assert f"work budget of one request ({BUDGET:,} steps; {BUDGET:,} spent)" in str(
        error.value)
    outer = Meter(10)
    with metered(outer), budgeted() as inner:
        assert inner is outer
        with pytest.raises(Spent):
            charge(11)
