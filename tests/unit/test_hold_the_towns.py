"""Hold the Towns, battlelog's sixth game, written only as a ruleset file
(projections/rulefiles/hold-the-towns.yaml, docs/rulesets/hold-the-towns.md): the file passes
every check, names no Python procedure (its conditions and refusals are expressions, its
combat a dice procedure with its results table, the same table as the rules' HT-6), and its
sequence of play walks a whole game turn for
both sides (North's player-turn, South's, then the end of the game turn both sides close),
each step acted in and left by the seats the rules say; its demo scenario sets up only what
the file declares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Table

from api.scenarios import HERE
from domain.authority import movers, seats
from domain.commands import CreateMatch, RuleRoll
from domain.decide import decide
from domain.errors import InvalidAction
from domain.evolve import evolve
from domain.rulefiles import RulesetFile, sequence_of
from domain.rulefiles.compile import compile_file
from domain.sequence import current_roles, following, start
from domain.state import MatchState
from projections.rulefile_load import BUILT_IN, check_file

FILE = BUILT_IN / "hold-the-towns.yaml"
DEMO = HERE / "files" / "hold-the-towns-demo.json"


def shipped() -> RulesetFile:
    report = check_file(FILE)
    assert report.ok, report.lines()
    assert report.ruleset is not None
    return report.ruleset


def test_the_file_passes_every_check_and_names_no_python_procedure() -> None:
    file = shipped()
    assert (file.id, file.sides.bounds(), file.sides.rule) == ("hold-the-towns", (2, 2), "HT-1")
    assert [name for name, action in file.actions.items() if action.procedure] == []
    assert [name for name, c in file.conditions.items() if c.procedure] == []


def walk_a_game_turn(state: MatchState) -> list[tuple[str, str | None, list[str], list[str],
                                                       dict[str, str]]]:
    """Each step of game turn 1 as the marker reaches it: its path, the active side, the
    seats that act there, the seats that move the marker on, and the roles."""
    seq = sequence_of(shipped())
    marker = start(seq, state.side_ids())
    seen = []
    while marker.turn == 1:
        here = state.model_copy(update={"turn": marker})
        step = seq.step(marker.step)
        seen.append((marker.step, marker.active_side, seats(seq, here, step.acting),
                     movers(seq, here), current_roles(seq, here)))
        marker = following(seq, marker, here, {})
    assert (marker.turn, marker.step, marker.active_side) == (
        2, "player_turn/reinforcement", "north")
    return seen


def test_a_game_turn_is_north_player_turn_then_south_then_both_close_it() -> None:
    state = Table(sides=("north", "south")).state
    phasing = {"phasing": "north", "opponent": "south"}
    south = {"phasing": "south", "opponent": "north"}
    both = ["north", "south"]
    # (in the combat step the opponent acts only for what a result makes it owe: HT-5, HT-6,
    # tests/unit/test_hold_the_towns_duties.py)
    assert walk_a_game_turn(state) == [
        ("player_turn/reinforcement", "north", ["north"], ["north", "referee"], phasing),
        ("player_turn/movement", "north", ["north"], ["north", "referee"], phasing),
        ("player_turn/combat", "north", ["north"], ["north", "referee"], phasing),
        ("player_turn/reinforcement", "south", ["south"], ["south", "referee"], south),
        ("player_turn/movement", "south", ["south"], ["south", "referee"], south),
        ("player_turn/combat", "south", ["south"], ["south", "referee"], south),
        ("end_of_turn", None, both, ["north", "south", "referee"], {}),
    ]


def test_each_step_allows_only_what_its_rule_does() -> None:
    seq = sequence_of(shipped())
    allows = {path: set(seq.step(path).allows) for path in seq.steps()}
    assert allows == {
        "player_turn/reinforcement": {"move_unit"},
        "player_turn/movement": {"move_unit"},
        "player_turn/combat": {"place_marker", "rule_roll", "move_unit", "remove_unit",
                               "remove_marker"},
        "end_of_turn": {"set_track"},  # the service scores the towns (HT-7)
    }



def test_the_demo_sets_up_only_what_the_file_declares() -> None:
    file = shipped()
    demo = CreateMatch.model_validate_json(DEMO.read_text())
    assert demo.ruleset == file.id  # a match of it is created by the game's id
    assert [s.id for s in demo.sides] == ["north", "south"]
    assert {u.side for u in demo.units} == {"north", "south"}
    for unit in demo.units:
        kind = file.unit_kinds[str(unit.kind)]
        assert set(unit.extra) <= set(kind.attributes), unit.id
        for name, attribute in kind.attributes.items():
            value: Any = unit.extra.get(name)
            if getattr(attribute, "required", False):
                assert value is not None, (unit.id, name)
            if value is not None and attribute.type == "integer":
                assert attribute.minimum <= value <= attribute.maximum, (unit.id, name)
        waiting = unit.position is not None and unit.position.box == "reinforcements"
        assert waiting == ("arrives" in unit.extra) == ("enters" in unit.extra), unit.id
    control = file.tracks["control.*"].values or ()
    cities = demo.options["cities"]
    assert isinstance(cities, dict) and len(cities) == 3
    assert set(cities.values()) == {"none"} and "none" in control  # HT-7: none held at first
    assert demo.options["turns"] == 4  # HT-8


def doc_table() -> dict[str, list[str]]:
    """HT-6's combat results table as docs/rulesets/hold-the-towns.md prints it: each odds
    column's results for the die's faces 1 to 6."""
    text = (Path(__file__).parents[2] / "docs" / "rulesets" / "hold-the-towns.md").read_text()
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.strip().startswith("| ")]
    [head] = [r for r in rows if r[0] == "die"]
    faces = [r for r in rows if r[0] in {"1", "2", "3", "4", "5", "6"} and len(r) == len(head)]
    assert [r[0] for r in faces] == ["1", "2", "3", "4", "5", "6"]
    return {column: [r[i] for r in faces] for i, column in enumerate(head) if i}


def test_the_files_results_table_is_the_rules_table_face_by_face() -> None:
    table = shipped().rolls["attack"].table
    assert table is not None
    said = {}
    for column, rows in table.columns.items():
        by_face = {}
        for row in rows:
            first, _, last = str(row.rolls).partition("-")
            for face in range(int(first), int(last or first) + 1):
                by_face[face] = row.says.split(":")[0]
        said[column] = [by_face[face] for face in range(1, 7)]
    assert said == doc_table()
    # AE removes the attacking unit (the roll's own), DE the unit marked as attacked (the
    # defender marker became it as the die was thrown, and each effect reads the board as
    # the earlier effects left it);
    # AR and DR put a retreat marker on the attacker and on the defender: the retreat is
    # their owner's to carry out (a duty of the combat step); NE does nothing
    for rows in table.columns.values():
        for row in rows:
            result = row.says.split(":")[0]
            assert bool(row.effects) == (result != "NE"), row
            for effect in row.effects:
                made = "remove_unit" if result in ("AE", "DE") else "retreat"
                assert (effect.remove_unit is not None if made == "remove_unit" else
                        effect.place_marker is not None
                        and effect.place_marker.kind == "retreat"), row
                assert (effect.falls_on.marked if effect.falls_on else None) == (
                    "attacked" if result in ("DE", "DR") else None), row


UNITS = [
    {"id": "n-a", "side": "north", "name": "A", "kind": "armour", "position": {"hex": "0303"},
     "extra": {"attack": 9, "defence": 2, "movement": 5}},
    {"id": "s-d", "side": "south", "name": "D", "kind": "infantry", "position": {"hex": "0304"},
     "extra": {"attack": 2, "defence": 3, "movement": 3}, "markers": {"defender": 1}},
]


def attacked(die: int, defender_at: str = "0304") -> MatchState:
    """North's armour (9) in 0303 attacks South's infantry (3) named as the defender: 3-1."""
    file = shipped()
    ruleset = compile_file(file)
    units = [UNITS[0], {**UNITS[1], "position": {"hex": defender_at}}]
    table = Table(sides=("north", "south"), units=units)
    seq = sequence_of(file)
    state = table.state
    marker = start(seq, state.side_ids())
    while marker.step != "player_turn/combat":
        marker = following(seq, marker, state.model_copy(update={"turn": marker}), {})
    state = state.model_copy(update={"turn": marker})
    for event in decide(RuleRoll(roll="attack", unit_id="n-a", source="table", results=[die]),
                        state, ruleset, table.context("north")):
        state = evolve(state, event)
    return state


def test_a_de_result_eliminates_the_defender_and_a_dr_leaves_it_to_its_owner() -> None:
    eliminated = attacked(1)  # 3-1, a 1: DE
    assert eliminated.units["s-d"].removed == "eliminated"
    assert eliminated.units["n-a"].removed is None
    retreating = attacked(2)  # 3-1, a 2: DR, the owner's to carry out
    assert retreating.units["s-d"].removed is None
    position = retreating.units["s-d"].position
    assert position is not None and position.hex == "0304" and not position.box


def test_a_defender_not_next_to_the_attacker_is_not_attacked() -> None:
    assert attacked(1, "0404").units["s-d"].removed == "eliminated"  # next to it (HT-5)
    with pytest.raises(InvalidAction, match="HT-5: .* in a hex next to it"):
        attacked(1, "0305")  # two hexes away


def test_the_service_scores_the_towns_and_ends_the_match_after_game_turn_four() -> None:
    file = shipped()
    assert [(s.rule, s.at) for s in file.scoring] == [("HT-7", "end_of_turn")]
    assert file.end is not None and (file.end.rule, file.end.turns) == ("HT-8", 4)
