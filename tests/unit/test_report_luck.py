"""Luck verdicts only where the sample supports one (docs/reports.md, "Luck"): the exact tails
of a sum of fair dice, the 5% two-sided test, and "too few dice to judge" below 30 dice
unless the dice are far off."""

from __future__ import annotations

import itertools

import pytest

from projections.dice_stats import summary
from projections.luck import EXACT_UP_TO, JUDGED_FROM, LEVEL, judge, tails, ways_at_most


def every_roll(n: int, sides: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, sides + 1), repeat=n))


def sum_distribution(n: int, faces: list[int]) -> dict[int, float]:
    """The sum of n dice, each showing one of `faces` with equal chance."""
    out = {0: 1.0}
    for _ in range(n):
        step: dict[int, float] = {}
        for total, p in out.items():
            for face in faces:
                step[total + face] = step.get(total + face, 0.0) + p / len(faces)
        out = step
    return out


def faces_summing(total: int, n: int, sides: int) -> list[int]:
    """n faces of `sides`-sided dice that add up to `total`."""
    faces, rest = [], total - n
    for _ in range(n):
        extra = min(sides - 1, rest)
        faces.append(1 + extra)
        rest -= extra
    return faces


def test_three_dice_are_too_few_to_judge() -> None:
    said = summary([5, 4, 5], 6)
    assert said["verdict"] == "too few dice"
    assert said["luck"].startswith("too few dice to judge (mean 4.67 against 3.50")


@pytest.mark.parametrize(("n", "sides"), [(1, 6), (2, 6), (3, 6), (4, 6), (3, 4), (5, 2), (2, 20)])
def test_the_tails_are_the_share_of_every_possible_roll(n: int, sides: int) -> None:
    rolls = every_roll(n, sides)
    for total in range(n - 1, n * sides + 2):
        at_most = sum(1 for r in rolls if sum(r) <= total)
        at_least = sum(1 for r in rolls if sum(r) >= total)
        assert ways_at_most(total, n, sides) == at_most
        assert tails(total, n, sides) == pytest.approx((at_most / len(rolls), at_least / len(rolls)))


def test_beyond_the_exact_sums_the_approximation_agrees_to_a_thousandth() -> None:
    n, sides = EXACT_UP_TO + 50, 6
    every = sides**n
    for total in range(n * 3, n * 4 + 1, 20):
        low, high = tails(total, n, sides)
        assert low == pytest.approx(ways_at_most(total, n, sides) / every, abs=1e-3)
        assert high == pytest.approx(1 - ways_at_most(total - 1, n, sides) / every, abs=1e-3)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_fair_dice_are_called_lucky_or_unlucky_less_than_one_time_in_twenty(n: int) -> None:
    rolls = every_roll(n, 6)
    judged = sum(1 for r in rolls if judge(list(r), 6).verdict in ("luckier", "unluckier"))
    assert judged / len(rolls) <= LEVEL


def test_far_off_dice_are_judged_however_few() -> None:
    assert judge([6, 6, 6], 6).verdict == "luckier"
    cursed = judge([1] * 12, 6)
    assert cursed.verdict == "unluckier" and cursed.words.endswith("less than 0.1% of the time")
    assert judge([6, 6], 6).verdict == "too few dice"  # fair dice do that 1 time in 18, both ways


def test_about_as_expected_takes_thirty_dice() -> None:
    near = [3, 4] * (JUDGED_FROM // 2)
    assert judge(near, 6).verdict == "as expected"
    assert judge(near[:-1], 6).verdict == "too few dice"
    assert judge(near, 6).words.startswith("about as expected (mean 3.50 against 3.50)")


@pytest.mark.parametrize(("n", "percent"), [(JUDGED_FROM, 97), (20, 81), (10, 34)])
def test_thirty_dice_catch_a_die_a_face_too_high_nearly_always(n: int, percent: int) -> None:
    """docs/reports.md: a d6 that never rolls 1 or 2 (mean 4.5) is called luckier 97 times
    in 100 in 30 dice; in 10 dice only 34 times, so fewer dice get no verdict."""
    caught = sum(p for total, p in sum_distribution(n, [3, 4, 5, 6]).items()
                 if judge(faces_summing(total, n, 6), 6).verdict == "luckier")
    assert round(caught * 100) == percent
