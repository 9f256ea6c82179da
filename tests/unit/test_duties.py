"""Duties as data (domain.duties, domain.owed): a small game whose combat step owes two
things: the phasing side's one attack roll, and each side's removal of its units marked
`hit` (owed by each unit's owner, whoever's step it is). What is owed decides whose turn it
is, who may act out of turn, and whether the step may be left."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table
from pydantic import TypeAdapter

from domain.commands import Action
from domain.context import Context
from domain.decide import decide
from domain.duties import Duty
from domain.errors import NotYourTurn, OutOfSequence
from domain.evolve import evolve
from domain.owed import owed, owed_by
from domain.rulesets.base import Ruleset
from domain.sequence import SequenceOfPlay, Step
from domain.state import MatchState
from domain.waiting import waiting_for_seats

ATTACK = Duty(rule="T-1", says="roll the attack", by="active", owed_while="attack_unrolled",
              done_by=("roll_dice",))
REMOVE = Duty(rule="T-2", says="remove each unit of yours marked hit", by="owner",
              units="hit", done_by=("remove_unit",))
GAME = Ruleset(
    id="freeform", version=1, title="Duties",
    sequence=SequenceOfPlay(phases=(
        Step(id="combat", title="Combat", acting="active", allows=("roll_dice", "remove_unit",
                                                                   "place_marker"),
             owes=(ATTACK, REMOVE)),
        Step(id="end", title="End"))),
    unit_tests={"hit": lambda state, unit: unit.markers.get("hit", 0) > 0},
    side_tests={"attack_unrolled": lambda state, side: not any(
        r.purpose == "attack" for r in state.dice.recent)},
)
ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)
UNITS = [{"id": "r1", "side": "red", "name": "Red Guard"},
         {"id": "b1", "side": "blue", "name": "Blue Lancers"}]


def start() -> tuple[Table, MatchState]:
    table = Table(units=UNITS, options={"phases": ["combat", "end"]})
    state = table.state.model_copy(update={"turn": table.state.turn.model_copy(
        update={"active_side": "red"})})
    return table, state


def act(table: Table, state: MatchState, actor: str, **body: Any) -> MatchState:
    command = ACTIONS.validate_python(body)
    ctx: Context = table.context(actor)
    for event in decide(command, state, GAME, ctx):
        state = evolve(state, event)
    return state


def test_what_is_owed_names_its_seat_rule_words_and_units() -> None:
    _, state = start()
    assert [(o.seat, o.rule) for o in owed(state, GAME)] == [("red", "T-1")]
    state = state.model_copy(update={"units": {
        **state.units, "b1": state.units["b1"].model_copy(update={"markers": {"hit": 1}})}})
    due = owed(state, GAME)
    assert [(o.seat, o.rule, o.units) for o in due] == [("red", "T-1", ()),
                                                         ("blue", "T-2", ("b1",))]
    assert owed_by(state, GAME, "blue")[0].says == "remove each unit of yours marked hit"


def test_the_step_cannot_be_left_while_a_duty_is_owed_and_the_refusal_names_it() -> None:
    table, state = start()
    with pytest.raises(OutOfSequence) as refused:
        act(table, state, "red", type="advance")
    assert refused.value.rule == "T-1"
    assert "Red is to roll the attack" in refused.value.detail
    # the referee is held to it too, as to a step's leave_when
    with pytest.raises(OutOfSequence):
        act(table, state, "referee", type="advance")
    state = act(table, state, "red", type="roll_dice", notation="d6", purpose="attack")
    state = act(table, state, "red", type="advance")
    assert state.turn.step == "end"


def test_whose_turn_is_every_seat_that_owes_and_the_owner_acts_out_of_turn() -> None:
    table, state = start()
    state = act(table, state, "red", type="roll_dice", notation="d6", purpose="attack")
    state = act(table, state, "red", type="place_marker", unit_id="b1", kind="hit")
    waited = waiting_for_seats(state, GAME)
    assert waited.seats == ("blue",)  # not red, who moves the marker on: blue owes
    assert waited.reasons("blue") == ("to remove each unit of yours marked hit",)
    with pytest.raises(OutOfSequence) as refused:
        act(table, state, "red", type="advance")
    assert refused.value.rule == "T-2" and "Blue Lancers" in refused.value.detail
    # blue is not the acting side, but it owes the removal: it may make it, and no other move
    with pytest.raises(NotYourTurn):
        act(table, state, "blue", type="roll_dice", notation="d6", purpose="spite")
    state = act(table, state, "blue", type="remove_unit", unit_id="b1", reason="destroyed")
    assert owed(state, GAME) == ()
    assert waiting_for_seats(state, GAME).seats == ("red",)
    assert act(table, state, "red", type="advance").turn.step == "end"
