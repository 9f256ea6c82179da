"""Normandy through the HTTP API: the mutual segments NO-1, the two player-turns NO-2/NO-3
with their own segments, the operation swap NO-5, supply, Reserve and Regroup markers,
combat with the players' CRT result, step losses, and the city VP of NO-4."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

from domain.rulesets.normandy import city_vp, regroup_flips
from domain.state import Unit


def no(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("normandy-demo", **changes))


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


def advance_to(m: Played, step: str, side: str | None = None) -> None:
    """The referee moves the marker on (each step's own seat is tested where it matters)."""
    while (m.turn["step"], m.turn["active_side"] if side else None) != (step, side):
        m.act("referee", type="advance")


def through_mutual(m: Played, german_first: bool = False) -> None:
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation", hqs=["a-1corps"], carpet_bombing="1406")
    m.act("german", type="declare_operation", hqs=["g-86corps"] if german_first else [],
          first=german_first)
    m.act("referee", type="advance")
    m.act("referee", type="advance")
    m.act("allied", type="set_supply", unit_ids=["a-6para"], status="out_of_supply")
    m.act("referee", type="advance")


# ---- the arithmetic at its boundaries -----------------------------------------------------

@pytest.mark.parametrize(("turn", "cities", "vp"), [(1, 2, 0), (3, 2, 0), (4, 2, 2), (8, 1, 1),
                                                    (4, 0, 0)])
def test_no4_city_vp_on_every_fourth_turn(turn: int, cities: int, vp: int) -> None:
    assert city_vp(turn, cities) == vp


def test_regroup_flips_for_each_side() -> None:
    unit = Unit(id="u", side="german", name="u", markers={"disorganized": 2, "regroup": 1})
    assert regroup_flips(unit, phasing=True) == ({"regroup": 1}, {})
    assert regroup_flips(unit, phasing=False) == ({"disorganized": 2}, {"regroup": 2})


# ---- NO-1 mutual segments -----------------------------------------------------------------

def test_no1_weather_next_becomes_weather_now_next_turn(client: TestClient) -> None:
    m = no(client)
    m.refused("german", 403, "NO-1", type="set_track", name="weather.next", value="rain")
    m.act("allied", type="set_track", name="weather.next", value="rain")
    m.act("allied", type="set_track", name="sea.next", value="rough")
    m.refused("allied", 422, "core-tracks", type="set_track", name="sea.next", value="wet")
    m.act("allied", type="advance")
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
    tracks = m.board["tracks"]
    assert (tracks["weather.now"], tracks["sea.now"]) == ("rain", "rough")


def test_no1_operations_allied_first_and_a_german_operation_swaps_the_order(
        client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/operations")
    m.refused("german", 422, "NO-1", type="declare_operation")  # the Allies declare first
    m.refused("allied", 422, "NO-5", type="declare_operation", first=True)
    m.refused("allied", 422, "NO-1", type="declare_operation", hqs=["g-86corps"])
    m.act("allied", type="declare_operation", hqs=["a-1corps"])
    assert "operation" in m.unit("a-1corps")["status"]
    m.refused("german", 422, "NO-5", type="declare_operation", first=True)  # needs an operation
    [declared, _] = m.act("german", type="declare_operation", hqs=["g-86corps"], first=True)
    assert declared["order"] == ["german", "allied"] and declared["rule"] == "NO-5"
    m.act("referee", type="advance")
    m.act("referee", type="advance")
    m.act("allied", type="set_supply", unit_ids=["a-6para"], status="in_supply")
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


def test_no1_supply_is_set_in_the_supply_segment_for_every_unit_on_the_map(
        client: TestClient) -> None:
    m = no(client)
    m.refused("allied", 422, "NO-1", {"type": "set_supply", "unit_ids": ["a-6para"],
                                       "status": "isolated"})
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation")
    m.act("german", type="declare_operation")
    advance_to(m, "mutual/supply")
    assert m.turn["expects"] == ["units without a supply status: a-6para"]
    m.refused("referee", 422, "NO-1", type="advance")
    m.refused("german", 403, "core-authority", {"type": "set_supply", "unit_ids": ["a-6para"],
                                       "status": "isolated"})
    [changed] = m.act("allied", type="set_supply", unit_ids=["a-6para", "a-3div"],
                      status="isolated")[:1]
    assert changed["set"] == ["isolated"]
    assert "isolated" in m.unit("a-3div")["status"] and "in_supply" not in m.unit(
        "a-3div")["status"]
    m.act("allied", type="advance")


# ---- NO-2/NO-3 player-turns ---------------------------------------------------------------

def test_no2_reserve_markers_only_for_corps_in_an_operation(client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.act("allied", type="place_marker", kind="reserve", unit_id="a-27arm")
    m.refused("german", 403, "NO-2", type="place_marker", kind="reserve", unit_id="g-716")
    m.act("allied", type="advance")  # strategic movement: Reserve units stay
    m.refused("allied", 422, "NO-2", type="move_unit", unit_id="a-27arm", to={"hex": "1408"})
    m.act("allied", type="move_unit", unit_id="a-3div", to={"hex": "1408"})
    advance_to(m, "player_turn/reserve_movement", "allied")
    m.refused("allied", 422, "NO-2", type="move_unit", unit_id="a-3div", to={"hex": "1407"})
    m.act("allied", type="move_unit", unit_id="a-27arm", to={"hex": "1408"})
    m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-3div"],
              defenders=["g-716"], odds="1:1")  # only units from reserve attack now
    m.act("allied", type="resolve_combat", attackers=["a-27arm"], defenders=["g-716"],
          odds="1:1")


def test_no2_a_corps_not_in_an_operation_takes_no_reserve_markers(client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation")
    m.act("german", type="declare_operation")
    m.act("referee", type="advance")
    m.act("referee", type="advance")
    m.act("allied", type="set_supply", unit_ids=["a-6para"], status="in_supply")
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.refused("allied", 422, "NO-2", type="place_marker", kind="reserve", unit_id="a-27arm")


def test_no2_combat_records_odds_modifiers_roll_and_the_players_result(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/combat", "allied")
    m.refused("german", 403, "NO-2", type="resolve_combat", attackers=["g-21pz"],
              defenders=["a-3div"], odds="1:1")
    m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-3div"],
              defenders=["a-27arm"], odds="3:1")
    declared, rolled = m.act("allied", type="resolve_combat", attackers=["a-3div", "a-27arm"],
                             defenders=["g-21pz"], odds="3:1",
                             modifiers={"armour": 1, "river": -2}, **table(5, 4))
    assert declared["type"] == "CombatDeclared" and declared["modifiers"] == {"armour": 1,
                                                                             "river": -2}
    assert (rolled["dice"], rolled["modifier"], rolled["total"]) == ([5, 4], -1, 8)
    assert rolled["awaits"] == "NO-2 combat at 1406: 3:1, modifiers -1"
    m.refused("german", 403, "NO-2", type="enter_result", result="DR")
    m.act("allied", type="enter_result", result="DR: defender loses a step and retreats")
    # step losses and the retreat follow as the owner's actions
    m.refused("allied", 403, "core-authority", type="lose_step", unit_id="g-21pz")
    [lost] = m.act("german", type="lose_step", unit_id="g-21pz")
    assert lost["steps"] == 1
    m.act("german", type="move_unit", unit_id="g-21pz", to={"hex": "1305"})
    lost, eliminated = m.act("german", type="lose_step", unit_id="g-21pz")
    assert eliminated["type"] == "UnitRemoved" and eliminated["reason"] == "eliminated"


def test_no2_disorganized_flips_to_regroup_for_the_non_phasing_side(client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/combat", "allied")
    m.act("allied", type="place_marker", kind="disorganized", unit_id="a-3div")
    advance_to(m, "player_turn/regroup", "allied")
    assert m.unit("g-21pz")["markers"] == {"regroup": 1}  # German, not phasing: flipped
    assert m.unit("a-3div")["markers"] == {"disorganized": 1}  # phasing: stays
    advance_to(m, "player_turn/regroup", "german")
    assert m.unit("g-21pz")["markers"] == {}  # German now phasing: Regroup removed
    assert m.unit("a-3div")["markers"] == {"regroup": 1}


# ---- NO-4 ---------------------------------------------------------------------------------

def test_no4_every_fourth_turn_one_allied_vp_per_allied_city_and_the_end(
        client: TestClient) -> None:
    m = no(client)
    for turn in range(1, 5):
        through_mutual(m)
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
    m.act("referee", type="advance")
    assert m.get("")["outcome"]["winner"] == "allied"
