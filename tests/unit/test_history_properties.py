"""Property tests of the one definition of effective state (DESIGN.md)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SQUAD, Table
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import events as ev
from domain.errors import DomainError, UndoRefused
from domain.evolve import evolve, initial_state
from domain.history import fold
from domain.state import MatchState


def naive_state(log: list[ev.Event], p: int) -> MatchState:
    """DESIGN.md's definition, literally, from scratch, with nothing shared or cached."""
    event = log[p - 1]
    if p == 1:
        assert isinstance(event, ev.MatchCreated)
        return initial_state(event)
    if isinstance(event, ev.ActionsUndone | ev.ActionsRedone):
        return naive_state(log, event.to)
    if isinstance(event, ev.SEAT_EVENTS):
        return naive_state(log, p - 1)
    return evolve(naive_state(log, p - 1), event)


ACTIONS: list[dict[str, Any]] = [
    {"type": "place_marker", "kind": "suppression", "unit_id": "sq1"},
    {"type": "remove_marker", "kind": "suppression", "unit_id": "sq1"},
    {"type": "move_unit", "unit_id": "sq1", "to": {"hex": "0101"}},
    {"type": "move_unit", "unit_id": "sq1", "to": {"x": 3, "y": 4}},
    {"type": "roll_dice", "notation": "2d6", "purpose": "fire"},
    {"type": "advance"},
    {"type": "score_vp", "side": "blue", "points": 2},
    {"type": "set_track", "name": "weather", "value": "rain"},
    {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "sq9", "figures": 2},
]
step = st.one_of(
    st.tuples(st.just("act"), st.integers(0, len(ACTIONS) - 1)),
    st.tuples(st.just("undo"), st.integers(1, 3)),
    st.tuples(st.just("undo_to"), st.integers(1, 40)),
    st.tuples(st.just("redo"), st.just(0)),
)


def play(table: Table, steps: list[tuple[str, int]]) -> None:
    for kind, arg in steps:
        before = list(table.log)
        try:
            if kind == "act":
                table.act("red", **ACTIONS[arg])
            elif kind == "undo":
                table.undo(actions=arg)
            elif kind == "undo_to":
                table.undo(to=arg)
            else:
                undoable = table.head.redo
                table.redo()
                assert undoable, "redo succeeded with nothing to redo"
                undo_event = table.log[undoable[-1] - 1]
                assert isinstance(undo_event, ev.ActionsUndone)
                # Redo gives back exactly the state just before the undo it reverses.
                assert table.state == table.state_at(undo_event.version - 1)
        except DomainError:
            assert table.log == before  # a refused command appends nothing


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=30), st.booleans())
def test_live_state_equals_replay_and_the_literal_definition(
    steps: list[tuple[str, int]], casual: bool
) -> None:
    table = Table(casual=casual)
    table.act("red", type="deploy_unit", unit=SQUAD)
    play(table, steps)
    n = len(table.log)
    assert [e.version for e in table.log] == list(range(1, n + 1))
    assert table.replayed().state == table.state
    for p in range(1, n + 1):
        assert table.frames[p].state == naive_state(table.log, p)


@settings(max_examples=40, deadline=None)
@given(st.lists(step, min_size=5, max_size=30), st.data())
def test_folding_from_any_checkpoint_equals_the_full_replay(
    steps: list[tuple[str, int]], data: st.DataObject
) -> None:
    table = Table(casual=True)
    table.act("red", type="deploy_unit", unit=SQUAD)
    play(table, steps)
    k = data.draw(st.integers(1, len(table.log)))
    checkpoint = table.frames[k]
    log_before = list(table.log)
    folded = fold(checkpoint, table.log[k:], lambda j: table.frames[j].state)
    assert folded.state == table.replayed().state == table.state
    assert folded.redo == table.head.redo and folded.server_rolls == table.head.server_rolls
    assert table.log == log_before  # folding never changes the log


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(ACTIONS) - 1), min_size=1, max_size=12), st.integers(1, 5))
def test_undo_n_actions_removes_exactly_the_last_n(picks: list[int], n: int) -> None:
    table = Table(casual=True)
    table.act("red", type="deploy_unit", unit=SQUAD)
    starts = [len(table.log)]  # the version before each successful action
    for i in picks:
        try:
            table.act("red", **ACTIONS[i])
            starts.append(len(table.log))
        except DomainError:
            continue
    done = len(starts)  # actions taken, the deploy included
    if n > done:
        with pytest.raises(UndoRefused):
            table.undo(actions=n)
        return
    expected = starts[-n - 1] if n < done else 1
    [undo] = table.undo(actions=n)
    assert isinstance(undo, ev.ActionsUndone) and undo.to == expected
    assert table.state == table.state_at(expected)


def test_undo_across_a_die_roll_is_refused_unless_casual() -> None:
    strict = Table()
    strict.act(type="roll_dice", notation="d6", purpose="x")
    strict.act(type="advance")
    strict.undo()  # the advance alone: no roll crossed
    with pytest.raises(UndoRefused) as refused:
        strict.undo()
    assert refused.value.rule == "core-undo"
    casual = Table(casual=True)
    casual.act(type="roll_dice", notation="d6", purpose="x")
    casual.undo()
    assert casual.state.dice.count == 0
    [roll] = casual.act(type="roll_dice", notation="d6", purpose="x")
    assert isinstance(roll, ev.DiceRolled) and roll.roll_index == 1  # undo never rewinds it


def test_a_new_action_clears_redo() -> None:
    table = Table()
    table.act(type="advance")
    table.undo()
    table.act(type="set_track", name="w", value=1)
    with pytest.raises(UndoRefused):
        table.redo()

