"""Effects in one action read the board as the earlier effects left it (issue 38): two
removals of one marker take it off once, a `when` and a `falls_on` read what the effects
before them made, on a roll's outcome as on an action's `does`."""

from __future__ import annotations

from conftest import Table

from domain import commands as cmd
from domain import events as ev
from domain.decide import decide
from domain.evolve import evolve
from domain.rulefiles.compile import compile_file
from domain.state import MatchState
from projections.rulefile_load import check_text

GAME = """\
format_version: 1
id: order
title: Order
sides: {count: 2}
unit_kinds: {infantry: {}}
marker_kinds: {disrupted: {}, target: {}, spent: {}}
statuses: {steady: {}}
actions:
  rule_roll: {}
  remove_unit:
    does:
      own: true
      first:
        - remove_marker: {kind: disrupted}
        - remove_marker: {kind: disrupted}
        - {set_status: steady, when: "unit.markers.disrupted == 0"}
rolls:
  rally:
    title: rally
    rule: OR-1
    steps: [combat]
    dice: d6
    target: {at_least: "1"}
    fails: {says: never}
    passes:
      says: the unit rallies
      effects:
        - remove_marker: {kind: disrupted}
        - remove_marker: {kind: disrupted}
        - {set_status: steady, when: "unit.markers.disrupted == 0"}
        - place_marker: {kind: target}
        - {place_marker: {kind: spent}, falls_on: {marked: target}}
sequence:
  - step: combat
"""
UNITS = [{"id": "r1", "side": "red", "name": "Red 1", "kind": "infantry",
          "markers": {"disrupted": 1}, "position": {"hex": "0101"}}]


def _played(command: cmd.Command) -> tuple[list[ev.Event], MatchState]:
    report = check_text(GAME, "order.yaml")
    assert report.ruleset is not None, report.lines()
    ruleset = compile_file(report.ruleset)
    table = Table(units=UNITS)
    state = table.state.model_copy(update={"turn": table.state.turn.model_copy(
        update={"step": "combat"})})
    events = decide(command, state, ruleset, table.context("red"))
    for event in events:
        state = evolve(state, event)
    return events, state


def _removed(events: list[ev.Event]) -> list[tuple[str, int]]:
    return [(e.kind, e.count) for e in events if isinstance(e, ev.MarkerRemoved)]


def test_a_rolls_effects_read_the_board_the_effects_before_them_left() -> None:
    events, state = _played(cmd.RuleRoll(roll="rally", unit_id="r1", source="table",
                                         results=[4]))
    assert _removed(events) == [("disrupted", 1)]  # the one marker, taken off once
    assert state.units["r1"].status == ("steady",)  # its `when` reads it gone
    assert state.units["r1"].markers == {"target": 1, "spent": 1}  # falls on the marked unit


def test_an_actions_effects_read_the_board_the_effects_before_them_left() -> None:
    events, state = _played(cmd.RemoveUnit(unit_id="r1", reason="withdrawn"))
    assert _removed(events) == [("disrupted", 1)]
    assert state.units["r1"].status == ("steady",)
    assert [type(e).__name__ for e in events] == [
        "MarkerRemoved", "UnitStatusChanged", "UnitRemoved"]
