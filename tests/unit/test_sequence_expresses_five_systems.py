"""The sequence-of-play model can express the five systems of RULES.md.

Each system's sequence is written here as data with `domain.sequence`, its loops driven by
ruleset conditions over counters in `state.tracks`, and walked through whole turns with
`following`: the exact order of step paths and active sides is asserted. `advance to` (decide's
`next_marker`) passes optional steps and never a required one; roles and active sides decide
who may act (decide's seat check).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from conftest import Table

from domain.commands import SetTrack
from domain.decide import decide, next_marker
from domain.errors import NotYourTurn, OutOfSequence
from domain.rulesets.base import Ruleset
from domain.sequence import Phase, SequenceOfPlay, Step, following, start
from domain.state import MatchState, Side

Effect = Callable[[MatchState], MatchState]
Seen = list[tuple[int, str, str | None]]


def new_state(ruleset: Ruleset, order: tuple[str, ...], tracks: Mapping[str, int] | None = None,
              **options: object) -> MatchState:
    base = Table().state
    sides = tuple(Side(id=side, name=side.title()) for side in sorted(order))
    return base.model_copy(update={"turn": start(ruleset.sequence, order), "sides": sides,
                                   "tracks": dict(tracks or {}), "options": options})


def walk(ruleset: Ruleset, state: MatchState, effects: Mapping[str, Effect] | None = None,
         turns: int = 1) -> tuple[Seen, MatchState]:
    """Walk with `following` until `turns` turns are over. At each step its effect (what the
    players did there) runs first; it may change the tracks or the marker itself."""
    first_turn = state.turn.turn
    seen: Seen = []
    while state.turn.turn < first_turn + turns:
        marker = state.turn
        seen.append((marker.turn, marker.step, marker.active_side))
        assert len(seen) < 500, "the sequence does not end"
        effect = (effects or {}).get(marker.step)
        if effect is not None:
            state = effect(state)
        state = state.model_copy(update={
            "turn": following(ruleset.sequence, state.turn, state, ruleset.conditions)})
    seen.append((state.turn.turn, state.turn.step, state.turn.active_side))
    return seen, state


def add(track: str, delta: int) -> Effect:
    def effect(state: MatchState) -> MatchState:
        value = int(state.tracks.get(track, 0)) + delta
        return state.model_copy(update={"tracks": {**state.tracks, track: value}})
    return effect


def set_to(track: str, value: int) -> Effect:
    return lambda state: state.model_copy(update={"tracks": {**state.tracks, track: value}})


def positive(track: str) -> Callable[[MatchState], bool]:
    return lambda state: int(state.tracks.get(track, 0)) > 0


def at(state: MatchState, ruleset: Ruleset, step: str, occurrence: int = 1) -> MatchState:
    """The state with the marker put where it stands the `occurrence`-th time it reaches
    `step` in turn 1 (every loop of the ruleset running once)."""
    never = {name: (lambda s: False) for name in ruleset.conditions}
    marker = start(ruleset.sequence, state.turn.initiative)
    reached = int(marker.step == step)
    while reached < occurrence:
        marker = following(ruleset.sequence, marker, state, never)
        assert marker.turn == 1, f"step {step} is not reached {occurrence} time(s)"
        reached += marker.step == step
    return state.model_copy(update={"turn": marker})


def who_may_act(state: MatchState, ruleset: Ruleset) -> list[str]:
    """The seats decide lets act in the current step (by a neutral action: set a track)."""
    table = Table()
    allowed = []
    for seat in (*state.turn.initiative, "referee"):
        try:
            decide(SetTrack(name="probe", value=1), state, ruleset, table.context(seat))
        except NotYourTurn:
            continue
        allowed.append(seat)
    return allowed


# ---- AA: Atomic Africa --------------------------------------------------------------------

AA = Ruleset(id="aa", version=1, title="Atomic Africa", sequence=SequenceOfPlay(phases=(
    Phase(id="activation", rule="AA-1", repeat_while="units_eligible", alternate=True,
          children=(Step(id="activate", rule="AA-1", acting="active"),)),
    Phase(id="cleanup", rule="AA-3", children=(
        Phase(id="split", rule="AA-3", children=(
            Step(id="compulsory", rule="AA-3", leave_when="no_split_pending"),
            Step(id="voluntary", rule="AA-5", optional=True),
        )),
        Phase(id="morale", rule="AA-7", children=(Step(id="rolls", rule="AA-7"),)),
        Step(id="cards", rule="AA-8"),
    )),
)), conditions={
    "units_eligible": positive("eligible"),
    "no_split_pending": lambda s: int(s.tracks.get("must_split", 0)) == 0,
})


def test_aa_activation_phases_alternate_until_no_unit_is_eligible_then_clean_up() -> None:
    """AA-1, AA-3/AA-5, AA-7, AA-8: five eligible units, so five Activation Phases with the
    activating player alternating, then Split (compulsory, voluntary), Morale, cards."""
    state = new_state(AA, ("red", "blue"), {"eligible": 5})
    seen, _ = walk(AA, state, {
        "activation/activate": add("eligible", -1),
        "cleanup/cards": set_to("eligible", 2),  # next turn: two eligible units
    }, turns=2)
    assert seen == [
        (1, "activation/activate", "red"),
        (1, "activation/activate", "blue"),
        (1, "activation/activate", "red"),
        (1, "activation/activate", "blue"),
        (1, "activation/activate", "red"),
        (1, "cleanup/split/compulsory", None),
        (1, "cleanup/split/voluntary", None),
        (1, "cleanup/morale/rolls", None),
        (1, "cleanup/cards", None),
        (2, "activation/activate", "red"),
        (2, "activation/activate", "blue"),
        (2, "cleanup/split/compulsory", None),
        (2, "cleanup/split/voluntary", None),
        (2, "cleanup/morale/rolls", None),
        (2, "cleanup/cards", None),
        (3, "activation/activate", "red"),
    ]


def test_aa_only_the_activating_player_acts_in_an_activation_phase() -> None:
    state = new_state(AA, ("red", "blue"), {"eligible": 5})
    assert who_may_act(state, AA) == ["red", "referee"]
    second = state.model_copy(update={"turn": following(AA.sequence, state.turn, state,
                                                         AA.conditions)})
    assert who_may_act(second, AA) == ["blue", "referee"]


def test_aa_split_sub_phase_is_not_left_while_a_compulsory_split_is_pending() -> None:
    state = at(new_state(AA, ("red", "blue"), {"must_split": 1}), AA, "cleanup/split/compulsory")
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, AA)
    assert refused.value.rule == "AA-3"
    done = state.model_copy(update={"tracks": {"must_split": 0}})
    assert next_marker(done, AA).step == "cleanup/split/voluntary"
    # The voluntary split is optional: advance straight on to the Morale sub-phase.
    assert next_marker(done, AA, to="cleanup/morale/rolls").step == "cleanup/morale/rolls"


def test_aa_the_compulsory_split_cannot_be_skipped_from_the_activations() -> None:
    state = new_state(AA, ("red", "blue"), {"eligible": 0})
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, AA, to="cleanup/morale/rolls")
    assert refused.value.allowed == ["cleanup/split/compulsory"]
    assert next_marker(state, AA, to="cleanup/split/compulsory").step == \
        "cleanup/split/compulsory"


# ---- BG: Battlegroup ------------------------------------------------------------------------

BG = Ruleset(id="bg", version=1, title="Battlegroup", sequence=SequenceOfPlay(phases=(
    Phase(id="initiation", rule="BG-1", children=(
        Step(id="initiative", rule="BG-2"),
        Step(id="hand_over", rule="BG-5", optional=True),
        Step(id="cards", rule="BG-6"),
    )),
    Phase(id="activation", rule="BG-7", repeat_while="battlegroups_left", alternate=True,
          children=(Step(id="activate", rule="BG-7", acting="active"),)),
    Phase(id="round_up", rule="BG-8", children=(
        Step(id="special_rules", rule="BG-8"),
        Step(id="end_check", rule="BG-8"),
    )),
)), conditions={"battlegroups_left": positive("battlegroups")})


def test_bg_rounds_activate_in_initiative_order_while_battlegroups_remain() -> None:
    """BG-1, BG-7, BG-8 with three players in initiative order b, c, a and five
    battlegroups in all."""
    state = new_state(BG, ("b", "c", "a"), {"battlegroups": 5})
    seen, _ = walk(BG, state, {"activation/activate": add("battlegroups", -1)})
    assert seen == [
        (1, "initiation/initiative", None),
        (1, "initiation/hand_over", None),
        (1, "initiation/cards", None),
        (1, "activation/activate", "b"),
        (1, "activation/activate", "c"),
        (1, "activation/activate", "a"),
        (1, "activation/activate", "b"),
        (1, "activation/activate", "c"),
        (1, "round_up/special_rules", None),
        (1, "round_up/end_check", None),
        (2, "initiation/initiative", None),
    ]


def test_bg_the_hand_over_is_optional_the_cards_are_not() -> None:
    state = new_state(BG, ("b", "c", "a"), {"battlegroups": 1})
    assert next_marker(state, BG, to="initiation/cards").step == "initiation/cards"
    with pytest.raises(OutOfSequence):
        next_marker(state, BG, to="activation/activate")


# ---- WC: Wing command ---------------------------------------------------------------------

PRE_ACTIVATION = (
    Step(id="a_reposition_officers", rule="WC-2", optional=True),
    Step(id="b_unit_morale", rule="WC-3"),
    Step(id="c_disruption_recovery", rule="WC-4"),
    Step(id="d_corner_lock", rule="WC-5", optional=True),
    Step(id="e_line_command", rule="WC-2", optional=True),
)
WC = Ruleset(id="wc", version=1, title="Wing command", sequence=SequenceOfPlay(phases=(
    Step(id="initiative", rule="WC-1"),
    Phase(id="player_phase", rule="WC-9", player_turns=True, children=(
        Phase(id="pre_activation", rule="WC-2", children=PRE_ACTIVATION),
        Phase(id="activations", rule="WC-9", repeat_while="wings_to_activate", children=(
            Step(id="activate", rule="WC-6", acting="active"),
            Step(id="execute", rule="WC-7", acting="active"),
        )),
    )),
    Step(id="victory", rule="WC-10"),
)), conditions={"wings_to_activate": positive("wings")})


def test_wc_initiative_then_each_players_phase_then_the_victory_check() -> None:
    """WC-1, WC-2 (a)-(e), WC-6/7 activations repeating while wings are left to activate
    (two wings each), WC-9 the phase passes, WC-10 victory."""
    state = new_state(WC, ("french", "british"))
    pre = [f"player_phase/pre_activation/{s.id}" for s in PRE_ACTIVATION]
    seen, _ = walk(WC, state, {
        pre[0]: set_to("wings", 2),
        "player_phase/activations/activate": add("wings", -1),
    })
    activations = ["player_phase/activations/activate", "player_phase/activations/execute"] * 2
    assert seen == [
        (1, "initiative", None),
        *[(1, step, "french") for step in [*pre, *activations]],
        *[(1, step, "british") for step in [*pre, *activations]],
        (1, "victory", None),
        (2, "initiative", None),
    ]


def test_wc_pre_activation_b_and_c_are_required_a_d_e_are_optional() -> None:
    state = new_state(WC, ("french", "british"), {"wings": 1})
    # From the initiative, (a) may be passed on the way to (b) ...
    assert next_marker(state, WC, to="player_phase/pre_activation/b_unit_morale").active_side \
        == "french"
    at_a = at(state, WC, "player_phase/pre_activation/a_reposition_officers")
    # ... but (b) may not be passed on the way to (c), nor to the activations.
    for target in ("player_phase/pre_activation/c_disruption_recovery",
                   "player_phase/activations/activate"):
        with pytest.raises(OutOfSequence) as refused:
            next_marker(at_a, WC, to=target)
        assert refused.value.rule == "WC-3"
    at_b = at(state, WC, "player_phase/pre_activation/b_unit_morale")
    with pytest.raises(OutOfSequence) as refused:
        next_marker(at_b, WC, to="player_phase/pre_activation/d_corner_lock")
    assert refused.value.rule == "WC-4"
    # From (c), (d) and (e) are optional: straight on to the activations.
    at_c = at(state, WC, "player_phase/pre_activation/c_disruption_recovery")
    marker = next_marker(at_c, WC, to="player_phase/activations/activate")
    assert (marker.step, marker.active_side) == ("player_phase/activations/activate", "french")


def test_wc_only_the_phasing_player_activates() -> None:
    state = new_state(WC, ("french", "british"), {"wings": 1})
    assert who_may_act(state, WC) == ["french", "british", "referee"]  # initiative: anyone
    french = at(state, WC, "player_phase/activations/activate")
    british = at(state, WC, "player_phase/activations/activate", occurrence=2)
    assert (french.turn.active_side, british.turn.active_side) == ("french", "british")
    assert who_may_act(french, WC) == ["french", "referee"]
    assert who_may_act(british, WC) == ["british", "referee"]


# ---- ES: WW2 extended sequence ----------------------------------------------------------------

ES = Ruleset(id="es", version=1, title="Extended sequence", sequence=SequenceOfPlay(phases=(
    Phase(id="initial", rule="ES-1", children=(
        Step(id="weather", rule="ES-1"),
        Step(id="smoke_and_fire", rule="ES-1"),
        Step(id="reinforcements", rule="ES-1", acting="attacker"),
        Step(id="air_strikes", rule="ES-1"),
        Step(id="artillery", rule="ES-1"),
    )),
    Phase(id="rally", rule="ES-2", children=(
        Step(id="repair", rule="ES-2"),
        Step(id="ammunition", rule="ES-2"),
        Step(id="self_rally", rule="ES-2"),
        Step(id="leader_rally", rule="ES-3"),
    )),
    Phase(id="combat", rule="ES-4", children=(
        Phase(id="prepared_fire", rule="ES-4", repeat_while="rof_left", children=(
            Step(id="fire", rule="ES-4", acting="attacker"),)),
        Step(id="routed_movement", rule="ES-4", acting="attacker"),
        Step(id="broken_movement", rule="ES-4", acting="attacker"),
        Step(id="move_and_fire", rule="ES-4", acting="attacker"),
        Step(id="defensive_fire", rule="ES-4", acting="defender"),
        Step(id="advancing_fire", rule="ES-4", acting="attacker"),
        Step(id="advance", rule="ES-4", acting="attacker"),
    )),
    Phase(id="admin", rule="ES-6", children=(
        Step(id="remove_markers", rule="ES-6"),
        Step(id="turn_marker", rule="ES-6"),
        Step(id="victory", rule="ES-6"),
    )),
)), conditions={"rof_left": positive("rof")})
ROLES = {"attacker": "germans", "defender": "soviets"}


def test_es_four_phases_in_order_with_prepared_fire_repeating_while_rof_lasts() -> None:
    state = new_state(ES, ("germans", "soviets"), {"rof": 3}, roles=ROLES)
    seen, _ = walk(ES, state, {"combat/prepared_fire/fire": add("rof", -1)})
    assert [(t, s) for t, s, _ in seen] == [
        (1, "initial/weather"), (1, "initial/smoke_and_fire"), (1, "initial/reinforcements"),
        (1, "initial/air_strikes"), (1, "initial/artillery"),
        (1, "rally/repair"), (1, "rally/ammunition"), (1, "rally/self_rally"),
        (1, "rally/leader_rally"),
        (1, "combat/prepared_fire/fire"), (1, "combat/prepared_fire/fire"),
        (1, "combat/prepared_fire/fire"),
        (1, "combat/routed_movement"), (1, "combat/broken_movement"),
        (1, "combat/move_and_fire"), (1, "combat/defensive_fire"),
        (1, "combat/advancing_fire"), (1, "combat/advance"),
        (1, "admin/remove_markers"), (1, "admin/turn_marker"), (1, "admin/victory"),
        (2, "initial/weather"),
    ]
    assert {side for *_, side in seen} == {None}  # roles, not an active side, say who acts


@pytest.mark.parametrize(("attacker", "defender"), [("germans", "soviets"),
                                                    ("soviets", "germans")])
def test_es_attacker_and_defender_steps_are_resolved_through_the_roles_option(
    attacker: str, defender: str
) -> None:
    state = new_state(ES, ("germans", "soviets"), {"rof": 1},
                      roles={"attacker": attacker, "defender": defender})
    expected = {
        "initial/weather": ["germans", "soviets", "referee"],
        "initial/reinforcements": [attacker, "referee"],
        "combat/prepared_fire/fire": [attacker, "referee"],
        "combat/defensive_fire": [defender, "referee"],
        "combat/advance": [attacker, "referee"],
        "admin/remove_markers": ["germans", "soviets", "referee"],
    }
    for step, seats in expected.items():
        assert sorted(who_may_act(at(state, ES, step), ES)) == sorted(seats), step


def test_es_a_role_step_without_the_roles_option_is_for_the_referee_alone() -> None:
    state = at(new_state(ES, ("germans", "soviets")), ES, "combat/defensive_fire")
    assert who_may_act(state, ES) == ["referee"]


# ---- NO: Normandy operational -----------------------------------------------------------------

NO = Ruleset(id="no", version=1, title="Normandy", sequence=SequenceOfPlay(phases=(
    Phase(id="mutual", rule="NO-1", children=(
        Step(id="weather", rule="NO-1"),
        Step(id="allied_air", rule="NO-1"),
        Step(id="support", rule="NO-1"),
        Step(id="operations", rule="NO-1"),
        Step(id="army_support", rule="NO-1"),
        Step(id="supply", rule="NO-1"),
    )),
    Phase(id="player_turn", rule="NO-2", player_turns=True, children=(
        Step(id="replacement", rule="NO-2", acting="active"),
        Step(id="interdiction_effects", rule="NO-3", optional=True),  # German only
        Step(id="movement", rule="NO-2", acting="active"),
        Step(id="combat", rule="NO-2", acting="active"),
        Step(id="engineering", rule="NO-2", acting="active", optional=True),
        Step(id="air_interdiction", rule="NO-2", optional=True),  # Allied only
        Step(id="disorganization", rule="NO-2"),
    )),
    Phase(id="end_of_turn", rule="NO-4", children=(
        Step(id="victory_points", rule="NO-4"),
        Step(id="turn_marker", rule="NO-4"),
    )),
)))
NO_PLAYER_TURN = [f"player_turn/{s.id}" for s in NO.sequence.phases[1].children]  # type: ignore[union-attr]
NO_MUTUAL = [f"mutual/{s.id}" for s in NO.sequence.phases[0].children]  # type: ignore[union-attr]


def operations(state: MatchState) -> MatchState:
    """NO-1/NO-5: the German operation this turn (a track) decides who moves first."""
    order = ("german", "allied") if state.tracks.get("german_first") else ("allied", "german")
    return state.model_copy(update={"turn": state.turn.model_copy(update={"initiative": order})})


def test_no_mutual_segments_two_player_turns_and_the_vp_segment_with_an_operation_swap() -> None:
    """NO-1..NO-5 over two Game-Turns: the Allied player-turn first in turn 1; a German
    operation puts the German player-turn first in turn 2 (and only then)."""
    state = new_state(NO, ("allied", "german"))
    effects = {
        "mutual/operations": operations,
        "end_of_turn/victory_points": add("german_first", 1),
        "mutual/weather": lambda s: s.model_copy(update={"tracks": {
            **s.tracks, "german_first": int(s.tracks.get("german_first", 0)) % 2}}),
    }
    seen, end = walk(NO, state, effects, turns=2)

    def turn(n: int, first: str, second: str) -> Seen:
        return [*[(n, step, None) for step in NO_MUTUAL],
                *[(n, step, first) for step in NO_PLAYER_TURN],
                *[(n, step, second) for step in NO_PLAYER_TURN],
                (n, "end_of_turn/victory_points", None), (n, "end_of_turn/turn_marker", None)]

    assert seen == [*turn(1, "allied", "german"), *turn(2, "german", "allied"),
                    (3, "mutual/weather", None)]
    assert end.turn.turn == 3


def test_no_the_phasing_player_acts_in_their_own_player_turn() -> None:
    state = new_state(NO, ("allied", "german"))
    allied = at(state, NO, "player_turn/movement")
    assert allied.turn.active_side == "allied"
    assert who_may_act(allied, NO) == ["allied", "referee"]
    swapped = new_state(NO, ("german", "allied"))
    assert who_may_act(at(swapped, NO, "player_turn/movement"), NO) == ["german", "referee"]


def test_no_optional_segments_can_be_passed_required_ones_cannot() -> None:
    state = at(new_state(NO, ("allied", "german")), NO, "player_turn/replacement")
    assert next_marker(state, NO, to="player_turn/movement").step == "player_turn/movement"
    at_combat = at(state, NO, "player_turn/combat")
    assert next_marker(at_combat, NO, to="player_turn/disorganization").step == \
        "player_turn/disorganization"
    with pytest.raises(OutOfSequence):
        next_marker(state, NO, to="player_turn/combat")  # movement is required
