"""`extended-sequence`'s game turn, walked in memory: one Combat Phase (player-turn) per side
with the roles following it, or one for a fixed attacker; who moves the marker at every
step; and a match created with `roles` (as every match was before) still loads."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table

from domain.rulesets import get_ruleset
from domain.rulesets.extended_sequence_steps import roles_now
from domain.sequence import following

FIXED = {"roles": {"attacker": "blue", "defender": "red"}}


def game_turn(options: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """Every step of turn 1, with the roles in force there."""
    ruleset = get_ruleset("extended-sequence", options)
    state = Table(ruleset="extended-sequence", options=options).state
    seen = []
    while state.turn.turn == 1:
        seen.append((state.turn.step, roles_now(state)))
        state = state.model_copy(update={"turn": following(
            ruleset.sequence, state.turn, state, ruleset.conditions)})
    return seen


def combat_roles(seen: list[tuple[str, dict[str, str]]]) -> list[dict[str, str]]:
    return [roles for step, roles in seen if step == "combat/prepared_fire"]


def test_each_game_turn_has_a_player_turn_per_side_in_the_scenarios_side_order() -> None:
    seen = game_turn({})
    assert combat_roles(seen) == [{"attacker": "red", "defender": "blue"},
                                  {"attacker": "blue", "defender": "red"}]
    steps = [step for step, _ in seen]
    assert steps.count("initial/weather") == steps.count("rally/repair") == 1
    assert steps.count("combat/advance") == 2 and steps[-1] == "admin/victory"
    assert dict(seen)["initial/weather"] == {}  # both sides act there; no role holds


def test_fixed_roles_give_one_player_turn_to_the_fixed_attacker() -> None:
    seen = game_turn(FIXED)
    assert combat_roles(seen) == [FIXED["roles"]]
    assert [step for step, _ in seen].count("combat/advance") == 1


@pytest.mark.parametrize("options", [{}, FIXED], ids=["per-side", "fixed"])
def test_every_step_says_who_moves_the_marker(options: dict[str, Any]) -> None:
    sequence = get_ruleset("extended-sequence", options).sequence
    ambiguous = [path for path in sequence.steps() if not (
        sequence.step(path).shared or sequence.step(path).acting != "any"
        or sequence.step(path).advanced_by)]
    assert ambiguous == []


def test_both_sequences_have_the_same_steps_so_older_matches_load() -> None:
    fixed = get_ruleset("extended-sequence", FIXED).sequence.steps()
    assert get_ruleset("extended-sequence", {}).sequence.steps() == fixed
    assert fixed[0] == "initial/weather" and fixed[-1] == "admin/victory"
