"""The sequence-of-play model: nested phases, player-turns, loops, gates, and the five systems
of RULES.md written as data and walked through a turn."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import Table

from domain.decide import next_marker
from domain.errors import OutOfSequence
from domain.rulesets.base import Ruleset
from domain.sequence import Phase, SequenceOfPlay, Step, following, start
from domain.state import MatchState, TurnMarker


def walk(ruleset: Ruleset, state: MatchState, steps: int,
         between: Callable[[MatchState, TurnMarker], MatchState] | None = None,
         ) -> list[tuple[int, str, str | None]]:
    """Advance `steps` times; `between` may change the state before each move."""
    marker = state.turn
    seen = [(marker.turn, marker.step, marker.active_side)]
    for _ in range(steps):
        state = state.model_copy(update={"turn": marker})
        if between is not None:
            state = between(state, marker)
        marker = following(ruleset.sequence, marker, state, ruleset.conditions)
        seen.append((marker.turn, marker.step, marker.active_side))
    return seen


def _state(ruleset: Ruleset, order: tuple[str, ...], **options: object) -> MatchState:
    state = Table().state
    return state.model_copy(update={
        "turn": start(ruleset.sequence, order),
        "options": {**state.options, **options},
        "sides": tuple(state.sides),
    })


def _counter_below(name: str, limit: int) -> Callable[[MatchState], bool]:
    return lambda s: int(s.tracks.get(name, 0)) < limit


def _tick(name: str) -> Callable[[MatchState, TurnMarker], MatchState]:
    """Count how often the marker leaves a step whose path contains `name`."""
    def between(state: MatchState, marker: TurnMarker) -> MatchState:
        if name in marker.step:
            tracks = {**state.tracks, name: int(state.tracks.get(name, 0)) + 1}
            return state.model_copy(update={"tracks": tracks})
        return state
    return between


def test_steps_lists_every_path_in_order() -> None:
    seq = SequenceOfPlay(phases=(
        Step(id="a"), Phase(id="b", children=(Step(id="c"), Phase(id="d", children=(
            Step(id="e"),)))), Step(id="f")))
    assert seq.steps() == ["a", "b/c", "b/d/e", "f"]
    with pytest.raises(KeyError):
        seq.step("b/x")


def test_aa_alternating_activation_phases_then_clean_up() -> None:
    """AA-1: Activation Phases alternate the activating player and repeat while any unit is
    eligible; then Clean-Up: Split (AA-3..6), Morale (AA-7), card reset (AA-8)."""
    aa = Ruleset(id="aa", version=1, title="AA", sequence=SequenceOfPlay(phases=(
        Phase(id="activation", rule="AA-1", repeat_while="units_eligible", alternate=True,
              children=(Step(id="activate", acting="active"),)),
        Phase(id="cleanup", children=(
            Step(id="split", rule="AA-3", leave_when="no_split_pending"),
            Step(id="morale", rule="AA-7"), Step(id="cards", rule="AA-8"))),
    )), conditions={"units_eligible": _counter_below("activation", 3),
                    "no_split_pending": lambda s: not s.tracks.get("pending")})
    seen = walk(aa, _state(aa, ("red", "blue")), 6, _tick("activation"))
    assert seen == [
        (1, "activation/activate", "red"), (1, "activation/activate", "blue"),
        (1, "activation/activate", "red"), (1, "cleanup/split", None),
        (1, "cleanup/morale", None), (1, "cleanup/cards", None),
        (2, "activation/activate", "red"),
    ]
    # The Split sub-phase cannot be left while a compulsory split is pending.
    state = _state(aa, ("red", "blue")).model_copy(update={
        "turn": TurnMarker(turn=1, step="cleanup/split", initiative=("red", "blue")),
        "tracks": {"pending": 1}})
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, aa)
    assert refused.value.rule == "AA-3"


def test_bg_rounds_with_activations_in_initiative_order() -> None:
    """BG-1/BG-7/BG-8: Initiation, activations in initiative order until every battlegroup
    has gone, Round Up. Three players."""
    bg = Ruleset(id="bg", version=1, title="BG", sequence=SequenceOfPlay(phases=(
        Phase(id="initiation", children=(Step(id="initiative", rule="BG-2"),
                                          Step(id="cards", rule="BG-6"))),
        Phase(id="activation", rule="BG-7", repeat_while="battlegroups_left", alternate=True,
              children=(Step(id="activate", acting="active"),)),
        Step(id="round_up", rule="BG-8"),
    )), conditions={"battlegroups_left": _counter_below("activation", 5)})
    seen = walk(bg, _state(bg, ("b", "c", "a")), 9, _tick("activation"))
    assert [s[1:] for s in seen[2:8]] == [
        ("activation/activate", "b"), ("activation/activate", "c"),
        ("activation/activate", "a"), ("activation/activate", "b"),
        ("activation/activate", "c"), ("round_up", None)]
    assert seen[8] == (2, "initiation/initiative", None)


def test_wc_player_phases_with_required_and_optional_pre_activation() -> None:
    """WC-1..WC-10: initiative, each player's phase (Pre-Activation (a)-(e), (b) and (c)
    required), activations, then the victory check."""
    pre = (Step(id="a_officers", optional=True), Step(id="b_morale", rule="WC-3"),
           Step(id="c_disruption", rule="WC-4"), Step(id="d_corner_lock", optional=True),
           Step(id="e_line_command", optional=True))
    wc = Ruleset(id="wc", version=1, title="WC", sequence=SequenceOfPlay(phases=(
        Step(id="initiative", rule="WC-1"),
        Phase(id="phase", player_turns=True, children=(
            Phase(id="pre", rule="WC-2", children=pre),
            Step(id="activation", rule="WC-6", acting="active"))),
        Step(id="victory", rule="WC-10"),
    )))
    seen = walk(wc, _state(wc, ("french", "british")), 13)
    assert [s[1:] for s in seen] == [
        ("initiative", None),
        *[(f"phase/pre/{p.id}", "french") for p in pre], ("phase/activation", "french"),
        *[(f"phase/pre/{p.id}", "british") for p in pre], ("phase/activation", "british"),
        ("victory", None)]
    at_a = _state(wc, ("french", "british")).model_copy(update={"turn": TurnMarker(
        step="phase/pre/a_officers", initiative=("french", "british"),
        counters={"phase": 0, "phase/pre": 0}, active_side="french")})
    with pytest.raises(OutOfSequence):  # (b) is required: cannot be skipped
        next_marker(at_a, wc, to="phase/activation")
    at_c = at_a.model_copy(update={"turn": at_a.turn.model_copy(
        update={"step": "phase/pre/c_disruption"})})
    assert next_marker(at_c, wc, to="phase/activation").step == "phase/activation"


def test_es_phases_with_attacker_and_defender_steps() -> None:
    """ES-1..ES-6: Initial, Rally, Combat, Admin, each step saying who acts."""
    es = Ruleset(id="es", version=1, title="ES", sequence=SequenceOfPlay(phases=(
        Phase(id="initial", children=(Step(id="weather"), Step(id="reinforcements",
                                                                 acting="attacker"))),
        Phase(id="rally", children=(Step(id="repair"), Step(id="rally"))),
        Phase(id="combat", children=(
            Step(id="prepared_fire", acting="attacker", rule="ES-4"),
            Step(id="defensive_fire", acting="defender", rule="ES-4"))),
        Phase(id="admin", children=(Step(id="markers", rule="ES-6"),)),
    )))
    seen = walk(es, _state(es, ("red", "blue")), 7)
    assert [s[1] for s in seen] == [
        "initial/weather", "initial/reinforcements", "rally/repair", "rally/rally",
        "combat/prepared_fire", "combat/defensive_fire", "admin/markers", "initial/weather"]
    assert seen[-1][0] == 2


def test_es_roles_decide_who_may_act() -> None:
    table = Table(options={"roles": {"attacker": "red", "defender": "blue"}})
    es = Ruleset(id="es", version=1, title="ES", sequence=SequenceOfPlay(phases=(
        Step(id="prepared_fire", acting="attacker", rule="ES-4"),)))
    from domain.commands import SetTrack
    from domain.decide import decide
    from domain.errors import NotYourTurn

    state = table.state.model_copy(update={"turn": start(es.sequence, ("red", "blue"))})
    decide(SetTrack(name="x", value=1), state, es, table.context("red"))
    with pytest.raises(NotYourTurn) as refused:
        decide(SetTrack(name="x", value=1), state, es, table.context("blue"))
    assert refused.value.rule == "ES-4"


def test_no_mutual_segments_then_two_player_turns_in_swappable_order() -> None:
    """NO-1..NO-5: mutual segments, the Allied then the German player-turn (a German
    operation may put the German player-turn first), then the VP segment."""
    no = Ruleset(id="no", version=1, title="NO", sequence=SequenceOfPlay(phases=(
        Phase(id="mutual", rule="NO-1", children=(Step(id="weather"), Step(id="supply"))),
        Phase(id="player_turn", player_turns=True, children=(
            Step(id="movement", acting="active"), Step(id="combat", acting="active"))),
        Step(id="victory_points", rule="NO-4"),
    )))
    normal = walk(no, _state(no, ("allied", "german")), 7)
    assert [s[1:] for s in normal[2:7]] == [
        ("player_turn/movement", "allied"), ("player_turn/combat", "allied"),
        ("player_turn/movement", "german"), ("player_turn/combat", "german"),
        ("victory_points", None)]
    swapped = walk(no, _state(no, ("german", "allied")), 4)
    assert swapped[2][2] == "german" and swapped[4][2] == "allied"
