"""What a ruleset file's expressions cost a legal answer (docs/rulesets/authoring.md, "The
work budget"; docs/legal-actions.md, "Large boards"): the view of a state is built once
and read by every guard and condition against that very state (never against another), and
the steps the file's expressions take over one answer are bounded together (cost.py,
ANSWER_STEPS): a file whose guards are each within the bound of one reading gets an answer
cut short, saying why, after a bounded number of steps. Counted in view builds and steps,
never in seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Table
from test_rulefile_cost import DECLARED, VIEW, fresh
from test_rulefile_ending import act, ruleset_of

from domain.commands.match import UNITS_IN_ALL
from domain.legal import legal_actions
from domain.rulefiles import evaluate
from domain.rulefiles.cost import ANSWER_STEPS, STEPS
from domain.rulefiles.evaluate import compile_expression
from domain.rulefiles.types import BOOL

# NESTED, read anew for each unit an action names
PER_UNIT = "units.all(a, units.all(b, a.hex == b.hex || b.id == action.unit_id))"
ACTS = "[move_unit, place_marker, remove_marker, set_status]"


def crowd(guard: str) -> str:
    """A file of one step where four unit actions are allowed, each under `guard`."""
    return f"""\
format_version: 1
id: crowd
title: Crowd
sides: {{count: 2}}
unit_kinds: {{squad: {{}}}}
marker_kinds: {{pinned: {{}}}}
statuses: {{broken: {{}}}}
actions: {{move_unit: {{}}, place_marker: {{}}, remove_marker: {{}}, set_status: {{}}}}
guards:
  - {{actions: {ACTS}, rule: CR-1, says: a pinned squad holds everyone, when: "{guard}"}}
sequence:
  - step: move
    allows: {ACTS}
"""


def squads(n: int) -> list[dict[str, Any]]:
    return [{"id": f"u{i}", "side": ("red", "blue")[i % 2], "name": f"u{i}", "kind": "squad",
             "position": {"hex": "0101"}} for i in range(n)]


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The states whose view of the units was built, one entry a build."""
    built: list[Any] = []
    values = evaluate.values

    def counting(state: Any, *args: Any, **kwargs: Any) -> Any:
        if "units" in args[1]:
            built.append(state)
        return values(state, *args, **kwargs)

    monkeypatch.setattr(evaluate, "values", counting)
    yield built


def test_a_legal_answer_builds_the_view_of_each_state_once(builds: list[Any]) -> None:
    ruleset = ruleset_of(crowd("!units.exists(u, u.markers.pinned > 0)"))
    table = fresh(ruleset, squads(100))
    answer = legal_actions(table.state, ruleset, "red", most=None)
    offered = sum(len(a.choices) for a in answer.actions)
    assert offered >= 20  # every one of them decided, its guard read
    distinct = {id(state) for state in builds}
    assert len(builds) == len(distinct) and builds[0] is table.state
    again = legal_actions(table.state, ruleset, "red", most=None)
    assert again == answer and len([s for s in builds if s is table.state]) == 1


def test_a_view_is_read_only_against_its_own_state(builds: list[Any]) -> None:
    """A state equal to another but not it gets its own view; a state that differs reads
    its own units: no reading sees another state's view."""
    ruleset = ruleset_of(crowd("!units.exists(u, u.markers.pinned > 0)"))

    def moves(state: Any) -> bool:
        answer = legal_actions(state, ruleset, "red", most=None)
        return "move_unit" in [a.id for a in answer.actions]

    table = fresh(ruleset, squads(4))
    calm = table.state
    assert act(table, ruleset, type="place_marker", kind="pinned", unit_id="u1")
    pinned = table.state
    assert [moves(calm), moves(pinned), moves(calm)] == [True, False, True]
    copy = calm.model_copy()
    before = len(builds)
    assert moves(copy)
    assert builds[before] is copy  # built for the copy, not taken from its equal


def test_guards_each_within_the_bound_cut_an_answer_short_counted_in_steps(
        charged: list[int]) -> None:
    """On 400 units each reading of the guard is 480,400 steps (within STEPS alone); the
    answer stops before its readings pass ANSWER_STEPS together, says so, and still
    answers Next step. (The guard reads the action's unit: a reading made already over the
    same state and action costs one step, its value kept, so each unit's is read anew.)"""
    ruleset = ruleset_of(crowd(PER_UNIT))
    table = fresh(ruleset, squads(UNITS_IN_ALL))
    each = UNITS_IN_ALL + 3 * UNITS_IN_ALL ** 2  # (its inner body: 3 steps an item)
    assert each <= STEPS < ANSWER_STEPS
    answer = legal_actions(table.state, ruleset, "red", most=None)
    assert answer.page.truncated and answer.page.says is not None
    assert answer.page.says.startswith(
        f"cut short after {sum(charged):,} steps of the ruleset file's expressions "
        f"(the most an answer reads is {ANSWER_STEPS:,}")
    read = [steps for steps in charged if steps > 1]  # (1: a reading kept, not made again)
    assert read == [each] * (ANSWER_STEPS // each)  # the readings that fit, no more
    assert answer.advance.legal  # Next step is still answered


def test_the_views_kept_are_bounded_and_found_by_their_state() -> None:
    """Views keep the last KEPT states' views: the latest is found again without a build,
    an older one is built again (never read from another state's view)."""
    compiled = compile_expression("units.exists(u, u.attributes.q > 1)", VIEW, BOOL,
                                  DECLARED, lambda s: {})
    views = evaluate.Views([compiled])
    table = Table(units=[{"id": "u0", "side": "red", "name": "u0", "kind": "squad",
                         "extra": {"q": 2}, "position": {"hex": "0101"}}])
    states = [table.state.model_copy() for _ in range(evaluate.KEPT + 2)]
    assert all(compiled.run(views.view([compiled], s)) is True for s in states)
    assert views.built == len(states)
    compiled.run(views.view([compiled], states[-1]))
    assert views.built == len(states)  # the latest, found by its state
    compiled.run(views.view([compiled], states[0]))
    assert views.built == len(states) + 1  # past KEPT: let go, built again
