"""Every core action through decide (validation) and evolve (application), and what each
refuses; seats act only for their own units; nothing but notes after the end."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ACTIONS, SQUAD, T0, Table

from domain import events as ev
from domain.commands import ACTION_TYPES
from domain.decide import decide
from domain.dice import SeededDice, parse
from domain.errors import (
    InvalidAction,
    MatchOver,
    NotYourTurn,
    OutOfSequence,
    UndoRefused,
)
from domain.evolve import evolve
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.state import Position

# ---- happy paths --------------------------------------------------------------------------

def test_events_carry_the_envelope_from_the_context(table: Table) -> None:
    context = table.context("red")
    command = ACTIONS.validate_python({"type": "deploy_unit", "unit": SQUAD})
    [event] = decide(command, table.state, ruleset_of(table), context)
    assert (event.originator_id, event.version, event.timestamp, event.actor,
            event.command_id, event.turn) == (
        table.match_id, context.version + 1, context.now, "red", context.command_id, 1)


def ruleset_of(table: Table) -> Ruleset:
    return get_ruleset(table.state.ruleset, table.state.options)


def test_decide_and_evolve_leave_the_state_they_are_given_unchanged(table: Table) -> None:
    before = table.state
    copy = before.model_copy(deep=True)
    [event] = decide(ACTIONS.validate_python({"type": "deploy_unit", "unit": SQUAD}), before,
                     ruleset_of(table), table.context("red"))
    after = evolve(before, event)
    assert before == copy and "sq1" not in before.units and "sq1" in after.units


def test_deploy_puts_the_unit_with_its_attributes_on_the_table(table: Table) -> None:
    [event] = table.act("red", type="deploy_unit",
                        unit={**SQUAD, "status": ["pinned", "broken", "pinned"],
                              "markers": {"wound": 2}, "extra": {"elite": 1}})
    assert isinstance(event, ev.UnitDeployed) and event.version == 2
    unit = table.state.units["sq1"]
    assert (unit.side, unit.name, unit.figures, unit.morale_die) == ("red", "1st Squad", 11,
                                                                      "d10")
    assert unit.position == Position(x=10, y=12) and unit.position.label() == "10,12"
    assert unit.status == ("broken", "pinned") and unit.markers == {"wound": 2}
    assert unit.extra == {"elite": 1} and unit.removed is None


def test_move_records_origin_and_destination(deployed: Table) -> None:
    [event] = deployed.act("red", type="move_unit", unit_id="sq1", to={"hex": "0412"})
    assert isinstance(event, ev.UnitMoved)
    assert event.origin == Position(x=10, y=12) and event.to == Position(hex="0412")
    assert deployed.state.units["sq1"].position == Position(hex="0412")
    deployed.act("red", type="move_unit", unit_id="sq1", to={"box": "reserve"})
    assert deployed.state.units["sq1"].position == Position(box="reserve")


def test_set_status_sets_and_clears_flags(deployed: Table) -> None:
    [event] = deployed.act("red", type="set_status", unit_id="sq1", set=["pinned", "broken"])
    assert isinstance(event, ev.UnitStatusChanged) and event.set == ("broken", "pinned")
    assert deployed.state.units["sq1"].status == ("broken", "pinned")
    [event] = deployed.act("red", type="set_status", unit_id="sq1", clear=["pinned", "routed"],
                           set=["activated"])
    assert isinstance(event, ev.UnitStatusChanged)
    assert event.cleared == ("pinned",)  # only what the unit had
    assert deployed.state.units["sq1"].status == ("activated", "broken")


def test_markers_are_counted_on_a_unit(deployed: Table) -> None:
    [placed] = deployed.act("blue", type="place_marker", kind="suppression", count=3,
                            unit_id="sq1")
    assert isinstance(placed, ev.MarkerPlaced) and placed.count == 3
    deployed.act("blue", type="place_marker", kind="suppression", unit_id="sq1")
    deployed.act("red", type="place_marker", kind="wound", count=2, unit_id="sq1")
    assert deployed.state.units["sq1"].markers == {"suppression": 4, "wound": 2}
    [removed] = deployed.act("red", type="remove_marker", kind="suppression", count=4,
                             unit_id="sq1")
    assert isinstance(removed, ev.MarkerRemoved)
    assert deployed.state.units["sq1"].markers == {"wound": 2}  # none left: the kind goes


def test_markers_are_counted_at_a_location(table: Table) -> None:
    table.act(type="place_marker", kind="smoke", count=2, location="0412")
    table.act(type="place_marker", kind="fire", location="0412")
    table.act(type="place_marker", kind="smoke", location="12.5,3")
    assert table.state.location_markers == {"0412": {"smoke": 2, "fire": 1},
                                            "12.5,3": {"smoke": 1}}
    table.act(type="remove_marker", kind="smoke", count=2, location="0412")
    table.act(type="remove_marker", kind="fire", location="0412")
    assert table.state.location_markers == {"12.5,3": {"smoke": 1}}


def test_server_roll_is_the_match_dice_at_the_next_roll_index(table: Table) -> None:
    [first] = table.act("red", type="roll_dice", notation="3d6+2", purpose="fire", rule="XX-9")
    [second] = table.act("blue", type="roll_dice", notation="d20", purpose="morale")
    assert isinstance(first, ev.DiceRolled) and isinstance(second, ev.DiceRolled)
    dice = SeededDice(b"test-seed")
    assert list(first.dice) == dice.roll(parse("3d6"), 0)
    assert list(second.dice) == dice.roll(parse("d20"), 1)
    assert (first.roll_index, second.roll_index) == (0, 1)
    assert (first.modifier, first.total) == (2, sum(first.dice) + 2)
    assert (first.source, first.purpose, first.rule, first.actor) == ("server", "fire", "XX-9",
                                                                      "red")
    assert table.state.dice.count == 2
    assert [r.version for r in table.state.dice.recent] == [first.version, second.version]
    assert table.head.server_rolls == 2


def test_table_roll_records_the_faces_a_player_entered(deployed: Table) -> None:
    declared, event = deployed.act("red", type="roll_dice", notation="2d6-1", purpose="rally",
                                   source="table", results=[6, 5], unit_ids=["sq1"])
    assert isinstance(declared, ev.RollDeclared) and isinstance(event, ev.DiceRolled)
    assert (event.dice, event.modifier, event.total, event.roll_index, event.source,
            event.unit_ids) == ((6, 5), -1, 10, None, "table", ("sq1",))
    assert deployed.head.server_rolls == 0  # the server's dice were not used
    assert deployed.state.dice.recent[-1].roller == "red"


def test_split_moves_figures_and_the_chosen_markers_to_the_new_unit(deployed: Table) -> None:
    deployed.act("red", type="place_marker", kind="suppression", count=3, unit_id="sq1")
    deployed.act("red", type="set_status", unit_id="sq1", set=["pinned"])
    [event] = deployed.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b",
                           figures=4, markers={"suppression": 1},
                           position={"x": 11, "y": 12})
    assert isinstance(event, ev.UnitSplit) and event.unit_id == "sq1"
    parent, child = deployed.state.units["sq1"], deployed.state.units["sq1b"]
    assert (parent.figures, child.figures) == (7, 4)
    assert (parent.markers, child.markers) == ({"suppression": 2}, {"suppression": 1})
    assert child.position == Position(x=11, y=12) and parent.position == Position(x=10, y=12)
    assert (child.side, child.morale_die, child.status) == ("red", "d10", ("pinned",))
    # Without a position the new unit stands where its parent stands.
    deployed.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1c", figures=1)
    assert deployed.state.units["sq1c"].position == parent.position
    assert deployed.state.units["sq1c"].markers == {}


@pytest.mark.parametrize(("first", "second"), [
    ({"wound": 3, "suppression": 2}, {"wound": 2, "suppression": 2}),
    ({"wound": 2, "suppression": 2}, {"wound": 3, "suppression": 2}),
], ids=["six_figures_take_three_wounds", "five_figures_take_three_wounds"])
def test_worked_example_AA_X1_is_recorded_exactly_by_the_core_split(
    table: Table, first: dict[str, int], second: dict[str, int]
) -> None:
    """AA-X1 (RULES.md): "an 11-figure squad, base Morale d10, carries 2 wound counters; it
    takes 3 more wounds (5 in all) and ends with 4 suppression markers. Three wounds take d10
    to d4; the fourth forces a split. Result: fireteams of 6 and 5 figures, 2 + 2 suppression
    markers, wounds 3 + 2 (owner's choice of which takes 3)."
    Here the generic split_unit records it; the arithmetic is the AA ruleset's."""
    table.act("red", type="deploy_unit", unit={**SQUAD, "markers": {"wound": 2}})
    table.act("blue", type="place_marker", kind="wound", count=3, unit_id="sq1")
    table.act("blue", type="place_marker", kind="suppression", count=4, unit_id="sq1")
    squad = table.state.units["sq1"]
    assert (squad.figures, squad.morale_die, squad.markers) == (
        11, "d10", {"wound": 5, "suppression": 4})
    table.act("red", type="split_unit", unit_id="sq1", new_unit_id="sq1b", figures=5,
              markers=second)
    squad, team = table.state.units["sq1"], table.state.units["sq1b"]
    assert (squad.figures, team.figures) == (6, 5)
    assert (squad.markers, team.markers) == (first, second)
    assert team.side == squad.side == "red" and team.morale_die == "d10"
    assert team.position == squad.position
    total = {k: squad.markers[k] + team.markers[k] for k in ("wound", "suppression")}
    assert total == {"wound": 5, "suppression": 4}  # nothing lost or made in the split


def test_rally_clears_the_flags_it_names_and_removes_markers(deployed: Table) -> None:
    deployed.act("red", type="set_status", unit_id="sq1", set=["broken", "pinned"])
    deployed.act("red", type="place_marker", kind="suppression", count=2, unit_id="sq1")
    [event] = deployed.act("red", type="rally_unit", unit_id="sq1",
                           remove_markers={"suppression": 1})
    assert isinstance(event, ev.UnitRallied) and event.cleared == ("broken",)
    unit = deployed.state.units["sq1"]
    assert unit.status == ("pinned",) and unit.markers == {"suppression": 1}


@pytest.mark.parametrize("reason", ["destroyed", "eliminated", "surrendered", "withdrawn",
                                    "casualty"])
def test_removed_unit_goes_to_its_box_with_the_reason(deployed: Table, reason: str) -> None:
    [event] = deployed.act("red", type="remove_unit", unit_id="sq1", reason=reason)
    assert isinstance(event, ev.UnitRemoved)
    unit = deployed.state.units["sq1"]
    assert unit.removed == reason and unit.position == Position(box="eliminated")
    deployed.act("blue", type="remove_unit", unit_id="bl1", reason=reason, to_box="reserve")
    assert deployed.state.units["bl1"].position == Position(box="reserve")


def test_set_track_sets_and_overwrites_global_tracks(table: Table) -> None:
    table.act(type="set_track", name="weather", value="rain")
    table.act(type="set_track", name="air_points", value=4)
    table.act(type="set_track", name="weather", value="clear")
    assert table.state.tracks == {"weather": "clear", "air_points": 4}


def test_victory_points_add_up_with_the_total_at_the_end_of_each_turn(table: Table) -> None:
    table.act(type="score_vp", side="red", points=3)
    table.act(type="score_vp", side="red", points=2, reason="city")
    table.act(type="advance", to="end")
    table.act(type="advance")  # into turn 2
    table.act(type="advance")
    table.act(type="score_vp", side="red", points=-1, reason="withdrawal")
    table.act(type="score_vp", side="blue", points=4)
    assert table.state.vp["red"].points == 4 and table.state.vp["red"].by_turn == {1: 5, 2: 4}
    assert table.state.vp["blue"].points == 4 and table.state.vp["blue"].by_turn == {2: 4}


def test_advance_walks_the_phases_and_wraps_into_the_next_turn(table: Table) -> None:
    steps = []
    for _ in range(5):
        [event] = table.act(type="advance")
        steps.append((type(event).__name__, event.turn, table.state.turn.turn,
                      table.state.turn.step))
    assert steps == [("PhaseAdvanced", 1, 1, "movement"), ("PhaseAdvanced", 1, 1, "combat"),
                     ("PhaseAdvanced", 1, 1, "end"), ("TurnAdvanced", 1, 2, "setup"),
                     ("PhaseAdvanced", 2, 2, "movement")]
    [jump] = table.act(type="advance", to="end")
    assert isinstance(jump, ev.PhaseAdvanced) and jump.origin == "movement"
    assert table.state.turn.step == "end"


def test_add_note_counts_notes_and_may_point_at_a_version(table: Table) -> None:
    [note] = table.act("blue", type="add_note", text="check LOS", about_version=1,
                       private=True)
    assert isinstance(note, ev.NoteAdded) and (note.about_version, note.private) == (1, True)
    assert table.state.notes == 1


def test_end_match_records_the_winner_or_a_tie(table: Table) -> None:
    table.act(type="end_match", winner="blue", reason="objective held")
    assert table.state.outcome is not None
    assert (table.state.outcome.winner, table.state.outcome.reason) == ("blue",
                                                                        "objective held")
    tie = Table()
    tie.act(type="end_match")
    assert tie.state.outcome is not None and tie.state.outcome.winner is None


# ---- seats ----------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    {"type": "move_unit", "unit_id": "sq1", "to": {"x": 0, "y": 0}},
    {"type": "set_status", "unit_id": "sq1", "set": ["pinned"]},
    {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "b", "figures": 2},
    {"type": "rally_unit", "unit_id": "sq1", "clear": ["broken"]},
    {"type": "deploy_unit", "unit": {**SQUAD, "id": "x"}},
], ids=lambda a: a["type"])
def test_a_side_acting_on_the_other_sides_unit_is_not_its_turn(
    deployed: Table, action: dict[str, Any]
) -> None:
    deployed.act("red", type="set_status", unit_id="sq1", set=["broken"])
    log = list(deployed.log)
    with pytest.raises(NotYourTurn) as refused:
        deployed.act("blue", **action)
    assert refused.value.rule == "core-authority" and deployed.log == log
    deployed.act("red", **action)  # the owner may
    deployed.undo()
    deployed.act("referee", **action)  # and so may the referee


def test_the_opponent_marks_the_effect_of_its_fire_but_removing_the_unit_is_the_owners(
    deployed: Table,
) -> None:
    deployed.act("blue", type="place_marker", kind="suppression", unit_id="sq1")
    assert deployed.state.units["sq1"].markers == {"suppression": 1}
    log = list(deployed.log)
    for action in ({"type": "remove_unit", "unit_id": "sq1", "reason": "destroyed"},
                   {"type": "remove_marker", "kind": "suppression", "unit_id": "sq1"}):
        with pytest.raises(NotYourTurn) as refused:
            deployed.act("blue", **action)
        assert refused.value.rule == "core-authority" and deployed.log == log
    deployed.act("red", type="remove_unit", unit_id="sq1", reason="destroyed")
    assert deployed.state.units["sq1"].removed == "destroyed"


# ---- the end ----------------------------------------------------------------------------------

AFTER_THE_END: list[dict[str, Any]] = [
    {"type": "deploy_unit", "unit": {**SQUAD, "id": "late"}},
    {"type": "move_unit", "unit_id": "sq1", "to": {"x": 0, "y": 0}},
    {"type": "set_status", "unit_id": "sq1", "set": ["pinned"]},
    {"type": "place_marker", "kind": "smoke", "location": "0101"},
    {"type": "remove_marker", "kind": "suppression", "unit_id": "sq1"},
    {"type": "roll_dice", "notation": "d6", "purpose": "x"},
    {"type": "roll_dice", "notation": "d6", "purpose": "x", "source": "table", "results": [6]},
    {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "b", "figures": 2},
    {"type": "rally_unit", "unit_id": "sq1", "remove_markers": {"suppression": 1}},
    {"type": "remove_unit", "unit_id": "sq1", "reason": "withdrawn"},
    {"type": "set_track", "name": "weather", "value": "rain"},
    {"type": "score_vp", "side": "red", "points": 1},
    {"type": "advance"},
    {"type": "end_match", "winner": "red"},
    {"type": "activate_unit", "unit_id": "sq1"},
    {"type": "activate_battlegroup", "battlegroup": "bg1"},
    {"type": "roll_morale", "unit_id": "sq1"},
    {"type": "roll_initiative"},
    {"type": "pass_initiative"},
    {"type": "draw_cards", "count": 1},
    {"type": "discard_cards", "cards": ["ace"]},
    {"type": "play_card", "card": "ace"},
    {"type": "shuffle_deck"},
    {"type": "cut_deck", "side": "blue", "at": 1},
    {"type": "rule_roll", "roll": "morale"},
    {"type": "fire", "unit_id": "sq1"},
    {"type": "enter_result", "result": "hit"},
    {"type": "announce_reinforcements", "unit_ids": ["sq1"], "entry": "north"},
    {"type": "call_artillery", "mission": "m1", "stage": "radio_contact"},
    {"type": "declare_operation"},
    {"type": "set_supply", "unit_ids": ["sq1"], "status": "isolated"},
    {"type": "resolve_combat", "attackers": ["sq1"], "defenders": ["sq2"], "odds": "2:1"},
    {"type": "lose_step", "unit_id": "sq1"},
    {"type": "gain_step", "unit_id": "sq1"},
    {"type": "record_roll", "results": [3]},
    {"type": "concede"},
]


def test_after_the_match_ends_every_action_but_a_note_is_refused(deployed: Table) -> None:
    deployed.act("red", type="place_marker", kind="suppression", unit_id="sq1")
    deployed.act(type="end_match", winner=None, reason="draw agreed")
    assert {a["type"] for a in AFTER_THE_END} == set(ACTION_TYPES) - {
        "add_note", "open_dispute", "reopen_match"}
    log = list(deployed.log)
    for action in AFTER_THE_END:
        for actor in ("red", "referee"):
            with pytest.raises(MatchOver) as refused:
                deployed.act(actor, **action)
            assert refused.value.rule == "core-end"
    with pytest.raises(MatchOver):
        deployed.undo()
    with pytest.raises(UndoRefused):
        deployed.redo()
    assert deployed.log == log
    [note] = deployed.act("blue", type="add_note", text="good game", about_version=2)
    assert isinstance(note, ev.NoteAdded) and deployed.state.notes == 1
    assert note.timestamp > T0



def test_table_dice_are_declared_first_and_thrown_second(deployed: Table) -> None:
    """Declare before rolling: the purpose, units, notation and success condition are fixed
    before the result exists; the faces follow, from the seat that declared them (or the
    referee): the opponent does not choose them."""
    [declared] = deployed.act("red", type="roll_dice", notation="2d6+1", purpose="rally sq1",
                              unit_ids=["sq1"], source="table", success="total >= 8")
    assert isinstance(declared, ev.RollDeclared) and deployed.state.awaiting is not None
    with pytest.raises(OutOfSequence) as waiting:
        deployed.act("red", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    # (the action it waits for is named for clients in `allowed`; the words say what to do)
    assert "record_roll" in (waiting.value.allowed or ())
    assert "enter the faces thrown at the table" in waiting.value.detail
    with pytest.raises(InvalidAction):
        deployed.act("red", type="record_roll", results=[7])  # two dice were declared
    with pytest.raises(InvalidAction):
        deployed.act("blue", type="enter_result", result="8")  # dice are recorded, not read
    with pytest.raises(NotYourTurn) as refused:
        deployed.act("blue", type="record_roll", results=[3, 4])
    assert refused.value.rule == "core-authority"
    [thrown] = deployed.act("red", type="record_roll", results=[3, 4])
    assert isinstance(thrown, ev.DiceRolled) and thrown.declared == declared.version
    assert (thrown.total, thrown.success, thrown.purpose, thrown.actor) == (
        8, "total >= 8", "rally sq1", "red")
    assert deployed.state.awaiting is None
    with pytest.raises(InvalidAction):
        deployed.act("red", type="record_roll", results=[3, 4])  # nothing declared now
    both = deployed.act("red", type="roll_dice", notation="d6", purpose="x", source="table",
                        results=[5])
    assert [type(e) for e in both] == [ev.RollDeclared, ev.DiceRolled]
    assert both[1].declared == both[0].version  # type: ignore[attr-defined]
