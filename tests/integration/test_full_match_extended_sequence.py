"""A whole scripted extended-sequence match through the HTTP API with the server's dice, to the
end. Then the log is replayed from scratch and must reach exactly the state the service
holds."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.application import Matches


def test_a_full_extended_sequence_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("extended-sequence-demo"))  # 3 turns

    def units(side: str, *having: str, lacking: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        return [u for u in m.board["units"] if u["side"] == side and set(having) <= set(
            u["status"]) and not set(lacking) & set(u["status"]) and u["kind"] != "leader"
            and u["position"]["box"] is None]

    def shoot(side: str, foe: str) -> None:
        """Fire every able unit of `side` at the first enemy, as often as its ROF allows."""
        for unit in units(side, lacking=("broken", "routed", "broken_down")):
            for _ in range(3):
                target = next(iter(units(foe)), None)
                if target is None:
                    return
                if not m.attempt(side, type="fire", unit_id=unit["id"],
                                 target_id=target["id"]):
                    break  # its rate of fire is spent
                m.enter_result()
                m.act(side, type="place_marker", kind="suppression", unit_id=target["id"])

    while m.get("")["outcome"] is None:
        step, turn = m.turn["step"], m.turn["turn"]
        if step == "initial/weather":
            m.act("soviets", type="set_track", name="weather.visibility", value=10 - turn)
        elif step == "initial/smoke_and_fire" and turn == 1:
            m.act("germans", type="place_marker", kind="smoke", location="0607")
        elif step == "initial/reinforcements" and turn == 1:
            m.act("germans", type="announce_reinforcements", unit_ids=["g-stug"], entry="0101")
        elif step == "initial/artillery":
            for stage in ("radio_contact", "spotting_round", "fire_for_effect"):
                m.attempt("germans", type="call_artillery", mission="m1", stage=stage,
                          location="0708")
        elif step == "rally/repair":
            for unit in units("germans", "broken_down") + units("soviets", "broken_down"):
                m.act(unit["side"], type="rule_roll", roll="repair", unit_id=unit["id"])
        elif step == "rally/self_rally":
            for unit in units("germans", "broken", lacking=("routed",)):
                # turn 1: an original 2 (table dice) rallies it and creates a leader
                dice = {"source": "table", "results": [1, 1]} if turn == 1 else {}
                m.act("germans", type="rule_roll", roll="self_rally", unit_id=unit["id"],
                      **dice)
        elif step == "rally/leader_rally":
            for side, leader in (("germans", "g-leader"), ("soviets", "s-leader")):
                for unit in units(side, "broken")[:1] + units(side, "routed")[:1]:
                    m.act(side, type="rule_roll", roll="leader_rally", unit_id=unit["id"],
                          leader_id=leader)
        elif step == "combat/prepared_fire":
            shoot("germans", "soviets")
        elif step == "combat/routed_movement":
            shoot("soviets", "germans")
        elif step == "combat/move_and_fire":
            if m.unit("g-stug")["position"]["box"] == "reinforcements":
                m.act("germans", type="move_unit", unit_id="g-stug", to={"hex": "0101"})
            mover = next((u for u in units("germans", lacking=("broken", "routed"))
                          if not u["markers"]), None)
            if mover:
                m.act("germans", type="move_unit", unit_id=mover["id"], to={"hex": "0506"})
        elif step == "combat/defensive_fire":
            shoot("soviets", "germans")
        elif step == "combat/advancing_fire":
            shoot("germans", "soviets")
        elif step == "admin/victory":
            assert not any({"prepared_fire", "rof_spent", "halted"} & set(u["markers"])
                           for u in m.board["units"])
            m.act("referee", type="score_vp", side="germans", points=1)
        seat = {"attacker": "germans", "defender": "soviets"}.get(m.turn["acting"], "referee")
        if step.startswith("combat/"):
            seat = "soviets" if step == "combat/defensive_fire" else "germans"
        m.act(seat, type="advance")
    assert {"ES-1", "ES-2", "ES-3", "ES-4", "ES-5", "ES-6"} <= m.rules
    assert "turn 3 of 3" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)
