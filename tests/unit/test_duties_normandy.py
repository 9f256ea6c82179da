"""Normandy's duties (domain.duties, issue 38): NO-1 the Allied weather and sea rolls, each
side's operations (Allied first) and each unit's supply; NO-2 (and NO-3 for the German
player-turn) an attack by every phasing unit next to an enemy unit on every enemy unit
next to it. Owed by the seat the rules name, discharged by its action, holding the step
with its rule; whose turn names the owing seat."""

from __future__ import annotations

import pytest
from conftest import Table
from duty_play import settle
from test_waiting import demo

from domain.errors import InvalidAction, OutOfSequence
from domain.owed import owed
from domain.rulesets import get_ruleset
from domain.rulesets.normandy_duties import neighbours
from domain.waiting import waiting_for_seats

BETWEEN = "1506"  # next to 21. Panzer (1406) and 716. (1407), and no other unit


def seen(t: Table) -> list[tuple[str, str, tuple[str, ...]]]:
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    return [(o.seat, o.rule, o.units) for o in owed(t.state, ruleset)]


def whose(t: Table) -> tuple[str, ...]:
    return waiting_for_seats(t.state, get_ruleset(t.state.ruleset, t.state.options)).seats


def go_to(t: Table, step: str, side: str | None = None) -> None:
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    while t.state.turn.step != step or (side and t.state.turn.active_side != side):
        settle(lambda: t.state, ruleset, lambda seat, body: t.act(seat, **body))
        t.act("referee", type="advance")


def roll(t: Table, seat: str = "allied") -> None:
    t.act(seat, type="roll_dice", notation="1d6", purpose="a roll")


def test_the_allied_player_owes_the_weather_roll_then_the_sea_roll() -> None:
    t = demo("normandy-demo")
    assert seen(t) == [("allied", "NO-1", ()), ("allied", "NO-1", ())]
    with pytest.raises(OutOfSequence) as refused:
        t.act("allied", type="advance")
    assert refused.value.rule == "NO-1" and "next turn's weather" in refused.value.detail
    roll(t)
    assert [o.says for o in owed(t.state, get_ruleset("normandy", t.state.options))] == [
        "roll this turn's sea conditions (after the weather)"]
    roll(t)
    assert seen(t) == []
    t.act("allied", type="advance")
    assert t.state.turn.step == "mutual/allied_air"


def test_operations_are_owed_allied_first_and_supply_by_each_units_owner() -> None:
    t = demo("normandy-demo")
    go_to(t, "mutual/operations")
    assert seen(t) == [("allied", "NO-1", ())] and whose(t)[0] == "allied"
    t.act("allied", type="declare_operation", hqs=[])
    assert seen(t) == [("german", "NO-1", ())]
    t.act("german", type="declare_operation", hqs=[])
    assert seen(t) == []
    go_to(t, "mutual/supply")
    owing = {seat: units for seat, rule, units in seen(t)}
    assert set(owing) == {"allied", "german"} and "a-3div" in owing["allied"]
    t.act("allied", type="set_supply", unit_ids=list(owing["allied"]), status="in_supply")
    assert [seat for seat, _, _ in seen(t)] == ["german"]


def test_every_phasing_unit_next_to_an_enemy_attacks_each_of_them() -> None:
    assert {"1406", "1407"} <= neighbours(BETWEEN)
    t = demo("normandy-demo")
    go_to(t, "player_turn/tactical_movement", "allied")
    t.act("allied", type="move_unit", unit_id="a-3div", to={"hex": BETWEEN})
    go_to(t, "player_turn/combat", "allied")
    assert seen(t) == [("allied", "NO-2", ("a-3div",))] and whose(t) == ("allied",)
    with pytest.raises(OutOfSequence) as refused:
        t.act("allied", type="advance")
    assert refused.value.rule == "NO-2" and "3rd Infantry Division" in refused.value.detail
    # an attack is on units next to the attackers: one on a unit elsewhere (here a German
    # division in the reinforcement box) is refused, and pays nothing of what is owed
    far = next(u.id for u in t.state.in_play("german")
               if u.position is None or u.position.hex is None)
    before = len(t.log)
    with pytest.raises(InvalidAction) as apart:
        t.act("allied", type="resolve_combat", attackers=["a-3div"], defenders=[far],
              odds="1:1")
    assert apart.value.rule == "NO-2" and "not next to any of them" in apart.value.detail
    assert len(t.log) == before
    t.act("allied", type="resolve_combat", attackers=["a-3div"], defenders=["g-716"],
          odds="1:1")
    t.act("allied", type="enter_result", result="no effect")
    assert seen(t) == [("allied", "NO-2", ("a-3div",))]  # 21. Panzer is next to it too
    t.act("allied", type="resolve_combat", attackers=["a-3div"], defenders=["g-21pz"],
          odds="1:2")
    t.act("allied", type="enter_result", result="no effect")
    assert seen(t) == []
    t.act("allied", type="advance")
    # NO-3: the German player-turn owes the same attacks
    go_to(t, "player_turn/combat", "german")
    assert seen(t) == [("german", "NO-2", ("g-21pz", "g-716"))]
    with pytest.raises(OutOfSequence):
        t.act("german", type="advance")


def test_a_unit_the_terrain_frees_carries_no_attack_and_owes_none() -> None:
    t = demo("normandy-demo")
    go_to(t, "player_turn/tactical_movement", "allied")
    t.act("allied", type="move_unit", unit_id="a-3div", to={"hex": BETWEEN})
    go_to(t, "player_turn/combat", "allied")
    t.act("allied", type="place_marker", unit_id="a-3div", kind="no_attack")
    assert seen(t) == []
    t.act("allied", type="advance")
    assert t.state.turn.step != "player_turn/combat"


def test_a_reserve_unit_attacks_after_reserve_movement_not_in_combat() -> None:
    t = demo("normandy-demo")
    go_to(t, "mutual/operations")
    t.act("allied", type="declare_operation", hqs=["a-1corps"])  # its corps may hold reserve
    go_to(t, "player_turn/tactical_movement", "allied")
    t.act("allied", type="place_marker", unit_id="a-27arm", kind="reserve")
    t.act("allied", type="move_unit", unit_id="a-27arm", to={"hex": "1507"})  # next to 716.
    go_to(t, "player_turn/combat", "allied")
    assert seen(t) == []  # held for Reserve Movement (ours)
    t.act("allied", type="advance")
    assert t.state.turn.step == "player_turn/reserve_movement" and seen(t) == []
    t.act("allied", type="move_unit", unit_id="a-27arm", to={"hex": BETWEEN})
    assert seen(t) == [("allied", "NO-2", ("a-27arm",))]
    with pytest.raises(OutOfSequence):
        t.act("allied", type="advance")
    t.act("allied", type="resolve_combat", attackers=["a-27arm"],
          defenders=["g-21pz", "g-716"], odds="1:1")
    t.act("allied", type="enter_result", result="no effect")
    assert seen(t) == []
