"""Wing command's arithmetic at its boundaries (WC-3, WC-6, WC-8), and its sequence: step 4
split into actions, fire combat and close combat; a die roll (WC-11) allowed everywhere."""

from __future__ import annotations

import pytest

from domain.rulesets.wing_command import SEQUENCE
from domain.rulesets.wing_command_rolls import (
    activation_passes,
    morale_modifier,
    morale_triggered,
    special_moves,
)


@pytest.mark.parametrize(("disrupted", "cv", "triggered", "modifier"), [
    (1, 2, False, 0), (2, 2, True, 0), (3, 2, True, -1), (5, 2, True, -3), (0, 0, True, 0)])
def test_wc3_morale_is_triggered_at_the_casualty_value_and_minus_1_per_piece_beyond(
        disrupted: int, cv: int, triggered: bool, modifier: int) -> None:
    assert morale_triggered(disrupted, cv) is triggered
    assert morale_modifier(disrupted, cv) == modifier


@pytest.mark.parametrize(("face", "moves"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_wc8_special_move_table(face: int, moves: int) -> None:
    assert special_moves(face) == moves


def test_wc6_leadership_cubes_go_to_the_failing_dice_closest_to_the_qv() -> None:
    assert activation_passes([3, 1, 5], 4, 0) == ([3, 1, 5], 1)
    assert activation_passes([3, 1, 5], 4, 1) == ([4, 1, 5], 2)
    assert activation_passes([3, 1, 5], 4, 2) == ([4, 2, 5], 2)
    assert activation_passes([6, 6], 4, 3) == ([6, 6], 2)  # nothing to raise


def test_wc7_step_4_is_three_steps_in_the_texts_order_inside_each_activation() -> None:
    steps = SEQUENCE.steps()
    run = [s for s in steps if s.startswith("phase/activations/")]
    assert run == ["phase/activations/activate", "phase/activations/actions",
                   "phase/activations/fire_combat", "phase/activations/close_combat",
                   "phase/activations/officers"]
    assert [SEQUENCE.step(s).rule for s in run] == ["WC-6", "WC-7", "WC-7", "WC-7", "WC-8"]


def test_wc11_every_step_takes_a_die_roll_for_what_the_rules_do_not_cover() -> None:
    assert [s for s in SEQUENCE.steps() if "roll_dice" not in SEQUENCE.step(s).allows] == []
