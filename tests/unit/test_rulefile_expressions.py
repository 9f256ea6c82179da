"""The expressions of a ruleset file (domain/rulefiles/expression.py, evaluate.py, view.py):
each construct of the language evaluated over the view of a match, each check at load with
its place in the file, and hostile expressions refused at load (each a problem the API
answers with 422) or, at worst, refused as an action when evaluated, never a crash."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Table
from rulefile_forms import SKIRMISH

from domain import commands as cmd
from domain.decide import decide
from domain.errors import InvalidAction
from domain.rulefiles import RulesetFile
from domain.rulefiles.behaviour import behaviour
from domain.rulefiles.compile import compile_file
from domain.rulefiles.evaluate import NotAnExpression, Unreadable, compile_expression
from domain.rulefiles.expression import MAX_CHARS, check_expression
from domain.rulefiles.expression_checks import MAX_FILE_CHARS
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.state import MatchState, Position
from projections.rulefile_load import check_text

DATA: dict[str, Any] = {
    "sides": {"roles": {"attacker": {}, "defender": {}}},
    "unit_kinds": {"squad": {"attributes": {
        "morale": {"type": "integer", "minimum": 2, "maximum": 12},
        "weapon": {"type": "choice", "values": ["rifle", "mg"]},
        "q": {"type": "integer", "minimum": 1, "maximum": 12},
        "veteran": {"type": "flag"}}}},
    "marker_kinds": {"pinned": {}, "smoke": {}},
    "statuses": {"broken": {}, "routed": {}},
    "tracks": {"weather": {"values": ["clear", "rain"]}, "control.*": {"values": ["red",
                                                                                  "blue"]},
               "visibility": {"minimum": 0, "maximum": 9}},
    "actions": {"move_unit": {}, "place_marker": {}},
    "sequence": [{"step": "weather", "shared": True},
                 {"phase": "turn", "player_turns": True, "roles": ["attacker", "defender"],
                  "steps": [{"step": "move"}, {"step": "fire"}]}],
}
DECLARED = Declared.of(DATA)
UNITS = [
    {"id": "a1", "side": "red", "name": "A1", "kind": "squad", "q": 5,
     "extra": {"morale": 7, "weapon": "mg"}, "position": {"hex": "0101"},
     "status": ["broken"], "markers": {"pinned": 2}},
    {"id": "b1", "side": "blue", "name": "B1", "kind": "squad", "extra": {"veteran": 1},
     "position": {"box": "reserve"}},
]


def state() -> MatchState:
    table = Table(units=UNITS)
    table.act(type="set_track", name="control.hill", value="blue")
    # the marker as the file's sequence would have it: red's move step
    return table.state.model_copy(update={"turn": table.state.turn.model_copy(
        update={"step": "turn/move", "active_side": "red"})})


def value(text: str, at: MatchState | None = None, command: cmd.Command | None = None,
          actor: str = "") -> Any:
    compiled = compile_expression(text, types(DECLARED, ("move_unit", "place_marker")), BOOL,
                                  DECLARED, lambda s: {"attacker": "red", "defender": "blue"})
    return compiled(at or state(), command, actor)


# ---- each construct, evaluated ---------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("turn == 1 && step == 'move' && phase == 'turn' && active == 'red'", True),
    ("turn == 2", False),
    ("sides == ['red', 'blue'] && 'blue' in sides", True),
    ("roles.attacker == 'red' && roles['defender'] == 'blue'", True),
    ("units.size() == 2", True),
    ("units.exists(u, u.id == 'a1' && 'broken' in u.status)", True),
    ("units.all(u, 'broken' in u.status)", False),
    ("units.exists_one(u, u.side == 'blue')", True),
    ("units.filter(u, u.markers.pinned > 1).map(u, u.id) == ['a1']", True),
    ("units.filter(u, u.hex == '0101').size() == 1 && units[1].box == 'reserve'", True),
    # attributes: from extra, from the unit's own field (q), else a default
    ("units[0].attributes.morale == 7 && units[0].attributes.q == 5", True),
    ("units[1].attributes.morale == 0 && units[1].attributes.weapon == ''", True),
    ("units[1].attributes.veteran && !units[0].attributes.veteran", True),
    ("units[1].markers.smoke == 0 && units[0].markers.pinned == 2", True),
    # tracks: set, and a declared track not yet set reads as its first value or minimum
    ("tracks['control.hill'] == 'blue' && tracks['weather'] == 'clear'", True),
    ("tracks['visibility'] + 3 == 3", True),
    ("'control.hill' in tracks && !('control.wood' in tracks)", True),
    ("(units.size() > 1 ? 'many' : 'one') == 'many'", True),
    ("-units[0].attributes.morale * 2 % 5 == -4 && 7 / 2 == 3", True),
    (("units[0].name.startsWith('A') && units[0].name.endsWith('1') && "
      "units[0].name.contains('A1')"), True),
    ("has(units[0].attributes.morale) && size(units) == 2", True),
    ("done == [] && facts.size() == 0 && vp.red == 0", True),
])
def test_each_construct_reads_the_view(text: str, expected: bool) -> None:
    assert value(text) is expected


def test_a_guard_reads_the_action_the_actor_their_role_and_the_unit() -> None:
    move = cmd.MoveUnit(unit_id="a1", to=Position(hex="0202"))
    text = ("action.type == 'move_unit' && action.unit_id == unit.id && unit.side == actor "
            "&& role == 'attacker' && unit.attributes.morale == 7")
    assert value(text, command=move, actor="red") is True
    assert value(text, command=move, actor="blue") is False
    assert value("unit.id == '' && unit.markers.size() == 0",
                 command=cmd.PlaceMarker(kind="smoke", location="0303")) is True


def test_a_failure_while_evaluating_is_said_never_a_crash() -> None:
    with pytest.raises(Unreadable):
        value("units[0].attributes.morale / (turn - 1) > 0")
    with pytest.raises(Unreadable):
        value("units[0].attributes.morale * 9007199254740991 * 9007199254740991 > 0")
    with pytest.raises(Unreadable):
        value("units[5].id == ''")


# ---- the checks at load, each in the file's terms --------------------------------------

def flaws(text: str, guard: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    return [(f.check, f.token) for f in check_expression(text, types(DECLARED, guard), BOOL)]


@pytest.mark.parametrize(("text", "expected"), [
    ("unit.markers.pinned > 0", [("undeclared-name", "unit")]),  # no action: no unit
    ("units[0].attributes.moral > 0", [("undeclared-name", "moral")]),
    ("units[0].markers.pined > 0", [("undeclared-name", "pined")]),
    ("'brokn' in units[0].status", [("undeclared-name", "'brokn'")]),
    ("tracks['wether'] == 'clear'", [("undeclared-name", "'wether'")]),
    ("tracks['weather'] == 'snow'", []),  # a track's values are not checked (yet): text
    ("step == 'mvoe'", [("undeclared-name", "'mvoe'")]),
    ("roles.atacker == ''", [("undeclared-name", "atacker")]),
    ("units[0].kind == 'tank'", [("undeclared-name", "'tank'")]),
    ("units[0].colour == ''", [("undeclared-name", "colour")]),
    ("turns > 1", [("undeclared-name", "turns")]),
    ("units[0].attributes.morale == 'high'", [("expression-type", "units")]),
    ("tracks['visibility'] < 'far'", [("expression-type", "tracks")]),
    ("turn && true", [("expression-type", "turn")]),
    ("turn + 1", [("expression-type", "turn")]),
    ("units.exists(u, u.hex)", [("expression-type", "u")]),
    ("'a' in turn", [("expression-type", "turn")]),
    ("turn.size() > 0", [("expression-type", "size")]),
    ("min(turn, 2) > 0", [("unknown-function", "min")]),
    ("units.sort() == units", [("unknown-function", "sort")]),
    ("turn > 1.5", [("expression-unsupported", "1.5")]),
    ("turn > 1u", [("expression-unsupported", "1u")]),
    ("{'a': 1}['a'] == 1", [("expression-unsupported", "'a'")]),
    ("turn >", [("expression-syntax", ">")]),  # where the parser stopped
])
def test_each_check_finds_its_flaw_at_its_token(text: str,
                                                expected: list[tuple[str, str]]) -> None:
    assert flaws(text) == expected


def test_an_action_field_is_checked_against_the_guards_action_types() -> None:
    assert flaws("action.kind == 'smoke'", ("place_marker",)) == []
    assert flaws("action.kind == 'smok'", ("place_marker",)) == [("undeclared-name", "'smok'")]
    assert flaws("action.to == ''", ("place_marker",)) == [("undeclared-name", "to")]
    assert flaws("action.type == 'fire'", ("move_unit",)) == [("undeclared-name", "'fire'")]


def test_a_flaw_is_placed_at_its_line_and_column_in_the_file() -> None:
    text = SKIRMISH.read_text().replace(
        "u.hex != ''", "u.hex != '' && u.markers.pined == 0")
    text = text.replace("sequence:\n", "guards:\n  - actions: [move_unit]\n    when: >-\n"
                        "      unit.markers.pinned == 0\n      && 'brokn' in unit.status\n"
                        "    rule: SK-1\n    says: pinned units do not move\nsequence:\n")
    report = check_text(text, "g.yaml")
    assert [(f.check, f.line, f.column) for f in report.findings] == [
        ("undeclared-name", 28, 129), ("undeclared-name", 33, 10)]
    lines = text.splitlines()
    assert lines[27][128:].startswith("pined") and lines[32][9:].startswith("'brokn'")


# ---- hostile expressions ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "check"), [
    ("units.__class__.__mro__ == []", "expression-type"),  # an attribute walk: a list
    ("units[0].__class__.__mro__ == []", "undeclared-name"),  # a unit has no such field
    ("units[0].__dict__.size() > 0", "undeclared-name"),
    ("__import__('os') == null", "unknown-function"),
    ("exec('import os') == null", "unknown-function"),
    ("dyn(turn) == 1", "unknown-function"),
    ("type(turn) == int", "unknown-function"),
    ("turn > 99999999999999999999999999999", "expression-too-large"),  # a huge literal
    ("turn > 0x7fffffffffffffff", "expression-too-large"),
    ("turn > " + "(" * 13 + "1" + ")" * 13, "expression-too-large"),  # deep nesting
    ("!" * 400 + "true", "expression-too-large"),
    ("turn == 1 || " * 50 + "true", "expression-too-large"),  # past MAX_CHARS
    ("units.all(a, units.all(b, units.all(c, a == c)))", "expression-too-large"),
    ("units.map(a, units.map(b, units.map(c, 1))).size() > 0", "expression-too-large"),
    ("step == '" + "x" * 150 + "'", "expression-too-large"),
    ("b'x' == b'x'", "expression-unsupported"),
    ("google.protobuf.Value{} == null", "expression-unsupported"),
    ("import os", "expression-syntax"),
    (r"step == '\q'", "expression-syntax"),  # read by the checks' parser, not the evaluator's
    ("step == '\\'' && " + "(" * 13 + "true" + ")" * 13, "expression-too-large"),  # an
    # escaped quote does not hide the brackets after it
    ("while(true)", "unknown-function"),
])
def test_a_hostile_expression_is_refused_at_load(text: str, check: str) -> None:
    found = check_expression(text, types(DECLARED), BOOL)
    assert found and found[0].check == check
    yaml = SKIRMISH.read_text().replace("\"units.all(u, u.side != active || u.hex != '')\"",
                                        json.dumps(text))
    report = check_text(yaml, "hostile.yaml")
    assert not report.ok and report.ruleset is None  # the API's 422: nothing is stored
    assert report.findings[0].check == check and report.findings[0].line == 28


def test_a_file_of_many_long_expressions_is_refused_once_past_its_budget() -> None:
    long = " && ".join(["units.exists(u, u.markers.pinned > 0 && 'broken' in u.status)"] * 7)
    guards = "".join(f'  - {{actions: [move_unit], rule: X, says: x, when: "{long}"}}\n'
                     for _ in range(MAX_FILE_CHARS // len(long) + 5))
    text = SKIRMISH.read_text().replace("sequence:\n", f"guards:\n{guards}sequence:\n")
    report = check_text(text, "many.yaml")
    first_over = 30 + MAX_FILE_CHARS // len(long)  # its line: the guards start on line 30
    assert [(f.check, f.line) for f in report.findings] == [("expression-too-large",
                                                            first_over)]
    fewer = text.replace(guards, guards[:guards.index("\n") + 1] * 3)
    assert check_text(fewer, "few.yaml").ok


def test_the_length_cap_is_counted_before_anything_is_parsed() -> None:
    assert [f.check for f in check_expression("1" * (MAX_CHARS + 1), types(DECLARED),
                                              BOOL)] == ["expression-too-large"]


def test_a_file_that_skipped_the_checks_cannot_compile_a_hostile_expression() -> None:
    data: dict[str, Any] = {"format_version": 1, "id": "x", "title": "X",
                            "conditions": {"c": {"when": "!" * 2000 + "true"}},
                            "sequence": [{"step": "s", "leave_when": "c"}]}
    file = RulesetFile.model_validate(data)  # its shape is right; its meaning is not checked
    with pytest.raises(NotAnExpression, match="expression-too-large"):
        behaviour(file)


# ---- conditions and guards become Ruleset fields ---------------------------------------

def skirmish() -> RulesetFile:
    report = check_text(SKIRMISH.read_text(), "skirmish.yaml")
    assert report.ruleset is not None, report.lines()
    return report.ruleset


def test_a_condition_given_as_an_expression_is_read_by_the_sequence() -> None:
    holds = behaviour(skirmish())["conditions"]["on_map"]
    table = Table(units=UNITS)
    on_turn = table.state.turn.model_copy(update={"active_side": "red"})
    red = table.state.model_copy(update={"turn": on_turn})
    assert holds(red) is True  # a1 is on hex 0101
    assert holds(red.model_copy(update={"turn": on_turn.model_copy(
        update={"active_side": "blue"})})) is False  # b1 waits in a box


def test_a_guard_refuses_with_its_rule_unless_the_referee_acts() -> None:
    text = SKIRMISH.read_text().replace("sequence:\n", (
        "guards:\n  - actions: [move_unit]\n    when: \"unit.markers.pinned == 0\"\n"
        "    rule: SK-1\n    says: a pinned unit does not move\nsequence:\n"))
    report = check_text(text, "g.yaml")
    assert report.ruleset is not None, report.lines()
    check = behaviour(report.ruleset)["checks"][0]
    pinned = state().model_copy(update={"units": {
        "s1": state().units["a1"].model_copy(update={"id": "s1", "kind": "squad",
                                                     "markers": {"pinned": 1}})}})
    move = cmd.MoveUnit(unit_id="s1", to=Position(hex="0102"))
    with pytest.raises(InvalidAction) as refused:
        check(move, pinned, "red")
    assert (refused.value.rule, refused.value.detail) == ("SK-1",
                                                          "SK-1: a pinned unit does not move")
    check(move, pinned, "referee")  # (ours) the referee's hand is free
    check(cmd.PlaceMarker(kind="pinned", unit_id="s1"), pinned, "red")  # not its action
    # and as the referee of a match created from the file decides it
    ruleset = compile_file(report.ruleset)
    context = Table(units=UNITS).context("red")
    with pytest.raises(InvalidAction, match="SK-1: a pinned unit does not move"):
        decide(move, pinned, ruleset, context)
    free = pinned.model_copy(update={"units": {"s1": pinned.units["s1"].model_copy(
        update={"markers": {}})}})
    assert [type(e).__name__ for e in decide(move, free, ruleset, context)] == ["UnitMoved"]
