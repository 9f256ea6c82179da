"""Normandy's arithmetic at its boundaries (NO-2 reserve allowance and full strength, NO-2/NO-3
regroup, NO-4 city VP)."""

from __future__ import annotations

import pytest

from domain.rulesets.normandy_rules import city_vp, full_steps, regroup_flips, reserve_allowance
from domain.state import Unit


@pytest.mark.parametrize(("turn", "cities", "vp"), [(1, 2, 0), (3, 2, 0), (4, 2, 2), (8, 1, 1),
                                                    (4, 0, 0)])
def test_no4_city_vp_on_every_fourth_turn(turn: int, cities: int, vp: int) -> None:
    assert city_vp(turn, cities) == vp


def test_regroup_flips_for_each_side() -> None:
    unit = Unit(id="u", side="german", name="u", markers={"disorganized": 2, "regroup": 1})
    assert regroup_flips(unit, phasing=True) == ({"regroup": 1}, {})
    assert regroup_flips(unit, phasing=False) == ({"disorganized": 2}, {"regroup": 2})


@pytest.mark.parametrize(("movement", "reserve"), [(9, 6), (8, 5), (6, 4), (4, 2), (1, 0),
                                                   (0, 0)])
def test_no2_reserve_units_move_two_thirds_of_their_allowance_rounded_down(
        movement: int, reserve: int) -> None:
    assert reserve_allowance(movement) == reserve
    assert reserve * 3 <= movement * 2 < (reserve + 1) * 3


def test_no2_full_strength_is_a_two_sided_counter_unless_the_unit_says_otherwise() -> None:
    assert full_steps(Unit(id="u", side="allied", name="u", steps=1)) == 2
    assert full_steps(Unit(id="u", side="allied", name="u", steps=1,
                           extra={"full_steps": 4})) == 4

