"""The one definition of effective state (DESIGN.md), example by example, on an in-memory log:
S(p) = evolve(S(p-1), e_p); S(p) = S(k) for ActionsUndone(to=k); S(p) = the state just before
the undo it reverses for ActionsRedone. Undo never rewrites the log."""

from __future__ import annotations

from functools import reduce

import pytest
from conftest import SQUAD, Table

from domain import events as ev
from domain.app.persistence import Checkpoint
from domain.errors import UndoRefused
from domain.evolve import evolve, initial_state
from domain.history import RECENT, SPARSE, Frame, fold, replay
from domain.state import MatchState


def fresh_fold(events: list[ev.Event]) -> MatchState:
    created = events[0]
    assert isinstance(created, ev.MatchCreated)
    return reduce(evolve, events[1:], initial_state(created))


def prefix_state(log: list[ev.Event], version: int) -> MatchState:
    """S(version) by a full replay of the log's prefix: independent of any kept frame."""
    return replay(log[:version]).state


def test_replay_of_ordinary_events_is_the_plain_fold(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act("red", type="move_unit", unit_id="sq1", to={"hex": "0101"})
    table.act(type="set_track", name="weather", value="rain")
    assert replay(table.log).state == fresh_fold(table.log) == table.state
    assert replay(table.log).version == len(table.log) == 4


def test_undo_to_k_makes_the_state_the_state_at_k_and_appends_an_event(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)  # v2
    table.act("red", type="move_unit", unit_id="sq1", to={"hex": "0101"})  # v3
    table.act(type="set_track", name="weather", value="rain")  # v4
    logged = list(table.log)
    [undo] = table.undo(to=2)
    assert isinstance(undo, ev.ActionsUndone) and (undo.version, undo.to) == (5, 2)
    assert table.log[:4] == logged  # nothing before it changed
    assert table.state == prefix_state(table.log, 2)
    assert table.state.units["sq1"].position is not None
    assert table.state.units["sq1"].position.x == 10 and table.state.tracks == {}
    assert replay(table.log).state == table.state


def test_undo_takes_back_the_last_action_and_again_the_one_before(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)  # v2
    table.act(type="set_track", name="a", value=1)  # v3
    table.act(type="set_track", name="b", value=2)  # v4
    [first] = table.undo()
    assert isinstance(first, ev.ActionsUndone) and first.to == 3
    [second] = table.undo()
    assert isinstance(second, ev.ActionsUndone) and second.to == 2
    assert table.state == prefix_state(table.log, 2)
    [third] = table.undo(actions=1)
    assert isinstance(third, ev.ActionsUndone) and third.to == 1
    with pytest.raises(UndoRefused) as refused:
        table.undo()
    assert refused.value.rule == "core-undo" and "0 action" in refused.value.detail


def test_undo_of_a_multi_event_action_takes_back_all_its_events(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)  # v2
    events = table.act_as_one(
        "red",
        {"type": "place_marker", "kind": "wound", "count": 3, "unit_id": "sq1"},
        {"type": "place_marker", "kind": "suppression", "count": 4, "unit_id": "sq1"},
        {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "sq1b", "figures": 5,
         "markers": {"wound": 1, "suppression": 2}},
    )
    assert [e.version for e in events] == [3, 4, 5]
    assert len({e.command_id for e in events}) == 1
    assert table.state.action_base == 2
    [undo] = table.undo()
    assert isinstance(undo, ev.ActionsUndone) and undo.to == 2
    assert "sq1b" not in table.state.units and table.state.units["sq1"].markers == {}


def test_undo_to_an_impossible_version_is_refused(table: Table) -> None:
    table.act(type="set_track", name="a", value=1)  # v2
    for to in (0, 2, 3, 99):
        with pytest.raises(UndoRefused):
            table.undo(to=to)
    with pytest.raises(UndoRefused):
        table.undo(actions=2)
    assert len(table.log) == 2


def test_redo_gives_back_the_state_just_before_the_undo_it_reverses(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)  # v2
    table.act(type="set_track", name="a", value=1)  # v3
    before = table.state
    table.undo()  # v4
    [redo] = table.redo()  # v5
    assert isinstance(redo, ev.ActionsRedone) and (redo.to, redo.reverses) == (3, 4)
    assert table.state == before == prefix_state(table.log, 3)
    with pytest.raises(UndoRefused) as refused:
        table.redo()
    assert refused.value.rule == "core-redo"


def test_redos_reverse_undos_latest_first(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)  # v2
    table.act(type="set_track", name="a", value=1)  # v3
    at_3 = table.state
    table.act(type="set_track", name="b", value=2)  # v4
    at_4 = table.state
    table.undo()  # v5: back to 3
    table.undo()  # v6: back to 2
    assert table.head.redo == (5, 6)
    table.redo()  # reverses v6: the state before it, S(5) = S(3)
    assert table.state == at_3 and table.head.redo == (5,)
    table.redo()  # reverses v5: S(4)
    assert table.state == at_4 and table.head.redo == ()


def test_a_new_action_clears_what_could_be_redone(table: Table) -> None:
    table.act(type="set_track", name="a", value=1)
    table.undo()
    table.act(type="set_track", name="b", value=2)
    assert table.head.redo == ()
    with pytest.raises(UndoRefused):
        table.redo()


def test_seats_are_not_taken_back_by_undo_and_do_not_clear_redo(table: Table) -> None:
    table.act(type="set_track", name="a", value=1)  # v2
    table.seat("red", "ann")  # v3
    table.undo()  # v4: takes back the track (the seat is no action)
    assert table.head.seats == (("red", "ann"),) and table.state.tracks == {}
    table.seat("blue", "bob")  # v5
    table.redo()
    assert table.state.tracks == {"a": 1}
    assert table.head.seats == (("red", "ann"), ("blue", "bob"))
    assert replay(table.log).seats == table.head.seats


def test_undone_roll_stays_in_the_log_and_the_server_never_rerolls_its_index() -> None:
    table = Table(casual=True)
    [roll] = table.act(type="roll_dice", notation="2d6", purpose="fire")
    table.undo()
    assert table.state.dice.count == 0
    assert table.log[1] == roll  # the audit trail keeps it
    [again] = table.act(type="roll_dice", notation="2d6", purpose="fire")
    assert isinstance(roll, ev.DiceRolled) and isinstance(again, ev.DiceRolled)
    assert (roll.roll_index, again.roll_index) == (0, 1)
    assert table.head.server_rolls == replay(table.log).server_rolls == 2


def test_folding_from_a_checkpoint_equals_the_full_replay(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    for i in range(6):
        table.act(type="set_track", name="t", value=i)
    table.undo(actions=3)
    table.seat("blue", "bob")
    table.redo()
    table.act(type="score_vp", side="red", points=2)
    full = replay(table.log)
    for k in range(1, len(table.log) + 1):
        stored = Checkpoint.of(table.match_id, replay(table.log[:k]), table.log[k - 1].timestamp)
        frame = fold(stored.frame(), table.log[k:],
                     lambda j: prefix_state(table.log, j))
        assert (frame.version, frame.state, frame.redo, frame.seats, frame.server_rolls) == (
            full.version, full.state, full.redo, full.seats, full.server_rolls)


def test_one_long_fold_serves_undo_targets_it_no_longer_keeps(table: Table) -> None:
    """An undo deep inside one fold (neither a sparse nor a recent frame) is re-folded from
    the nearest sparse frame and gives the same state as the step-by-step log."""
    table.act("red", type="deploy_unit", unit=SQUAD)
    n = 2 * SPARSE + RECENT + 20
    for i in range(n):
        table.act(type="set_track", name="t", value=i)
    deep = SPARSE + 7  # not a multiple of SPARSE, long out of the recent window
    table.undo(to=deep)
    table.undo(to=2 * SPARSE + 3)
    table.redo()
    assert table.head.version > deep + RECENT + SPARSE
    full = replay(table.log)
    assert full.state == table.state == table.state_at(len(table.log))
    assert replay(table.log[:-1]).state == prefix_state(table.log, 2 * SPARSE + 3)
    assert replay(table.log[:-2]).state.tracks == {"t": deep - 3}


def test_every_frame_of_a_replay_equals_the_step_by_step_frames(table: Table) -> None:
    table.act("red", type="deploy_unit", unit=SQUAD)
    table.act(type="set_track", name="a", value=1)
    table.undo()
    table.redo()
    table.undo(to=1)
    table.act(type="set_track", name="b", value=1)
    for p in range(1, len(table.log) + 1):
        frame: Frame = replay(table.log[:p])
        assert frame.state == table.frames[p].state and frame.redo == table.frames[p].redo
