"""Whose turn, as data: the seats each demo match waits for, at its start, in a shared
step, while a result is owed, while an undo request waits for consent, and once ended;
every side waited for is one that `domain.authority` lets go on."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table
from duty_play import settle

from api import scenarios
from domain.authority import check_acting, check_advance
from domain.errors import NotYourTurn, OutOfSequence
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.sequence import SequenceOfPlay, Step, start
from domain.waiting import Waiting, waiting_at, waiting_for_seats


def demo(name: str) -> Table:
    """The demo scenario `name` as a match in memory (its ruleset, options, units, decks)."""
    doc = scenarios.load(name)
    return Table(ruleset=doc.ruleset, options=doc.options,
                 sides=tuple(s.id for s in doc.sides),
                 units=[u.model_dump(exclude_none=True) for u in doc.units],
                 decks={side: list(cards) for side, cards in doc.decks.items()})


def waits(table: Table) -> list[tuple[str, str]]:
    state = table.state
    found = waiting_at(table.head, get_ruleset(state.ruleset, state.options))
    return [(w.seat, w.reason) for w in found.waits]


NORMANDY_WEATHER = [("allied", "to roll next turn's weather"),
                    ("allied", "to roll this turn's sea conditions (after the weather)")]
FIRST = {
    # AA-1 owes the activation (a duty: domain.duties), so the reason is what is owed
    "atomic-africa-demo": [("red", ("to activate one of your units that has not activated "
                                    "this turn"))],
    "battlegroup-demo": [(side, "to roll for the initiative")  # each owes it (BG-2)
                         for side in ("north", "south", "west")],
    # ES-1 owes the weather roll, by either side (ours): both are waited for until one rolls
    "extended-sequence-demo": [(side, "to roll for the weather change")
                               for side in ("germans", "soviets")],
    "normandy-demo": NORMANDY_WEATHER,  # NO-1 owes the two rolls
    "wing-command-demo": [(side, "to roll for the initiative")  # each owes it (WC-1)
                          for side in ("french", "british")],
}


@pytest.mark.parametrize("name", sorted(FIRST))
def test_each_demo_waits_first_for_the_seats_its_first_step_names(name: str) -> None:
    assert waits(demo(name)) == FIRST[name]


@pytest.mark.parametrize("name", sorted(FIRST))
def test_every_side_waited_for_is_one_authority_lets_go_on(name: str) -> None:
    table = demo(name)
    state = table.state
    sequence = get_ruleset(state.ruleset, state.options).sequence
    for seat, _ in waits(table):
        check_acting(sequence, state, seat)  # raises NotYourTurn if authority disagreed
        check_advance(sequence, state, seat)
    others = set(state.side_ids()) - {seat for seat, _ in waits(table)}
    for side in others:  # a side not waited for may not move the marker on
        with pytest.raises(NotYourTurn):
            check_advance(sequence, state, side)


def test_a_shared_step_waits_for_the_sides_not_yet_done() -> None:
    table = demo("extended-sequence-demo")
    table.act("soviets", type="roll_dice", notation="2d6", purpose="weather change")  # ES-1
    table.act("germans", type="advance")
    assert waits(table) == [("soviets", "to say it is done with Weather change")]
    table.act("soviets", type="advance")  # the last one moves the marker on
    assert table.state.turn.step == "initial/smoke_and_fire"
    assert [seat for seat, _ in waits(table)] == ["germans", "soviets"]


def test_the_active_side_reacting_side_and_mover_in_the_extended_sequence() -> None:
    table = demo("extended-sequence-demo")
    ruleset = get_ruleset(table.state.ruleset, table.state.options)
    while table.state.turn.step != "combat/defensive_fire":
        # what is owed first (ES-1's weather, ES-4's routed and broken moves), then on
        settle(lambda: table.state, ruleset, lambda seat, body: table.act(seat, **body))
        table.act("referee", type="advance")
    # any side may fire here, but the defender moves the marker on: the match waits for it
    assert waits(table) == [("soviets", "to act in Defender's fire")]


def test_a_result_owed_waits_for_the_roller_only() -> None:
    table = demo("atomic-africa-demo")
    table.act("red", type="roll_dice", notation="2d6", purpose="fire", source="table")
    [(seat, reason)] = waits(table)
    assert seat == "red" and reason.startswith("to enter the dice of the table dice declared")
    with pytest.raises(OutOfSequence):
        table.act("red", type="advance")  # decide agrees: the dice come first
    table.act("red", type="record_roll", results=[3, 4])
    assert waits(table) == FIRST["atomic-africa-demo"]  # then what red owes


def test_a_pending_undo_waits_for_the_other_sides_consent() -> None:
    table = demo("normandy-demo")
    table.act("allied", type="roll_dice", notation="1d6", purpose="weather")  # a barrier
    [asked] = table.undo(actor="allied")
    assert type(asked).__name__ == "UndoRequested"
    # in words, no version: the prompt names what it takes back (issue 26)
    answer = ("to answer Allied's request to take back an action (what it takes back is "
              "asked at the top of the table)")
    assert waits(table) == [NORMANDY_WEATHER[1], ("german", answer)]  # the weather rolled
    table.answer("german", accept=True)
    assert waits(table) == NORMANDY_WEATHER  # the roll taken back: both owed again


def test_an_end_proposed_waits_for_the_other_sides_to_agree() -> None:
    table = demo("wing-command-demo")
    table.act("french", type="end_match", winner="french", reason="the British withdrew")
    assert waits(table)[-1] == ("british", "to agree to the proposed end of the match (or not)")
    assert ("french", "to agree to the proposed end of the match (or not)") not in waits(table)


@pytest.mark.parametrize("name", sorted(FIRST))
def test_an_ended_match_waits_for_nobody(name: str) -> None:
    table = demo(name)
    table.act("referee", type="end_match", winner=None, reason="a draw")
    found = waiting_at(table.head, get_ruleset(table.state.ruleset, table.state.options))
    assert found == Waiting(ended=True) and found.seats == ()


def test_only_the_referee_goes_on_where_the_step_is_the_referees() -> None:
    sequence = SequenceOfPlay(phases=(Step(id="umpire", title="Umpire's ruling",
                                           acting="referee", allows=("add_note",)),))
    ruleset = Ruleset(id="test", version=1, title="Test", sequence=sequence)
    state = Table().state
    state = state.model_copy(update={"turn": start(sequence, state.side_ids())})
    found = waiting_for_seats(state, ruleset)
    assert found.seats == ("referee",)
    assert found.reasons("referee") == ("only the referee can go on from Umpire's ruling",)


def test_names_in_reasons_are_the_sides_names() -> None:
    # the request's asker is named as the scenario names the side
    table = demo("atomic-africa-demo")
    table.act("red", type="roll_dice", notation="2d6", purpose="fire")
    table.undo(actor="red")
    reasons: list[Any] = [reason for seat, reason in waits(table) if seat == "blue"]
    assert reasons and reasons[0].startswith("to answer Red's request")
