"""Undo that cannot be abused: immediate over your own actions since the last barrier; across
a barrier a request the other sides accept or decline; the referee forces or refuses; a
casual match skips consent; the roll index never goes back."""

from __future__ import annotations

import pytest
from conftest import SQUAD, Table

from domain import events as ev
from domain.errors import NotYourTurn, UndoRefused
from domain.history import undo_reach

BLUE = {**SQUAD, "id": "bl1", "side": "blue", "name": "Blue squad"}


@pytest.fixture
def strict() -> Table:
    table = Table()
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("blue", type="deploy_unit", unit=BLUE)
    return table


def roll(table: Table, seat: str = "red") -> None:
    table.act(seat, type="roll_dice", notation="2d6", purpose="fire")


def test_own_actions_since_the_last_barrier_undo_at_once(strict: Table) -> None:
    roll(strict)
    strict.act("red", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    strict.act("red", type="place_marker", kind="smoke", location="0101")
    assert undo_reach(reversed(strict.log), "red") == 4  # the roll stays
    [undone] = strict.undo(actions=2, actor="red")
    assert isinstance(undone, ev.ActionsUndone) and undone.to == 4
    [asked] = strict.undo(actor="red")  # the roll itself: a request
    assert isinstance(asked, ev.UndoRequested) and asked.to == 3


def test_another_seats_action_is_a_barrier(strict: Table) -> None:
    strict.act("red", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    strict.act("blue", type="move_unit", unit_id="bl1", to={"x": 2, "y": 2})
    [asked] = strict.undo(actor="red", to=3)
    assert isinstance(asked, ev.UndoRequested)


def test_the_other_side_declines_then_accepts_and_the_roll_index_stays(strict: Table) -> None:
    roll(strict)
    state, rolls = strict.state, strict.head.server_rolls
    strict.undo(actor="red")
    with pytest.raises(UndoRefused):
        strict.undo(actor="red")  # one request at a time
    with pytest.raises(NotYourTurn):
        strict.answer("red", accept=True)  # not your own
    [declined] = strict.answer("blue", accept=False)
    assert isinstance(declined, ev.UndoDeclined) and strict.state == state
    with pytest.raises(UndoRefused):
        strict.answer("blue", accept=True)  # nothing pending now
    strict.undo(actor="red")
    accepted, undone = strict.answer("blue", accept=True)
    assert isinstance(accepted, ev.UndoAccepted) and isinstance(undone, ev.ActionsUndone)
    assert strict.state.dice.count == 0 and strict.state == strict.state_at(3)
    assert strict.head.server_rolls == rolls  # the next server roll takes the next index
    roll(strict)
    assert strict.log[-1].roll_index == rolls  # type: ignore[attr-defined]


def test_the_referee_forces_or_refuses(strict: Table) -> None:
    roll(strict)
    strict.undo(actor="red")
    [refused] = strict.answer("referee", accept=False)
    assert isinstance(refused, ev.UndoDeclined)
    strict.undo(actor="red")
    _, undone = strict.answer("referee", accept=True)
    assert isinstance(undone, ev.ActionsUndone)
    roll(strict)
    [forced] = strict.undo()  # the referee's own undo needs no consent
    assert isinstance(forced, ev.ActionsUndone)


def test_a_new_action_lets_a_request_lapse(strict: Table) -> None:
    roll(strict)
    strict.undo(actor="red")
    strict.act("blue", type="move_unit", unit_id="bl1", to={"x": 2, "y": 2})
    with pytest.raises(UndoRefused):
        strict.answer("blue", accept=True)


def test_every_other_side_must_accept() -> None:
    table = Table(sides=("red", "blue", "green"))
    table.act("red", type="deploy_unit", unit=SQUAD)
    roll(table)
    table.undo(actor="red")
    [accepted] = table.answer("blue", accept=True)
    assert isinstance(accepted, ev.UndoAccepted) and table.state.dice.count == 1
    with pytest.raises(UndoRefused):
        table.answer("blue", accept=True)
    _, undone = table.answer("green", accept=True)
    assert isinstance(undone, ev.ActionsUndone) and table.state.dice.count == 0


def test_a_casual_match_skips_consent() -> None:
    table = Table(casual=True)
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("blue", type="roll_dice", notation="d6", purpose="x")
    [undone] = table.undo(actor="red")
    assert isinstance(undone, ev.ActionsUndone)


def test_seat_facts_neither_block_nor_are_taken_back_by_an_own_undo(strict: Table) -> None:
    """Issue 26: after the referee reissued red's link (SeatTokenRevoked, SeatTokenIssued,
    by the referee) red's own undo of its last action asked for consent instead of undoing:
    the referee's seat facts counted as another seat's action."""
    strict.act("red", type="move_unit", unit_id="sq1", to={"x": 1, "y": 1})
    moved = strict.state
    head = strict.head
    stamp = {"originator_id": strict.match_id, "actor": "referee", "command_id": "reissue",
             "timestamp": strict.log[-1].timestamp}
    strict._append([
        ev.SeatTokenRevoked(originator_version=head.version + 1, seat="red",
                            token_hash="a" * 64, **stamp),
        ev.SeatTokenIssued(originator_version=head.version + 2, seat="red",
                           token_hash="b" * 64, **stamp)])
    [undone] = strict.undo(actor="red")
    assert isinstance(undone, ev.ActionsUndone) and undone.to == 3
    assert strict.state != moved and strict.state == strict.state_at(3)
    assert ("b" * 64, "red") in strict.head.tokens  # the new link still works
