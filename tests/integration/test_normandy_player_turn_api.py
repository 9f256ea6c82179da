"""Normandy's two player-turns through the HTTP API (NO-2 Allied, NO-3 German): replacements,
Reserve markers and Reserve Movement, strategic movement, carpet bombing, combat with the
players' CRT result and step losses, air interdiction, engineering, Disorganization/Regroup."""

from __future__ import annotations

from fastapi.testclient import TestClient
from normandy_setup import advance_to, no, supply_all, table, through_mutual


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


def test_no2_only_reserve_units_that_moved_in_reserve_movement_attack(
        client: TestClient) -> None:
    m = no(client)
    through_mutual(m, carpet=None)
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.act("allied", type="place_marker", kind="reserve", unit_id="a-27arm")
    m.act("allied", type="place_marker", kind="reserve", unit_id="a-6para")
    advance_to(m, "player_turn/reserve_movement", "allied")
    m.act("allied", type="move_unit", unit_id="a-27arm", to={"hex": "1408"})
    assert "moved_in_reserve" in m.unit("a-27arm")["status"]
    refused = m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-6para"],
                        defenders=["g-716"], odds="1:1")  # in Reserve, but it did not move
    assert "a-6para" in refused["detail"]
    m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-27arm", "a-6para"],
              defenders=["g-716"], odds="2:1")
    m.act("allied", type="resolve_combat", attackers=["a-27arm"], defenders=["g-716"],
          odds="1:1", **table(3, 4))
    m.act("allied", type="enter_result", result="NE")
    advance_to(m, "player_turn/regroup", "allied")
    assert "moved_in_reserve" not in m.unit("a-27arm")["status"]  # the player-turn is over


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


def test_no2_only_the_allied_roll_resolves_the_carpet_bombing(client: TestClient) -> None:
    m = no(client)
    through_mutual(m)
    advance_to(m, "player_turn/carpet_bombing", "allied")
    m.act("german", type="roll_dice", notation="d6", purpose="a roll of the German player",
          **table(2))
    assert m.board["location_markers"]["1406"] == {"carpet_bombing": 1}  # not resolved
    m.refused("allied", 422, "NO-2", type="advance")
    m.act("allied", type="roll_dice", notation="2d6", purpose="carpet bombing", rule="NO-2",
          source="table")  # declared now, thrown at the table, entered next
    assert m.board["location_markers"]["1406"] == {"carpet_bombing": 1}
    rolled, removed = m.act("allied", type="record_roll", results=[4, 4])
    assert (rolled["type"], removed["type"], removed["location"]) == (
        "DiceRolled", "MarkerRemoved", "1406")
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
    advance_to(m, "player_turn/tactical_movement", "allied")
    m.act("allied", type="move_unit", unit_id="a-27arm", to={"hex": "1506"})  # next to 1406
    advance_to(m, "player_turn/combat", "allied")
    # an attack is on units next to the attackers: the 3rd Division alone is not next to 1406
    m.refused("allied", 422, "NO-2", type="resolve_combat", attackers=["a-3div"],
              defenders=["g-21pz"], odds="1:1")
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
