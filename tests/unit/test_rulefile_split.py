"""The split as equal as possible as a ruleset file says it (an effect `split: {evenly:
true}`, issue 38): the service divides figures and each kind of marker, the owner's
`split_unit` saying with `odd_to` which part takes an odd figure or marker; the same core
function as Atomic Africa's AA-3 split (domain.context.evenly)."""

from __future__ import annotations

import pytest
from conftest import Table

from domain import commands as cmd
from domain import events as ev
from domain.context import evenly
from domain.decide import decide
from domain.errors import InvalidAction
from domain.evolve import evolve
from domain.rulefiles.compile import compile_file
from domain.rulesets.atomic_africa import split_plan
from domain.state import MatchState
from projections.rulefile_load import check_text

GAME = """\
format_version: 1
id: fireteams
title: Fireteams
sides: {count: 2}
unit_kinds: {squad: {attributes: {figures: {type: integer, minimum: 1, maximum: 99}}}}
marker_kinds: {wound: {}, suppression: {}}
actions:
  split_unit:
    title: Split into fireteams
    rule: FT-3
    does: {effects: [split: {evenly: true}]}
  rule_roll: {}
guards:
  - actions: [split_unit]
    when: "unit.attributes.figures >= 6"
    rule: FT-4
    says: a squad of fewer than six figures cannot split
rolls:
  break_up:
    title: break up
    rule: FT-4
    steps: [clean_up]
    dice: d6
    target: {at_least: "1"}
    passes: {says: the squad breaks up, effects: [split: {evenly: true}]}
    fails: {says: never}
sequence:
  - step: clean_up
"""
SQUAD = {"id": "sq1", "side": "red", "name": "1st Squad", "kind": "squad", "figures": 11,
         "markers": {"wound": 5, "suppression": 3}, "position": {"x": 1, "y": 1}}


def _played(command: cmd.Command, figures: int = 11) -> tuple[list[ev.Event], MatchState]:
    report = check_text(GAME, "fireteams.yaml")
    assert report.ruleset is not None, report.lines()
    table = Table(units=[{**SQUAD, "figures": figures}])
    state = table.state.model_copy(update={"turn": table.state.turn.model_copy(
        update={"step": "clean_up"})})
    events = decide(command, state, compile_file(report.ruleset), table.context("red"))
    for event in events:
        state = evolve(state, event)
    return events, state


def test_a_files_split_divides_as_equally_as_possible_the_odd_ones_where_the_owner_says(
        ) -> None:
    events, state = _played(cmd.SplitUnit(unit_id="sq1", new_unit_id="sq1b", odd_to={
        "figures": "second", "wound": "second"}))
    [split] = events
    assert isinstance(split, ev.UnitSplit) and split.rule == "FT-3"
    kept, new = state.units["sq1"], state.units["sq1b"]
    assert (kept.figures, new.figures) == (5, 6)
    assert kept.markers == {"wound": 2, "suppression": 2}
    assert new.markers == {"wound": 3, "suppression": 1}
    assert new.name == "1st Squad B" and new.position == kept.position


def test_unsaid_the_unit_keeps_the_odd_ones_and_figures_given_are_refused() -> None:
    _, state = _played(cmd.SplitUnit(unit_id="sq1"))
    kept, [new] = state.units["sq1"], [u for u in state.units.values() if u.id != "sq1"]
    assert (kept.figures, new.figures) == (6, 5)
    assert (kept.markers, new.markers) == ({"wound": 3, "suppression": 2},
                                           {"wound": 2, "suppression": 1})
    with pytest.raises(InvalidAction, match="FT-3: the service divides"):
        _played(cmd.SplitUnit(unit_id="sq1", figures=3))
    with pytest.raises(InvalidAction, match="FT-4"):  # the file's own guard
        _played(cmd.SplitUnit(unit_id="sq1"), figures=5)


def test_a_rolls_split_falls_on_the_rolling_unit() -> None:
    events, state = _played(cmd.RuleRoll(roll="break_up", unit_id="sq1", source="table",
                                         results=[3]))
    assert [type(e).__name__ for e in events] == ["DiceRolled", "UnitSplit", "ResultRecorded"]
    assert sorted(u.figures or 0 for u in state.units.values()) == [5, 6]


def test_the_file_and_atomic_africa_divide_with_one_function() -> None:
    for figures in range(6, 14):
        for markers in ({}, {"wound": 5}, {"wound": 4, "suppression": 3}):
            for odd in ({}, {"figures": "second"}, {"wound": "second", "figures": "first"}):
                plan = split_plan(figures, dict(markers), dict(odd))  # type: ignore[arg-type]
                assert plan == evenly(figures, markers, odd)  # type: ignore[arg-type]
                assert sorted(plan.figures) == [figures // 2, (figures + 1) // 2]
