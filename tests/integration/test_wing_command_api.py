"""Wing command through the HTTP API: initiative WC-1, Pre-Activation WC-2..WC-5, activation
WC-6/WC-9, fire WC-7, the FO's special move WC-8 and the victory check WC-10. Table dice make
each rule's boundary exact."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from domain.rulesets.wing_command import (
    activation_passes,
    morale_modifier,
    morale_triggered,
    special_moves,
)

PRE = "phase/pre_activation"


def wc(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("wing-command-demo", **changes))


def french_first(m: Played) -> None:
    """WC-1: French 4 + LV 2 = 6 beats British 4 + LV 1 = 5; then on to (b) Unit Morale."""
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance", to=f"{PRE}/b_unit_morale")


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


# ---- the arithmetic at its boundaries -----------------------------------------------------

@pytest.mark.parametrize(("disrupted", "cv", "triggered", "modifier"), [
    (1, 2, False, 0), (2, 2, True, 0), (3, 2, True, -1), (5, 2, True, -3), (0, 0, True, 0)])
def test_wc3_morale_is_triggered_at_the_casualty_value_and_minus_1_per_piece_beyond(
        disrupted: int, cv: int, triggered: bool, modifier: int) -> None:
    assert morale_triggered(disrupted, cv) is triggered
    assert morale_modifier(disrupted, cv) == modifier


@pytest.mark.parametrize(("face", "moves"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_wc8_special_move_table(face: int, moves: int) -> None:
    assert special_moves(face) == moves


def test_wc6_leadership_cubes_go_to_the_failing_dice_closest_to_the_qv() -> None:
    assert activation_passes([3, 1, 5], 4, 0) == ([3, 1, 5], 1)
    assert activation_passes([3, 1, 5], 4, 1) == ([4, 1, 5], 2)
    assert activation_passes([3, 1, 5], 4, 2) == ([4, 2, 5], 2)
    assert activation_passes([6, 6], 4, 3) == ([6, 6], 2)  # nothing to raise


# ---- WC-1 initiative ----------------------------------------------------------------------

def test_wc1_initiative_is_d6_plus_the_cos_lv_and_ties_are_re_rolled(client: TestClient) -> None:
    m = wc(client)
    [tie] = m.act("british", type="roll_initiative", source="table",
                  results={"french": 3, "british": 4})  # 3 + 2 = 4 + 1
    assert tie["cv"] == {"french": 2, "british": 1} and tie["rule"] == "WC-1"
    assert tie["ranking"] == [["french", "british"]]
    m.refused("french", 422, "WC-1", type="advance")
    [settled] = m.act("french", type="roll_initiative", source="table",
                      results={"french": 1, "british": 3})  # 3 against 4
    assert settled["ranking"] == [["british"], ["french"]]
    assert m.turn["initiative"] == ["british", "french"]
    m.act("french", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == (f"{PRE}/a_reposition", "british")


# ---- WC-2 Pre-Activation ------------------------------------------------------------------

def test_wc2_b_and_c_are_required_a_d_e_optional(client: TestClient) -> None:
    m = wc(client)
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance")
    assert m.turn["step"] == f"{PRE}/a_reposition"
    m.refused("french", 422, "WC-2", type="move_unit", unit_id="f-line-3", to={"x": 1, "y": 1})
    m.act("french", type="move_unit", unit_id="f-fo", to={"x": 5, "y": 9})  # an officer
    m.refused("british", 403, "WC-2", type="advance")  # the phasing player's phase
    # (b) is owed: f-line has 2 disrupted pieces, its Casualty Value
    assert m.turn["expects"] == ["french: (a) Reposition officers (optional), then advance"]
    m.act("french", type="advance")
    assert m.turn["expects"] == ["units owing a morale check: f-line"]
    assert m.turn["rolls"] == ["unit_morale"]
    m.refused("french", 422, "WC-3", type="advance", to="phase/activation")
    m.refused("french", 422, "WC-3", type="advance")


def test_wc3_unit_morale_spends_leadership_and_a_failure_removes_the_unit(
        client: TestClient) -> None:
    m = wc(client)
    french_first(m)
    assert m.unit("f-line")["computed"] == {"pieces": 3, "disrupted_pieces": 2,
                                            "morale_check": True, "morale_modifier": 0}
    m.refused("french", 422, "WC-3", type="rule_roll", roll="unit_morale", unit_id="f-hussars",
              **table(6))  # not owed
    m.refused("french", 422, "WC-3", type="rule_roll", roll="unit_morale", unit_id="f-line",
              leader_id="f-co", leadership=5, **table(6))  # the pool holds 4
    m.refused("french", 422, "WC-3", {"type": "roll_dice", "notation": "d6",
                                      "purpose": "morale", "rule": "WC-3"})  # the service's
    events = m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line",
                   leader_id="f-co", leadership=1, **table(2))  # 2 + 1 = 3 < QV 4
    spent, rolled, *removed, marker = events
    assert (spent["type"], spent["kind"], spent["count"]) == ("MarkerRemoved", "leadership", 1)
    assert rolled["modifier"] == 1 and rolled["total"] == 3 and rolled["rule"] == "WC-3"
    assert {e["unit_id"] for e in removed} == {"f-line", "f-line-1", "f-line-2", "f-line-3"}
    assert (marker["kind"], marker["location"]) == ("unit_casualty", "4,12")
    assert m.unit("f-co")["markers"]["leadership"] == 3
    assert m.board["location_markers"]["4,12"] == {"unit_casualty": 1}
    m.act("french", type="advance")  # nothing owed now


def test_wc3_a_pass_on_exactly_the_qv_keeps_the_unit(client: TestClient) -> None:
    m = wc(client)
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(4))
    assert m.unit("f-line")["removed"] is None
    m.refused("french", 422, "WC-3", type="rule_roll", roll="unit_morale", unit_id="f-line",
              **table(4))  # once a turn


def test_wc4_recovery_natural_1_removes_the_piece_and_success_clears(client: TestClient) -> None:
    m = wc(client)
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    assert m.turn["expects"] == ["disrupted pieces to roll: f-line-1, f-line-2"]
    m.refused("french", 422, "WC-4", type="advance")
    # a natural 1 removes the piece even with leadership that would lift it to the QV
    events = m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-1",
                   leader_id="f-fo", leadership=2, **table(1))
    assert [e["type"] for e in events] == ["MarkerRemoved", "DiceRolled", "UnitRemoved",
                                           "MarkerPlaced"]
    assert events[3]["kind"] == "casualty" and events[3]["location"] == "3,12"
    # 3 is one short of QV 4: still disrupted; the roll is spent for this turn
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-2", **table(3))
    assert "disrupted" in m.unit("f-line-2")["status"]
    m.refused("french", 422, "WC-4", type="rule_roll", roll="disruption_recovery",
              unit_id="f-line-2", **table(4))
    m.act("french", type="advance")
    assert m.turn["step"] == f"{PRE}/d_corner_lock"


def test_wc4_on_the_qv_clears_the_disruption(client: TestClient) -> None:
    m = wc(client)
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-1", **table(4))
    assert "disrupted" not in m.unit("f-line-1")["status"]


def test_wc5_a_corner_locked_piece_disengages_on_its_qv(client: TestClient) -> None:
    m = wc(client)
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-1", **table(6))
    m.act("french", type="rule_roll", roll="disruption_recovery", unit_id="f-line-2", **table(6))
    m.refused("french", 422, "WC-5", type="rule_roll", roll="disengage",
              unit_id="f-hussars-1", **table(6))  # only in (d)
    m.act("french", type="advance")
    m.refused("french", 422, "WC-5", type="rule_roll", roll="disengage", unit_id="f-hussars-2",
              **table(6))  # not corner-locked
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1", **table(2))
    assert "corner_locked" in m.unit("f-hussars-1")["status"]  # 2 < QV 3
    m.refused("french", 422, "WC-5", type="rule_roll", roll="disengage", unit_id="f-hussars-1",
              **table(3))  # one try a turn


def to_activation(m: Played) -> None:
    french_first(m)
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    for piece in ("f-line-1", "f-line-2"):
        m.act("french", type="rule_roll", roll="disruption_recovery", unit_id=piece, **table(6))
    m.act("french", type="advance", to="phase/activation")


# ---- WC-6..WC-9 activations -----------------------------------------------------------------

def test_wc6_activation_rolls_1_to_3_dice_and_waits_for_the_table_result(
        client: TestClient) -> None:
    m = wc(client)
    to_activation(m)
    m.refused("french", 422, "WC-6", type="rule_roll", roll="activation", unit_id="f-line",
              **table(4))  # how many dice?
    m.refused("french", 422, "core-dice", type="rule_roll", roll="activation",
              unit_id="f-line", dice=2, **table(4))  # two results for two dice
    events = m.act("french", type="rule_roll", roll="activation", unit_id="f-line", dice=3,
                   leader_id="f-fo", leadership=1, **table(3, 1, 5))
    spent, activated, rolled, counted = events
    assert activated["unit_ids"] == ["f-line", "f-line-1", "f-line-2", "f-line-3"]
    assert activated["group"] == "wing:left"
    assert spent["count"] == 1 and rolled["awaits"].startswith("WC-6 activation of f-line")
    assert counted["result"].startswith("2 of 3 pass")
    # the match waits for the Activation Table's result, read by the French player
    m.refused("french", 422, "WC-6", type="move_unit", unit_id="f-line", to={"x": 4, "y": 14})
    m.refused("british", 403, "WC-6", type="enter_result", result="two actions")
    assert m.turn["expects"][0].startswith("french to enter the result of WC-6 activation")
    [entered] = m.act("french", type="enter_result", result="two actions")
    assert entered["type"] == "ResultRecorded" and entered["rule"] == "WC-6"
    m.act("french", type="move_unit", unit_id="f-line", to={"x": 4, "y": 14})
    m.refused("french", 422, "WC-6", type="rule_roll", roll="activation", unit_id="f-line",
              dice=1, **table(6))  # once a turn


def test_wc9_a_failed_activation_ends_the_phase(client: TestClient) -> None:
    m = wc(client)
    to_activation(m)
    m.act("french", type="rule_roll", roll="activation", unit_id="f-hussars", dice=1, **table(1))
    m.act("french", type="enter_result", result="halt", failed=True)
    m.refused("french", 422, "WC-9", type="rule_roll", roll="activation", unit_id="f-line",
              dice=1, **table(6))
    assert m.turn["expects"] == [("an activation failed: french advances, the phase passes "
                                 "(WC-9)")]
    m.act("french", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == (f"{PRE}/a_reposition", "british")


def test_wc7_firing_unloads_the_piece_and_either_player_may_fire(client: TestClient) -> None:
    m = wc(client)
    to_activation(m)
    m.refused("british", 403, "WC-7", type="move_unit", unit_id="b-guards-1",
              to={"x": 1, "y": 1})  # not the British phase
    events = m.act("british", type="fire", unit_id="b-guards-1", target_id="f-line-3",
                   differential=1, **table(5, 2))  # defensive fire
    rolled, unloaded = events
    assert rolled["dice"] == [5, 2] and rolled["modifier"] == 1 and rolled["rule"] == "WC-7"
    assert unloaded["set"] == ["unloaded"]
    m.act("british", type="enter_result", result="target disrupted")
    m.refused("british", 422, "WC-7", type="fire", unit_id="b-guards-1", target_id="f-line-3",
              **table(5, 2))  # unloaded
    m.refused("french", 422, "WC-7", type="fire", unit_id="f-line-3", target_id="f-line-2",
              **table(5, 2))  # not an enemy
    # a destroyed piece leaves a casualty marker
    [_removed, marker] = m.act("french", type="remove_unit", unit_id="f-line-3",
                              reason="destroyed")
    assert (marker["kind"], marker["location"]) == ("casualty", "7,12")


def test_wc8_the_fos_special_move_is_rolled_once(client: TestClient) -> None:
    m = wc(client)
    to_activation(m)
    _rolled, result = m.act("french", type="rule_roll", roll="special_move", unit_id="f-fo",
                           **table(4))
    assert result["result"] == "2 move(s)" and result["rule"] == "WC-8"
    m.refused("french", 422, "WC-8", type="rule_roll", roll="special_move", unit_id="f-fo",
              **table(4))
    m.refused("french", 422, "WC-8", type="rule_roll", roll="special_move", unit_id="f-line",
              **table(4))  # not an officer


def test_wc10_the_turn_limit_ends_the_match_on_victory_points(client: TestClient) -> None:
    m = wc(client, options={"turns": 1})
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance", to=f"{PRE}/b_unit_morale")
    m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    m.act("french", type="advance")
    for piece in ("f-line-1", "f-line-2"):
        m.act("french", type="rule_roll", roll="disruption_recovery", unit_id=piece, **table(6))
    m.act("french", type="advance", to="phase/activation")
    m.act("french", type="advance")  # done: the phase passes
    m.act("british", type="advance", to=f"{PRE}/b_unit_morale")
    m.act("british", type="rule_roll", roll="unit_morale", unit_id="b-rifles", **table(5))
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-rifles-1",
          **table(5))
    m.act("british", type="advance", to="phase/activation")
    m.act("british", type="advance")
    assert m.turn["step"] == "victory"
    m.act("british", type="score_vp", side="british", points=2, reason="held the ridge")
    m.act("french", type="advance")
    outcome = m.get("")["outcome"]
    assert outcome["winner"] == "british" and "turn 1 of 1" in outcome["reason"]
