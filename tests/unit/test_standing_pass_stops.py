"""Where the standing pass stops (issue 38): it says a side's done only in a step where the side
owes nothing (`domain.owed`) and has nothing it may do but say done (no move of the step's own
among its legal actions); it waits, still on, where the side owes a duty or has a real choice
(an optional activation), and the legal answer says where it stops next. A small game of four
shared steps: a muster with only notes, orders with an optional activation, a combat where each
unit's owner owes the removal of its `hit` marker, an end with only notes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import ACTIONS, Table

from domain import events as ev
from domain.acting import recorded
from domain.duties import Duty
from domain.errors import OutOfSequence
from domain.legal import legal_actions, pass_answers
from domain.rulesets import get_ruleset
from domain.sequence import SequenceOfPlay, Step

PHASES = {"phases": ["muster", "orders", "combat", "end"]}
UNITS = [{"id": "r1", "side": "red", "name": "Red Guard"},
         {"id": "b1", "side": "blue", "name": "Blue Lancers"}]
HIT = Duty(rule="T-3", says="take the hit marker off your unit", by="owner", units="hit",
           done_by=("remove_marker",))
GAME = replace(
    get_ruleset("freeform", PHASES),
    sequence=SequenceOfPlay(phases=(
        Step(id="muster", title="Muster", rule="T-1", shared=True, allows=("add_note",)),
        Step(id="orders", title="Orders", rule="T-2", shared=True, allows=("activate_unit",)),
        Step(id="combat", title="Combat", rule="T-3", shared=True, allows=("remove_marker",),
             owes=(HIT,)),
        Step(id="end", title="End", rule="T-4", shared=True, allows=("add_note",)))),
    unit_tests={"hit": lambda state, unit: unit.markers.get("hit", 0) > 0})
PASS = {"type": "standing_pass"}


def act(table: Table, actor: str, **body: Any) -> list[tuple[str, str, str | None]]:
    """One action as `MatchUseCases.act` records it (decided, then the passes' dones), said
    as (event, actor, by)."""
    made = table._append(recorded(table.state, GAME, table.context(actor),
                                  ACTIONS.validate_python(body), None, pass_answers(GAME)))
    return [(type(e).__name__, e.actor, getattr(e, "by", None)) for e in made]


def hit(table: Table, unit: str) -> None:
    """The referee marks `unit` hit (in the muster, before the passes start)."""
    table._append(recorded(table.state, get_ruleset("freeform", PHASES),
                           table.context("referee"), ACTIONS.validate_python(
                               {"type": "place_marker", "unit_id": unit, "kind": "hit"}),
                           None, pass_answers(GAME)))


def stops(table: Table, side: str) -> tuple[str | None, str | None]:
    offer = legal_actions(table.state, GAME, side, version=table.head.version).standing_pass
    assert offer is not None
    return offer.stops, offer.why


def test_it_says_done_where_nothing_but_done_is_left_and_stops_at_a_real_choice() -> None:
    t = Table(units=UNITS, options=PHASES)
    assert stops(t, "red") == ("Orders (T-2)", "yours to choose")
    assert act(t, "red", **PASS) == [("StandingPassStarted", "red", None),
                                     ("SideDone", "red", "standing_pass")]
    # blue's pass says its done, the last: the marker moves on to the orders, and stays there
    assert act(t, "blue", **PASS) == [("StandingPassStarted", "blue", None),
                                      ("PhaseAdvanced", "blue", "standing_pass")]
    assert t.state.turn.step == "orders" and t.state.turn.done == ()
    # each side may activate its unit (optional): the passes wait, still on
    assert t.state.passing == ("red", "blue")
    assert stops(t, "red") == ("this step, Orders (T-2)", "yours to choose")
    # red activates: nothing but its done is left, which its pass says in the same action
    assert act(t, "red", type="activate_unit", unit_id="r1") == [
        ("UnitsActivated", "red", None), ("SideDone", "red", "standing_pass")]
    # blue declines with its own tap; the combat and the end hold nothing for either: the
    # passes say every done to the end of the turn, which ends them
    assert act(t, "blue", type="advance") == [
        ("PhaseAdvanced", "blue", None),
        ("SideDone", "red", "standing_pass"), ("PhaseAdvanced", "blue", "standing_pass"),
        ("SideDone", "red", "standing_pass"), ("TurnAdvanced", "blue", "standing_pass")]
    assert t.state.turn.turn == 2 and t.state.passing == ()


def test_it_stops_where_its_side_owes_and_says_its_done_once_the_duty_is_discharged() -> None:
    t = Table(units=UNITS, options=PHASES)
    hit(t, "b1")
    act(t, "red", **PASS)
    act(t, "blue", **PASS)
    # blue's pass will stop at the combat, where it owes the marker's removal
    assert stops(t, "blue") == ("this step, Orders (T-2)", "yours to choose")
    act(t, "red", type="advance")
    act(t, "blue", type="advance")  # the orders declined by tap: on to the combat
    assert t.state.turn.step == "combat"
    # red owes nothing and has no move there (its unit has no marker): its done is said;
    # blue owes: its pass waits, and says what it owes
    assert t.state.turn.done == ("red",)
    assert stops(t, "blue") == ("this step, Combat (T-3)",
                                "you owe: to take the hit marker off your unit (T-3)")
    # leaving with the duty owed is refused, with the duty's rule
    with pytest.raises(OutOfSequence) as refused:
        act(t, "blue", type="advance")
    assert refused.value.rule == "T-3"
    # one tap discharges it, and the pass says blue's done (the last) in the same action
    assert act(t, "blue", type="remove_marker", unit_id="b1", kind="hit")[:2] == [
        ("MarkerRemoved", "blue", None), ("PhaseAdvanced", "blue", "standing_pass")]


def test_a_pass_never_says_a_done_while_its_side_owes() -> None:
    t = Table(units=UNITS, options=PHASES)
    hit(t, "r1")
    for side in ("red", "blue"):
        act(t, side, **PASS)  # the muster's done said at once
    for side in ("red", "blue"):
        act(t, side, type="advance")  # the orders: declined by tap
    assert t.state.turn.step == "combat" and t.state.turn.done == ("blue",)
    # blue's note (anything recorded) settles the passes again: red's still waits
    act(t, "blue", type="add_note", text="waiting for red")
    assert t.state.turn.done == ("blue",) and "red" in t.state.passing
    assert not any(isinstance(e, ev.StandingPassEnded) for e in t.log)
    assert stops(t, "red")[1] == "you owe: to take the hit marker off your unit (T-3)"


def test_the_legal_answer_says_the_pass_runs_to_the_end_of_the_turn_when_nothing_holds() -> None:
    t = Table(units=UNITS, options=PHASES)
    for side in ("red", "blue"):
        act(t, side, type="advance")
    for side in ("red", "blue"):
        act(t, side, type="advance")
    assert t.state.turn.step == "combat"
    assert stops(t, "red")[0] == "the end of the turn"
