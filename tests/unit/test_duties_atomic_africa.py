"""Atomic Africa's duties (domain.duties, issue 38): AA-1 the activation, AA-3 the compulsory
split, AA-7 the Morale roll of each suppressed unit, AA-8 the card reset. Each is owed by
the seat the rules name (with the units concerned), discharged by its action, and holds the
step (or the owing side's done) with its rule while owed; whose turn names the owing seat."""

from __future__ import annotations

import pytest
from conftest import Table

from domain.errors import InvalidAction, OutOfSequence
from domain.owed import owed
from domain.rulesets import get_ruleset
from domain.waiting import waiting_for_seats

UNITS = [
    # 11 figures, d10, 5 wounds: below d4, must split (AA-X1); 4 suppression
    {"id": "sq1", "side": "red", "name": "1st Squad", "figures": 11, "morale_die": "d10",
     "markers": {"wound": 5, "suppression": 4}, "position": {"x": 1, "y": 1}},
    # 5 figures, d4, 1 wound: must split and cannot: destroyed as the sub-phase begins
    {"id": "tm1", "side": "red", "name": "Team", "figures": 5, "morale_die": "d4",
     "markers": {"wound": 1}, "position": {"x": 2, "y": 1}},
    {"id": "ml1", "side": "blue", "name": "Militia Band", "figures": 10, "morale_die": "d8",
     "markers": {"suppression": 1}, "position": {"x": 9, "y": 9}},
]


def table(decks: bool = False) -> Table:
    return Table(ruleset="atomic-africa", units=UNITS,
                 decks={"red": ["r1", "r2"], "blue": ["b1", "b2"]} if decks else {})


def seen(t: Table) -> list[tuple[str, str, tuple[str, ...]]]:
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    return [(o.seat, o.rule, o.units) for o in owed(t.state, ruleset)]


def whose(t: Table) -> tuple[str, ...]:
    return waiting_for_seats(t.state, get_ruleset(t.state.ruleset, t.state.options)).seats


def to_cleanup(t: Table) -> None:
    """Every unit activates (AA-1), each side in turn, then the Clean-Up begins."""
    for side, unit in (("red", "sq1"), ("blue", "ml1"), ("red", "tm1")):
        t.act(side, type="activate_unit", unit_id=unit)
        t.act(side, type="advance")


def test_the_activating_side_owes_an_activation_and_cannot_pass_it() -> None:
    t = table()
    # the units it may choose among are named (each not activated this turn)
    assert seen(t) == [("red", "AA-1", ("sq1", "tm1"))] and whose(t) == ("red",)
    with pytest.raises(OutOfSequence) as refused:
        t.act("red", type="advance")
    assert refused.value.rule == "AA-1" and "activate one of your units" in refused.value.detail
    assert "1st Squad, Team" in refused.value.detail
    t.act("red", type="activate_unit", unit_id="sq1")
    assert seen(t) == []
    t.act("red", type="advance")
    assert seen(t) == [("blue", "AA-1", ("ml1",))] and whose(t) == ("blue",)


def test_each_unit_that_must_split_is_owed_by_its_owner_and_split_discharges_it() -> None:
    t = table()
    to_cleanup(t)
    assert t.state.turn.step == "cleanup/split"
    assert t.state.units["tm1"].removed == "destroyed"  # AA-4: too small to split
    assert seen(t) == [("red", "AA-3", ("sq1",))]
    assert whose(t) == ("red", "blue")  # red owes the split; blue is yet to say it is done
    with pytest.raises(InvalidAction) as refused:  # red's own done waits for its split
        t.act("red", type="advance")
    assert refused.value.rule == "AA-3"
    t.act("blue", type="advance")
    with pytest.raises(OutOfSequence) as held:  # and so does the referee's
        t.act("referee", type="advance")
    assert held.value.rule == "AA-3" and "1st Squad" in held.value.detail
    t.act("red", type="split_unit", unit_id="sq1")
    assert seen(t) == []


def test_each_suppressed_unit_owes_a_morale_roll_to_its_owner() -> None:
    t = table()
    to_cleanup(t)
    t.act("red", type="split_unit", unit_id="sq1")
    t.act("red", type="advance")
    t.act("blue", type="advance")
    assert t.state.turn.step == "cleanup/morale"
    assert sorted(seen(t)) == [("blue", "AA-7", ("ml1",)), ("red", "AA-7", ("sq1", "sq1-2"))]
    with pytest.raises(OutOfSequence) as refused:
        t.act("referee", type="advance")
    assert refused.value.rule == "AA-7"
    t.act("blue", type="roll_morale", unit_id="ml1")
    assert seen(t) == [("red", "AA-7", ("sq1", "sq1-2"))] and whose(t)[0] == "red"
    t.act("red", type="roll_morale", unit_id="sq1")
    t.act("red", type="roll_morale", unit_id="sq1-2")
    assert seen(t) == []


def test_the_card_reset_is_owed_shuffle_then_the_opponents_cut() -> None:
    t = table(decks=True)
    to_cleanup(t)
    t.act("red", type="split_unit", unit_id="sq1")
    for step in ("split", "morale"):
        if step == "morale":
            for unit in ("sq1", "sq1-2", "ml1"):
                t.act(t.state.units[unit].side, type="roll_morale", unit_id=unit)
        t.act("red", type="advance")
        t.act("blue", type="advance")
    assert t.state.turn.step == "cleanup/cards"
    assert seen(t) == [("red", "AA-8", ()), ("blue", "AA-8", ())]  # each shuffles
    t.act("red", type="shuffle_deck")
    assert seen(t) == [("blue", "AA-8", ()), ("blue", "AA-8", ())]  # shuffle; cut red's
    t.act("blue", type="cut_deck", side="red", at=1)
    t.act("blue", type="shuffle_deck")
    assert seen(t) == [("red", "AA-8", ())]
    with pytest.raises(OutOfSequence) as refused:
        t.act("referee", type="advance")
    assert refused.value.rule == "AA-8"
    t.act("red", type="cut_deck", side="blue", at=1)
    assert seen(t) == []
