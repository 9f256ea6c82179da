"""The blocks the extended sequence's file needed (issue 28): what the service does after
every action (`after_action`), an effect that takes every marker of some kinds off a unit
(`clear_markers`) or several statuses in one change (`clear_statuses`) and names its own
rule, an action's dice thrown together (`2d6`), only when `when` holds, under their own
rule, with the last effects reading their `faces`, and a roll's helping units
(`helped_by`).
Each is checked at load at its line, and does on a board of the demo what the Python
ruleset does."""

from __future__ import annotations

from typing import Any

import pytest

from domain import commands as cmd
from domain.context import Context
from domain.decide import decide
from domain.dice import SeededDice
from domain.errors import DomainError
from domain.rulefiles.compile import compile_file
from domain.rulesets import Ruleset, get_ruleset
from domain.state import MatchState
from projections.rulefile_load import BUILT_IN, check_file, check_text
from tests.unit.differential import MATCH, T0
from tests.unit.test_rulefile_guards import demo_states

SHIPPED = (BUILT_IN / "extended-sequence.yaml").read_text()
AFTER_UNITS = """        falls_on:
          units: >-
            units.filter(u, 'routed' in u.status && u.attributes.q > 0
                            && u.markers.suppression >= u.attributes.q).map(u, u.id)
"""


def _line(text: str, fragment: str) -> int:
    return text[:text.index(fragment)].count("\n") + 1


@pytest.mark.parametrize(("good", "bad", "check"), [
    ("      - clear_markers: [prepared_fire, rof_spent, halted, shots]",
     "      - clear_markers: [prepared_fire, rof_spent, haltd, shots]", "undeclared-name"),
    (AFTER_UNITS, "", "invalid-value"),  # at the effect
    ('    helped_by: "[action.leader_id]"', '    helped_by: "action.leader_id"',
     "expression-type"),
    ("    passes: {effects: [clear_statuses: [broken, routed]]}",
     "    passes: {effects: [clear_statuses: [broken, routd]]}", "undeclared-name"),
    ("          when: step != 'advancing_fire'", "          when: step", "expression-type"),
    ("        - {set_status: broken_down, rule: ES-2, when: \"faces[0] + faces[1] == 12\"}",
     "        - {set_status: broken_down, rule: ES-2, when: \"fcaes[0] + faces[1] == 12\"}",
     "undeclared-name"),
])
def test_a_defect_in_the_new_blocks_is_refused_at_its_line(good: str, bad: str,
                                                           check: str) -> None:
    assert good in SHIPPED
    text = SHIPPED.replace(good, bad, 1)
    report = check_text(text, "es.yaml")
    assert not report.ok
    at = "      - remove_unit: {reason: eliminated}" if good == AFTER_UNITS else bad
    assert [(f.check, f.line) for f in report.findings] == [(check, _line(text, at))]


@pytest.mark.parametrize(("effect", "read"), [
    ("first: [{set_status: pinned, falls_on: {units: '[]'}, when: 'faces[0] > 0'}]", False),
    ("effects: [{set_status: pinned, falls_on: {units: '[]'}, when: 'faces[0] > 0'}]", True),
    ("effects: [{set_status: pinned, falls_on: {units: \"faces.map(f, 'x')\"}}]", False),
])
def test_the_faces_are_read_only_by_whether_an_effect_after_the_dice_is_made(
        effect: str, read: bool) -> None:
    text = SHIPPED.replace("    does: {own: true}", f"    does: {{own: true, {effect}}}", 1)
    report = check_text(text, "es.yaml")
    assert [f.check for f in report.findings] == ([] if read else ["undeclared-name"])


def _file() -> Ruleset:
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None
    return compile_file(report.ruleset, declared_in_play=False)


def _said(ruleset: Ruleset, command: cmd.Command, state: MatchState, seat: str) -> list[Any]:
    context = Context(match_id=MATCH, version=1, actor=seat, command_id="c", now=T0,
                      dice=SeededDice(b"x"), roll_index=0)
    return [(type(e).__name__, e.model_dump(mode="json", exclude={"timestamp"}))
            for e in decide(command, state, ruleset, context)]


def test_a_routed_unit_reaching_its_q_is_eliminated_after_any_action() -> None:
    state = next(s for s in demo_states() if s.turn.step == "combat/routed_movement")
    # g-rifles-3: routed, q 4, three suppression markers
    state = state.model_copy(update={"units": {**state.units, "g-rifles-3": state.units[
        "g-rifles-3"].model_copy(update={"markers": {"suppression": 3}})}})
    command = cmd.SetStatus(unit_id="g-rifles-2", set=["pinned"])  # any action
    assert [n for n, _ in _said(_file(), command, state, "germans")] == ["UnitStatusChanged"]
    placed = cmd.PlaceMarker(unit_id="g-rifles-3", kind="suppression")
    python = _said(get_ruleset("extended-sequence", {}), placed, state, "germans")
    assert _said(_file(), placed, state, "germans") == python
    assert python[-1][0] == "UnitRemoved" and python[-1][1]["rule"] == "ES-4"


@pytest.mark.parametrize("faces", [[6, 6], [3, 4]])
def test_a_shot_throws_2d6_under_its_rule_and_breaks_down_on_a_12(faces: list[int]) -> None:
    state = next(s for s in demo_states() if s.turn.step == "combat/prepared_fire")
    fire = cmd.Fire(unit_id="g-hmg", target_id="s-hmg", source="table", results=faces)
    python = _said(get_ruleset("extended-sequence", {}), fire, state, "germans")
    mine = _said(_file(), fire, state, "germans")
    assert mine == python
    assert mine[0][1]["rule"] == "ES-4" and mine[0][1]["dice"] == faces
    assert ("UnitStatusChanged" in [n for n, _ in mine]) == (sum(faces) == 12)


def test_the_fire_markers_come_off_unit_by_unit_as_the_next_player_turn_begins() -> None:
    state = next(s for s in demo_states() if s.turn.step == "combat/advance")
    units = dict(state.units)
    for unit_id in ("g-hmg", "s-hmg"):
        units[unit_id] = units[unit_id].model_copy(update={"markers": {
            "shots": 2, "prepared_fire": 1, "rof_spent": 1, "suppression": 1}})
    state = state.model_copy(update={"units": units})
    python = get_ruleset("extended-sequence", {})
    seat = next(s for s in state.side_ids() if s == "germans")
    said = _said(python, cmd.Advance(), state, seat)
    assert _said(_file(), cmd.Advance(), state, seat) == said
    removed = [(b["unit_id"], b["kind"], b["count"]) for n, b in said if n == "MarkerRemoved"]
    assert removed == [("g-hmg", "prepared_fire", 1), ("g-hmg", "rof_spent", 1),
                       ("g-hmg", "shots", 2), ("s-hmg", "prepared_fire", 1),
                       ("s-hmg", "rof_spent", 1), ("s-hmg", "shots", 2)]


@pytest.mark.parametrize(("status", "faces", "leader"), [
    (["broken", "routed"], [1, 1], "g-leader"),  # both cleared in one change
    (["routed"], [6, 6], "g-leader"),  # failed: nothing cleared
    (["broken"], [1, 1], "g-hmg"),  # not a leader
    (["broken"], [1, 1], "nobody"),  # no such unit
])
def test_a_leaders_rally_does_what_the_python_rally_does(status: list[str], faces: list[int],
                                                         leader: str) -> None:
    state = next(s for s in demo_states() if s.turn.step == "rally/leader_rally")
    state = state.model_copy(update={"units": {**state.units, "g-rifles-1": state.units[
        "g-rifles-1"].model_copy(update={"status": tuple(status)})}})
    rally = cmd.RuleRoll(roll="leader_rally", unit_id="g-rifles-1", leader_id=leader,
                         source="table", results=faces)

    def outcome(ruleset: Ruleset) -> Any:
        try:
            return _said(ruleset, rally, state, "germans")
        except DomainError as error:
            return type(error).__name__, error.rule

    python = outcome(get_ruleset("extended-sequence", {}))
    assert outcome(_file()) == python
    if leader == "g-leader":  # the dice name the leader too (its rallies are counted)
        assert python[0][1]["unit_ids"] == ["g-rifles-1", "g-leader"]
    if status == ["broken", "routed"]:
        assert python[-1][1]["cleared"] == ["broken", "routed"]
