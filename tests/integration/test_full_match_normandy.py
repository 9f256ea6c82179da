"""A whole scripted normandy match through the HTTP API with the server's dice, to the
end. Then the log is replayed from scratch and must reach exactly the state the service
holds."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rulesets_helpers import Script, assert_replay_matches, scenario

from domain.application import Matches


def test_a_full_normandy_match(matches: Matches, client: TestClient) -> None:
    m = Script(client, scenario("normandy-demo"))  # 4 Game-Turns
    while m.get("")["outcome"] is None:
        step, turn, side = m.turn["step"], m.turn["turn"], m.turn["active_side"]
        foe = "german" if side == "allied" else "allied"
        if step == "mutual/weather":
            m.act("allied", type="roll_dice", notation="2d6", purpose="NO-1 next turn's weather")
            m.act("allied", type="set_track", name="weather.next",
                  value=("clear", "rain")[turn % 2])
            m.act("allied", type="set_track", name="sea.next", value="calm")
        elif step == "mutual/allied_air":
            m.act("allied", type="set_track", name="air.received", value=4)
            m.act("allied", type="set_track", name="air.interdiction", value=1)
            m.act("allied", type="set_track", name="air.ground_support", value=3)
        elif step == "mutual/operations":
            m.act("allied", type="declare_operation", hqs=["a-1corps"])
            m.act("german", type="declare_operation", hqs=["g-86corps"] if turn == 2 else [],
                  first=turn == 2)
        elif step == "mutual/army_support":
            m.act("german", type="set_track", name="support.7th-army", value=2)
        elif step == "mutual/supply" and turn == 1:
            m.act("allied", type="set_supply", unit_ids=["a-6para"], status="out_of_supply")
        elif step == "player_turn/replacement":
            m.act(side, type="set_track", name=f"replacements.{side}", value=turn)
        elif step == "player_turn/tactical_movement" and side == "allied":
            if not m.unit("a-27arm")["markers"].get("reserve"):
                m.act("allied", type="place_marker", kind="reserve", unit_id="a-27arm")
        elif step == "player_turn/combat":
            attacker = next((u for u in m.board["units"] if u["side"] == side
                             and u["kind"] != "hq" and not u["markers"].get("reserve")), None)
            defender = next((u for u in m.board["units"] if u["side"] == foe
                             and u["kind"] != "hq" and u["position"]["hex"]), None)
            if attacker and defender:
                m.act(side, type="resolve_combat", attackers=[attacker["id"]],
                      defenders=[defender["id"]], odds="2:1", modifiers={"terrain": -1})
                m.enter_result()
                m.act(foe, type="lose_step", unit_id=defender["id"])
                if turn == 1:
                    m.act(side, type="place_marker", kind="disorganized",
                          unit_id=defender["id"])
                if defender["id"] == "g-716" and turn == 3:
                    m.act(side, type="set_track", name="control.1405", value="allied")
        elif step == "player_turn/air_interdiction":
            m.act("allied", type="place_marker", kind="interdiction", location="1304")
        elif step == "end/victory_points":
            m.act("german", type="score_vp", side="german", points=1, reason="held the line")
        m.act("referee", type="advance")
    assert {"NO-1", "NO-2", "NO-4", "NO-5", "core-steps"} <= m.rules
    vp = {track["side"]: track for track in m.board["vp"]["tracks"]}
    assert vp["allied"]["by_turn"].get("4", 0) >= 1  # the city VP of Game-Turn 4
    assert "Game-Turn 4 of 4" in m.get("")["outcome"]["reason"]
    assert_replay_matches(matches, m)
