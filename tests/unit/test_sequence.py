"""The sequence-of-play model: steps, the start of a turn, and how the marker moves on through
nested phases, player-turns, repeating (alternating) phases, gates and the turn wrap."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import Table
from pydantic import ValidationError

from domain.decide import next_marker
from domain.errors import InvalidAction, OutOfSequence
from domain.rulesets.base import Ruleset
from domain.sequence import Phase, SequenceOfPlay, Step, following, start
from domain.state import MatchState, TurnMarker

NESTED = SequenceOfPlay(phases=(
    Step(id="a"),
    Phase(id="b", children=(
        Step(id="c"),
        Phase(id="d", children=(Step(id="e"), Step(id="f"))),
        Step(id="g"),
    )),
    Phase(id="h", children=(Phase(id="i", children=(Phase(id="j", children=(Step(id="k"),)),)),)),
))


def state_for(seq: SequenceOfPlay, order: tuple[str, ...] = ("red", "blue"),
              tracks: dict[str, int] | None = None) -> MatchState:
    return Table().state.model_copy(update={"turn": start(seq, order), "tracks": tracks or {}})


def walk(seq: SequenceOfPlay, state: MatchState, moves: int,
         conditions: dict[str, Callable[[MatchState], bool]] | None = None,
         effect: Callable[[MatchState], MatchState] | None = None,
         ) -> list[tuple[int, str, str | None]]:
    """Move the marker `moves` times; `effect` changes the state at each step first."""
    marker = state.turn
    seen = [(marker.turn, marker.step, marker.active_side)]
    for _ in range(moves):
        state = state.model_copy(update={"turn": marker})
        if effect is not None:
            state = effect(state)
        marker = following(seq, marker, state, conditions or {})
        seen.append((marker.turn, marker.step, marker.active_side))
    return seen


def count_down(track: str, at_step: str) -> Callable[[MatchState], MatchState]:
    """Each time the marker stands on `at_step`, `track` goes one down (an activation used)."""
    def effect(state: MatchState) -> MatchState:
        if state.turn.step == at_step:
            return state.model_copy(update={"tracks": {**state.tracks,
                                                       track: int(state.tracks[track]) - 1}})
        return state
    return effect


def positive(track: str) -> Callable[[MatchState], bool]:
    return lambda state: int(state.tracks.get(track, 0)) > 0


# ---- steps() and lookups ------------------------------------------------------------------

def test_steps_lists_every_step_path_depth_first_in_order() -> None:
    assert NESTED.steps() == ["a", "b/c", "b/d/e", "b/d/f", "b/g", "h/i/j/k"]


def test_a_step_is_found_by_its_path_and_a_phase_or_unknown_path_is_not_a_step() -> None:
    assert NESTED.step("b/d/f").id == "f"
    assert [n.id for n in NESTED.chain("b/d/f")] == ["b", "d", "f"]
    for path in ("b", "b/d", "b/x", "x", "a/b", "b/d/f/g"):
        with pytest.raises(KeyError):
            NESTED.step(path)


def test_a_phase_must_have_steps() -> None:
    with pytest.raises(ValidationError):
        Phase(id="empty", children=())


# ---- start() ------------------------------------------------------------------------------

def test_start_puts_the_marker_on_the_first_leaf_of_the_turn() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="x", children=(Phase(id="y", children=(
        Step(id="z"),)),)), Step(id="w")))
    marker = start(seq, ("red", "blue"))
    assert (marker.turn, marker.step, marker.active_side) == (1, "x/y/z", None)
    assert marker.counters == {"x": 0, "x/y": 0}
    assert marker.initiative == ("red", "blue")
    assert start(seq, ("red", "blue"), turn=7).turn == 7


def test_start_inside_a_player_turn_gives_the_first_side_in_initiative_order() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="pt", player_turns=True, children=(Step(id="s"),)),))
    assert start(seq, ("blue", "red")).active_side == "blue"
    assert start(seq, ("red", "blue")).active_side == "red"


# ---- following() --------------------------------------------------------------------------

def test_following_walks_through_nested_phases_and_climbs_out_of_them() -> None:
    seen = walk(NESTED, state_for(NESTED), 6)
    assert [(t, s) for t, s, _ in seen] == [
        (1, "a"), (1, "b/c"), (1, "b/d/e"), (1, "b/d/f"), (1, "b/g"), (1, "h/i/j/k"), (2, "a")]
    assert all(side is None for *_, side in seen)  # no player-turn: nobody is "active"


def test_counters_hold_only_the_phases_the_marker_is_inside() -> None:
    state = state_for(NESTED)
    marker = state.turn
    for _ in range(2):
        marker = following(NESTED, marker, state, {})
    assert marker.step == "b/d/e" and marker.counters == {"b": 0, "b/d": 0}
    marker = following(NESTED, following(NESTED, marker, state, {}), state, {})
    assert marker.step == "b/g" and marker.counters == {"b": 0}


def test_past_the_last_step_the_turn_wraps_to_the_next_turn_at_the_first_step() -> None:
    seq = SequenceOfPlay(phases=(Step(id="one"), Step(id="two")))
    state = state_for(seq, ("red", "blue"))
    marker = TurnMarker(turn=4, step="two", initiative=("blue", "red"))
    after = following(seq, marker, state, {})
    assert (after.turn, after.step, after.initiative) == (5, "one", ("blue", "red"))


def test_player_turn_phase_runs_once_per_side_in_initiative_order() -> None:
    seq = SequenceOfPlay(phases=(
        Step(id="initiative"),
        Phase(id="player_turn", player_turns=True, children=(Step(id="move"), Step(id="fire"))),
        Step(id="end"),
    ))
    seen = walk(seq, state_for(seq, ("c", "a", "b")), 8)
    assert seen == [
        (1, "initiative", None),
        (1, "player_turn/move", "c"), (1, "player_turn/fire", "c"),
        (1, "player_turn/move", "a"), (1, "player_turn/fire", "a"),
        (1, "player_turn/move", "b"), (1, "player_turn/fire", "b"),
        (1, "end", None), (2, "initiative", None)]


def test_the_innermost_player_turn_decides_the_active_side() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="outer", player_turns=True, children=(
        Step(id="own"),
        Phase(id="inner", player_turns=True, children=(Step(id="reaction"),)),
    )),))
    seen = walk(seq, state_for(seq, ("red", "blue")), 6)
    assert [(s, side) for _, s, side in seen] == [
        ("outer/own", "red"), ("outer/inner/reaction", "red"), ("outer/inner/reaction", "blue"),
        ("outer/own", "blue"), ("outer/inner/reaction", "red"),
        ("outer/inner/reaction", "blue"), ("outer/own", "red")]
    assert seen[-1][0] == 2


def test_repeating_phase_with_alternate_swaps_the_active_side_and_stops_when_false() -> None:
    seq = SequenceOfPlay(phases=(
        Phase(id="activation", repeat_while="eligible", alternate=True, children=(
            Step(id="activate"), Step(id="react"))),
        Step(id="cleanup"),
    ))
    state = state_for(seq, ("red", "blue"), tracks={"left": 3})
    seen = walk(seq, state, 8, {"eligible": positive("left")},
                count_down("left", "activation/activate"))
    assert seen == [
        (1, "activation/activate", "red"), (1, "activation/react", "red"),
        (1, "activation/activate", "blue"), (1, "activation/react", "blue"),
        (1, "activation/activate", "red"), (1, "activation/react", "red"),
        (1, "cleanup", None),  # three activations used up: the loop stops
        (2, "activation/activate", "red"), (2, "activation/react", "red")]


def test_repeating_phase_runs_at_least_once_and_reads_the_condition_when_it_ends() -> None:
    seq = SequenceOfPlay(phases=(
        Phase(id="loop", repeat_while="again", children=(Step(id="s"),)), Step(id="after")))
    conditions = {"again": positive("n")}
    assert [s for _, s, _ in walk(seq, state_for(seq, tracks={"n": 0}), 2, conditions)] == [
        "loop/s", "after", "loop/s"]
    stays = walk(seq, state_for(seq, tracks={"n": 1}), 3, conditions)
    assert [s for _, s, _ in stays] == ["loop/s"] * 4
    assert [side for *_, side in stays] == [None] * 4  # without alternate nobody is active


def test_repeating_phase_counts_its_runs() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="loop", repeat_while="again", children=(
        Step(id="s"),)),))
    state = state_for(seq, tracks={"n": 1})
    marker = state.turn
    runs = []
    for _ in range(3):
        marker = following(seq, marker, state, {"again": positive("n")})
        runs.append(marker.counters["loop"])
    assert runs == [1, 2, 3]


def test_a_condition_the_ruleset_does_not_define_is_refused() -> None:
    seq = SequenceOfPlay(phases=(Phase(id="loop", repeat_while="nowhere", children=(
        Step(id="s"),)),))
    state = state_for(seq)
    with pytest.raises(OutOfSequence, match="nowhere"):
        following(seq, state.turn, state, {})


# ---- leaving a step: decide's next_marker ---------------------------------------------------

GATED = Ruleset(id="gated", version=1, title="Gated", sequence=SequenceOfPlay(phases=(
    Step(id="deploy", rule="XX-1", leave_when="all_deployed"),
    Step(id="optional_a", optional=True, leave_when="all_deployed"),
    Step(id="optional_b", optional=True),
    Step(id="required", rule="XX-4"),
    Step(id="end", optional=True),
)), conditions={"all_deployed": lambda s: s.tracks.get("undeployed", 0) == 0})


def test_a_step_is_not_left_while_its_leave_when_condition_is_false() -> None:
    state = state_for(GATED.sequence, tracks={"undeployed": 2})
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, GATED)
    assert refused.value.rule == "XX-1" and "all deployed" in refused.value.detail
    ready = state.model_copy(update={"tracks": {"undeployed": 0}})
    assert next_marker(ready, GATED).step == "optional_a"


def test_leave_when_also_holds_back_an_advance_that_would_pass_through_the_step() -> None:
    state = state_for(GATED.sequence, tracks={"undeployed": 0})
    at_a = state.model_copy(update={"turn": following(GATED.sequence, state.turn, state, {})})
    blocked = at_a.model_copy(update={"tracks": {"undeployed": 1}})
    assert next_marker(at_a, GATED, to="required").step == "required"
    with pytest.raises(OutOfSequence):
        next_marker(blocked, GATED, to="required")


def test_advance_to_passes_optional_steps_but_never_a_required_one() -> None:
    state = state_for(GATED.sequence)
    assert next_marker(state, GATED, to="optional_b").step == "optional_b"
    assert next_marker(state, GATED, to="required").step == "required"
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, GATED, to="end")
    assert refused.value.allowed == ["required"] and refused.value.rule == "XX-4"


def test_advance_to_a_step_of_the_next_turn_wraps_the_turn() -> None:
    state = state_for(GATED.sequence)
    at_end = state.model_copy(update={"turn": TurnMarker(turn=3, step="end")})
    marker = next_marker(at_end, GATED, to="deploy")
    assert (marker.turn, marker.step) == (4, "deploy")
    with pytest.raises(OutOfSequence):  # the next turn's required deploy cannot be skipped
        next_marker(at_end, GATED, to="optional_a")


def test_advance_to_an_unknown_step_is_refused_listing_the_steps() -> None:
    state = state_for(GATED.sequence)
    with pytest.raises(InvalidAction) as refused:
        next_marker(state, GATED, to="nowhere")
    assert refused.value.allowed == GATED.sequence.steps()


def test_advance_to_past_a_loop_that_would_not_end_is_refused_instead_of_spinning() -> None:
    """A repeating phase of optional steps whose condition holds: `advance to` a step after
    it can never get there (the state does not change while the marker moves), so it must be
    refused. The guard turns an endless loop into a failure instead of a hung test."""
    calls = 0

    def forever(state: MatchState) -> bool:
        nonlocal calls
        calls += 1
        if calls > 10_000:
            raise RuntimeError("next_marker went round the loop 10,000 times")
        return True

    looping = Ruleset(id="loop", version=1, title="Loop", sequence=SequenceOfPlay(phases=(
        Phase(id="activation", repeat_while="units_left", alternate=True, children=(
            Step(id="activate", optional=True),)),
        Step(id="cleanup"),
    )), conditions={"units_left": forever})
    state = state_for(looping.sequence)
    assert next_marker(state, looping).step == "activation/activate"  # one step: fine
    with pytest.raises(OutOfSequence):
        next_marker(state, looping, to="cleanup")
