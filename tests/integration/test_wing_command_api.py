"""Wing command through the HTTP API, up to the activations: initiative WC-1,
Pre-Activation WC-2..WC-5, the victory check WC-10 and a die roll for what the rules do not
cover WC-11. Table dice make each rule's boundary exact; the activations are in
test_wing_command_activations_api.py."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from wing_command_setup import (
    PRE,
    RUN,
    french_first,
    table,
    to_activations,
    to_corner_lock,
    wc,
)

# ---- WC-1 initiative ----------------------------------------------------------------------

def test_wc1_initiative_is_d6_plus_the_cos_lv_and_ties_are_re_rolled(client: TestClient) -> None:
    m = wc(client)
    [tie] = m.act("british", type="roll_initiative", source="table",
                  results={"french": 3, "british": 4})  # 3 + 2 = 4 + 1
    assert tie["cv"] == {"french": 2, "british": 1} and tie["rule"] == "WC-1"
    assert tie["ranking"] == [["french", "british"]]
    # a tied side owes the re-roll: neither is done before it (ours), and each may throw it
    m.refused("french", 422, "WC-1", type="advance")
    m.refused("british", 422, "WC-1", type="advance")
    [settled] = m.act("french", type="roll_initiative", source="table",
                      results={"french": 1, "british": 3})  # 3 against 4
    m.act("french", type="advance")
    assert settled["ranking"] == [["british"], ["french"]]
    assert m.turn["initiative"] == ["british", "french"]
    m.act("british", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == (f"{PRE}/a_reposition", "british")


# ---- WC-2 Pre-Activation ------------------------------------------------------------------

def test_wc2_b_and_c_are_required_a_d_e_optional(client: TestClient) -> None:
    m = wc(client)
    m.act("french", type="roll_initiative", source="table", results={"french": 4, "british": 4})
    m.act("french", type="advance")
    m.act("british", type="advance")
    assert m.turn["step"] == f"{PRE}/a_reposition"
    m.refused("french", 422, "WC-2", type="move_unit", unit_id="f-line-3", to={"x": 1, "y": 1})
    m.act("french", type="move_unit", unit_id="f-fo", to={"x": 5, "y": 9})  # an officer
    m.refused("british", 403, "WC-2", type="advance")  # the phasing player's phase
    # (b) is owed: f-line has 2 disrupted pieces, its Casualty Value
    assert m.turn["expects"] == ["french: (a) Reposition officers (optional), then go on"]
    m.act("french", type="advance")
    assert m.turn["expects"] == ["units owing a morale check: f-line"]
    assert m.turn["rolls"] == ["unit_morale"]
    m.refused("french", 422, "WC-3", type="advance", to=f"{RUN}/activate")
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


def test_wc5_a_corner_locked_piece_disengages_on_its_qv_and_then_moves_back(
        client: TestClient) -> None:
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
    m.refused("french", 422, "WC-5", type="move_unit", unit_id="f-hussars-1",
              to={"x": 16, "y": 12})  # it has not disengaged
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1", **table(2))
    assert "corner_locked" in m.unit("f-hussars-1")["status"]  # 2 < QV 3
    m.refused("french", 422, "WC-5", type="rule_roll", roll="disengage", unit_id="f-hussars-1",
              **table(3))  # one try a turn


def test_wc5_a_disengaged_piece_moves_back_one_length(client: TestClient) -> None:
    m = wc(client)
    to_corner_lock(m)
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1", leader_id="f-co",
          leadership=1, **table(2))  # 2 + 1 = QV 3
    assert "corner_locked" not in m.unit("f-hussars-1")["status"]
    [moved] = m.act("french", type="move_unit", unit_id="f-hussars-1", to={"x": 16, "y": 13})
    assert moved["rule"] == "WC-5"


def test_wc5_a_piece_still_corner_locked_is_not_repositioned_in_e(client: TestClient) -> None:
    """(ours) A piece that failed to break free stays where it is locked until a later try
    succeeds: (e) repositions the line command's other pieces, not that one."""
    m = wc(client)
    to_corner_lock(m)
    m.act("french", type="rule_roll", roll="disengage", unit_id="f-hussars-1", **table(1))
    m.act("french", type="advance")
    assert m.turn["step"] == f"{PRE}/e_line_command"
    m.refused("french", 422, "WC-5", type="move_unit", unit_id="f-hussars-1",
              to={"x": 16, "y": 13})
    [moved] = m.act("french", type="move_unit", unit_id="f-hussars-2", to={"x": 17, "y": 13})
    assert moved["type"] == "UnitMoved"


# ---- WC-10, WC-11 -------------------------------------------------------------------------

@pytest.mark.parametrize("step", ["initiative", f"{PRE}/a_reposition", f"{PRE}/b_unit_morale",
                                  f"{PRE}/c_disruption", f"{PRE}/d_corner_lock",
                                  f"{PRE}/e_line_command"])
def test_wc11_a_die_roll_settles_the_uncovered_in_the_initiative_and_pre_activation(
        client: TestClient, step: str) -> None:
    m = wc(client)
    uncovered = {"type": "roll_dice", "notation": "d6", "rule": "WC-11",
                 "purpose": "WC-11: does the bridge hold the cavalry? 4+ it does"}
    if step != "initiative":
        m.act("french", type="roll_initiative", source="table",
              results={"french": 4, "british": 4})
        m.act("french", type="advance")
        m.act("british", type="advance")
    if step.endswith(("c_disruption", "d_corner_lock", "e_line_command")):
        m.act("french", type="advance")
        m.act("french", type="rule_roll", roll="unit_morale", unit_id="f-line", **table(6))
    if step.endswith(("d_corner_lock", "e_line_command")):
        m.act("french", type="advance")
        for piece in ("f-line-1", "f-line-2"):
            m.act("french", type="rule_roll", roll="disruption_recovery", unit_id=piece,
                  **table(6))
    while m.turn["step"] != step:
        m.act("french", type="advance")
    [rolled] = m.act("french", **uncovered)
    assert rolled["rule"] == "WC-11" and rolled["type"] == "DiceRolled"


def test_wc10_the_turn_limit_ends_the_match_on_victory_points(client: TestClient) -> None:
    m = wc(client, options={"turns": 1})
    to_activations(m)
    m.act("french", type="advance")  # no activation: the phase passes
    m.act("british", type="advance", to=f"{PRE}/b_unit_morale")
    m.act("british", type="rule_roll", roll="unit_morale", unit_id="b-rifles", **table(5))
    m.act("british", type="advance")
    m.act("british", type="rule_roll", roll="disruption_recovery", unit_id="b-rifles-1",
          **table(5))
    m.act("british", type="advance", to=f"{RUN}/activate")
    m.act("british", type="advance")
    assert m.turn["step"] == "victory"
    m.act("british", type="score_vp", side="british", points=2, reason="held the ridge")
    m.act("british", type="advance")
    assert m.turn["waiting_for"] == ["french"]
    m.act("french", type="advance")
    outcome = m.get("")["outcome"]
    assert outcome["winner"] == "british" and "turn 1 of 1" in outcome["reason"]
