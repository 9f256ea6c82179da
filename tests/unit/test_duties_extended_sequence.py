"""The extended sequence's duties (domain.duties, issue 38): ES-1 the weather roll (either
side; both are waited for until one rolls it); ES-4 each of the attacker's routed units
moves, then each broken unit: owed by their owner with the units named, discharged by the
move (a surrender for a routed unit), holding the step with the rule while owed, in each
side's own player-turn."""

from __future__ import annotations

import pytest
from conftest import Table
from duty_play import settle
from test_waiting import demo

from domain.errors import OutOfSequence
from domain.owed import owed
from domain.rulesets import get_ruleset
from domain.waiting import waiting_for_seats


def seen(t: Table) -> list[tuple[str, str, tuple[str, ...]]]:
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    return [(o.seat, o.rule, o.units) for o in owed(t.state, ruleset)]


def whose(t: Table) -> tuple[str, ...]:
    return waiting_for_seats(t.state, get_ruleset(t.state.ruleset, t.state.options)).seats


def go_to(t: Table, step: str) -> None:
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    while t.state.turn.step != step:
        settle(lambda: t.state, ruleset, lambda seat, body: t.act(seat, **body))
        t.act("referee", type="advance")


def test_the_weather_roll_is_owed_by_either_side_and_holds_the_step() -> None:
    t = demo("extended-sequence-demo")
    assert seen(t) == [("germans", "ES-1", ()), ("soviets", "ES-1", ())]
    with pytest.raises(OutOfSequence) as refused:  # a side's own done waits for the roll
        t.act("soviets", type="advance")
    assert refused.value.rule == "ES-1"
    with pytest.raises(OutOfSequence):
        t.act("referee", type="advance")
    t.act("soviets", type="roll_dice", notation="2d6", purpose="weather change")
    assert seen(t) == []  # one roll is the turn's weather roll
    t.act("germans", type="advance")
    t.act("soviets", type="advance")
    assert t.state.turn.step == "initial/smoke_and_fire"


def test_routed_then_broken_units_of_the_attacker_move_in_their_steps() -> None:
    t = demo("extended-sequence-demo")
    go_to(t, "combat/routed_movement")
    assert seen(t) == [("germans", "ES-4", ("g-rifles-3",))]  # the attacker's only
    assert whose(t) == ("germans",)
    with pytest.raises(OutOfSequence) as refused:
        t.act("germans", type="advance")
    assert refused.value.rule == "ES-4" and "3rd rifle squad" in refused.value.detail
    t.act("germans", type="move_unit", unit_id="g-rifles-3", to={"hex": "0106"})
    assert seen(t) == []
    t.act("germans", type="advance")
    assert seen(t) == [("germans", "ES-4", ("g-rifles-2",))]  # now the broken one
    with pytest.raises(OutOfSequence):
        t.act("germans", type="advance")
    t.act("germans", type="move_unit", unit_id="g-rifles-2", to={"hex": "0205"})  # stays
    assert seen(t) == []
    t.act("germans", type="advance")
    assert t.state.turn.step == "combat/move_and_fire"


def test_a_routed_unit_that_cannot_move_surrenders_and_the_defenders_move_in_their_turn() -> None:
    t = demo("extended-sequence-demo")
    go_to(t, "combat/routed_movement")
    t.act("germans", type="remove_unit", unit_id="g-rifles-3", reason="surrendered")
    assert seen(t) == []
    go_to(t, "admin/victory")
    t.act("germans", type="advance")
    t.act("soviets", type="advance")
    assert t.state.turn.turn == 2
    go_to(t, "combat/routed_movement")
    assert t.state.turn.active_side == "germans" and seen(t) == []  # it surrendered
    go_to(t, "combat/prepared_fire")
    assert t.state.turn.active_side == "soviets"
    go_to(t, "combat/routed_movement")
    assert seen(t) == [("soviets", "ES-4", ("s-rifles-3",))]  # the Soviets' own player-turn
