"""Normandy through the HTTP API: the mutual segments NO-1 (each ended when both sides are
done), the two player-turns NO-2/NO-3 with their own segments, the operation swap NO-5,
supply every turn, replacements and re-supply, Reserve and Regroup markers, carpet bombing,
combat with the players' CRT result, step losses, engineering, and the city VP of NO-4."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played, scenario

SUPPLIED = {"allied": ["a-1corps", "a-3div", "a-27arm", "a-6para", "a-4agra"],
            "german": ["g-86corps", "g-21pz", "g-716", "g-1716art"]}


def no(client: TestClient, **changes: Any) -> Played:
    return Played(client, scenario("normandy-demo", **changes))


def table(*results: int) -> dict[str, Any]:
    return {"source": "table", "results": list(results)}


def advance_to(m: Played, step: str, side: str | None = None) -> None:
    """The referee moves the marker on (each step's own seat is tested where it matters)."""
    while (m.turn["step"], m.turn["active_side"] if side else None) != (step, side):
        if m.turn["step"] == "player_turn/carpet_bombing" and m.turn["expects"][0].startswith(
                "allied resolves"):
            m.act("allied", type="roll_dice", notation="d6", purpose="carpet bombing",
                  rule="NO-2")
        m.act("referee", type="advance")


def supply_all(m: Played) -> None:
    for side, units in SUPPLIED.items():
        m.act(side, type="set_supply", unit_ids=[u for u in units if u in on_map(m)],
              status="in_supply")


def on_map(m: Played) -> set[str]:
    return {u["id"] for u in m.board["units"] if u["position"] and u["position"].get("hex")}


def through_mutual(m: Played, german_first: bool = False, carpet: str | None = "1406") -> None:
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation", hqs=["a-1corps"], carpet_bombing=carpet)
    m.act("german", type="declare_operation", hqs=["g-86corps"] if german_first else [],
          first=german_first)
    advance_to(m, "mutual/supply")
    supply_all(m)
    m.act("referee", type="advance")


# ---- NO-1 mutual segments -----------------------------------------------------------------

def test_no1_weather_next_becomes_weather_now_next_turn(client: TestClient) -> None:
    m = no(client)
    m.refused("german", 403, "NO-1", type="set_track", name="weather.next", value="rain")
    m.act("allied", type="set_track", name="weather.next", value="rain")
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
    [declared, _] = m.act("german", type="declare_operation", hqs=["g-86corps"], first=True)
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

def test_no2_replacement_points_rebuild_reduced_units_up_to_full_strength(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    assert m.unit("a-6para")["computed"] == {"full_steps": 2, "reduced": True,
                                             "reserve_allowance": 3}
    m.refused("allied", 422, "NO-2", type="gain_step", unit_id="a-6para")  # no points yet
    m.act("allied", type="set_track", name="replacements.allied", value=2)
    [gained, spent] = m.act("allied", type="gain_step", unit_id="a-6para", rule="NO-2")
    assert (gained["steps"], spent["name"], spent["value"]) == (2, "replacements.allied", 1)
    assert m.unit("a-6para")["computed"]["reduced"] is False
    m.refused("allied", 422, "NO-2", type="gain_step", unit_id="a-6para")  # full strength
    m.refused("referee", 422, "NO-2", type="gain_step", unit_id="g-1716art")  # not phasing
    m.act("allied", type="advance")
    m.refused("allied", 422, "NO-2", type="gain_step", unit_id="a-4agra")  # phase over
    m.refused("allied", 422, "NO-2", type="set_track", name="replacements.allied", value=9)


def test_no2_the_inter_army_boundary_changes_in_the_replacement_phase(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    m.act("allied", type="set_track", name="boundary.allied", value="Seulles")
    m.refused("allied", 422, "core-tracks", type="set_track", name="boundary.allied",
              value="Rhine")
    assert m.board["tracks"]["boundary.allied"] == "Seulles"
    m.act("allied", type="advance")
    m.refused("allied", 422, "NO-2", type="set_track", name="boundary.allied", value="Mue")


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


def test_no2_reserve_units_move_up_to_two_thirds_of_their_printed_allowance(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    assert m.unit("a-27arm")["computed"]["reserve_allowance"] == 5  # 2/3 of 8
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.act("allied", type="place_marker", kind="reserve", unit_id="a-27arm")
    advance_to(m, "player_turn/reserve_movement", "allied")
    assert "a-27arm 5" in m.turn["expects"][0]


def test_no2_a_corps_not_in_an_operation_takes_no_reserve_markers(client: TestClient) -> None:
    m = no(client)
    advance_to(m, "mutual/operations")
    m.act("allied", type="declare_operation")
    m.act("german", type="declare_operation")
    advance_to(m, "mutual/supply")
    supply_all(m)
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.refused("allied", 422, "NO-2", type="place_marker", kind="reserve", unit_id="a-27arm")


def test_no2_strategic_movement_is_for_the_units_that_did_not_move_tactically(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.act("allied", type="move_unit", unit_id="a-3div", to={"hex": "1408"})
    assert "moved_tactically" in m.unit("a-3div")["status"]
    m.act("allied", type="advance")
    m.refused("allied", 422, "NO-2", type="move_unit", unit_id="a-3div", to={"hex": "1409"})
    m.act("allied", type="move_unit", unit_id="a-6para", to={"hex": "1606"})
    advance_to(m, "player_turn/regroup", "allied")
    assert "moved_tactically" not in m.unit("a-3div")["status"]  # the player-turn is over


def test_no2_an_announced_carpet_bombing_must_be_resolved_before_the_marker_moves_on(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    assert m.board["location_markers"]["1406"] == {"carpet_bombing": 1}
    advance_to(m, "player_turn/strategic_movement", "allied")
    m.refused("allied", 422, "NO-2", type="advance", to="player_turn/combat")  # no skipping it
    m.act("allied", type="advance")
    assert m.turn["step"] == "player_turn/carpet_bombing"
    m.refused("allied", 422, "NO-2", type="advance")
    m.refused("german", 403, "NO-2", type="advance")
    *_, removed = m.act("allied", type="roll_dice", notation="2d6", purpose="carpet bombing",
                        rule="NO-2", **table(6, 5))
    assert (removed["type"], removed["location"]) == ("MarkerRemoved", "1406")
    assert "1406" not in m.board["location_markers"]
    m.act("german", type="lose_step", unit_id="g-21pz")  # the losses the bombing caused
    m.refused("allied", 422, "NO-2", type="roll_dice", notation="d6", purpose="again")
    m.act("allied", type="advance")
    assert m.turn["step"] == "player_turn/combat"


def test_no2_without_a_carpet_bombing_its_segment_may_be_passed(client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/strategic_movement", "allied")
    m.act("allied", type="advance", to="player_turn/combat")


def test_no2_combat_records_odds_modifiers_roll_and_the_players_result(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
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


def test_no3_the_allied_player_determines_air_interdiction_effects_in_the_german_turn(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/interdiction_effects", "german")
    assert m.turn["advanced_by"] == ["allied", "referee"]
    m.refused("german", 403, "NO-3", type="roll_dice", notation="d6", purpose="interdiction")
    m.act("allied", type="roll_dice", notation="d6", purpose="interdiction on 1304",
          rule="NO-3")
    m.act("allied", type="place_marker", kind="interdicted", unit_id="g-716")
    m.refused("german", 403, "NO-3", type="advance")
    m.act("allied", type="advance")
    assert (m.turn["step"], m.turn["active_side"]) == ("player_turn/tactical_movement",
                                                       "german")


def test_no3_entrenchments_only_in_the_german_engineering_phase(client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/engineering", "allied")
    m.act("allied", type="place_marker", kind="improved_position", location="1508")
    m.refused("allied", 422, "NO-3", type="place_marker", kind="entrenchment", location="1508")
    advance_to(m, "player_turn/combat", "german")
    m.refused("german", 422, "NO-3", type="place_marker", kind="entrenchment", location="1406")
    advance_to(m, "player_turn/engineering", "german")
    m.act("german", type="place_marker", kind="entrenchment", location="1406")
    assert m.board["location_markers"]["1406"] == {"entrenchment": 1}


def test_no2_the_regroup_phase_takes_no_unit_actions(client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/regroup", "allied")
    m.refused("allied", 422, "NO-1", {"type": "set_supply", "unit_ids": ["a-3div"],
                                       "status": "isolated"})  # NO-1: the Supply segment's
    m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-3div"],
              defenders=["g-716"], odds="1:1")
    m.refused("allied", 422, "NO-2", type="move_unit", unit_id="a-3div", to={"hex": "1408"})
    m.refused("german", 422, "NO-2", type="move_unit", unit_id="g-716", to={"hex": "1307"})


def test_no2_disorganized_flips_to_regroup_for_the_non_phasing_side(client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/combat", "allied")
    m.act("allied", type="place_marker", kind="disorganized", unit_id="a-3div")
    advance_to(m, "player_turn/regroup", "allied")
    assert m.unit("g-21pz")["markers"] == {"regroup": 1}  # German, not phasing: flipped
    assert m.unit("a-3div")["markers"] == {"disorganized": 1}  # phasing: stays
    m.act("allied", type="advance")
    m.act("german", type="advance")  # both sides are done with the phase
    advance_to(m, "player_turn/regroup", "german")
    assert m.unit("g-21pz")["markers"] == {}  # German now phasing: Regroup removed
    assert m.unit("a-3div")["markers"] == {"regroup": 1}


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
