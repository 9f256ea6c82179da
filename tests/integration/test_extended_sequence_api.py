"""The WW2 extended sequence through the HTTP API (ES-1..ES-6): a game turn with one
player-turn per side, each the attacker in its own (or one fixed attacker when the scenario
says so); weather tracks, reinforcements, off-board artillery, breakdown and repair,
self-rally and leader rally; movement and fire in the Combat Phase, and the fire markers the
service places and clears itself."""

from __future__ import annotations

import pytest
from extended_sequence_setup import FIXED, advance_to, es, fire, table
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from domain.rulesets.extended_sequence import q_roll_passes, rally_capacity

# ---- the arithmetic at its boundaries -----------------------------------------------------

@pytest.mark.parametrize(("modifier", "bases"), [(1, 1), (0, 2), (-1, 3), (-2, 4), (3, 0)])
def test_es3_leader_rally_capacity_is_two_minus_the_modifier(modifier: int, bases: int) -> None:
    assert rally_capacity(modifier) == bases


@pytest.mark.parametrize(("dr", "q", "modifier", "margin", "passes"), [
    (6, 4, 0, 2, True), (7, 4, 0, 2, False), (7, 4, -1, 2, True), (7, 6, 1, 2, True),
    (8, 6, 1, 2, False), (4, 4, 0, 0, True), (5, 4, 0, 0, False), (7, 4, 0, 3, True)])
def test_es_q_roll_passes_at_q_plus_the_margin_or_less(dr: int, q: int, modifier: int,
                                                       margin: int, passes: bool) -> None:
    assert q_roll_passes(dr, q, modifier, margin) is passes


# ---- the game turn: one player-turn per side, or fixed roles ------------------------------

def test_by_default_each_side_attacks_in_its_own_player_turn(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/prepared_fire", "germans")
    assert m.turn["expects"] == ["germans's prepared fire, while ROF lasts"]
    m.refused("soviets", 403, "ES-4", type="fire", unit_id="s-hmg", target_id="g-hmg",
              **table(3, 4))
    advance_to(m, "combat/advance", "germans")
    m.act("referee", type="advance")  # the Germans' player-turn ends: the Soviets attack
    turn = m.turn
    assert (turn["turn"], turn["step"], turn["active_side"]) == (1, "combat/prepared_fire",
                                                                 "soviets")
    assert turn["advanced_by"] == ["soviets", "referee"]
    fire(m, "soviets", "s-hmg", "g-hmg", 3, 4)  # the Soviets' prepared fire now
    m.refused("germans", 403, "ES-4", type="fire", unit_id="g-hmg", target_id="s-hmg",
              **table(3, 4))
    m.refused("germans", 403, "ES-4", type="advance")
    m.act("soviets", type="advance")
    # the defender of the first player-turn moves its routed units in its own
    m.act("soviets", type="move_unit", unit_id="s-rifles-3", to={"hex": "1010"})
    fire(m, "germans", "g-hmg", "s-rifles-3", 2, 2)  # the Germans' opportunity fire
    advance_to(m, "combat/advance", "soviets")
    m.act("soviets", type="move_unit", unit_id="s-rifles-1", to={"hex": "0707"})
    m.act("soviets", type="advance")
    assert (m.turn["turn"], m.turn["step"]) == (1, "admin/victory")


def test_a_fixed_roles_option_keeps_one_player_turn_for_the_fixed_attacker(
        client: TestClient) -> None:
    m = es(client, options=FIXED)
    advance_to(m, "combat/routed_movement", None)
    assert m.turn["active_side"] is None
    m.refused("germans", 403, "ES-4", type="move_unit", unit_id="g-rifles-3",
              to={"hex": "0107"})  # the Germans defend for the whole game
    m.act("soviets", type="move_unit", unit_id="s-rifles-3", to={"hex": "1010"})
    advance_to(m, "combat/advance", None)
    m.act("soviets", type="advance")
    assert (m.turn["turn"], m.turn["step"]) == (1, "admin/victory")
    m.act("germans", type="advance")
    m.act("soviets", type="advance")
    assert (m.turn["turn"], m.turn["step"]) == (2, "initial/weather")


def test_fixed_roles_must_name_both_roles_and_sides_of_the_match(client: TestClient) -> None:
    body = scenario("extended-sequence-demo", options={"roles": {"attacker": "germans"}})
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "ES-4"
    body = scenario("extended-sequence-demo",
                    options={"roles": {"attacker": "germans", "defender": "finns"}})
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "core-sides"


def test_es_initial_and_rally_steps_end_when_both_sides_are_done(client: TestClient) -> None:
    m = es(client)
    for step in ("initial/weather", "initial/smoke_and_fire", "initial/reinforcements",
                 "initial/air_strikes", "initial/artillery", "rally/repair",
                 "rally/ammunition", "rally/self_rally", "rally/leader_rally"):
        assert (m.turn["step"], m.turn["waiting_for"]) == (step, ["germans", "soviets"])
        if step == "initial/weather":  # ES-1: the weather roll is owed first
            m.act("soviets", type="roll_dice", notation="2d6", purpose="weather change",
                  source="table", results=[3, 4])
        m.act("germans", type="advance")
        assert (m.turn["step"], m.turn["waiting_for"]) == (step, ["soviets"])
        m.refused("germans", 403, m.turn["rule"], type="advance")
        m.act("soviets", type="advance")
    assert m.turn["step"] == "combat/prepared_fire"


# ---- ES-1 Initial Phase -------------------------------------------------------------------

def test_es1_weather_tracks_take_only_their_values(client: TestClient) -> None:
    m = es(client)
    m.act("soviets", type="set_track", name="weather.wind_direction", value="NW")
    m.act("germans", type="set_track", name="weather.visibility", value=6)
    m.refused("germans", 422, "core-tracks", type="set_track", name="weather.visibility",
              value="far")
    m.refused("germans", 422, "core-tracks", type="set_track", name="weather.mood", value="grim")
    assert m.board["tracks"] == {"weather.wind_direction": "NW", "weather.visibility": 6}


def test_es1_each_side_announces_its_own_reinforcements(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "initial/reinforcements")
    m.refused("soviets", 403, "core-authority", type="announce_reinforcements",
              unit_ids=["g-stug"], entry="west edge")  # not theirs
    m.refused("germans", 422, "ES-1", type="announce_reinforcements", unit_ids=["g-hmg"],
              entry="west edge")  # not waiting in the box
    m.act("germans", type="announce_reinforcements", unit_ids=["g-stug"], entry="0101")
    m.act("soviets", type="announce_reinforcements", unit_ids=["s-t34"], entry="1212")
    assert m.unit("g-stug")["extra"]["entry"] == "0101"
    advance_to(m, "combat/move_and_fire", "germans")
    m.act("germans", type="move_unit", unit_id="g-stug", to={"hex": "0101"})
    advance_to(m, "combat/move_and_fire", "soviets")
    m.act("soviets", type="move_unit", unit_id="s-t34", to={"hex": "1212"})


def test_es1_reinforcements_not_announced_cannot_arrive(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/move_and_fire")
    m.refused("germans", 422, "ES-1", type="move_unit", unit_id="g-stug", to={"hex": "0101"})


def test_es1_an_artillery_mission_follows_its_state_machine(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "initial/artillery")
    m.refused("germans", 422, "ES-1", type="call_artillery", mission="m1",
              stage="spotting_round", location="0708")  # no radio contact yet
    m.act("germans", type="call_artillery", mission="m1", stage="radio_contact", **table(3))
    assert m.board["tracks"]["artillery.m1"] == "no contact"  # 3 < 4
    m.refused("germans", 422, "ES-1", type="call_artillery", mission="m1",
              stage="radio_contact", **table(6))  # one try a turn
    m.refused("soviets", 403, "ES-1", type="call_artillery", mission="m1",
              stage="radio_contact", **table(6))  # the Germans' mission
    m.act("soviets", type="call_artillery", mission="s1", stage="radio_contact", **table(4))
    assert m.board["tracks"]["artillery.s1"] == "contact"
    m.refused("soviets", 422, "ES-1", type="call_artillery", mission="s1",
              stage="fire_for_effect", location="0304")  # spot first
    m.refused("soviets", 422, "ES-1", type="call_artillery", mission="s1",
              stage="spotting_round")  # where?
    m.act("soviets", type="call_artillery", mission="s1", stage="spotting_round",
          location="0304")
    m.act("soviets", type="call_artillery", mission="s1", stage="correction", location="0305")
    m.act("soviets", type="call_artillery", mission="s1", stage="fire_for_effect",
          location="0305")
    tracks = m.board["tracks"]
    assert (tracks["artillery.s1"], tracks["artillery.s1.at"]) == ("fire for effect 1", "0305")
    m.refused("soviets", 422, "ES-1", type="call_artillery", mission="s1",
              stage="fire_for_effect", location="0305")  # one a turn


# ---- ES-2/ES-3 Rally Phase ----------------------------------------------------------------

def test_es2_repair_by_a_q_roll_and_once_a_turn(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "rally/repair")
    m.refused("germans", 422, "ES-2", type="rule_roll", roll="repair", unit_id="g-hmg",
              **table(3, 3))  # nothing broken down
    m.act("germans", type="rule_roll", roll="repair", unit_id="g-pak", **table(4, 3))  # 7 > 6
    assert "broken_down" in m.unit("g-pak")["status"]
    m.refused("germans", 422, "ES-2", type="rule_roll", roll="repair", unit_id="g-pak",
              **table(1, 1))


def test_es2_repair_succeeds_at_q_plus_2(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "rally/repair")
    m.act("germans", type="rule_roll", roll="repair", unit_id="g-pak", **table(3, 3))  # 6 <= 6
    assert "broken_down" not in m.unit("g-pak")["status"]


def test_es2_a_repair_attempt_leaves_the_same_units_self_rally(client: TestClient) -> None:
    body = scenario("extended-sequence-demo")
    next(u for u in body["units"] if u["id"] == "g-pak")["status"] = ["broken", "broken_down"]
    m = Played(client, body)
    advance_to(m, "rally/repair")
    m.act("germans", type="rule_roll", roll="repair", unit_id="g-pak", **table(6, 5))
    advance_to(m, "rally/self_rally")
    m.act("germans", type="rule_roll", roll="self_rally", unit_id="g-pak", **table(4, 3))
    assert m.unit("g-pak")["status"] == ["broken", "broken_down"]  # tried, and failed
    m.refused("germans", 422, "ES-2", type="rule_roll", roll="self_rally", unit_id="g-pak",
              **table(1, 2))  # once a turn


def test_es2_the_q_roll_margin_is_a_scenario_option(client: TestClient) -> None:
    strict = es(client, options={"q_roll_margin": 0})
    advance_to(strict, "rally/repair")
    strict.act("germans", type="rule_roll", roll="repair", unit_id="g-pak", **table(3, 2))
    assert "broken_down" in strict.unit("g-pak")["status"]  # 5 > Q 4 + 0
    lenient = es(client, options={"q_roll_margin": 3})
    advance_to(lenient, "rally/repair")
    lenient.act("germans", type="rule_roll", roll="repair", unit_id="g-pak", **table(4, 3))
    assert "broken_down" not in lenient.unit("g-pak")["status"]  # 7 <= Q 4 + 3
    r = client.post("/api/matches", json=scenario("extended-sequence-demo",
                                                  options={"q_roll_margin": -1}))
    assert r.status_code == 422 and r.json()["rule"] == "ES-2"


def test_es2_self_rally_an_original_2_creates_a_leader(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "rally/self_rally")
    m.refused("germans", 422, "ES-2", type="rule_roll", roll="self_rally",
              unit_id="g-rifles-3", **table(1, 1))  # routed: no self-rally
    events = m.act("germans", type="rule_roll", roll="self_rally", unit_id="g-rifles-2",
                   new_unit_id="g-unteroffizier", **table(1, 1))
    assert [e["type"] for e in events] == ["DiceRolled", "UnitStatusChanged", "UnitDeployed"]
    leader = m.unit("g-unteroffizier")
    assert (leader["kind"], leader["side"], leader["position"]["hex"]) == (
        "leader", "germans", "0205")
    assert "broken" not in m.unit("g-rifles-2")["status"]


def test_es3_a_leader_rallies_as_many_bases_as_its_modifier_allows(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "rally/leader_rally")
    # the Soviet leader is Q4+1: one base
    m.act("soviets", type="rule_roll", roll="leader_rally", unit_id="s-rifles-2",
          leader_id="s-leader", **table(6, 6))  # fails, and uses the capacity
    m.refused("soviets", 422, "ES-3", type="rule_roll", roll="leader_rally",
              unit_id="s-rifles-3", leader_id="s-leader", **table(1, 1))
    # the German leader is Q6-1: a rally passes on 2d6 - 1 <= Q + 2
    m.act("germans", type="rule_roll", roll="leader_rally", unit_id="g-rifles-3",
          leader_id="g-leader", **table(4, 3))  # 7 - 1 = 6 <= 4 + 2
    assert not {"broken", "routed"} & set(m.unit("g-rifles-3")["status"])
    m.refused("germans", 422, "ES-3", type="rule_roll", roll="leader_rally",
              unit_id="g-rifles-3", leader_id="g-leader", **table(1, 1))  # not broken now
    m.refused("germans", 403, "core-authority", type="rule_roll", roll="leader_rally",
              unit_id="g-rifles-2", leader_id="s-leader", **table(1, 1))  # not their leader


# ---- ES-4/ES-5 Combat Phase, ES-6 Admin ---------------------------------------------------

def test_es_steps_say_who_acts(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/defensive_fire")
    m.refused("germans", 403, "ES-4", type="fire", unit_id="g-hmg", target_id="s-hmg",
              **table(3, 3))
    m.refused("germans", 403, "ES-4", type="advance")
    assert m.turn["expects"] == ["soviets fires with every unit still able"]
    assert m.turn["advanced_by"] == ["soviets", "referee"]
