"""The extended sequence's file says its Combat Phase refusals as guards (expressions over
the view of the match, domain/rulefiles/behaviour.py): on the states its demo reaches, at
every step of two game turns, with fire markers and an announced reinforcement among the
units, the file's guards refuse exactly what the Python ruleset's `check` refuses, as the
same kind of refusal naming the same rule, for every seat and every unit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Table

from domain import commands as cmd
from domain.errors import DomainError
from domain.rulefiles.behaviour import behaviour
from domain.rulesets import get_ruleset
from domain.rulesets.extended_sequence_combat import FIRE_MARKERS
from domain.rulesets.extended_sequence_combat import check as python_check
from domain.sequence import following
from domain.state import MatchState, Position
from projections.rulefile_load import BUILT_IN, check_file

DEMO = json.loads((Path(__file__).parents[2] / "api" / "scenarios"
                   / "extended-sequence-demo.json").read_text())
Check = Callable[[cmd.Command, MatchState, str], None]


def file_check() -> Check:
    report = check_file(BUILT_IN / "extended-sequence.yaml")
    assert report.ruleset is not None, report.lines()
    checks = behaviour(report.ruleset)["checks"]
    assert len(checks) == 1
    check: Check = checks[0]
    return check


def demo_states() -> list[MatchState]:
    """Every step of two game turns of the demo; at each, the demo's units as set up, and
    with fire markers on two units and one reinforcement announced."""
    sides = tuple(side["id"] for side in DEMO["sides"])
    table = Table(ruleset="extended-sequence", sides=sides, units=DEMO["units"])
    ruleset = get_ruleset("extended-sequence", {})
    state = table.state
    states = []
    while state.turn.turn <= 2:
        units = dict(state.units)
        units["g-hmg"] = units["g-hmg"].model_copy(update={"markers": {"prepared_fire": 1}})
        units["g-rifles-1"] = units["g-rifles-1"].model_copy(update={"markers": {"halted": 1},
                                                                     "status": ("pinned",)})
        units["g-stug"] = units["g-stug"].model_copy(update={"extra": {"rof": 2,
                                                                       "entry": "north"}})
        states += [state, state.model_copy(update={"units": units})]
        state = state.model_copy(update={"turn": following(
            ruleset.sequence, state.turn, state, ruleset.conditions)})
    return states


def said(check: Check, command: cmd.Command, state: MatchState, actor: str
         ) -> tuple[str, str | None] | None:
    try:
        check(command, state, actor)
    except DomainError as error:
        return type(error).__name__, error.rule
    return None


def commands(state: MatchState) -> list[cmd.Command]:
    out: list[Any] = [cmd.MoveUnit(unit_id=u, to=Position(hex="0101")) for u in state.units]
    for kind in (*FIRE_MARKERS, "suppression"):
        out += [cmd.PlaceMarker(kind=kind, unit_id="g-hmg"),
                cmd.RemoveMarker(kind=kind, unit_id="g-hmg")]
    return out


def test_the_demo_reaches_every_kind_of_refusal_the_guards_say() -> None:
    """The comparison below is worth something: the Python check refuses on these states
    for each of its reasons, and lets other actions through."""
    states = demo_states()
    seen = {said(python_check, c, s, side) for s in states for c in commands(s)
            for side in ("germans", "soviets")}
    assert {None, ("InvalidAction", "ES-5"), ("NotYourTurn", "ES-4"),
            ("InvalidAction", "ES-4"), ("InvalidAction", "ES-1")} <= seen


@pytest.mark.parametrize("actor", ["germans", "soviets", "referee"])
def test_the_files_guards_refuse_as_the_python_ruleset_on_the_demos_states(actor: str) -> None:
    guards = file_check()
    differ = [(state.turn.step, command.type, getattr(command, "unit_id", None),
               getattr(command, "kind", None), said(python_check, command, state, actor),
               said(guards, command, state, actor))
              for state in demo_states() for command in commands(state)
              if said(python_check, command, state, actor) != said(guards, command, state,
                                                                     actor)]
    assert differ == []


def test_a_guard_refuses_with_its_rule_and_its_sentence() -> None:
    state = demo_states()[0]
    with pytest.raises(DomainError) as refused:
        file_check()(cmd.PlaceMarker(kind="halted", unit_id="g-hmg"), state, "germans")
    assert refused.value.rule == "ES-5"
    # the kind named, as the Python ruleset names it (the legal actions read a refusal that
    # names the value tried as one about that value)
    assert refused.value.detail == ("ES-5: the service places and removes 'halted' markers "
                                    "itself")
