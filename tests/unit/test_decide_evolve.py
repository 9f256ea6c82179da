"""Every core action through decide (validation) and evolve (application)."""

from __future__ import annotations

import pytest
from conftest import SQUAD, Table

from domain import events as ev
from domain.commands import RollDice
from domain.decide import decide
from domain.errors import (
    InvalidAction,
    MatchOver,
    NotYourTurn,
    OutOfSequence,
)
from domain.rulesets.base import Ruleset
from domain.sequence import SequenceOfPlay, Step, start


def test_deploy_puts_the_unit_on_the_table(table: Table) -> None:
    [event] = table.act("red", type="deploy_unit", unit=SQUAD)
    assert isinstance(event, ev.UnitDeployed) and event.actor == "red" and event.version == 2
    unit = table.state.units["sq1"]
    assert (unit.figures, unit.morale_die, unit.position.label() if unit.position else "") == \
        (11, "d10", "10,12")


def test_deploying_a_taken_id_or_for_an_unknown_side_is_refused(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    with pytest.raises(InvalidAction, match="taken"):
        table.act("red", type="deploy_unit", unit=SQUAD)
    with pytest.raises(InvalidAction) as refused:
        table.act(type="deploy_unit", unit={**SQUAD, "id": "x", "side": "green"})
    assert refused.value.allowed == ["red", "blue"]


def test_move_records_origin_and_destination(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    [event] = table.act("red", type="move_unit", unit_id="sq1", to={"hex": "0412"})
    assert isinstance(event, ev.UnitMoved) and event.origin is not None
    assert event.origin.x == 10 and table.state.units["sq1"].position.hex == "0412"  # type: ignore[union-attr]


def test_status_flags_set_and_clear(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("red", type="set_status", unit_id="sq1", set=["pinned", "broken"])
    assert table.state.units["sq1"].status == ("broken", "pinned")
    table.act("red", type="set_status", unit_id="sq1", clear=["pinned"])
    assert table.state.units["sq1"].status == ("broken",)
    with pytest.raises(InvalidAction):
        table.act("red", type="set_status", unit_id="sq1", set=["broken"])


def test_markers_on_units_and_locations_are_counted(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("blue", type="place_marker", kind="suppression", count=3, unit_id="sq1")
    table.act(type="place_marker", kind="smoke", location="0412")
    table.act(type="remove_marker", kind="suppression", count=2, unit_id="sq1")
    assert table.state.units["sq1"].markers == {"suppression": 1}
    assert table.state.location_markers == {"0412": {"smoke": 1}}
    table.act(type="remove_marker", kind="smoke", location="0412")
    assert table.state.location_markers == {}
    with pytest.raises(InvalidAction) as refused:
        table.act(type="remove_marker", kind="suppression", count=2, unit_id="sq1")
    assert refused.value.rule == "core-markers"
    with pytest.raises(InvalidAction):
        table.act(type="place_marker", kind="smoke", unit_id="sq1", location="0412")


def test_server_roll_records_each_die_and_the_roll_index(table: Table) -> None:
    [first] = table.act(type="roll_dice", notation="3d6+2", purpose="fire")
    [second] = table.act(type="roll_dice", notation="d6", purpose="fire")
    assert isinstance(first, ev.DiceRolled) and isinstance(second, ev.DiceRolled)
    assert len(first.dice) == 3 and first.total == sum(first.dice) + 2
    assert (first.roll_index, second.roll_index) == (0, 1) and first.source == "server"
    assert table.state.dice.count == 2 and table.state.dice.recent[-1].version == second.version


def test_table_roll_records_the_entered_faces(table: Table) -> None:
    [event] = table.act("red", type="roll_dice", notation="2d6", purpose="rally",
                        source="table", results=[6, 6])
    assert isinstance(event, ev.DiceRolled)
    assert (event.dice, event.total, event.roll_index, event.actor) == ((6, 6), 12, None, "red")
    with pytest.raises(InvalidAction):
        table.act(type="roll_dice", notation="2d6", purpose="x", source="table", results=[7, 1])
    with pytest.raises(InvalidAction):
        table.act(type="roll_dice", notation="2d6", purpose="x", source="table", results=[1])
    with pytest.raises(InvalidAction):
        table.act(type="roll_dice", notation="d6", purpose="x", results=[1])


def test_worked_example_AA_X1_split_is_recorded_exactly(table: Table) -> None:
    """AA-X1: an 11-figure squad, base Morale d10, carries 2 wound counters; it takes 3 more
    wounds (5 in all) and ends with 4 suppression markers. Three wounds take d10 to d4; the
    fourth forces a split. Result: fireteams of 6 and 5 figures, 2 + 2 suppression markers,
    wounds 3 + 2 (owner's choice of which takes 3)."""
    table.act("red", type="deploy_unit", unit={**SQUAD, "markers": {"wound": 2}})
    table.act("blue", type="place_marker", kind="wound", count=3, unit_id="sq1")
    table.act("blue", type="place_marker", kind="suppression", count=4, unit_id="sq1")
    table.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b", figures=5,
              markers={"suppression": 2, "wound": 2})
    squad, team = table.state.units["sq1"], table.state.units["sq1b"]
    assert (squad.figures, team.figures) == (6, 5)
    assert squad.markers == {"wound": 3, "suppression": 2}
    assert team.markers == {"wound": 2, "suppression": 2}
    assert team.side == "red" and team.position == squad.position


def test_split_must_leave_figures_on_both_sides(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    with pytest.raises(InvalidAction) as refused:
        table.act("red", type="split_unit", unit_id="sq1", new_unit_id="b", figures=11)
    assert refused.value.rule == "core-split"


def test_rally_clears_flags_and_markers(table: Table) -> None:
    table.act("red", type="deploy_unit", unit={**SQUAD, "status": ["broken"],
                                               "markers": {"suppression": 2}})
    table.act("red", type="rally_unit", unit_id="sq1", remove_markers={"suppression": 1})
    unit = table.state.units["sq1"]
    assert unit.status == () and unit.markers == {"suppression": 1}
    with pytest.raises(InvalidAction, match="nothing to rally"):
        table.act("red", type="rally_unit", unit_id="sq1")


def test_removed_unit_goes_to_its_box_and_takes_no_more_orders(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("blue", type="remove_unit", unit_id="sq1", reason="destroyed")
    unit = table.state.units["sq1"]
    assert unit.removed == "destroyed" and unit.position is not None
    assert unit.position.box == "eliminated"
    with pytest.raises(InvalidAction, match="left play"):
        table.act("red", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})


def test_tracks_and_victory_points_with_per_turn_history(table: Table) -> None:
    table.act(type="set_track", name="weather", value="rain")
    table.act(type="score_vp", side="red", points=3)
    table.act(type="advance", to="end")
    table.act(type="advance")  # into turn 2
    table.act(type="score_vp", side="red", points=-1, reason="withdrawal")
    assert table.state.tracks == {"weather": "rain"}
    assert table.state.vp["red"].points == 2 and table.state.vp["red"].by_turn == {1: 3, 2: 2}


def test_advance_walks_the_phases_and_wraps_into_the_next_turn(table: Table) -> None:
    steps = []
    for _ in range(5):
        [event] = table.act(type="advance")
        steps.append((type(event).__name__, table.state.turn.turn, table.state.turn.step))
    assert steps == [("PhaseAdvanced", 1, "movement"), ("PhaseAdvanced", 1, "combat"),
                     ("PhaseAdvanced", 1, "end"), ("TurnAdvanced", 2, "setup"),
                     ("PhaseAdvanced", 2, "movement")]


def test_custom_freeform_phases_come_from_the_options() -> None:
    table = Table(options={"phases": ["orders", "fire"]})
    table.act(type="advance")
    assert table.state.turn.step == "fire"
    with pytest.raises(InvalidAction):
        Table(options={"phases": ["a", "a"]}).act(type="advance")


def test_a_side_acts_only_for_its_own_units(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    with pytest.raises(NotYourTurn) as refused:
        table.act("blue", type="move_unit", unit_id="sq1", to={"x": 0, "y": 0})
    assert refused.value.rule == "core-seats"
    with pytest.raises(NotYourTurn):
        table.act("blue", type="deploy_unit", unit={**SQUAD, "id": "x"})
    table.act("referee", type="move_unit", unit_id="sq1", to={"x": 0, "y": 0})


def test_after_the_end_only_notes_are_taken(table: Table) -> None:
    table.act(type="end_match", winner=None, reason="draw agreed")
    assert table.state.outcome is not None and table.state.outcome.winner is None
    with pytest.raises(MatchOver):
        table.act(type="advance")
    table.act("blue", type="add_note", text="good game", about_version=2)
    assert table.state.notes == 1


def test_notes_cannot_point_into_the_future(table: Table) -> None:
    with pytest.raises(InvalidAction):
        table.act(type="add_note", text="x", about_version=9)


def test_step_that_does_not_allow_an_action_refuses_it_naming_its_rule() -> None:
    sequence = SequenceOfPlay(phases=(Step(id="move", allows=("move_unit",), rule="XX-1"),))
    ruleset = Ruleset(id="t", version=1, title="t", sequence=sequence)
    table = Table()
    state = table.state.model_copy(update={"turn": start(sequence, ("red", "blue"))})
    with pytest.raises(OutOfSequence) as refused:
        decide(RollDice(notation="d6", purpose="x"), state, ruleset, table.context())
    assert refused.value.rule == "XX-1" and "move_unit" in (refused.value.allowed or [])
