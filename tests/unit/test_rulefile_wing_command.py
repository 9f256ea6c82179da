"""Wing Command's file (projections/rulefiles/wing-command.yaml) held to the Python ruleset
(domain/rulesets/wing_command*.py), part by part: its five rolls (WC-3 unit morale, WC-4
disruption recovery, WC-5 disengaging, WC-6 activation, WC-8 the special move) and the
guards that refuse them, on hundreds of random boards of its demo (pieces disrupted or
corner-locked, a unit acting, cubes on the officers, rolls already made this turn), for
every seat, with random table dice and cubes: both refuse (naming the same rule) or both
make the same events, payloads and purposes included. Then its conditions, on the same
boards."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import Table

from domain import commands as cmd
from domain import events as ev
from domain.decide import decide
from domain.errors import DomainError
from domain.rulefiles.compile import compile_file, unplayable
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.state import Awaiting, MatchState, activation_fact
from projections.rulefile_load import BUILT_IN, check_file

DEMO = json.loads((Path(__file__).parents[2] / "api" / "scenarios"
                   / "wing-command-demo.json").read_text())
SIDES = ("french", "british")
PYTHON = get_ruleset("wing-command", {})
STEPS = {"unit_morale": "phase/pre_activation/b_unit_morale",
         "disruption_recovery": "phase/pre_activation/c_disruption",
         "disengage": "phase/pre_activation/d_corner_lock",
         "activation": "phase/activations/activate",
         "special_move": "phase/activations/officers"}
ENVELOPE = {"originator_id", "originator_version", "timestamp", "actor", "command_id", "turn",
            "prev_hash", "hash"}


def file_ruleset() -> Ruleset:
    """The ruleset the file compiles to, as a match created from it plays it."""
    report = check_file(BUILT_IN / "wing-command.yaml")
    assert report.ok and report.ruleset is not None, report.lines()
    assert unplayable(report.ruleset, compile_file(report.ruleset)) == []  # no procedure
    return compile_file(report.ruleset)


FILE = file_ruleset()


def board(rng: random.Random, step: str) -> tuple[MatchState, Table]:
    """A random board of the demo at `step`: a random side phasing, pieces disrupted or
    corner-locked, units activated, one of them perhaps acting, cubes on the officers, and
    some of this turn's rolls already made."""
    table = Table(ruleset="wing-command", sides=SIDES, units=DEMO["units"])
    state = table.state
    active = rng.choice(SIDES)
    units = {}
    facts: list[str] = []
    # (as in play) only a unit of the phasing side is ever acting, in the run it activated
    acting = rng.choice([u.id for u in state.in_play(active) if u.kind == "unit"]
                        ) if rng.random() < 0.5 else None
    for unit in state.in_play():
        status = set(unit.status)
        markers = dict(unit.markers)
        if unit.kind == "piece":
            for flag in ("disrupted", "corner_locked", "activated"):
                if rng.random() < 0.4:
                    status ^= {flag}
        if unit.kind == "unit" and rng.random() < 0.3:
            status.add("activated")
        if unit.id == acting:
            status |= {"acting", "activated"}
        if unit.kind in ("fo", "co"):
            markers["leadership"] = rng.randint(0, 3)
        if rng.random() < 0.15:
            facts.append(f"{rng.choice(('WC-3', 'WC-4', 'WC-5', 'WC-8'))}:{unit.id}")
        units[unit.id] = unit.model_copy(update={"status": tuple(sorted(status)),
                                                 "markers": markers})
    if acting is not None:
        facts.append(activation_fact(0, active))
    if rng.random() < 0.1:
        facts.append(f"failed:WC-6:{active}")
    if rng.random() < 0.1:
        facts.append("initiative")
    turn = state.turn.model_copy(update={"step": step, "active_side": active,
                                         "initiative": SIDES})
    return state.model_copy(update={"units": units, "turn": turn,
                                    "this_turn": tuple(facts)}), table


KINDS = {"unit_morale": ("unit",), "disruption_recovery": ("piece",), "disengage": ("piece",),
         "activation": ("unit",), "special_move": ("fo", "co")}


def command(rng: random.Random, roll: str, state: MatchState) -> cmd.RuleRoll:
    """The roll for a random unit: most often one of the kind that rolls it, of the phasing
    side; now and then any unit, or none."""
    likely = [u.id for u in state.in_play(state.turn.active_side) if u.kind in KINDS[roll]]
    ids = likely * 4 + [*state.units, None]
    officers = [u.id for u in state.units.values() if u.kind in ("fo", "co")]
    dice = rng.choice([1, 2, 3, 3, None]) if roll == "activation" else None
    faces = [rng.randint(1, 6) for _ in range(dice or 1)]
    leadership = rng.choice([0, 0, 1, 2, 3])
    return cmd.RuleRoll(roll=roll, unit_id=rng.choice(ids), source="table", results=faces,
                        leadership=leadership, dice=dice,
                        leader_id=rng.choice([*officers, "f-line", None]))


def outcome(ruleset: Ruleset, command: cmd.RuleRoll, state: MatchState, table: Table,
            actor: str) -> Any:
    try:
        events = decide(command, state, ruleset, table.context(actor))
    except DomainError as error:
        return ("refused", type(error).__name__, error.rule)
    return [(type(e).__name__, {k: v for k, v in e.model_dump().items() if k not in ENVELOPE})
            for e in events]


@pytest.mark.parametrize("roll", sorted(STEPS))
def test_each_roll_of_the_file_does_what_the_python_roll_does(roll: str) -> None:
    rng = random.Random(f"wing-command {roll}")
    made = 0
    for _ in range(400):
        state, table = board(rng, STEPS[roll])
        for actor in (*SIDES, "referee"):
            given = command(rng, roll, state)
            python = outcome(PYTHON, given, state, table, actor)
            data = outcome(FILE, given, state, table, actor)
            assert data == python, (given, actor)
            made += isinstance(python, list)
    assert made >= 40  # the boards make the roll often enough to mean something


def test_the_activation_gives_each_cube_to_the_failing_die_closest_to_the_qv() -> None:
    state, table = board(random.Random(1), STEPS["activation"])
    units = {**state.units, "f-line": state.units["f-line"].model_copy(update={"status": ()}),
             "f-fo": state.units["f-fo"].model_copy(update={"markers": {"leadership": 3}})}
    state = state.model_copy(update={"units": {u: x.model_copy(update={"status": tuple(
        s for s in x.status if s != "acting")}) for u, x in units.items()},
        "turn": state.turn.model_copy(update={"active_side": "french"}),
        "this_turn": ()})
    given = cmd.RuleRoll(roll="activation", unit_id="f-line", source="table",
                         results=[1, 3, 2], dice=3, leadership=3, leader_id="f-fo")
    python = outcome(PYTHON, given, state, table, "french")
    assert outcome(FILE, given, state, table, "french") == python
    names = [name for name, _ in python]
    assert names == ["MarkerRemoved", "UnitsActivated", "UnitStatusChanged", "DiceRolled",
                     "ResultRecorded"]
    assert python[-1][1]["result"] == "2 of 3 pass (after leadership: [1, 4, 4])"


@pytest.mark.parametrize("condition", ["initiative_settled", "no_morale_owed",
                                       "no_recovery_owed", "activations_go_on"])
def test_each_condition_of_the_file_reads_as_the_python_condition(condition: str) -> None:
    rng = random.Random(f"wing-command {condition}")
    seen = set()
    for _ in range(300):
        state, _ = board(rng, STEPS["special_move"])
        python = PYTHON.conditions[condition](state)
        assert FILE.conditions[condition](state) == python
        seen.add(python)
    assert seen == {True, False}


def test_a_unit_that_fails_its_morale_leaves_with_its_pieces_and_a_marker() -> None:
    state, table = board(random.Random(2), STEPS["unit_morale"])
    units = {uid: u.model_copy(update={"status": ("disrupted",) if u.extra.get(
        "unit") == "b-guards" else ()}) for uid, u in state.units.items()}
    state = state.model_copy(update={"units": units, "this_turn": (), "turn": state.turn.model_copy(
        update={"active_side": "british"})})
    given = cmd.RuleRoll(roll="unit_morale", unit_id="b-guards", source="table", results=[2])
    events = decide(given, state, FILE, table.context("british"))
    assert [(type(e).__name__, getattr(e, "unit_id", None)) for e in events] == [
        ("DiceRolled", None), ("UnitRemoved", "b-guards-1"), ("UnitRemoved", "b-guards-2"),
        ("UnitRemoved", "b-guards-3"), ("UnitRemoved", "b-guards"), ("MarkerPlaced", None)]
    dice, marker = events[0], events[-1]
    assert isinstance(dice, ev.DiceRolled) and isinstance(marker, ev.MarkerPlaced)
    assert dice.modifier == -1 and dice.purpose == "WC-3 unit morale of b-guards: d6-1 against QV 3"
    assert (marker.kind, marker.location) == ("unit_casualty", "8,30")


# ---- what the service does as the marker arrives, what a step waits for, a unit's info ---

WHOLE = FILE


def every_step() -> list[str]:
    return list(PYTHON.sequence.steps())


def test_advancing_to_each_step_does_what_the_python_ruleset_does_there() -> None:
    """The stand-down of the acting unit, and the phase passing at once at an activation's
    actions when no unit activated or the activation failed (WC-9)."""
    rng = random.Random("wing-command arrivals")
    passed = stood_down = 0
    for _ in range(120):
        for step in every_step():
            state, table = board(rng, step)
            python = outcome(PYTHON, cmd.Advance(), state, table, "referee")
            assert outcome(WHOLE, cmd.Advance(), state, table, "referee") == python, step
            if isinstance(python, list):
                passed += any(body.get("rule") == "WC-9" and name == "PhaseAdvanced"
                              for name, body in python)
                stood_down += any(name == "UnitStatusChanged" for name, _ in python)
    assert passed >= 20 and stood_down >= 20


def test_each_step_waits_for_what_the_python_ruleset_says() -> None:
    rng = random.Random("wing-command expects")
    said = set()
    for _ in range(60):
        for step in every_step():
            state, _ = board(rng, step)
            if rng.random() < 0.2:
                state = state.model_copy(update={"awaiting": Awaiting(
                    what="WC-7 fire of f-line-1 at b-guards-2: read the fire result",
                    rule="WC-7", by="french")})
            if step == "initiative" and rng.random() < 0.3:
                state = state.model_copy(update={"initiative_groups": (SIDES,)})
            python = PYTHON.expects(state) if PYTHON.expects else []
            assert WHOLE.expects is not None and WHOLE.expects(state) == python, step
            said.add(python[0])
    assert len(said) >= 25  # most of its sentences were said


def test_each_unit_shows_what_the_python_ruleset_computes() -> None:
    rng = random.Random("wing-command unit info")
    checks = set()
    for _ in range(200):
        state, _ = board(rng, STEPS["unit_morale"])
        for unit in state.units.values():
            assert PYTHON.unit_info is not None and WHOLE.unit_info is not None
            python = PYTHON.unit_info(state, unit)
            assert WHOLE.unit_info(state, unit) == python, unit.id
            checks.add(python.get("morale_check"))
    assert checks == {True, False, None}


# ---- the actions the file says it does: fire, close combat, removal, moves ---------------

FULL = FILE
ACTION_STEPS = {
    "fire": ("actions", "fire_combat"),
    "resolve_combat": ("close_combat",),
    "remove_unit": ("e_line_command", "actions", "fire_combat", "close_combat"),
    "move_unit": ("a_reposition", "d_corner_lock", "e_line_command", "actions",
                  "close_combat", "officers"),
}


def path_of(step: str) -> str:
    return next(p for p in every_step() if p.endswith(f"/{step}"))


def pieces_of(state: MatchState, rng: random.Random, side: str | None, most: int) -> list[str]:
    ids = [u.id for u in state.in_play(side) if u.kind == "piece"]
    return rng.sample(ids, rng.randint(1, min(most, len(ids))))


def action_for(rng: random.Random, kind: str, state: MatchState) -> Any:
    active = state.turn.active_side
    other = next(s for s in SIDES if s != active)
    ids = [*state.units]
    table = rng.random() < 0.7
    if kind == "fire":
        count = 2 if rng.random() < 0.9 else 3
        return cmd.Fire(unit_id=rng.choice(ids), target_id=rng.choice([*ids, None]),
                        differential=rng.randint(-3, 3),
                        modifier=0 if rng.random() < 0.9 else 1,
                        source="table" if table else "server",
                        results=[rng.randint(1, 6) for _ in range(count)] if table else None)
    if kind == "resolve_combat":
        attackers = pieces_of(state, rng, active if rng.random() < 0.8 else None, 3)
        defenders = pieces_of(state, rng, other if rng.random() < 0.8 else None, 2)
        odds = (f"{len(attackers)}:{len(defenders)}" if rng.random() < 0.85
                else f"{len(attackers) + 1}:{len(defenders)}")
        count = len(attackers) + len(defenders)
        modifiers = rng.choice([{}, {"dC": rng.randint(-3, 3)}, {"dC": 1, "x": 1}])
        return cmd.ResolveCombat(attackers=attackers, defenders=defenders, odds=odds,
                                 modifiers=modifiers, source="table" if table else "server",
                                 results=[rng.randint(1, 6) for _ in range(count)]
                                 if table else None)
    if kind == "remove_unit":
        boxed = {"to_box": "eliminated"} if rng.random() < 0.3 else {}
        return cmd.RemoveUnit(unit_id=rng.choice(ids), reason=rng.choice(
            ["casualty", "destroyed", "eliminated", "withdrawn"]), **boxed)
    return cmd.MoveUnit(unit_id=rng.choice(ids), to={"x": rng.randint(0, 40),
                                                     "y": rng.randint(0, 40)})


@pytest.mark.parametrize("kind", sorted(ACTION_STEPS))
def test_each_action_the_file_does_does_what_the_python_ruleset_does(kind: str) -> None:
    rng = random.Random(f"wing-command {kind}")
    made = refused = 0
    for _ in range(250):
        state, table = board(rng, path_of(rng.choice(ACTION_STEPS[kind])))
        for actor in (*SIDES, "referee"):
            given = action_for(rng, kind, state)
            python = outcome(PYTHON, given, state, table, actor)
            assert outcome(FULL, given, state, table, actor) == python, (given, actor)
            made += isinstance(python, list)
            refused += not isinstance(python, list)
    assert made >= 20 and refused >= 20


def test_the_initiative_is_rolled_as_the_python_ruleset_rolls_it() -> None:
    """WC-1 through the file's `initiative:` block: d6 + the CO's LV, ties re-rolled."""
    rng = random.Random("wing-command initiative")
    tied = 0
    for _ in range(200):
        state, table = board(rng, "initiative")
        state = state.model_copy(update={"this_turn": ()})
        if rng.random() < 0.3:
            state = state.model_copy(update={"initiative_groups": (SIDES,)})
        for actor in (*SIDES, "referee"):
            faces = {side: rng.randint(1, 6) for side in SIDES}
            given = (cmd.RollInitiative(source="table", results=faces) if rng.random() < 0.8
                     else cmd.RollInitiative())
            python = outcome(PYTHON, given, state, table, actor)
            assert outcome(FILE, given, state, table, actor) == python, (given, actor)
            tied += isinstance(python, list) and len(python[0][1]["ranking"]) == 1
    assert tied >= 10


def test_the_file_plays_the_python_rulesets_sequence_sides_and_words() -> None:
    assert FILE.sequence == PYTHON.sequence
    assert FILE.sides == PYTHON.sides
    assert {name: FILE.rolls[name].steps for name in FILE.rolls} == {
        name: roll.steps for name, roll in PYTHON.rolls.items()}
    assert {name: FILE.rolls[name].rule for name in FILE.rolls} == {
        name: roll.rule for name, roll in PYTHON.rolls.items()}
    assert set(FILE.on_enter) == set(PYTHON.on_enter)
    assert FILE.where == PYTHON.where
