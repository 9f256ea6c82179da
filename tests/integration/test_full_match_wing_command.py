"""A whole scripted wing-command match through the HTTP API with the server's dice, to the
end. Then the log is replayed from scratch and must reach exactly the state the service
holds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.application import Matches


def test_a_full_wing_command_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("wing-command-demo"))  # 3 turns
    while m.get("")["outcome"] is None:
        step, side = m.turn["step"], m.turn["active_side"]
        foe = "british" if side == "french" else "french"
        if step == "initiative":
            if m.turn["expects"][0].startswith(("initiative rolls", "tied")):
                m.act("french", type="roll_initiative")
            else:
                m.act("french", type="advance")
        elif step.endswith("a_reposition"):
            co = m.mine(side, "co")[0]
            m.act(side, type="move_unit", unit_id=co["id"],
                  to={"x": co["position"]["x"] + 1, "y": co["position"]["y"]})
            m.act(side, type="advance")
        elif step.endswith("b_unit_morale"):
            for unit in m.mine(side, "unit"):
                if unit["computed"]["morale_check"]:
                    co = m.mine(side, "co")[0]
                    cubes = min(1, co["markers"].get("leadership", 0))
                    m.act(side, type="rule_roll", roll="unit_morale", unit_id=unit["id"],
                          leader_id=co["id"], leadership=cubes)
            m.act(side, type="advance")
        elif step.endswith("c_disruption"):
            for piece in m.mine(side, "piece"):
                if "disrupted" in piece["status"]:
                    m.act(side, type="rule_roll", roll="disruption_recovery", unit_id=piece["id"])
            m.act(side, type="advance")
        elif step.endswith("d_corner_lock"):
            for piece in m.mine(side, "piece"):
                if "corner_locked" in piece["status"]:
                    m.act(side, type="rule_roll", roll="disengage", unit_id=piece["id"])
            m.act(side, type="advance")
        elif step.endswith("e_line_command"):
            m.act(side, type="advance")
        elif step == "phase/activation":
            for unit in m.mine(side, "unit"):
                if m.turn["expects"][0].startswith("an activation failed"):
                    break
                if "activated" in unit["status"]:
                    continue
                events = m.act(side, type="rule_roll", roll="activation", unit_id=unit["id"],
                               dice=2)
                m.enter_result(failed=events[-1]["result"].startswith("0 of"))
                if events[-1]["result"].startswith("0 of"):
                    break
                # its pieces fire at an enemy piece; a hit disrupts, a second one destroys
                shooter = next((p for p in m.mine(side, "piece") if p["extra"]["unit"] ==
                                unit["id"] and "unloaded" not in p["status"]), None)
                target = next(iter(m.mine(foe, "piece")), None)
                if shooter and target:
                    m.act(side, type="fire", unit_id=shooter["id"], target_id=target["id"])
                    m.enter_result()
                    if "disrupted" in target["status"]:
                        m.act(foe, type="remove_unit", unit_id=target["id"], reason="casualty")
                    else:
                        m.act(foe, type="set_status", unit_id=target["id"], set=["disrupted"])
            if m.turn["turn"] == 1:
                fo = m.mine(side, "fo")[0]
                m.act(side, type="rule_roll", roll="special_move", unit_id=fo["id"])
            m.act(side, type="advance")
        else:
            assert step == "victory"
            m.act("referee", type="score_vp", side=m.turn["initiative"][0], points=1)
            m.act("french", type="advance")
    assert {"WC-1", "WC-3", "WC-4", "WC-5", "WC-6", "WC-7", "WC-8", "WC-10"} <= m.rules
    assert "turn 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)
