"""Property tests of the one definition of effective state (DESIGN.md), against a naive
reference that follows the definition literally, from scratch, with nothing shared:

    E(1) = [e1]                     (the effective events after position p)
    E(p) = E(p-1) + [e_p]           for an ordinary event
    E(p) = E(k)                     for ActionsUndone(to=k)
    E(p) = E(u - 1)                 for ActionsRedone, u being the undo it reverses: the
                                    latest undo not yet reversed (a new action forgets them)
    E(p) = E(p-1)                   for a seat event (a fact about the log, not the game)
    S(p) = evolve folded over E(p)
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from conftest import SQUAD, Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import events as ev
from domain.app.persistence import Checkpoint
from domain.errors import DomainError, UndoRefused
from domain.evolve import evolve, initial_state
from domain.history import fold, replay
from domain.state import MatchState

# ---- the naive reference ------------------------------------------------------------------


def redo_stack(log: list[ev.Event], p: int) -> list[int]:
    """The undos (their positions) that a redo after position p can reverse, latest last."""
    if p == 1:
        return []
    event = log[p - 1]
    if isinstance(event, ev.ActionsUndone):
        return [*redo_stack(log, p - 1), p]
    if isinstance(event, ev.ActionsRedone):
        return redo_stack(log, p - 1)[:-1]
    if isinstance(event, ev.SEAT_EVENTS):
        return redo_stack(log, p - 1)
    return []


def effective(log: list[ev.Event], p: int) -> list[ev.Event]:
    event = log[p - 1]
    if p == 1:
        assert isinstance(event, ev.MatchCreated)
        return [event]
    if isinstance(event, ev.ActionsUndone):
        return effective(log, event.to)
    if isinstance(event, ev.ActionsRedone):
        reversed_undo = redo_stack(log, p - 1)[-1]
        assert (event.reverses, event.to) == (reversed_undo, reversed_undo - 1)
        return effective(log, reversed_undo - 1)
    if isinstance(event, ev.SEAT_EVENTS):
        return effective(log, p - 1)
    return [*effective(log, p - 1), event]


def fresh_fold(events: list[ev.Event]) -> MatchState:
    created = events[0]
    assert isinstance(created, ev.MatchCreated)
    return reduce(evolve, events[1:], initial_state(created))


def naive_state(log: list[ev.Event], p: int) -> MatchState:
    return fresh_fold(effective(log, p))


def actions_of(events: list[ev.Event]) -> list[list[ev.Event]]:
    """The effective events after creation, grouped into actions (runs of one command id)."""
    groups: list[list[ev.Event]] = []
    for event in events[1:]:
        if groups and groups[-1][-1].command_id == event.command_id:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


# ---- random play --------------------------------------------------------------------------

ACTIONS: list[dict[str, Any]] = [
    {"type": "place_marker", "kind": "suppression", "unit_id": "sq1"},
    {"type": "remove_marker", "kind": "suppression", "unit_id": "sq1"},
    {"type": "place_marker", "kind": "smoke", "location": "0101"},
    {"type": "move_unit", "unit_id": "sq1", "to": {"hex": "0101"}},
    {"type": "move_unit", "unit_id": "sq1", "to": {"x": 3, "y": 4}},
    {"type": "set_status", "unit_id": "sq1", "set": ["broken"]},
    {"type": "rally_unit", "unit_id": "sq1"},
    {"type": "roll_dice", "notation": "2d6", "purpose": "fire"},
    {"type": "roll_dice", "notation": "d10", "purpose": "morale", "source": "table",
     "results": [7]},
    {"type": "advance"},
    {"type": "score_vp", "side": "blue", "points": 2},
    {"type": "set_track", "name": "weather", "value": "rain"},
    {"type": "split_unit", "unit_id": "sq1", "new_unit_id": "sq9", "figures": 2},
    {"type": "add_note", "text": "n"},
]
ROLLS = {"roll_dice"}
action = st.lists(st.integers(0, len(ACTIONS) - 1), min_size=1, max_size=3)
step = st.one_of(
    st.tuples(st.just("act"), action),
    st.tuples(st.just("act"), action),
    st.tuples(st.just("act"), st.lists(st.integers(0, len(ACTIONS) - 1), max_size=1,
                                       min_size=1)),
    st.tuples(st.just("undo"), st.integers(1, 4)),
    st.tuples(st.just("undo_to"), st.integers(1, 60)),
    st.tuples(st.just("redo"), st.just(0)),
    st.tuples(st.just("seat"), st.sampled_from(["ann", "bob"])),
)
steps = st.lists(step, min_size=10, max_size=40)
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def play(table: Table, moves: list[tuple[str, Any]]) -> None:
    """Apply the moves; a refused one must append nothing."""
    for kind, arg in moves:
        before = list(table.log)
        try:
            if kind == "act":
                table.act_as_one("red", *(ACTIONS[i] for i in arg))
            elif kind == "undo":
                table.undo(actions=arg)
            elif kind == "undo_to":
                table.undo(to=arg)
            elif kind == "redo":
                table.redo()
            else:
                table.seat("blue", arg)
        except DomainError:
            assert table.log == before


def new_table(casual: bool) -> Table:
    table = Table(casual=casual)
    table.act("red", type="deploy_unit", unit=SQUAD)
    return table


# ---- (a) folding from a mid-way frame equals a full replay ------------------------------------

@SETTINGS
@given(steps, st.data())
def test_folding_from_a_mid_way_checkpoint_equals_the_full_replay(
    moves: list[tuple[str, Any]], data: st.DataObject
) -> None:
    table = new_table(casual=True)
    play(table, moves)
    log = table.log
    k = data.draw(st.integers(1, len(log)), label="checkpoint version")
    # The checkpoint as the store keeps it (a Checkpoint record), from a replay of the prefix.
    stored = Checkpoint.of(table.match_id, replay(log[:k]), log[k - 1].timestamp)
    folded = fold(stored.frame(), log[k:], lambda j: replay(log[:j]).state)
    full = replay(log)
    assert folded.version == full.version == len(log)
    assert folded.state == full.state == table.state
    assert (folded.redo, folded.server_rolls, folded.seats) == (
        full.redo, full.server_rolls, full.seats)


# ---- (b) every state, after every undo, is a fresh fold of the effective events ---------------

@SETTINGS
@given(steps, st.booleans())
def test_every_state_equals_a_fresh_fold_of_the_effective_events(
    moves: list[tuple[str, Any]], casual: bool
) -> None:
    table = new_table(casual)
    play(table, moves)
    for p in range(1, len(table.log) + 1):
        assert table.frames[p].state == naive_state(table.log, p), p
    assert replay(table.log).state == naive_state(table.log, len(table.log))


@SETTINGS
@given(steps, st.integers(1, 4))
def test_the_state_after_an_undo_is_the_effective_events_without_the_undone_actions(
    moves: list[tuple[str, Any]], n: int
) -> None:
    table = new_table(casual=True)
    play(table, moves)
    before = effective(table.log, len(table.log))
    try:
        [undo] = table.undo(actions=n)
    except UndoRefused:
        assert n > len(actions_of(before))
        return
    assert isinstance(undo, ev.ActionsUndone)
    after = effective(table.log, len(table.log))
    assert after == before[: len(after)]
    assert table.state == fresh_fold(after)


# ---- (c) undo then redo gives back exactly the state before the undo --------------------------

@SETTINGS
@given(steps, st.lists(st.one_of(st.integers(1, 3).map(lambda n: ("n", n)),
                                 st.integers(1, 60).map(lambda k: ("to", k))),
                       min_size=1, max_size=4))
def test_undos_then_as_many_redos_give_back_the_state_before_them(
    moves: list[tuple[str, Any]], undos: list[tuple[str, int]]
) -> None:
    table = new_table(casual=True)
    play(table, moves)
    states, stacks = [], []
    for kind, arg in undos:
        state, stack = table.state, table.head.redo
        try:
            table.undo(actions=arg) if kind == "n" else table.undo(to=arg)
        except UndoRefused:
            continue
        states.append(state)
        stacks.append(stack)
    while states:
        table.redo()
        assert table.state == states.pop()
        assert table.head.redo == stacks.pop()
    assert replay(table.log).state == table.state


# ---- (d) folding never changes the log ------------------------------------------------------

@SETTINGS
@given(steps, st.data())
def test_folding_and_time_travel_never_change_the_log(
    moves: list[tuple[str, Any]], data: st.DataObject
) -> None:
    table = new_table(casual=True)
    play(table, moves)
    log = table.log
    n = len(log)
    assert [e.version for e in log] == list(range(1, n + 1))
    assert all(e.originator_id == table.match_id for e in log)
    dumped = [e.model_dump() for e in log]
    frames = dict(table.frames)
    for _ in range(3):
        k = data.draw(st.integers(1, n))
        replay(log[:k])
        fold(frames[k], log[k:], lambda j: frames[j].state)
        naive_state(log, k)
    replay(log)
    assert table.log is log and len(log) == n
    assert [e.model_dump() for e in log] == dumped
    assert table.frames == frames


# ---- (e) dice and undo ------------------------------------------------------------------------

@SETTINGS
@given(steps, st.one_of(st.integers(1, 4).map(lambda n: ("n", n)),
                        st.integers(1, 60).map(lambda k: ("to", k))), st.booleans(),
       st.sampled_from(["red", "blue"]))
def test_a_players_undo_is_immediate_only_over_their_own_actions_since_the_last_barrier(
    moves: list[tuple[str, Any]], undo: tuple[str, int], casual: bool, seat: str
) -> None:
    """Crossing a die roll (or cards seen, the seed revealed) or another seat's action, a
    player's undo in a strict match is only a request; the roll index never goes back.
    Seat facts (a seat taken, a link reissued, a dispute) are no one's action (issue 26)."""
    table = new_table(casual)
    play(table, moves)
    log, state, rolls = list(table.log), table.state, table.head.server_rolls
    kind, arg = undo
    try:
        [event] = (table.undo(actions=arg, actor=seat) if kind == "n"
                   else table.undo(to=arg, actor=seat))
    except UndoRefused:
        assert table.log == log
        return
    crossed = [e for e in log[event.to:] if not isinstance(e, ev.UNDO_PROTOCOL)]
    blocked = any(isinstance(e, ev.UNDO_BARRIERS) or (
        e.actor != seat and not isinstance(e, ev.SEAT_EVENTS)) for e in crossed)
    assert table.head.server_rolls == rolls
    if isinstance(event, ev.ActionsUndone):
        assert casual or not blocked
    else:
        assert isinstance(event, ev.UndoRequested) and blocked and not casual
        assert table.state == state  # nothing is undone until the other side accepts


# ---- (f) undo N removes exactly the last N actions ----------------------------------------------

@SETTINGS
@given(st.lists(action, min_size=1, max_size=10), steps, st.integers(1, 5))
def test_undo_n_actions_removes_exactly_the_last_n_multi_event_actions(
    picks: list[list[int]], moves: list[tuple[str, Any]], n: int
) -> None:
    table = new_table(casual=True)
    play(table, moves)
    play(table, [("act", pick) for pick in picks])
    groups = actions_of(effective(table.log, len(table.log)))
    if n > len(groups):
        try:
            table.undo(actions=n)
        except UndoRefused:
            return
        raise AssertionError(f"undid {n} of {len(groups)} actions")
    kept = [e for group in groups[:-n] for e in group]
    [undo] = table.undo(actions=n)
    assert isinstance(undo, ev.ActionsUndone)
    assert undo.to == groups[-n][0].version - 1
    remaining = effective(table.log, len(table.log))
    assert remaining[1:] == kept
    assert table.state == fresh_fold(remaining)
    assert actions_of(remaining) == groups[:-n]
