"""Hold the Towns, battlelog's sixth game, written only as a ruleset file
(projections/rulefiles/hold-the-towns.yaml, docs/rulesets/hold-the-towns.md): the file passes
every check, names no Python procedure, and its sequence of play walks a whole game turn for
both sides (North's player-turn, South's, then the end of the game turn both sides close),
each step acted in and left by the seats the rules say."""

from __future__ import annotations

from conftest import Table

from domain.authority import movers, seats
from domain.rulefiles import RulesetFile, sequence_of
from domain.sequence import current_roles, following, start
from domain.state import MatchState
from projections.rulefile_load import BUILT_IN, check_file

FILE = BUILT_IN / "hold-the-towns.yaml"


def shipped() -> RulesetFile:
    report = check_file(FILE)
    assert report.ok, report.lines()
    assert report.ruleset is not None
    return report.ruleset


def test_the_file_passes_every_check_and_names_no_python_procedure() -> None:
    file = shipped()
    assert (file.id, file.sides.bounds(), file.sides.rule) == ("hold-the-towns", (2, 2), "HT-1")
    assert not file.conditions
    assert [name for name, action in file.actions.items() if action.procedure] == []


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
    assert walk_a_game_turn(state) == [
        ("player_turn/reinforcement", "north", ["north"], ["north", "referee"], phasing),
        ("player_turn/movement", "north", ["north"], ["north", "referee"], phasing),
        ("player_turn/combat", "north", both, ["north", "referee"], phasing),
        ("player_turn/reinforcement", "south", ["south"], ["south", "referee"], south),
        ("player_turn/movement", "south", ["south"], ["south", "referee"], south),
        ("player_turn/combat", "south", both, ["south", "referee"], south),
        ("end_of_turn", None, both, ["north", "south", "referee"], {}),
    ]


def test_each_step_allows_only_what_its_rule_does() -> None:
    seq = sequence_of(shipped())
    allows = {path: set(seq.step(path).allows) for path in seq.steps()}
    assert allows == {
        "player_turn/reinforcement": {"move_unit"},
        "player_turn/movement": {"move_unit", "set_status"},
        "player_turn/combat": {"roll_dice", "move_unit", "remove_unit", "set_status"},
        "end_of_turn": {"set_track", "score_vp"},
    }

