"""Wing command through the HTTP API, the activations: activation WC-6/WC-9, actions, fire
combat and close combat WC-7 and the officers' moves WC-8. Table dice make each rule's
boundary exact."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from wing_command_setup import (
    PRE,
    RUN,
    french_activates_the_line,
    table,
    to_activations,
    to_corner_lock,
    wc,
)

# ---- WC-6..WC-9 activations -----------------------------------------------------------------

def test_wc6_activation_rolls_1_to_3_dice_and_settles_how_many_pass(
        client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    m.refused("french", 422, "WC-6", type="rule_roll", roll="activation", unit_id="f-line",
              **table(4))  # how many dice?
    m.refused("french", 422, "core-dice", type="rule_roll", roll="activation",
              unit_id="f-line", dice=2, **table(4))  # two results for two dice
    events = m.act("french", type="rule_roll", roll="activation", unit_id="f-line", dice=3,
                   leader_id="f-fo", leadership=1, **table(3, 1, 5))
    spent, activated, acting, rolled, counted = events
    assert activated["unit_ids"] == ["f-line", "f-line-1", "f-line-2", "f-line-3"]
    assert activated["group"] == "wing:left"
    assert (acting["unit_id"], acting["set"]) == ("f-line", ["acting"])
    assert spent["count"] == 1 and rolled["purpose"].startswith("WC-6 activation of f-line")
    # (ours) the service settles it: two of three pass, so no result is owed by a player
    assert rolled["awaits"] is None
    assert counted["result"].startswith("2 of 3 pass") and counted["failed"] is False
    assert counted["type"] == "ResultRecorded" and counted["rule"] == "WC-6"
    m.refused("french", 422, "core-results", type="enter_result", result="two actions")
    m.refused("french", 422, "WC-6", type="rule_roll", roll="activation", unit_id="f-hussars",
              dice=1, **table(6))  # one unit at a time
    m.act("french", type="advance")
    m.refused("french", 422, "WC-7", type="move_unit", unit_id="f-hussars-1",
              to={"x": 16, "y": 16})  # not the unit activating
    m.act("french", type="move_unit", unit_id="f-line", to={"x": 4, "y": 14})
    m.act("french", type="advance", to=f"{RUN}/activate")
    assert "acting" not in m.unit("f-line")["status"]
    m.refused("french", 422, "WC-6", type="rule_roll", roll="activation", unit_id="f-line",
              dice=1, **table(6))  # once a turn


@pytest.mark.parametrize(("face", "broke_free"), [(2, False), (3, True)])
def test_wc5_only_a_piece_that_broke_free_of_its_corner_lock_moves_and_fires_with_its_unit(
        client: TestClient, face: int, broke_free: bool) -> None:
    m = wc(client)
    to_corner_lock(m)
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1",
          **table(face))  # against QV 3
    m.act("french", type="advance", to=f"{RUN}/activate")
    [activated] = [e for e in m.act("french", type="rule_roll", roll="activation",
                                    unit_id="f-hussars", dice=1, **table(5))
                   if e["type"] == "UnitsActivated"]
    pieces = ["f-hussars-1", "f-hussars-2", "f-hussars-3"] if broke_free else [
        "f-hussars-2", "f-hussars-3"]
    assert activated["unit_ids"] == ["f-hussars", *pieces]
    m.act("french", type="advance")
    if broke_free:
        m.act("french", type="move_unit", unit_id="f-hussars-1", to={"x": 16, "y": 18})
    else:
        refusal = m.refused("french", 422, "WC-5", type="move_unit", unit_id="f-hussars-1",
                            to={"x": 16, "y": 18})
        assert "corner lock" in refusal["detail"]
    m.act("french", type="move_unit", unit_id="f-hussars-2", to={"x": 18, "y": 18})
    m.act("french", type="advance")
    assert m.turn["step"] == f"{RUN}/fire_combat"
    if broke_free:
        m.act("french", type="fire", unit_id="f-hussars-1", target_id="b-guards-1", **table(4, 4))
        m.act("french", type="enter_result", result="no effect")
    else:
        m.refused("french", 422, "WC-5", type="fire", unit_id="f-hussars-1",
                  target_id="b-guards-1", **table(4, 4))
    m.act("french", type="fire", unit_id="f-hussars-2", target_id="b-guards-1", **table(4, 4))


def test_wc9_a_failed_activation_ends_the_phase(client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    [*_, counted] = m.act("french", type="rule_roll", roll="activation", unit_id="f-hussars",
                          dice=1, **table(1))
    assert counted["result"].startswith("0 of 1 pass") and counted["failed"] is True
    m.refused("french", 422, "WC-9", type="rule_roll", roll="activation", unit_id="f-line",
              dice=1, **table(6))
    assert m.turn["expects"] == [("an activation failed: french goes on, the phase passes "
                                 "(WC-9)")]
    events = m.act("french", type="advance")
    assert events[1]["type"] == "PhaseAdvanced" and events[1]["rule"] == "WC-9"
    assert (m.turn["step"], m.turn["active_side"]) == (f"{PRE}/a_reposition", "british")
    assert "acting" not in m.unit("f-hussars")["status"]


def test_wc9_advancing_without_an_activation_ends_the_phase(client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    french_activates_the_line(m)
    m.act("french", type="advance", to=f"{RUN}/activate")
    assert m.turn["expects"][0].startswith("french activates a unit (f-hussars)")
    m.act("french", type="advance")  # done: the phase passes
    assert (m.turn["step"], m.turn["active_side"]) == (f"{PRE}/a_reposition", "british")


def test_wc9_the_phase_passes_when_every_unit_has_activated(client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    french_activates_the_line(m)
    m.act("french", type="advance", to=f"{RUN}/activate")
    m.act("french", type="rule_roll", roll="activation", unit_id="f-hussars", dice=1,
          **table(5))
    m.act("french", type="advance", to=f"{PRE}/a_reposition")
    assert m.turn["active_side"] == "british"


# ---- WC-7 actions, fire combat, close combat ------------------------------------------------

def test_wc7_actions_then_fire_combat_then_close_combat_are_steps_in_that_order(
        client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    assert m.turn["step"] == f"{RUN}/activate"
    french_activates_the_line(m)
    assert m.turn["step"] == f"{RUN}/actions"
    m.act("french", type="move_unit", unit_id="f-line-3", to={"x": 7, "y": 20})
    m.act("french", type="set_status", unit_id="f-line-3", set=["square"])  # formation
    # the activated unit's fire is resolved in (b), not among its actions
    m.refused("french", 422, "WC-7", type="fire", unit_id="f-line-3", target_id="b-guards-1",
              **table(4, 4))
    m.refused("french", 422, "WC-7", type="resolve_combat", attackers=["f-line-3"],
              defenders=["b-guards-1"], odds="1:1", **table(4, 4))
    m.act("french", type="advance")
    assert m.turn["step"] == f"{RUN}/fire_combat"
    m.refused("french", 422, "WC-7", type="move_unit", unit_id="f-line-3", to={"x": 7, "y": 22})
    m.refused("french", 422, "WC-7", type="fire", unit_id="f-hussars-2",
              target_id="b-guards-1", **table(4, 4))  # not of the unit activating
    m.act("french", type="fire", unit_id="f-line-3", target_id="b-guards-1", **table(4, 4))
    m.act("french", type="enter_result", result="no effect")
    m.refused("french", 422, "WC-7", type="resolve_combat", attackers=["f-line-3"],
              defenders=["b-guards-1"], odds="1:1", **table(4, 4))
    m.act("french", type="advance")
    assert m.turn["step"] == f"{RUN}/close_combat"
    m.refused("french", 422, "WC-7", type="fire", unit_id="f-line-2", target_id="b-guards-1",
              **table(4, 4))
    m.act("french", type="resolve_combat", attackers=["f-line-3"], defenders=["b-guards-1"],
          odds="1:1", **table(4, 4))


def test_wc7_fire_records_the_firing_die_with_the_differential_and_the_target_die_apart(
        client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    french_activates_the_line(m)
    m.refused("british", 422, "core-dice", type="fire", unit_id="b-guards-2",
              target_id="f-line-3", **table(5))  # two dice: the firer's, then the target's
    # the British answer the French line's move with opportunity fire: 5 + dF 1, against 2
    events = m.act("british", type="fire", unit_id="b-guards-1", target_id="f-line-3",
                   differential=1, **table(5, 2))
    firing, target, unloaded = events
    assert (firing["type"], firing["notation"], firing["dice"]) == ("DiceRolled", "d6", [5])
    assert (firing["modifier"], firing["total"]) == (1, 6)
    assert firing["unit_ids"] == ["b-guards-1"] and firing["rule"] == "WC-7"
    assert (target["type"], target["notation"], target["dice"]) == ("DiceRolled", "d6", [2])
    assert (target["modifier"], target["total"]) == (0, 2)
    assert target["unit_ids"] == ["f-line-3"] and target["rule"] == "WC-7"
    assert firing["purpose"] != target["purpose"]
    assert firing["awaits"] is None and target["awaits"] is not None  # one result for both
    assert (unloaded["unit_id"], unloaded["set"]) == ("b-guards-1", ["unloaded"])
    m.refused("french", 403, "WC-7", type="enter_result", result="f-line-3 disrupted")
    m.act("british", type="enter_result", result="f-line-3 disrupted")
    m.act("french", type="set_status", unit_id="f-line-3", set=["disrupted"])  # its owner
    m.refused("british", 422, "WC-7", type="fire", unit_id="b-guards-1", target_id="f-line-3",
              **table(5, 2))  # unloaded
    m.refused("british", 422, "WC-7", type="move_unit", unit_id="b-guards-2",
              to={"x": 1, "y": 1})  # fire, not moves, in the other player's actions
    m.refused("british", 403, "core-authority", type="remove_unit", unit_id="f-line-3",
              reason="destroyed")  # the owner removes its own pieces
    [_removed, marker] = m.act("french", type="remove_unit", unit_id="f-line-3",
                              reason="destroyed")
    assert (marker["kind"], marker["location"]) == ("casualty", "7,12")


def test_wc7_close_combat_rolls_a_die_for_each_piece_in_contact_dc_on_the_attackers(
        client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    french_activates_the_line(m)
    m.act("french", type="advance", to=f"{RUN}/close_combat")
    contact = {"attackers": ["f-line-2", "f-line-3"], "defenders": ["b-guards-1"]}
    m.refused("french", 422, "WC-7", type="resolve_combat", **contact, odds="1:1",
              **table(3, 1, 6))  # odds: the pieces in contact, 2:1
    m.refused("french", 422, "WC-7", type="resolve_combat", **contact, odds="2:1",
              modifiers={"terrain": 1}, **table(3, 1, 6))
    m.refused("french", 422, "core-dice", type="resolve_combat", **contact, odds="2:1",
              **table(3, 1))  # one die for each piece
    m.refused("british", 403, "core-authority", type="resolve_combat", **contact, odds="2:1",
              **table(3, 1, 6))
    # two French battalions in edge contact with one British battalion, dC +2
    events = m.act("french", type="resolve_combat", **contact, odds="2:1",
                   modifiers={"dC": 2}, **table(3, 1, 6))
    assert [e["type"] for e in events] == ["DiceRolled"] * 3
    assert [e["unit_ids"] for e in events] == [["f-line-2"], ["f-line-3"], ["b-guards-1"]]
    assert [(e["dice"], e["modifier"], e["total"]) for e in events] == [
        ([3], 2, 5), ([1], 2, 3), ([6], 0, 6)]
    assert {e["rule"] for e in events} == {"WC-7"}
    assert [e["awaits"] is not None for e in events] == [False, False, True]
    m.act("french", type="enter_result", result="the Guards hold; f-line-3 falls back")
    m.act("french", type="move_unit", unit_id="f-line-3", to={"x": 7, "y": 11})
    m.act("british", type="move_unit", unit_id="b-guards-1", to={"x": 6, "y": 31})  # a result


# ---- WC-8 the officers' moves ---------------------------------------------------------------

def test_wc8_a_co_not_commanding_a_wing_moves_with_each_wing_and_never_rolls_the_table(
        client: TestClient) -> None:
    m = wc(client)
    m.act("french", type="roll_initiative", source="table", results={"french": 1, "british": 4})
    assert m.turn["initiative"] == ["british", "french"]
    m.act("french", type="advance")
    m.act("british", type="advance")
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="unit_morale", unit_id="b-rifles", **table(6))
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-rifles-1",
          **table(6))
    m.act("british", type="advance", to=f"{RUN}/activate")
    m.act("british", type="rule_roll", roll="activation", unit_id="b-guards", dice=1,
          **table(6))
    m.act("british", type="advance", to=f"{RUN}/officers")
    # the British CO commands no wing: no special-move roll for him ...
    m.refused("british", 422, "WC-8", type="rule_roll", roll="special_move", unit_id="b-co",
              **table(6))
    # ... but one move during this wing's activation, without a roll
    moved = m.act("british", type="move_unit", unit_id="b-co", to={"x": 10, "y": 38})
    assert moved[-1]["type"] == "UnitMoved" and moved[-1]["rule"] == "WC-8"
    m.refused("british", 422, "WC-8", type="move_unit", unit_id="b-co", to={"x": 10, "y": 36})
    # the centre wing's FO rolls the table, then moves
    m.refused("british", 422, "WC-8", type="move_unit", unit_id="b-fo", to={"x": 10, "y": 30})
    _rolled, result = m.act("british", type="rule_roll", roll="special_move",
                            unit_id="b-fo", **table(5))
    assert result["result"] == "3 move(s)"
    m.act("british", type="move_unit", unit_id="b-fo", to={"x": 10, "y": 30})
    m.refused("british", 422, "WC-8", type="rule_roll", roll="special_move", unit_id="b-fo",
              **table(4))  # once a turn
    m.refused("british", 422, "WC-8", type="move_unit", unit_id="b-guards-1",
              to={"x": 1, "y": 1})  # officers only


def test_wc8_only_the_commander_of_the_wing_activating_rolls_the_special_move(
        client: TestClient) -> None:
    m = wc(client)
    to_activations(m)
    m.act("french", type="rule_roll", roll="activation", unit_id="f-hussars", dice=1,
          **table(5))
    m.act("french", type="advance", to=f"{RUN}/officers")
    m.refused("french", 422, "WC-8", type="rule_roll", roll="special_move", unit_id="f-fo",
              **table(4))  # the left wing's FO: the right wing is activating
    # the French CO commands the right wing: he rolls the table as its commander
    _rolled, result = m.act("french", type="rule_roll", roll="special_move", unit_id="f-co",
                            **table(1))
    assert result["result"] == "1 move(s)"
