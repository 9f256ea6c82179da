"""Atomic Africa's arithmetic (AA-2 to AA-7), with the worked examples AA-X1 and AA-X2."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.rulesets.atomic_africa import (
    morale_die,
    morale_succeeds,
    must_split,
    split_plan,
    success_chance,
)


def test_each_wound_shifts_the_morale_die_one_type_down_the_chain() -> None:
    assert [morale_die("d12", w) for w in range(6)] == ["d12", "d10", "d8", "d6", "d4", None]
    assert morale_die("d4", 0) == "d4" and morale_die("d4", 1) is None


def test_worked_example_AA_X1() -> None:
    """AA-X1: an 11-figure squad, base Morale d10, carries 2 wound counters; it takes 3 more
    wounds (5 in all) and ends with 4 suppression markers. Three wounds take d10 to d4; the
    fourth forces a split. Result: fireteams of 6 and 5 figures, 2 + 2 suppression markers,
    wounds 3 + 2 (owner's choice of which takes 3)."""
    assert morale_die("d10", 3) == "d4"
    assert not must_split("d10", 3) and must_split("d10", 4) and must_split("d10", 2 + 3)
    plan = split_plan(11, {"wound": 5, "suppression": 4})
    assert plan.figures == (6, 5)
    assert plan.markers == ({"wound": 3, "suppression": 2}, {"wound": 2, "suppression": 2})
    chosen = split_plan(11, {"wound": 5, "suppression": 4}, odd_to={"wound": "second"})
    assert chosen.markers == ({"wound": 2, "suppression": 2}, {"wound": 3, "suppression": 2})
    # AA-6 (ours): each new fireteam is checked again; neither must split (3 -> d4, 2 -> d6).
    assert [morale_die("d10", w) for w in (3, 2)] == ["d4", "d6"]


def test_worked_example_AA_X2() -> None:
    """AA-X2: base d10, 3 wound counters, 3 suppression markers. The Morale roll uses a d4;
    only a 4 exceeds 3, so one marker is discarded with probability 1/4."""
    die = morale_die("d10", 3)
    assert die == "d4"
    assert [s for s in range(1, 5) if morale_succeeds(s, 3)] == [4]
    assert success_chance(die, 3) == Fraction(1, 4)


def test_a_unit_under_six_figures_cannot_split() -> None:
    with pytest.raises(ValueError, match="AA-4"):
        split_plan(5, {"wound": 5})
    assert split_plan(6, {}).figures == (3, 3)


def test_the_owner_says_which_half_takes_an_odd_figure_as_for_a_marker() -> None:
    """AA-3: the split is the service's own (domain.context.evenly); the odd figure, like
    an odd marker, goes to the half the owner says."""
    plan = split_plan(11, {"wound": 5, "suppression": 3},
                      odd_to={"figures": "second", "suppression": "second"})
    assert plan.figures == (5, 6)
    assert plan.markers == ({"wound": 3, "suppression": 1}, {"wound": 2, "suppression": 2})
