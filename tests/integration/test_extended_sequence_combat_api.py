"""The WW2 extended sequence's Combat Phase through the HTTP API (ES-4, ES-5): the defender's
fire at moving units, routed and broken movement, moving on after firing, the advance, and
the fire markers (prepared fire, rate of fire) that the service places and clears itself."""

from __future__ import annotations

from extended_sequence_setup import advance_to, es, fire, table
from fastapi.testclient import TestClient


def test_es5_prepared_fire_and_rof_markers_are_placed_by_the_service(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/prepared_fire")
    first = fire(m, "germans", "g-hmg", "s-rifles-1", 3, 4)
    assert [(e["type"], e.get("kind")) for e in first] == [
        ("DiceRolled", None), ("MarkerPlaced", "shots"), ("MarkerPlaced", "prepared_fire")]
    fire(m, "germans", "g-hmg", "s-rifles-1", 2, 5)
    third = fire(m, "germans", "g-hmg", "s-rifles-1", 1, 1)  # ROF 3: the last shot
    assert [e.get("kind") for e in third] == [None, "shots", "rof_spent"]
    m.refused("germans", 422, "ES-5", type="fire", unit_id="g-hmg", target_id="s-rifles-1",
              **table(3, 3))
    assert m.unit("g-hmg")["markers"] == {"prepared_fire": 1, "rof_spent": 1, "shots": 3}
    # a roll of the players' own cannot pass for a shot (nor spend another unit's ROF)
    m.refused("soviets", 422, "ES-4", {"type": "roll_dice", "notation": "2d6", "purpose": "x",
                                       "rule": "ES-4", "unit_ids": ["g-rifles-1"]})
    # a unit that fired prepared fire cannot move this player-turn
    advance_to(m, "combat/move_and_fire")
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-hmg", to={"hex": "0404"})
    m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0506"})
    # ES-6: the markers come off when the player-turn ends, and the unit fires again
    advance_to(m, "combat/prepared_fire", "soviets")
    assert m.unit("g-hmg")["markers"] == {}
    advance_to(m, "combat/defensive_fire", "soviets")
    fire(m, "germans", "g-hmg", "s-rifles-1", 2, 2)


def test_es5_the_services_fire_markers_are_not_the_players_to_place_or_remove(
        client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/prepared_fire")
    fire(m, "germans", "g-hmg", "s-rifles-1", 3, 4)
    m.refused("germans", 422, "ES-5", type="remove_marker", kind="prepared_fire",
              unit_id="g-hmg")
    m.refused("germans", 422, "ES-5", type="place_marker", kind="rof_spent",
              unit_id="s-hmg")
    m.act("soviets", type="place_marker", kind="suppression", unit_id="s-rifles-1")


def test_es2_an_original_12_breaks_the_firers_equipment(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/prepared_fire")
    events = fire(m, "germans", "g-rifles-1", "s-rifles-1", 6, 6)
    assert ("UnitStatusChanged", ["broken_down"]) in [(e["type"], e.get("set")) for e in events]
    advance_to(m, "combat/advancing_fire")
    m.refused("germans", 422, "ES-2", type="fire", unit_id="g-rifles-1",
              target_id="s-rifles-1", **table(3, 3))


def test_es4_the_defender_fires_at_moving_units_and_halts_them(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/routed_movement")
    m.refused("germans", 403, "ES-4", type="fire", unit_id="g-hmg", target_id="s-hmg",
              **table(3, 3))  # while routed units move only the defender fires
    m.refused("soviets", 403, "ES-4", type="move_unit", unit_id="s-rifles-3",
              to={"hex": "0909"})  # the Soviets' routed units move in their own player-turn
    advance_to(m, "combat/move_and_fire")
    m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0506"})
    events = fire(m, "soviets", "s-hmg", "g-rifles-1", 2, 3)
    assert ("MarkerPlaced", "halted") in [(e["type"], e.get("kind")) for e in events]
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-1",
              to={"hex": "0607"})


def test_es4_routed_movement_moves_only_routed_units_and_broken_movement_only_broken_ones(
        client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/routed_movement")
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-1",
              to={"hex": "0505"})
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-2",
              to={"hex": "0105"})  # broken, not routed: next step
    m.act("germans", type="move_unit", unit_id="g-rifles-3", to={"hex": "0106"})
    advance_to(m, "combat/broken_movement")
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-3",
              to={"hex": "0107"})
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-1",
              to={"hex": "0505"})
    m.act("germans", type="move_unit", unit_id="g-rifles-2", to={"hex": "0105"})
    advance_to(m, "combat/move_and_fire")
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-2",
              to={"hex": "0104"})  # broken units moved in their own step


def test_es4_a_unit_that_fired_may_remain_in_motion_and_move_on_until_the_defender_halts_it(
        client: TestClient) -> None:
    m = es(client)
    advance_to(m, "initial/reinforcements")
    m.act("germans", type="announce_reinforcements", unit_ids=["g-stug"], entry="0101")
    advance_to(m, "combat/move_and_fire")
    # a base moves, fires, and stays in motion: it moves on, as a vehicle does
    m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0506"})
    fire(m, "germans", "g-rifles-1", "s-rifles-1", 3, 3)
    [moved_on] = m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0607"})
    assert (moved_on["type"], moved_on["unit_id"]) == ("UnitMoved", "g-rifles-1")
    m.act("germans", type="move_unit", unit_id="g-stug", to={"hex": "0101"})
    fire(m, "germans", "g-stug", "s-rifles-1", 3, 3)
    m.act("germans", type="move_unit", unit_id="g-stug", to={"hex": "0202"})
    # the defender halts the base by firing at it: it moves no further
    fire(m, "soviets", "s-hmg", "g-rifles-1", 2, 3)
    m.refused("germans", 422, "ES-4", type="move_unit", unit_id="g-rifles-1",
              to={"hex": "0708"})


def test_es4_the_advance_takes_every_unit_that_moved_or_fired_but_not_a_shaken_one(
        client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/prepared_fire")
    fire(m, "germans", "g-hmg", "s-rifles-1", 3, 4)  # prepared fire: may not move, but
    advance_to(m, "combat/move_and_fire")
    m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0506"})
    fire(m, "soviets", "s-hmg", "g-rifles-1", 2, 3)  # halted
    m.act("referee", type="set_status", unit_id="g-leader", set=["pinned"])
    advance_to(m, "combat/advance")
    m.act("germans", type="move_unit", unit_id="g-hmg", to={"hex": "0404"})  # ... advances
    m.act("germans", type="move_unit", unit_id="g-rifles-1", to={"hex": "0607"})
    for shaken in ("g-rifles-2", "g-rifles-3", "g-leader"):  # broken, routed, pinned
        m.refused("germans", 422, "ES-4", type="move_unit", unit_id=shaken,
                  to={"hex": "0505"})


def test_es4_a_routed_unit_whose_suppression_reaches_its_q_is_eliminated(
        client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/routed_movement")
    m.act("soviets", type="place_marker", kind="suppression", count=2, unit_id="g-rifles-3")
    assert m.unit("g-rifles-3")["removed"] is None  # 3 of Q 4
    events = m.act("soviets", type="place_marker", kind="suppression", unit_id="g-rifles-3")
    assert events[-1]["type"] == "UnitRemoved" and events[-1]["rule"] == "ES-4"
    assert m.unit("g-rifles-3")["removed"] == "eliminated"


def test_es4_advancing_fire_ignores_rof_one_shot_each(client: TestClient) -> None:
    m = es(client)
    advance_to(m, "combat/advancing_fire")
    fire(m, "germans", "g-hmg", "s-rifles-1", 3, 4)
    m.refused("germans", 422, "ES-4", type="fire", unit_id="g-hmg", target_id="s-rifles-1",
              **table(3, 3))
    assert m.unit("g-hmg")["markers"] == {}  # no ROF marker in advancing fire
