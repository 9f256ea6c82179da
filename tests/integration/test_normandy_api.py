"""Normandy through the HTTP API: the mutual segments NO-1 (each ended when both sides are
done), the operation swap NO-5, supply every turn, re-supply, and the city VP of NO-4. The
player-turns (NO-2/NO-3) are in test_normandy_player_turn_api.py."""

from __future__ import annotations

from fastapi.testclient import TestClient
from normandy_setup import (
    SUPPLIED,
    advance_to,
    no,
    on_map,
    supply_all,
    table,
    through_mutual,
)
from rulesets_helpers import scenario

# ---- NO-1 mutual segments -----------------------------------------------------------------

def test_no1_weather_next_becomes_weather_now_next_turn(client: TestClient) -> None:
    m = no(client)
    m.refused("german", 403, "NO-1", type="set_track", name="weather.next", value="rain")
    # NO-1: the weather is rolled, then the sea; the segment cannot be left before
    m.act("allied", type="roll_dice", notation="2d6", purpose="next turn's weather",
          **table(4, 4))
    m.act("allied", type="set_track", name="weather.next", value="rain")
    m.refused("allied", 422, "NO-1", type="advance")  # the sea is still to be rolled
    m.act("allied", type="roll_dice", notation="d6", purpose="sea conditions", **table(5))
    m.act("allied", type="set_track", name="sea.now", value="rough")
    m.refused("allied", 422, "core-tracks", type="set_track", name="sea.now", value="wet")
    m.act("allied", type="advance")
    m.refused("allied", 422, "NO-1", type="set_track", name="weather.next", value="clear")
    m.refused("allied", 422, "NO-1", type="set_track", name="air.interdiction", value=3)
    m.refused("allied", 422, "core-tracks", type="set_track", name="air.interdiction",
              value="lots")
    m.act("allied", type="set_track", name="air.received", value=5)
    m.act("allied", type="set_track", name="air.interdiction", value=3)
    m.refused("allied", 422, "NO-1", type="set_track", name="air.ground_support", value=3)
    m.act("allied", type="set_track", name="air.ground_support", value=2)
    through_mutual(m)
    advance_to(m, "mutual/weather")
    assert m.turn["turn"] == 2
    assert m.board["tracks"]["weather.now"] == "rain"


def test_no1_sea_conditions_are_rolled_for_this_turn(client: TestClient) -> None:
    m = no(client)
    m.act("allied", type="roll_dice", notation="d6", purpose="sea conditions", rule="NO-1")
    [sea] = m.act("allied", type="set_track", name="sea.now", value="moderate")
    assert sea["name"] == "sea.now" and m.board["tracks"]["sea.now"] == "moderate"
    m.refused("allied", 422, "core-tracks", type="set_track", name="sea.next", value="calm")


def test_no1_a_mutual_segment_ends_when_both_sides_are_done(client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/support")
    assert m.turn["shared"] and sorted(m.turn["waiting_for"]) == ["allied", "german"]
    m.act("allied", type="set_track", name="support.allied.i-corps", value=3)
    m.act("german", type="set_track", name="support.german.86-corps", value=2)
    m.refused("allied", 403, "core-authority", type="set_track",
              name="support.german.86-corps", value=5)  # each side sets its own support
    [done] = m.act("allied", type="advance")
    assert done["type"] == "SideDone" and m.turn["step"] == "mutual/support"
    assert m.turn["waiting_for"] == ["german"]
    m.refused("allied", 403, "NO-1", type="advance")  # it said so already
    m.act("german", type="advance")
    assert m.turn["step"] == "mutual/operations"


def test_no1_operations_allied_first_and_a_german_operation_swaps_the_order(
        client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/operations")
    m.refused("german", 422, "NO-1", type="declare_operation")  # the Allies declare first
    m.refused("allied", 422, "NO-5", type="declare_operation", first=True)
    m.refused("allied", 422, "NO-1", type="declare_operation", hqs=["g-86corps"])
    m.refused("allied", 422, "NO-1", type="declare_operation", carpet_bombing="1406")
    m.act("allied", type="declare_operation", hqs=["a-1corps"])
    assert "operation" in m.unit("a-1corps")["status"]
    m.act("allied", type="advance")  # the Allies are done; the Germans are not
    m.refused("german", 422, "NO-1", type="advance")  # they have not declared yet
    m.refused("german", 422, "NO-5", type="declare_operation", first=True)  # needs an operation
    [declared] = m.act("german", type="declare_operation", hqs=["g-86corps"], first=True)
    assert declared["order"] == ["german", "allied"] and declared["rule"] == "NO-5"
    m.act("german", type="advance")
    advance_to(m, "mutual/supply")
    supply_all(m)
    m.act("referee", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == ("player_turn/replacement", "german")
    # NO-3: the German player-turn has its Air Interdiction Determination segment
    m.act("german", type="advance")
    assert m.turn["step"] == "player_turn/interdiction_effects"
    # the swap lasts one turn: turn 2 opens with the Allies first again
    advance_to(m, "player_turn/replacement", "allied")
    m.act("allied", type="advance")
    assert m.turn["step"] == "player_turn/tactical_movement"  # no German-only segment
    advance_to(m, "mutual/weather")
    assert m.turn["initiative"] == ["allied", "german"]
    assert "operation" in m.unit("a-1corps")["status"]
    advance_to(m, "mutual/operations")
    assert "operation" not in m.unit("a-1corps")["status"]  # flipped back for the new turn


def test_no1_only_allied_hqs_turn_to_their_operation_side(client: TestClient) -> None:
    """Both sides' HQs may be in an operation, but only the Allied ones have an Operation
    side to turn to; a German corps in an operation still puts units in Reserve (NO-3)."""
    m = no(client)
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation", hqs=["a-1corps"])
    [declared] = m.act("german", type="declare_operation", hqs=["g-86corps"])
    assert declared["hqs"] == ["g-86corps"]
    assert "operation" in m.unit("a-1corps")["status"]
    assert "operation" not in m.unit("g-86corps")["status"]
    advance_to(m, "mutual/supply")
    supply_all(m)
    advance_to(m, "player_turn/tactical_movement", "german")
    m.act("german", type="place_marker", kind="reserve", unit_id="g-716")
    assert m.unit("g-716")["markers"] == {"reserve": 1}


def test_no1_no_german_hq_shows_an_operation_side_by_deployment_or_scenario(
        client: TestClient) -> None:
    """Only the declaration turns an HQ, and only an Allied one: `operation` cannot be put on
    a German HQ (or on a unit that is no HQ) by deploy_unit or a scenario."""
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/replacement", "german")
    m.refused("german", 422, "NO-1", type="deploy_unit", unit={
        "id": "g-84corps", "side": "german", "name": "LXXXIV Corps HQ", "kind": "hq",
        "status": ["operation"], "position": {"hex": "1204"}})
    m.refused("german", 422, "NO-1", type="deploy_unit", unit={
        "id": "g-709", "side": "german", "name": "709. Infanterie-Division", "kind": "division",
        "steps": 2, "status": ["operation"], "position": {"hex": "1204"}})
    [deployed] = m.act("german", type="deploy_unit", unit={
        "id": "g-84corps", "side": "german", "name": "LXXXIV Corps HQ", "kind": "hq",
        "position": {"hex": "1204"}})
    assert deployed["type"] == "UnitDeployed"
    body = scenario("normandy-demo")
    units = [dict(u, status=["in_supply", "operation"]) if u["id"] == "g-86corps" else u
             for u in body["units"]]
    r = client.post("/api/matches", json={**body, "units": units})
    assert r.status_code == 422 and r.json()["rule"] == "NO-1", r.text


def test_no1_supply_is_determined_again_in_every_turns_supply_segment(
        client: TestClient) -> None:
    m = no(client)
    m.refused("allied", 422, "NO-1", {"type": "set_supply", "unit_ids": ["a-6para"],
                                       "status": "isolated"})
    for turn in (1, 2):
        advance_to(m, "mutual/operations")
        m.act("allied", type="declare_operation")
        m.act("german", type="declare_operation")
        advance_to(m, "mutual/supply")
        # last turn's statuses no longer count: every unit on the map is determined anew
        [missing] = m.turn["expects"]
        assert missing.startswith("units whose supply is not determined this turn: ")
        assert set(missing.split(": ")[1].split(", ")) == on_map(m)
        assert "in_supply" not in m.unit("a-3div")["status"]
        m.refused("referee", 422, "NO-1", type="advance")
        m.refused("german", 403, "core-authority", {"type": "set_supply",
                                                    "unit_ids": ["a-6para"],
                                                    "status": "isolated"})
        [changed] = m.act("allied", type="set_supply", unit_ids=["a-6para", "a-3div"],
                          status="isolated")[:1]
        assert changed["set"] == ["isolated"]
        supply_all(m)
        assert m.unit("a-3div")["status"] == ["in_supply"]
        m.act("allied", type="advance")
        m.act("german", type="advance")
        assert m.turn["step"] == "player_turn/replacement"
        advance_to(m, "mutual/weather")


def test_no1_a_side_is_done_only_once_its_operations_and_its_supply_are_entered(
        client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/operations")
    m.refused("allied", 422, "NO-1", type="advance")  # done would leave it unable to declare
    m.act("allied", type="declare_operation")
    m.act("allied", type="advance")
    m.act("german", type="declare_operation")
    m.act("german", type="advance")
    advance_to(m, "mutual/supply")
    m.act("allied", type="set_supply", unit_ids=SUPPLIED["allied"], status="in_supply")
    m.refused("german", 422, "NO-1", type="advance")  # its units have no status yet
    m.act("allied", type="advance")
    m.act("german", type="set_supply", unit_ids=SUPPLIED["german"], status="in_supply")
    m.act("german", type="advance")
    assert m.turn["step"] == "player_turn/replacement"


def test_no1_either_side_resupplies_its_reduced_artillery_in_the_support_segment(
        client: TestClient) -> None:
    m = no(client)
    m.refused("allied", 422, "NO-2", type="gain_step", unit_id="a-4agra")  # not in Weather
    advance_to(m, "mutual/support")
    [gained] = m.act("allied", type="gain_step", unit_id="a-4agra", rule="NO-1")
    assert gained["type"] == "StepGained" and gained["steps"] == 2
    m.refused("allied", 422, "NO-1", type="gain_step", unit_id="a-4agra")  # at full strength
    m.refused("allied", 422, "NO-1", type="gain_step", unit_id="a-6para")  # not artillery
    m.refused("allied", 403, "core-authority", type="gain_step", unit_id="g-1716art")
    m.act("german", type="gain_step", unit_id="g-1716art", rule="NO-1")
    assert m.unit("g-1716art")["steps"] == 2


# ---- NO-2/NO-3 player-turns ---------------------------------------------------------------


# ---- NO-4 ---------------------------------------------------------------------------------

def test_no4_every_fourth_turn_one_allied_vp_per_allied_city_and_the_end(
        client: TestClient) -> None:
    m = no(client)
    for turn in range(1, 5):
        through_mutual(m, carpet=None)
        if turn == 2:  # the Allies take Caen
            advance_to(m, "player_turn/combat", "allied")
            m.act("allied", type="set_track", name="control.1405", value="allied")
        advance_to(m, "end/victory_points")
        if turn == 2:
            m.act("german", type="score_vp", side="german", points=-1, reason="withdrawal")
        if turn < 4:
            m.act("referee", type="advance")
    vp = {track["side"]: track for track in m.board["vp"]["tracks"]}
    assert vp["allied"]["points"] == 2  # 1610 and 1405 at the end of Game-Turn 4
    assert vp["allied"]["by_turn"] == {"4": 2}
    assert vp["german"]["by_turn"] == {"2": -1}
    m.act("allied", type="advance")
    assert m.get("")["outcome"] is None  # the German player is not done yet
    m.act("german", type="advance")
    assert m.get("")["outcome"]["winner"] == "allied"
