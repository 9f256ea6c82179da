"""Duties in a ruleset file (a step's `owes:`, docs/rulesets/authoring.md, "Duties: what a
step owes"): each mistake in one is refused at its line, in words naming the field; a step
that waits for a condition but owes nothing is a warning; a file's duties are the engine's
(`domain.duties`), read over the match (a `while` for each side, `units` for each unit),
charged to the request's meter, and from them come what is owed, whose turn it is, the
refusal to leave a step and who may act out of turn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Table
from pydantic import TypeAdapter
from rulefile_forms import SKIRMISH

from domain.commands import Action
from domain.decide import decide
from domain.errors import NotYourTurn, OutOfSequence
from domain.evolve import evolve
from domain.owed import owed
from domain.rulefiles.compile import compile_file
from domain.rulefiles.cost import Meter, Spent, metered
from domain.rulefiles.duties_checks import UNSAID
from domain.rulesets.base import Ruleset
from domain.sequence import start
from domain.state import MatchState
from domain.waiting import waiting_for_seats
from projections.rulefile_load import check_text

ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
TEXT = SKIRMISH.read_text()
DUTY = """          - rule: SK-2
            says: bring each of its units onto the map
            units: "unit.side == active && unit.hex == ''"
            done_by: [move_unit]
"""
assert DUTY in TEXT
LINE = TEXT[:TEXT.index(DUTY)].count("\n") + 1  # the duty's first line (`- rule:`)


def with_duty(duty: str) -> list[tuple[str, int, str]]:
    """The problems of the small game with its movement step owing `duty` instead."""
    report = check_text(TEXT.replace(DUTY, duty), "skirmish.yaml")
    return [(f.check, f.line, f.message) for f in report.findings]


def test_the_small_game_with_its_duty_passes_without_a_warning() -> None:
    report = check_text(TEXT, "skirmish.yaml")
    assert report.ok and report.warnings == ()
    assert report.ruleset is not None
    [step] = [s for p in report.ruleset.sequence if hasattr(p, "steps") for s in p.steps
              if getattr(s, "step", "") == "move"]
    assert [(d.rule, d.by, d.done_by) for d in step.owes] == [("SK-2", "active",
                                                               ("move_unit",))]


@pytest.mark.parametrize(("duty", "check", "offset", "words"), [
    # units and while hold or not: a text is no answer
    (DUTY.replace("unit.side == active && unit.hex == ''", "unit.hex"), "expression-type", 2,
     "true or false"),
    # while reads the side, not a unit
    (DUTY.replace("units: \"unit.side == active && unit.hex == ''\"",
                  "while: \"unit.hex == ''\""), "undeclared-name", 2, "unit"),
    # by: one of the seats or a declared role, the near one suggested
    (DUTY + "            by: attackr\n", "undeclared-role", 4, "did you mean 'attacker'"),
    # done_by: action types the file declares
    (DUTY.replace("[move_unit]", "[fire]"), "undeclared-action", 3, "'fire'"),
    # a duty the step could never see done
    (DUTY.replace("[move_unit]", "[roll_dice]"), "never-discharged", 3, "roll_dice"),
    # by: owner needs the units it concerns
    (DUTY.replace("units: \"unit.side == active && unit.hex == ''\"",
                  "while: \"side == active\"\n            by: owner"), "invalid-value", 0,
     "units"),
    # it says which units it concerns or while it is owed
    (DUTY.replace("            units: \"unit.side == active && unit.hex == ''\"\n", ""),
     "invalid-value", 0, "while"),
    # its words are bounded as other words are
    (DUTY.replace("bring each of its units onto the map", "x" * 201), "invalid-value", 1,
     "200"),
])
def test_each_mistake_in_a_duty_is_refused_at_its_line_naming_the_field(
        duty: str, check: str, offset: int, words: str) -> None:
    [(found, line, message)] = with_duty(duty)
    assert (found, line) == (check, LINE + offset), message
    assert words in message


def test_a_misspelt_field_of_a_duty_is_named_as_a_file_gives_it() -> None:
    [(found, line, message)] = with_duty(DUTY.replace("units:", "whlie: side == active\n"
                                                      "            units:"))
    assert (found, line) == ("unknown-field", LINE + 2)
    assert message == "unknown field 'whlie'; did you mean 'while'?"


def test_a_step_owes_at_most_ten_duties() -> None:
    assert with_duty(DUTY * 10) == []
    [(found, line, message)] = with_duty(DUTY * 11)
    assert (found, line) == ("invalid-value", LINE) and "10" in message


def test_a_step_that_waits_for_a_condition_and_owes_nothing_is_a_warning() -> None:
    text = TEXT.replace("        owes:\n" + DUTY, "")
    report = check_text(text, "skirmish.yaml")
    assert report.ok  # a warning, never a refusal
    [warning] = report.warnings
    leave = text[:text.index("leave_when: on_map")].count("\n") + 1
    assert (warning.check, warning.line) == (UNSAID, leave)
    assert "nobody is told what leaving waits for" in warning.message
    assert report.lines()[-1].endswith(", 1 warning")


# ---- a file's duties in play --------------------------------------------------------------

MUSTER = """
format_version: 1
id: muster
title: Muster
sides: {count: 2}
tracks:
  ready.*: {values: ['no', 'yes']}
actions:
  set_track: {title: Say you are ready}
  move_unit: {title: Move}
sequence:
  - step: muster
    shared: true
    allows: [set_track]
    owes:
      - rule: MU-1
        says: say you are ready
        by: each
        while: "!(('ready.' + side) in tracks) || tracks['ready.' + side] != 'yes'"
        done_by: [set_track]
  - step: march
    acting: referee
    allows: [move_unit]
    owes:
      - rule: MU-2
        says: march each of its units off the start line
        by: owner
        units: "unit.hex == '0101'"
        done_by: [move_unit]
  - step: rest
"""
UNITS = [{"id": "r1", "side": "red", "name": "Red Guard", "position": {"hex": "0101"}},
         {"id": "b1", "side": "blue", "name": "Blue Lancers", "position": {"hex": "0202"}}]


def muster() -> tuple[Ruleset, Table]:
    report = check_text(MUSTER, "muster.yaml")
    assert report.ok and report.ruleset is not None, report.lines()
    table = Table(units=UNITS)
    return compile_file(report.ruleset), table


def begun(ruleset: Ruleset, table: Table) -> MatchState:
    """The match with its marker at the file's first step."""
    state = table.state
    return state.model_copy(update={"turn": start(ruleset.sequence, state.side_ids())})


def act(table: Table, ruleset: Ruleset, state: MatchState, actor: str,
        **body: Any) -> MatchState:
    for event in decide(ACTIONS.validate_python(body), state, ruleset, table.context(actor)):
        state = evolve(state, event)
    return state


def test_a_duty_owed_by_each_side_while_its_test_holds_for_that_side() -> None:
    ruleset, table = muster()
    state = begun(ruleset, table)
    assert [(o.seat, o.rule) for o in owed(state, ruleset)] == [("red", "MU-1"),
                                                                ("blue", "MU-1")]
    state = act(table, ruleset, state, "red", type="set_track", name="ready.red", value="yes")
    assert [(o.seat, o.says) for o in owed(state, ruleset)] == [("blue", "say you are ready")]
    assert waiting_for_seats(state, ruleset).reasons("blue") == ("to say you are ready",)
    state = act(table, ruleset, state, "red", type="advance")  # red owes nothing: done
    assert waiting_for_seats(state, ruleset).seats == ("blue",)
    with pytest.raises(OutOfSequence) as refused:  # blue owes: its done waits
        act(table, ruleset, state, "blue", type="advance")
    assert refused.value.rule == "MU-1" and "Blue is to say you are ready" in (
        refused.value.detail)


def test_a_duty_owed_by_each_units_owner_lets_it_act_out_of_turn() -> None:
    ruleset, table = muster()
    state = begun(ruleset, table)
    for side in ("red", "blue"):
        state = act(table, ruleset, state, side, type="set_track", name=f"ready.{side}",
                    value="yes")
        state = act(table, ruleset, state, side, type="advance")
    assert state.turn.step == "march"  # the referee's step: no side acts in it
    [due] = owed(state, ruleset)
    assert (due.seat, due.rule, due.units) == ("red", "MU-2", ("r1",))
    assert waiting_for_seats(state, ruleset).seats == ("red",)
    with pytest.raises(OutOfSequence, match="MU-2: .*Red is to march each of its units"):
        act(table, ruleset, state, "referee", type="advance")
    with pytest.raises(NotYourTurn):  # blue owes nothing: not its turn
        act(table, ruleset, state, "blue", type="move_unit", unit_id="b1", to={"hex": "0203"})
    state = act(table, ruleset, state, "red", type="move_unit", unit_id="r1", to={"hex": "0102"})
    assert owed(state, ruleset) == ()
    assert act(table, ruleset, state, "referee", type="advance").turn.step == "rest"


def test_a_duty_is_read_on_the_requests_meter() -> None:
    ruleset, table = muster()
    meter = Meter(1_000)
    with metered(meter):
        owed(begun(ruleset, table), ruleset)
    assert meter.spent > 0  # each side's reading charged
    with metered(Meter(1)), pytest.raises(Spent):
        owed(begun(ruleset, table), ruleset)
    assert re.search(r"MU-1", repr(owed(begun(ruleset, table), ruleset)))  # unmetered: read whole
