"""A file's scoring and end conditions (`scoring:`, `end:`; domain/rulefiles/ending.py):
points an expression counts over a family of tracks are scored by the service at the end
of each game turn or as the marker enters a step (the core's VictoryPointsScored), and the
match ends as the file says (a turn limit, most points winning and equal points a tie; an
expression), with the core's MatchEnded, through the referee's own `decide`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml
from conftest import ACTIONS, Table

from domain import events as ev
from domain.decide import decide
from domain.rulefiles import RulesetFile, check
from domain.rulefiles.compile import compile_file
from domain.rulesets.base import Ruleset
from domain.sequence import start
from projections.rulefile_load import check_text

GAME = """\
format_version: 1
id: towns
title: Towns
sides: {count: 2}
tracks:
  control.*: {values: [none, red, blue]}
actions: {set_track: {}, score_vp: {}}
scoring:
  - rule: TW-1
    title: towns held
    at: end_of_turn
    points: "size(tracks.filter(t, t.startsWith('control.') && tracks[t] == side))"
end: {rule: TW-2, turns: 2, turn_word: game turn}
sequence:
  - step: play
    allows: [set_track]
  - step: tally
"""


def ruleset_of(text: str) -> Ruleset:
    checked = check(yaml.safe_load(text))
    assert checked.ok and checked.file is not None, checked.problems
    return compile_file(checked.file)


def fresh(ruleset: Ruleset) -> Table:
    """A match of two sides at the first step of the file's sequence."""
    table = Table()
    state = table.state
    table.frames[len(table.log)] = replace(table.head, state=state.model_copy(
        update={"turn": start(ruleset.sequence, state.side_ids())}))
    return table


def act(table: Table, ruleset: Ruleset, **action: Any) -> list[ev.Event]:
    events = decide(ACTIONS.validate_python(action), table.state, ruleset, table.context())
    table._append(events)
    return events


def hold(table: Table, ruleset: Ruleset, **towns: str) -> None:
    for town, side in towns.items():
        act(table, ruleset, type="set_track", name=f"control.{town}", value=side)


def end_turn(table: Table, ruleset: Ruleset) -> list[ev.Event]:
    act(table, ruleset, type="advance")
    return act(table, ruleset, type="advance")


def scored(events: list[ev.Event]) -> list[tuple[str, int, str | None]]:
    return [(e.side, e.points, e.rule) for e in events
            if isinstance(e, ev.VictoryPointsScored)]


def test_each_town_a_side_holds_scores_a_point_at_the_end_of_the_game_turn() -> None:
    ruleset, table = ruleset_of(GAME), None
    table = fresh(ruleset)
    hold(table, ruleset, a="red", b="red", c="blue", d="none")
    assert scored(act(table, ruleset, type="advance")) == []  # play -> tally: not the end
    events = act(table, ruleset, type="advance")
    assert scored(events) == [("red", 2, "TW-1"), ("blue", 1, "TW-1")]
    assert [type(e).__name__ for e in events][-1] == "TurnAdvanced"
    assert {s: vp.points for s, vp in table.state.vp.items()} == {"red": 2, "blue": 1}


def test_the_match_ends_as_the_last_turn_ends_the_side_with_most_points_winning() -> None:
    ruleset, table = ruleset_of(GAME), None
    table = fresh(ruleset)
    hold(table, ruleset, a="red", b="blue")
    end_turn(table, ruleset)
    assert table.state.outcome is None and table.state.turn.turn == 2
    hold(table, ruleset, b="red")
    events = end_turn(table, ruleset)
    assert scored(events) == [("red", 2, "TW-1")]  # scored before the end is read
    [ended] = [e for e in events if isinstance(e, ev.MatchEnded)]
    assert (ended.winner, ended.rule) == ("red", "TW-2")  # 3 points against 1
    assert "game turn 2 of 2 played" in ended.reason
    assert not any(isinstance(e, ev.TurnAdvanced) for e in events)


def test_equal_points_at_the_limit_are_a_tie() -> None:
    ruleset, table = ruleset_of(GAME), None
    table = fresh(ruleset)
    hold(table, ruleset, a="red", b="blue")
    end_turn(table, ruleset)
    [ended] = [e for e in end_turn(table, ruleset) if isinstance(e, ev.MatchEnded)]
    assert ended.winner is None and "tied" in ended.reason


def test_an_end_expression_ends_the_match_as_the_turn_ends() -> None:
    text = GAME.replace("end: {rule: TW-2, turns: 2, turn_word: game turn}",
                        "end: {rule: TW-3, when: \"vp.exists(s, vp[s] >= 2)\", "
                        "says: a side has two points}")
    ruleset, table = ruleset_of(text), None
    table = fresh(ruleset)
    hold(table, ruleset, a="blue")
    assert not [e for e in end_turn(table, ruleset) if isinstance(e, ev.MatchEnded)]
    [ended] = [e for e in end_turn(table, ruleset) if isinstance(e, ev.MatchEnded)]
    assert (ended.winner, ended.rule) == ("blue", "TW-3")
    assert ended.reason.startswith("a side has two points")


def test_a_scoring_on_entering_a_step_scores_as_the_marker_arrives() -> None:
    text = GAME.replace("at: end_of_turn", "enter: tally")
    ruleset, table = ruleset_of(text), None
    table = fresh(ruleset)
    hold(table, ruleset, a="blue", b="blue")
    assert scored(act(table, ruleset, type="advance")) == [("blue", 2, "TW-1")]
    assert scored(act(table, ruleset, type="advance")) == []  # tally -> the next turn


def test_a_file_without_scoring_or_end_hooks_nothing() -> None:
    ruleset = ruleset_of(GAME.split("scoring:")[0] + "sequence:" + GAME.split("sequence:")[1])
    assert ruleset.end_of_turn is None and dict(ruleset.on_enter) == {}


@pytest.mark.parametrize(("old", "new", "check", "line", "column"), [
    ("at: end_of_turn", "enter: tallly", "undeclared-name", 11, 12),
    ("&& tracks[t] == side))", "&& tracks[t] == side) > 0)", "expression-type", 12, 19),
    ("turns: 2,", "turns: 2, when: \"turne > 1\",", "undeclared-name", 13, 36),
    ("end: {rule: TW-2, turns: 2, turn_word: game turn}", "end: {rule: TW-2}",
     "invalid-value", 13, 6),
])
def test_a_defect_of_scoring_or_end_is_found_at_its_line_and_column(
        old: str, new: str, check: str, line: int, column: int) -> None:
    assert GAME.count(old) == 1
    report = check_text(GAME.replace(old, new), "towns.yaml")
    assert [(f.check, f.line, f.column) for f in report.findings] == [(check, line, column)]


def test_the_checker_goes_over_a_maps_keys_but_not_over_a_number() -> None:
    report = check_text(GAME.replace("size(tracks.filter(t,", "size(turn.filter(t,"),
                        "towns.yaml")
    assert [f.check for f in report.findings] == ["expression-type"]
    assert RulesetFile.model_json_schema()["properties"]["end"]
