"""Dice procedures as data (`rolls:` in a ruleset file, domain/rulefiles/rolls.py): each
construct resolved through the service's `rule_roll` (dice, a die-type chain, modifiers,
natural rolls, a target, a result table by column, every effect, a result the players
enter), refusals that leave no event, and the extended sequence's repair roll (ES-2) as
its file says it doing what the Python ruleset's does for every throw of the dice."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from conftest import Table

from domain import commands as cmd
from domain import events as ev
from domain.decide import decide
from domain.errors import InvalidAction
from domain.evolve import evolve
from domain.rulefiles import RulesetFile
from domain.rulefiles.behaviour import behaviour
from domain.rulefiles.compile import compile_file
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.sequence import following
from domain.state import MatchState
from projections.rulefile_load import BUILT_IN, check_file, check_text
from projections.sentences import Names, Narrator
from projections.sentences_outcome import outcome

GAME = """\
format_version: 1
id: hexes
title: Hexes
sides: {count: 2}
unit_kinds:
  infantry:
    attributes:
      strength: {type: integer, minimum: 1, maximum: 9}
      die: {type: choice, values: [d12, d10, d8, d6, d4]}
marker_kinds: {disrupted: {}, spent: {}, wreck: {}, target: {}}
statuses: {retreating: {}}
tracks:
  morale: {minimum: 0, maximum: 5}
  weather: {values: [clear, rain, storm]}
actions: {rule_roll: {}, move_unit: {}}
rolls:
  assault:
    title: assault
    rule: HX-4
    steps: [combat]
    when: "unit.markers.spent == 0"
    refused: a spent unit does not assault
    dice: d6
    modifiers: ["unit.markers.disrupted > 0 ? -1 : 0"]
    table:
      column: "unit.attributes.strength >= 4 ? '2-1' : '1-1'"
      columns:
        '1-1':
          - {rolls: 1-2, says: the attacker is eliminated,
             effects: [remove_unit: {reason: eliminated, casualty: wreck}], failed: true}
          - {rolls: 3-4, says: the attacker retreats, effects: [set_status: retreating]}
          - {rolls: 5-6, says: the defender is disrupted, effects: [place_marker: {kind: spent}]}
        '2-1':
          - {rolls: 1, says: the attack stalls, effects: [place_marker: {kind: disrupted}]}
          - {rolls: 2-6, says: the defender breaks, effects: [move_track: {name: morale, by: 1}]}
  rally:
    title: rally
    rule: HX-6
    steps: [combat]
    chain: {dice: [d12, d10, d8, d6, d4], start: "unit.attributes.die",
            shift: "unit.markers.disrupted"}
    target: {at_least: "4"}
    natural:
      - {total: 1, says: the unit panics, effects: [set_track: {name: weather, value: storm}]}
    passes: {says: the unit rallies, effects: [remove_marker: {kind: disrupted, count: 2}]}
    fails: {says: the unit stays disrupted, failed: true}
  strike:
    title: strike
    rule: HX-8
    steps: [combat]
    dice: d6
    table:
      column: "'all'"
      columns:
        all:
          - {rolls: 1-3, says: the target is eliminated,
             effects: [{remove_unit: {casualty: wreck}, falls_on: {marked: target}}]}
          - {rolls: 4-6, says: the target is disrupted,
             effects: [{place_marker: {kind: disrupted}, falls_on: {marked: target}},
                       {remove_marker: {kind: target}, falls_on: {marked: target}},
                       place_marker: {kind: spent}]}
  spot:
    title: spotting
    rule: HX-7
    steps: [combat]
    dice: 2d6
    awaits: the spotting table
sequence:
  - step: combat
"""
UNITS = [
    {"id": "r1", "side": "red", "name": "Red 1", "kind": "infantry",
     "extra": {"strength": 2, "die": "d8"}, "position": {"hex": "0101"}},
    {"id": "r2", "side": "red", "name": "Red 2", "kind": "infantry",
     "extra": {"strength": 5, "die": "d8"}, "markers": {"disrupted": 1},
     "position": {"hex": "0102"}},
]


def hexes() -> tuple[Ruleset, MatchState, Table]:
    report = check_text(GAME, "hexes.yaml")
    assert report.ruleset is not None, report.lines()
    ruleset = compile_file(report.ruleset)  # as a match created from the file has it
    table = Table(units=UNITS)
    state = table.state.model_copy(update={"turn": table.state.turn.model_copy(
        update={"step": "combat"})})
    return ruleset, state, table


def rolled(roll: str, unit: str, results: list[int], state: MatchState | None = None,
           actor: str = "red") -> tuple[list[ev.Event], MatchState]:
    ruleset, start, table = hexes()
    state = state or start
    events = decide(cmd.RuleRoll(roll=roll, unit_id=unit, source="table", results=results),
                    state, ruleset, table.context(actor))
    for event in events:
        state = evolve(state, event)
    return events, state


def said(events: list[ev.Event]) -> list[tuple[str, dict[str, Any]]]:
    envelope = {"originator_id", "originator_version", "timestamp", "actor", "command_id",
                "turn", "prev_hash", "hash"}
    return [(type(e).__name__, {k: v for k, v in e.model_dump().items() if k not in envelope})
            for e in events]


# ---- each construct --------------------------------------------------------------------

@pytest.mark.parametrize(("unit", "face", "says", "kinds"), [
    ("r1", 1, "the attacker is eliminated", ["UnitRemoved", "MarkerPlaced"]),
    ("r1", 4, "the attacker retreats", ["UnitStatusChanged"]),
    ("r1", 6, "the defender is disrupted", ["MarkerPlaced"]),
    ("r2", 2, "the attack stalls", ["MarkerPlaced"]),  # 2 - 1 (disrupted): row 1
    ("r2", 3, "the defender breaks", ["TrackSet"]),
])
def test_a_table_roll_reads_its_column_and_row_and_does_its_effects(
        unit: str, face: int, says: str, kinds: list[str]) -> None:
    events, state = rolled("assault", unit, [face])
    assert [type(e).__name__ for e in events] == ["DiceRolled", *kinds, "ResultRecorded"]
    dice, result = events[0], events[-1]
    assert isinstance(dice, ev.DiceRolled) and isinstance(result, ev.ResultRecorded)
    assert (dice.dice, dice.modifier, dice.rule, dice.unit_ids) == (
        (face,), -1 if unit == "r2" else 0, "HX-4", (unit,))
    assert result.result == says and result.of == f"HX-4 assault of {unit}"
    assert dice.purpose.startswith(f"HX-4 assault of {unit}: d6")
    assert f"HX-4:{unit}" in state.this_turn  # rolled once: `facts` can say so


def test_each_effect_changes_the_board() -> None:
    _, eliminated = rolled("assault", "r1", [2])
    assert eliminated.units["r1"].removed == "eliminated"
    assert eliminated.location_markers.get("0101") == {"wreck": 1}
    _, retreating = rolled("assault", "r1", [3])
    assert retreating.units["r1"].status == ("retreating",)
    _, spent = rolled("assault", "r1", [5])
    assert spent.units["r1"].markers == {"spent": 1}
    _, broken = rolled("assault", "r2", [6])
    assert broken.tracks["morale"] == 1
    _, again = rolled("assault", "r2", [6], broken)
    assert again.tracks["morale"] == 2


def marked(unit: str) -> MatchState:
    _, state, _ = hexes()
    units = {**state.units, unit: state.units[unit].model_copy(update={"markers": {
        **state.units[unit].markers, "target": 1}})}
    return state.model_copy(update={"units": units})


def test_an_effect_on_the_marked_units_falls_on_them_not_on_the_rolling_unit() -> None:
    events, state = rolled("strike", "r1", [2], marked("r2"))
    assert [(type(e).__name__, getattr(e, "unit_id", None)) for e in events] == [
        ("DiceRolled", None), ("UnitRemoved", "r2"), ("MarkerPlaced", None),
        ("ResultRecorded", None)]
    assert state.units["r2"].removed == "eliminated" and state.units["r1"].removed is None
    assert state.location_markers.get("0102") == {"wreck": 1}  # where the target stood
    events, state = rolled("strike", "r1", [5], marked("r2"))
    assert state.units["r2"].markers == {"disrupted": 2}  # its target marker taken off
    assert state.units["r1"].markers == {"spent": 1}  # the rolling unit's own effect
    events, state = rolled("strike", "r1", [2])  # no unit marked: the effect falls on none
    assert [type(e).__name__ for e in events] == ["DiceRolled", "ResultRecorded"]


def test_a_refusal_leaves_no_event() -> None:
    _, spent = rolled("assault", "r1", [5])
    with pytest.raises(InvalidAction, match="HX-4: a spent unit does not assault"):
        rolled("assault", "r1", [5], spent)


def test_a_chain_shifts_the_die_and_a_natural_roll_is_its_own_outcome() -> None:
    events, state = rolled("rally", "r2", [4])  # d8 shifted one place (disrupted): a d6
    dice = events[0]
    assert isinstance(dice, ev.DiceRolled) and dice.notation == "d6"
    assert said(events)[1:] == [
        ("MarkerRemoved", {"kind": "disrupted", "count": 1, "unit_id": "r2",
                           "location": None, "rule": "HX-6"}),
        ("ResultRecorded", {"of": "HX-6 rally of r2", "result": "the unit rallies",
                            "failed": False, "rule": "HX-6"})]
    assert dice.purpose == "HX-6 rally of r2: d6, passes at 4 or more"
    events, _ = rolled("rally", "r1", [8])  # no shift: a d8
    assert isinstance(events[0], ev.DiceRolled) and events[0].notation == "d8"
    events, state = rolled("rally", "r2", [1])  # a natural 1: instead of the target
    assert [type(e).__name__ for e in events] == ["DiceRolled", "TrackSet", "ResultRecorded"]
    assert state.tracks["weather"] == "storm"
    assert isinstance(events[-1], ev.ResultRecorded) and events[-1].result == "the unit panics"
    events, _ = rolled("rally", "r2", [3])
    assert isinstance(events[-1], ev.ResultRecorded) and events[-1].failed


def test_a_roll_that_awaits_waits_for_the_players_to_enter_the_result() -> None:
    events, state = rolled("spot", "r1", [3, 4])
    assert [type(e).__name__ for e in events] == ["DiceRolled"]
    assert state.awaiting is not None and "the spotting table" in state.awaiting.what


def test_the_outcome_is_said_in_the_rolls_sentence_after_its_dice() -> None:
    events, state = rolled("assault", "r1", [4])
    sentence = outcome(events, Narrator(Names.of_state(state)))
    dice, result = sentence.index("threw 4"), sentence.index("the attacker retreats")
    assert dice < result


# ---- checks of rolls at load ----------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "check"), [
    ("- {rolls: 3-4,", "- {rolls: 4,", "table-gap"),
    ("- {rolls: 5-6,", "- {rolls: 4-6,", "table-overlap"),
    ("effects: [set_status: retreating]", "effects: [set_status: retreted]",
     "undeclared-name"),
    ("{name: morale, by: 1}", "{name: moral, by: 1}", "undeclared-name"),
    ("steps: [combat]\n    when", "steps: [comabt]\n    when", "undeclared-name"),
    ('modifiers: ["unit.markers.disrupted > 0 ? -1 : 0"]',
     'modifiers: ["unit.markers.disrupted > 0"]', "expression-type"),
    ("actions: {rule_roll: {}, move_unit: {}}", "actions: {move_unit: {}}",
     "undeclared-action"),
    ("falls_on: {marked: target}}]}", "falls_on: {marked: targte}}]}", "undeclared-name"),
    ("{remove_marker: {kind: target}, falls_on: {marked: target}}",
     "{move_track: {name: morale, by: 1}, falls_on: {marked: target}}", "invalid-value"),
])
def test_a_defect_of_a_roll_is_found_at_load(old: str, new: str, check: str) -> None:
    assert GAME.count(old) == 1
    report = check_text(GAME.replace(old, new), "hexes.yaml")
    assert [f.check for f in report.findings] == [check]


def test_a_table_of_a_million_rows_is_refused_by_its_shape() -> None:
    rows = "".join(f"          - {{rolls: {n}, says: x}}\n" for n in range(1, 400))
    text = GAME.replace("        '2-1':\n", "        '3-1':\n" + rows + "        '2-1':\n")
    report = check_text(text, "hexes.yaml")
    assert not report.ok and {f.check for f in report.findings} == {"invalid-value"}


# ---- the extended sequence's repair, as the Python ruleset does it ---------------------

DEMO = json.loads((Path(__file__).parents[2] / "api" / "scenarios"
                   / "extended-sequence-demo.json").read_text())


def repair_state() -> tuple[MatchState, Table]:
    table = Table(ruleset="extended-sequence", sides=("germans", "soviets"),
                  units=DEMO["units"])
    ruleset = get_ruleset("extended-sequence", {})
    state = table.state
    while state.turn.step != "rally/repair":
        state = state.model_copy(update={"turn": following(
            ruleset.sequence, state.turn, state, ruleset.conditions)})
    return state, table


def both(unit: str, results: list[int], state: MatchState, table: Table
         ) -> list[Any]:
    python = get_ruleset("extended-sequence", {})
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None
    data = replace(python, rolls=behaviour(report.ruleset)["rolls"])
    out = []
    for ruleset in (python, data):
        command = cmd.RuleRoll(roll="repair", unit_id=unit, source="table", results=results)
        try:
            events = decide(command, state, ruleset, table.context("germans"))
        except InvalidAction as error:
            out.append(("refused", error.rule))
            continue
        # what both say: the dice and every effect (the file also says its outcome)
        out.append([(name, {k: v for k, v in body.items() if k != "purpose"})
                    for name, body in said(events) if name != "ResultRecorded"])
    return out


@pytest.mark.parametrize("faces", list(product(range(1, 7), repeat=2)))
def test_the_files_repair_does_what_the_python_repair_does(faces: tuple[int, int]) -> None:
    state, table = repair_state()
    python, data = both("g-pak", list(faces), state, table)
    assert python == data
    assert ("UnitStatusChanged" in [name for name, _ in python]) == (sum(faces) <= 6)


def test_the_files_repair_refuses_as_the_python_repair_does() -> None:
    state, table = repair_state()
    python, data = both("g-hmg", [3, 3], state, table)  # nothing broken down
    assert python == data == ("refused", "ES-2")
    events = decide(cmd.RuleRoll(roll="repair", unit_id="g-pak", source="table",
                                 results=[6, 6]), state, get_ruleset("extended-sequence", {}),
                    table.context("germans"))
    for event in events:
        state = evolve(state, event)
    python, data = both("g-pak", [1, 1], state, table)  # tried this turn
    assert python == data == ("refused", "ES-2")


def test_a_file_without_rolls_builds_none() -> None:
    file = RulesetFile.model_validate({"format_version": 1, "id": "x", "title": "X",
                                       "sequence": [{"step": "s"}]})
    assert "rolls" not in behaviour(file)
