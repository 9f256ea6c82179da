"""The shipped sequences of play of the five systems, walked through whole turns.

Each ruleset is the one the service runs (built from its demo scenario's options), with its
conditions standing on counters in `state.tracks` so that a test can say how many times a
loop runs. The walks are written from the games' texts: the exact order of step paths and
active sides is asserted. `advance to` (decide's `next_marker`) passes optional steps and
never a required one; the seats that may act and move the marker are the domain's own
(`domain.authority`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache

import pytest
from conftest import Table

from api import scenarios
from domain.authority import check_acting, movers
from domain.decide import next_marker
from domain.errors import NotYourTurn, OutOfSequence
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.sequence import Phase, Step, current_roles, following, start
from domain.state import MatchState, Side

Effect = Callable[[MatchState], MatchState]
Seen = list[tuple[int, str, str | None]]
DEMOS = ("atomic-africa-demo", "battlegroup-demo", "wing-command-demo",
         "extended-sequence-demo", "normandy-demo")


@cache
def shipped(demo: str) -> Ruleset:
    """The ruleset the service runs for `demo`, each condition read from the track of its
    name (1 when unset: gates open, loops go on until a test counts them down)."""
    scenario = scenarios.load(demo)
    ruleset = get_ruleset(scenario.ruleset, scenario.options)
    return replace(ruleset, conditions={name: track(name, 1) for name in ruleset.conditions})


def track(name: str, unset: int) -> Callable[[MatchState], bool]:
    """A condition that holds while the track `name` (`unset` when not set) is above 0."""
    return lambda state: int(state.tracks.get(name, unset)) > 0


def new_state(ruleset: Ruleset, order: tuple[str, ...], tracks: Mapping[str, int] | None = None,
              **options: object) -> MatchState:
    base = Table().state
    sides = tuple(Side(id=side, name=side.title()) for side in order)
    return base.model_copy(update={"turn": start(ruleset.sequence, order), "sides": sides,
                                   "tracks": dict(tracks or {}), "options": options})


def walk(ruleset: Ruleset, state: MatchState, effects: Mapping[str, Effect] | None = None,
         turns: int = 1) -> Seen:
    """Walk with `following` until `turns` turns are over. At each step its effect (what the
    players did there) runs first."""
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
    return seen


def add(track: str, delta: int) -> Effect:
    def effect(state: MatchState) -> MatchState:
        value = int(state.tracks.get(track, 1)) + delta
        return state.model_copy(update={"tracks": {**state.tracks, track: value}})
    return effect


def set_to(track: str, value: int) -> Effect:
    return lambda state: state.model_copy(update={"tracks": {**state.tracks, track: value}})


def at(state: MatchState, ruleset: Ruleset, step: str, occurrence: int = 1) -> MatchState:
    """The state with the marker where it stands the `occurrence`-th time it reaches `step`
    in turn 1 (a loop runs once unless the state's track of its condition says more)."""
    loops = {p.repeat_while for p in phases(ruleset) if p.repeat_while}
    conditions = {name: track(name, int(name not in loops)) for name in ruleset.conditions}
    marker = start(ruleset.sequence, state.turn.initiative)
    reached = int(marker.step == step)
    while reached < occurrence:
        marker = following(ruleset.sequence, marker, state, conditions)
        assert marker.turn == 1, f"step {step} is not reached {occurrence} time(s)"
        reached += marker.step == step
    return state.model_copy(update={"turn": marker})


def phases(ruleset: Ruleset) -> list[Phase]:
    found: list[Phase] = []

    def collect(node: Step | Phase) -> None:
        if isinstance(node, Phase):
            found.append(node)
            for child in node.children:
                collect(child)

    for node in ruleset.sequence.phases:
        collect(node)
    return found


def who_may_act(state: MatchState, ruleset: Ruleset) -> list[str]:
    allowed = []
    for seat in (*state.side_ids(), "referee"):
        try:
            check_acting(ruleset.sequence, state, seat)
        except NotYourTurn:
            continue
        allowed.append(seat)
    return allowed


def steps_of(phase: str, ruleset: Ruleset) -> list[str]:
    return [s for s in ruleset.sequence.steps() if s.startswith(f"{phase}/")]


@pytest.mark.parametrize("demo", DEMOS)
def test_every_step_says_who_moves_the_marker_on(demo: str) -> None:
    """A step where every side acts is shared (each says it is done); any other names the
    seat that moves the marker on: no shipped step leaves it to whoever advances first, nor
    lets every action through."""
    ruleset = shipped(demo)
    vague = [path for path in ruleset.sequence.steps()
             if (step := ruleset.sequence.step(path)).acting == "any"
             and step.advanced_by is None and not step.shared]
    assert vague == []
    open_to_all = [p for p in ruleset.sequence.steps() if "*" in ruleset.sequence.step(p).allows]
    assert open_to_all == []  # every step names the actions it takes


# ---- AA: Atomic Africa --------------------------------------------------------------------

def test_aa_activation_phases_alternate_while_units_are_eligible_then_clean_up() -> None:
    """AA-1: Activation Phases alternate, red first (ours), while a unit is eligible; then
    Clean-Up: Split (AA-3), Morale (AA-7), cards (AA-8)."""
    aa = shipped("atomic-africa-demo")
    state = new_state(aa, ("red", "blue"), {"units_eligible": 3})
    seen = walk(aa, state, {"activation/activate": add("units_eligible", -1),
                            "cleanup/cards": set_to("units_eligible", 1)}, turns=2)
    cleanup = [(step, None) for step in steps_of("cleanup", aa)]
    assert cleanup == [("cleanup/split", None), ("cleanup/morale", None),
                       ("cleanup/cards", None)]
    assert [(s, side) for _, s, side in seen] == [
        ("activation/activate", "red"), ("activation/activate", "blue"),
        ("activation/activate", "red"), *cleanup,
        ("activation/activate", "red"), *cleanup,
        ("activation/activate", "red")]


def test_aa_the_activating_side_alone_ends_its_activation_every_side_ends_the_split() -> None:
    aa = shipped("atomic-africa-demo")
    state = new_state(aa, ("red", "blue"))
    assert movers(aa.sequence, state) == ["red", "referee"]
    split = at(state, aa, "cleanup/split")
    assert movers(aa.sequence, split) == ["red", "blue", "referee"]
    assert aa.sequence.step("cleanup/split").shared


def test_aa_the_split_cannot_be_left_while_a_split_is_pending() -> None:
    aa = shipped("atomic-africa-demo")
    state = at(new_state(aa, ("red", "blue"), {"no_split_pending": 0}), aa, "cleanup/split")
    with pytest.raises(OutOfSequence) as refused:
        next_marker(state, aa)
    assert refused.value.rule == "AA-3"
    with pytest.raises(OutOfSequence):
        next_marker(new_state(aa, ("red", "blue"), {"units_eligible": 0}), aa,
                    to="cleanup/morale")  # the split is not optional


# ---- BG: Battlegroup ------------------------------------------------------------------------

def test_bg_rounds_initiation_then_activations_in_initiative_order_then_round_up() -> None:
    """BG-1: Initiation (initiative BG-2..5, cards BG-6, special rules), activations in
    initiative order while battlegroups are left (BG-7), Round Up (BG-8)."""
    bg = shipped("battlegroup-demo")
    state = new_state(bg, ("b", "c", "a"), {"battlegroups_left": 5})
    seen = walk(bg, state, {"activation/activate": add("battlegroups_left", -1)})
    initiation = [(1, step, None) for step in steps_of("initiation", bg)]
    assert [s for _, s, _ in initiation] == [
        "initiation/initiative", "initiation/cards", "initiation/special_rules"]
    assert seen == [*initiation,
                    *[(1, "activation/activate", side) for side in "bcabc"],
                    (1, "round_up", None), (2, "initiation/initiative", None)]


def test_bg_every_player_says_it_is_done_in_initiation_and_round_up() -> None:
    bg = shipped("battlegroup-demo")
    state = new_state(bg, ("b", "c", "a"))
    for step in (*steps_of("initiation", bg), "round_up"):
        assert bg.sequence.step(step).shared, step
    second = at(state.model_copy(update={"tracks": {"battlegroups_left": 1}}), bg,
                "activation/activate", 2)
    assert movers(bg.sequence, second) == ["c", "referee"]


# ---- WC: Wing command ---------------------------------------------------------------------

def test_wc_initiative_then_each_players_phase_with_its_activations_then_victory() -> None:
    """WC-1 initiative; WC-9 each player's phase: Pre-Activation (a)-(e) (WC-2..5), then
    activations (WC-6: activate, actions, fire combat, close combat, officers) while they go
    on; WC-10 victory."""
    wc = shipped("wing-command-demo")
    state = new_state(wc, ("french", "british"))
    pre = steps_of("phase/pre_activation", wc)
    activation = steps_of("phase/activations", wc)
    assert [s.rsplit("/", 1)[1] for s in activation] == [
        "activate", "actions", "fire_combat", "close_combat", "officers"]
    seen = walk(wc, state, {pre[0]: set_to("activations_go_on", 2),
                            activation[0]: add("activations_go_on", -1)})
    assert seen == [
        (1, "initiative", None),
        *[(1, step, "french") for step in [*pre, *activation, *activation]],
        *[(1, step, "british") for step in [*pre, *activation, *activation]],
        (1, "victory", None),
        (2, "initiative", None),
    ]


def test_wc_pre_activation_b_and_c_are_required_a_d_e_are_optional() -> None:
    wc = shipped("wing-command-demo")
    state = new_state(wc, ("french", "british"))
    a, b, c, d, e = steps_of("phase/pre_activation", wc)
    assert [wc.sequence.step(x).optional for x in (a, b, c, d, e)] == [
        True, False, False, True, True]
    assert next_marker(state, wc, to=b).active_side == "french"
    for target in (c, "phase/activations/activate"):
        with pytest.raises(OutOfSequence) as refused:
            next_marker(at(state, wc, a), wc, to=target)
        assert refused.value.rule == "WC-3"
    marker = next_marker(at(state, wc, c), wc, to="phase/activations/activate")
    assert (marker.step, marker.active_side) == ("phase/activations/activate", "french")


def test_wc_only_the_phasing_player_activates() -> None:
    wc = shipped("wing-command-demo")
    state = new_state(wc, ("french", "british"))
    assert who_may_act(state, wc) == ["french", "british", "referee"]  # the initiative
    french = at(state, wc, "phase/activations/activate")
    british = at(state, wc, "phase/activations/activate", occurrence=2)
    assert who_may_act(french, wc) == ["french", "referee"]
    assert who_may_act(british, wc) == ["british", "referee"]


# ---- ES: WW2 extended sequence ----------------------------------------------------------------

def test_es_a_game_turn_has_a_combat_phase_for_each_side_as_the_attacker() -> None:
    """ES-1 Initial, ES-2/3 Rally, then ES-4 the Combat Phase once for each side, the
    attacker in its own (ours: the roles change with the player-turn), ES-6 Admin."""
    es = shipped("extended-sequence-demo")
    state = new_state(es, ("germans", "soviets"))
    seen = walk(es, state)
    combat = steps_of("combat", es)
    assert [s.rsplit("/", 1)[1] for s in combat] == [
        "prepared_fire", "routed_movement", "broken_movement", "move_and_fire",
        "defensive_fire", "advancing_fire", "advance"]
    shared = [(1, step, None) for step in [*steps_of("initial", es), *steps_of("rally", es)]]
    assert seen == [*shared, *[(1, step, "germans") for step in combat],
                    *[(1, step, "soviets") for step in combat],
                    (1, "admin/victory", None), (2, "initial/weather", None)]


@pytest.mark.parametrize(("run", "attacker", "defender"), [(1, "germans", "soviets"),
                                                          (2, "soviets", "germans")])
def test_es_the_attacker_of_each_combat_phase_moves_its_marker_the_defender_fires(
        run: int, attacker: str, defender: str) -> None:
    es = shipped("extended-sequence-demo")
    state = new_state(es, ("germans", "soviets"))
    prepared = at(state, es, "combat/prepared_fire", run)
    assert current_roles(es.sequence, prepared) == {"attacker": attacker, "defender": defender}
    assert movers(es.sequence, prepared) == [attacker, "referee"]
    assert movers(es.sequence, at(state, es, "combat/defensive_fire", run)) == [
        defender, "referee"]
    for step in (*steps_of("initial", es), *steps_of("rally", es)):
        assert movers(es.sequence, at(state, es, step)) == ["germans", "soviets", "referee"]


def test_es_fixed_roles_give_one_combat_phase_a_turn_to_the_fixed_attacker() -> None:
    scenario = scenarios.load("extended-sequence-demo")
    options = {**scenario.options, "roles": {"attacker": "soviets", "defender": "germans"}}
    es = get_ruleset(scenario.ruleset, options)
    state = new_state(es, ("germans", "soviets"), None, **options)
    combat = [s for _, s, _ in walk(es, state) if s.startswith("combat/")]
    assert combat == steps_of("combat", es)  # once a turn
    prepared = at(state, es, "combat/prepared_fire")
    assert movers(es.sequence, prepared) == ["soviets", "referee"]


# ---- NO: Normandy operational -----------------------------------------------------------------

NO_ALLIED_ONLY = {"player_turn/carpet_bombing", "player_turn/air_interdiction"}
NO_GERMAN_ONLY = {"player_turn/interdiction_effects"}


def test_no_mutual_segments_then_two_player_turns_each_with_its_own_segments() -> None:
    """NO-1 mutual segments; NO-2 the Allied player-turn (carpet bombing, air interdiction);
    NO-3 the German one (air interdiction determination); NO-4 victory points. A German
    operation puts the German player-turn first for that turn (NO-5)."""
    no = shipped("normandy-demo")
    roles = {"allied": "allied", "german": "german"}
    mutual = [(1, step, None) for step in steps_of("mutual", no)]
    player = steps_of("player_turn", no)
    allied = [s for s in player if s not in NO_GERMAN_ONLY]
    german = [s for s in player if s not in NO_ALLIED_ONLY]
    for order, first, second in ((("allied", "german"), allied, german),
                                 (("german", "allied"), german, allied)):
        seen = walk(no, new_state(no, order, roles=roles))
        assert seen == [*mutual, *[(1, s, order[0]) for s in first],
                        *[(1, s, order[1]) for s in second],
                        (1, "end/victory_points", None), (2, "mutual/weather", None)]


def test_no_the_allied_player_determines_air_interdiction_in_the_german_player_turn() -> None:
    no = shipped("normandy-demo")
    state = new_state(no, ("allied", "german"), roles={"allied": "allied", "german": "german"})
    effects = at(state, no, "player_turn/interdiction_effects")
    assert effects.turn.active_side == "german"
    assert who_may_act(effects, no) == ["allied", "referee"]
    moving = at(state, no, "player_turn/tactical_movement", occurrence=2)
    assert who_may_act(moving, no) == ["german", "referee"]


def test_no_optional_segments_can_be_passed_required_ones_cannot() -> None:
    no = shipped("normandy-demo")
    state = at(new_state(no, ("allied", "german"), roles={"allied": "allied",
                                                          "german": "german"}),
               no, "player_turn/tactical_movement")
    assert next_marker(state, no, to="player_turn/combat").step == "player_turn/combat"
    with pytest.raises(OutOfSequence):
        next_marker(state, no, to="player_turn/regroup")  # combat is required


def test_the_walks_cover_every_phase_kind_the_model_has() -> None:
    """Between them the five sequences use every construct of the model."""
    all_phases = [p for demo in DEMOS for p in phases(shipped(demo))]
    steps = [shipped(demo).sequence.step(path) for demo in DEMOS
             for path in shipped(demo).sequence.steps()]
    assert any(p.player_turns and p.roles for p in all_phases)
    assert any(p.alternate and p.eligible for p in all_phases)
    assert any(p.repeat_while and not p.alternate for p in all_phases)
    assert any(s.only for s in steps) and any(s.shared for s in steps)
    assert any(s.optional for s in steps) and any(s.leave_when for s in steps)
