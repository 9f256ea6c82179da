"""A side's standing pass, "pass until I must act" (issue 26, domain.acting.standing): one tap
declines the side's optional moves for the rest of the turn; its done is then decided
through `decide` as that side and recorded for it, marked `by="standing_pass"`, in the same
action as whatever made it due. It waits where the side must act, ends with the turn, on
the side's cancel and on a refusal nothing can change; one undo takes back an action and
the dones it brought about; no other seat starts or stops it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import ACTIONS, Table
from test_standing_pass_stops import GAME, PHASES, UNITS

from api import scenarios
from domain import events as ev
from domain.acting import recorded
from domain.commands import Command
from domain.errors import NotYourTurn, OutOfSequence
from domain.legal import legal_actions, offered, pass_answers
from domain.rulesets import Ruleset, get_ruleset
from domain.sequence import SequenceOfPlay, Step
from domain.state import MatchState
from domain.waiting import waiting_for_seats

PASS = {"type": "standing_pass"}
STOP = {"type": "standing_pass", "on": False}


def demo_table(name: str) -> Table:
    doc = scenarios.load(name)
    return Table(ruleset=doc.ruleset, options=dict(doc.options),
                 sides=tuple(s.id for s in doc.sides),
                 units=[u.model_dump(mode="json", exclude_none=True) for u in doc.units],
                 decks={side: list(cards) for side, cards in doc.decks.items()})


def act(table: Table, actor: str, ruleset: Ruleset | None = None,
        **body: Any) -> list[ev.Event]:
    """One action as `MatchUseCases.act` records it: decided, then the passes' dones."""
    state = table.state
    ruleset = ruleset or get_ruleset(state.ruleset, state.options)
    return table._append(recorded(state, ruleset, table.context(actor),
                                  ACTIONS.validate_python(body), None, pass_answers(ruleset)))


def said(events: list[ev.Event]) -> list[tuple[str, str, str | None]]:
    return [(type(e).__name__, e.actor, getattr(e, "by", None)) for e in events]


def own_move(table: Table, side: str, kind: str) -> dict[str, Any]:
    """The first choice of `side`'s legal action `kind`, its required inputs filled in."""
    answer = legal_actions(table.state, get_ruleset(table.state.ruleset, table.state.options),
                           side, version=table.head.version, ahead=False)
    choice = next(a for a in answer.actions if a.type == kind).choices[0]
    body = dict(choice.body)
    for given in choice.inputs:
        if given.required:
            body[given.name] = given.example
    return body


def notes_table() -> Table:
    """The small game of tests/unit/test_standing_pass_stops.py (a muster with only notes,
    orders with an optional activation, a combat that owes, an end)."""
    return Table(units=UNITS, options=PHASES)


def test_a_pass_says_the_sides_done_in_a_shared_step_as_its_tap_would() -> None:
    tapped, passed = notes_table(), notes_table()
    tap = act(tapped, "red", GAME, type="advance")
    events = act(passed, "red", GAME, **PASS)
    assert said(events) == [("StandingPassStarted", "red", None),
                            ("SideDone", "red", "standing_pass")]
    assert len({e.command_id for e in events}) == 1  # one action
    # the same event a tap records, but for the mark
    envelope = {"by", "originator_id", "command_id"}
    assert events[1].model_dump(exclude=envelope) | {"originator_version": 2} == \
        tap[0].model_dump(exclude=envelope) | {"originator_version": 2}
    assert passed.state.turn == tapped.state.turn
    assert passed.state.passing == ("red",)


def test_it_waits_where_the_side_must_act_and_says_its_done_after_its_move() -> None:
    # (issue 38) the initiative roll is each side's own move (BG-2): every pass waits for it,
    # where until issue 38 the sides that could say done without rolling had it said for them
    t = demo_table("battlegroup-demo")
    for side in ("north", "south", "west"):
        assert said(act(t, side, **PASS)) == [("StandingPassStarted", side, None)]
    assert t.state.turn.step == "initiation/initiative" and t.state.turn.done == ()
    # the sides roll (a side whose answer still offers its roll declines it by its own
    # done); once a roll leaves the side nothing of its own, its pass says its done in the
    # same action
    with_done = []
    while t.state.turn.step == "initiation/initiative":
        side = _waiting(t)[0]
        answer = legal_actions(t.state, get_ruleset(t.state.ruleset, t.state.options), side,
                               version=t.head.version, ahead=False)
        rolled = any(isinstance(e, ev.InitiativeRolled) and e.actor == side
                     for e in t.log[-12:])
        if rolled and answer.advance.legal:
            act(t, side, type="advance")
            continue
        events = act(t, side, type="roll_initiative")
        if said(events)[1:2] in ([("SideDone", side, "standing_pass")],
                                 [("PhaseAdvanced", side, "standing_pass")]):
            with_done.append(events)
    assert with_done and all(len({e.command_id for e in x}) == 1 for x in with_done)
    # Command Cards: each side must draw (BG-6) before it may say it is done: the passes wait
    assert t.state.turn.step == "initiation/cards" and t.state.turn.done == ()
    events = act(t, "north", **own_move(t, "north", "draw_cards"))
    assert said(events)[-1] == ("SideDone", "north", "standing_pass")
    assert t.state.turn.done == ("north",)


def test_it_ends_with_the_turn() -> None:
    t = demo_table("battlegroup-demo")
    for side in ("north", "south", "west"):
        act(t, side, **PASS)
    taps = 3
    while t.state.turn.turn == 1:
        side = _waiting(t)[0]  # its move or its choice: the passes wait for it
        ruleset = get_ruleset(t.state.ruleset, t.state.options)
        answer = legal_actions(t.state, ruleset, side, version=t.head.version, ahead=False)
        if answer.advance.legal:  # a choice declined by its own tap
            act(t, side, type="advance")
        else:
            act(t, side, **own_move(t, side, next(a.type for a in answer.actions if a.own)))
        taps += 1
        assert taps < 80, t.state.turn
    # the passes said the dones where the sides had nothing else, and ended with the turn,
    # with no event of their own
    assert any(getattr(e, "by", None) == "standing_pass" for e in t.log)
    assert t.state.passing == ()
    assert not any(isinstance(e, ev.StandingPassEnded) for e in t.log)
    # a new turn asks again: the sides' dones are theirs to say
    assert set(_waiting(t)) == {"north", "south", "west"}


def _waiting(t: Table, ruleset: Ruleset | None = None) -> tuple[str, ...]:
    return waiting_for_seats(t.state, ruleset or get_ruleset(t.state.ruleset,
                                                             t.state.options)).seats


def test_the_side_stops_it_in_one_tap_and_taps_its_dones_again() -> None:
    t = notes_table()
    act(t, "red", GAME, **PASS)  # the muster's done said for red
    events = act(t, "red", GAME, **STOP)
    assert [(type(e).__name__, e.why) for e in events] == [("StandingPassEnded", "cancelled")]
    assert t.state.passing == ()
    for side in ("blue", "red", "blue"):  # the muster, then the orders, declined by tap
        act(t, side, GAME, type="advance")
    # the combat holds nothing for red, but its pass is off: its done is its own to say
    assert t.state.turn.step == "combat" and t.state.turn.done == ()
    assert _waiting(t, GAME) == ("red", "blue")


def test_the_referee_stops_a_sides_pass_but_starts_none_and_no_side_touches_anothers() -> None:
    t = demo_table("extended-sequence-demo")
    before = len(t.log)
    with pytest.raises(NotYourTurn):
        act(t, "germans", **PASS, side="soviets")
    with pytest.raises(NotYourTurn):
        act(t, "referee", **PASS, side="soviets")
    assert len(t.log) == before and t.state.passing == ()
    act(t, "soviets", **PASS)
    with pytest.raises(NotYourTurn):
        act(t, "germans", **STOP, side="soviets")
    assert t.state.passing == ("soviets",)
    events = act(t, "referee", **STOP, side="soviets")
    assert [(e.actor, e.side, e.why) for e in events if isinstance(e, ev.StandingPassEnded)] \
        == [("referee", "soviets", "cancelled")]


def test_a_refusal_nothing_can_change_ends_the_pass_and_the_other_seats_action_stands() -> None:
    phases = {"phases": ["muster", "march"]}
    t = Table(ruleset="freeform", sides=("red", "blue"), options=phases)
    free = get_ruleset("freeform", phases)
    refused = "the general has not arrived: no done yet"

    def no_red_done(command: Command, state: MatchState, actor: str) -> None:
        if command.type == "advance" and actor == "red":
            raise OutOfSequence(refused, rule="test-1")

    ruleset = replace(free, checks=(no_red_done,), sequence=SequenceOfPlay(phases=(
        Step(id="muster", title="Muster", shared=True, allows=("add_note",)),
        Step(id="march", title="March", shared=True, allows=("add_note",)))))
    # red's pass waits while blue may still act (blue is waited for too)
    assert said(act(t, "red", ruleset, **PASS)) == [("StandingPassStarted", "red", None)]
    events = act(t, "blue", ruleset, type="advance")
    # blue's done stands; red's pass ends, the refusal in words
    assert said(events) == [("SideDone", "blue", None), ("StandingPassEnded", "red", None)]
    assert events[1].why == "refused" and events[1].reason == refused
    assert t.state.passing == () and t.state.turn.done == ("blue",)


def test_one_undo_takes_back_an_action_and_the_dones_its_passes_said_at_once() -> None:
    t = notes_table()
    act(t, "red", GAME, **PASS)  # done with the muster, by the pass
    act(t, "blue", GAME, type="advance")
    act(t, "red", GAME, type="advance")  # the orders: red declines its activation by tap
    before = t.state
    events = act(t, "blue", GAME, type="advance")
    # the orders end; red's pass says its done with the combat (nothing there is red's) at once
    assert said(events) == [("PhaseAdvanced", "blue", None),
                            ("SideDone", "red", "standing_pass")]
    undone = t.undo(actor="blue")
    # immediate, no consent asked: red's done was blue's action's
    assert [type(e) for e in undone] == [ev.ActionsUndone]
    assert t.state == before and t.state.passing == ("red",)
    # red may not take back blue's move at once: that still asks
    act(t, "blue", GAME, type="advance")
    asked = t.undo(actor="red")
    assert [type(e) for e in asked] == [ev.UndoRequested]


def test_the_legal_answer_says_the_pass_is_on_and_offers_stopping_it() -> None:
    t = demo_table("extended-sequence-demo")
    ruleset = get_ruleset(t.state.ruleset, t.state.options)
    off = legal_actions(t.state, ruleset, "soviets", version=t.head.version)
    assert off.standing_pass is not None and not off.standing_pass.on
    assert off.standing_pass.choice.label == "Pass until I must act"
    assert offered(off, PASS) and not offered(off, STOP)
    act(t, "soviets", **PASS)
    on = legal_actions(t.state, ruleset, "soviets", version=t.head.version)
    assert on.standing_pass is not None and on.standing_pass.on
    assert on.standing_pass.choice.label == "Stop passing"
    assert on.standing_pass.choice.body == STOP
    assert offered(on, STOP) and not offered(on, PASS)
    assert not offered(on, {**STOP, "side": "germans"})
    assert legal_actions(t.state, ruleset, "referee", version=t.head.version).standing_pass \
        is None
