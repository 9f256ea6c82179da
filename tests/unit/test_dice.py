"""Dice notation (d4..d20, d100; NdM, NdM+K, NdM-K) and the seeded server dice."""

from __future__ import annotations

import hashlib
import math
from collections import Counter

import pytest

from domain.dice import DIE_SIDES, MAX_DICE, DiceSpec, SeededDice, commitment, parse
from domain.errors import DomainError, InvalidAction


@pytest.mark.parametrize(("notation", "count", "sides", "modifier"), [
    ("d6", 1, 6, 0),
    ("2d6", 2, 6, 0),
    ("d10+1", 1, 10, 1),
    ("3d6-2", 3, 6, -2),
    ("D20", 1, 20, 0),
    ("d100", 1, 100, 0),
    ("d4", 1, 4, 0),
    ("4d8+12", 4, 8, 12),
    ("100d12", 100, 12, 0),
    (" 2 d 8 + 3 ", 2, 8, 3),
])
def test_notation_gives_count_sides_and_modifier(
    notation: str, count: int, sides: int, modifier: int
) -> None:
    spec = parse(notation)
    assert (spec.count, spec.sides, spec.modifier) == (count, sides, modifier)


@pytest.mark.parametrize("notation", ["d6", "2d6", "d10+1", "3d6-2", "d100", "12d20+7"])
def test_canonical_notation_reads_back_as_written(notation: str) -> None:
    assert parse(notation).notation == notation
    assert parse(parse(notation).notation) == parse(notation)


def test_lowercase_is_the_canonical_form_of_an_uppercase_die() -> None:
    assert parse("D20").notation == "d20" and parse("2D6+1").notation == "2d6+1"


@pytest.mark.parametrize("notation", [
    "d7",  # not a die battlelog rolls
    "d1", "d3", "d0", "d1000",
    "0d6",  # no dice
    f"{MAX_DICE + 1}d6",  # 101d6: too many
    "2d", "d", "6", "", "roll", "d6*2", "d6+", "2x6", "-d6", "d6+1+1", "d6+1001", "1.5d6",
])
def test_what_is_not_notation_is_refused_naming_the_dice_rule(notation: str) -> None:
    with pytest.raises(InvalidAction) as refused:
        parse(notation)
    assert isinstance(refused.value, DomainError)
    assert refused.value.rule == "core-dice"
    assert refused.value.detail  # says what went wrong


def test_an_unknown_die_refusal_lists_the_dice_that_are_rolled() -> None:
    with pytest.raises(InvalidAction) as refused:
        parse("d7")
    assert refused.value.allowed == [f"d{s}" for s in DIE_SIDES]
    assert set(DIE_SIDES) == {4, 6, 8, 10, 12, 20, 100}


def test_the_same_seed_and_index_give_the_same_roll() -> None:
    spec = DiceSpec(10, 20)
    for index in (0, 1, 7, 10_000):
        assert SeededDice(b"seed").roll(spec, index) == SeededDice(b"seed").roll(spec, index)


def test_different_indexes_give_different_rolls() -> None:
    # Ten d20s: two indexes agree on all ten with chance 20**-10, so a repeat means the index
    # is not part of the derivation.
    dice = SeededDice(b"seed")
    rolls = [tuple(dice.roll(DiceSpec(10, 20), i)) for i in range(200)]
    assert len(set(rolls)) == len(rolls)


def test_different_seeds_give_different_rolls() -> None:
    spec = DiceSpec(10, 20)
    seeds = [f"seed-{n}".encode() for n in range(50)]
    rolls = [tuple(SeededDice(seed).roll(spec, 3)) for seed in seeds]
    assert len(set(rolls)) == len(rolls)


def test_the_dice_of_one_roll_are_drawn_independently() -> None:
    # Thirty d100s in one roll: all equal has chance 100**-29.
    assert len(set(SeededDice(b"seed").roll(DiceSpec(30, 100), 0))) > 1


@pytest.mark.parametrize("sides", DIE_SIDES)
def test_faces_are_always_between_1_and_the_sides_and_every_face_comes_up(sides: int) -> None:
    dice = SeededDice(b"faces")
    faces: Counter[int] = Counter()
    for index in range(sides * 12):
        roll = dice.roll(DiceSpec(5, sides), index)
        assert len(roll) == 5
        faces.update(roll)
    assert min(faces) >= 1 and max(faces) <= sides
    assert set(faces) == set(range(1, sides + 1))  # 60 draws per face: none is missing


def _chi_square_survival_5_df(x: float) -> float:
    """P(X >= x) for a chi-square with 5 degrees of freedom (closed form for odd df)."""
    # Q(5/2, x/2) = erfc(sqrt(x/2)) + exp(-x/2) * (sqrt(2x/pi) * (1 + x/3))
    return math.erfc(math.sqrt(x / 2)) + math.exp(-x / 2) * math.sqrt(2 * x / math.pi) * (
        1 + x / 3)


def test_the_survival_function_used_below_matches_the_tabulated_critical_value() -> None:
    assert _chi_square_survival_5_df(20.515) == pytest.approx(0.001, rel=1e-3)
    assert _chi_square_survival_5_df(11.070) == pytest.approx(0.05, rel=1e-3)


# The chi-square critical values at p = 0.001 for (faces - 1) degrees of freedom.
CRITICAL_0_001 = {4: 16.266, 6: 20.515, 8: 24.322, 10: 27.877, 12: 31.264, 20: 43.820}


def test_the_6_face_critical_value_is_the_one_the_survival_function_gives() -> None:
    assert _chi_square_survival_5_df(CRITICAL_0_001[6]) == pytest.approx(0.001, rel=1e-3)


@pytest.mark.parametrize("sides", sorted(CRITICAL_0_001))
def test_100000_server_rolls_are_consistent_with_a_uniform_die(sides: int) -> None:
    n = 100_000
    dice = SeededDice(b"chi-square", ("ann", "bert"))
    faces = Counter(dice.roll(DiceSpec(1, sides), i)[0] for i in range(n))
    expected = n / sides
    statistic = sum((faces[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    assert statistic < CRITICAL_0_001[sides], (statistic, dict(faces))  # p > 0.001


def test_the_players_entropy_changes_every_roll_and_the_same_entropy_repeats_them() -> None:
    plain, mixed = SeededDice(b"seed"), SeededDice(b"seed", ("ann",))
    spec = DiceSpec(10, 20)
    assert plain.roll(spec, 0) != mixed.roll(spec, 0)
    assert mixed.roll(spec, 0) == SeededDice(b"seed", ("ann",)).roll(spec, 0)
    assert mixed.roll(spec, 0) != SeededDice(b"seed", ("ann", "bert")).roll(spec, 0)


def test_a_biased_die_would_fail_the_same_check() -> None:
    """The check above can fail: a die that never shows a 6 is caught."""
    n = 20_000
    faces = Counter(min(SeededDice(b"chi-square").roll(DiceSpec(1, 6), i)[0], 5)
                    for i in range(n))
    statistic = sum((faces[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert _chi_square_survival_5_df(statistic) < 0.001


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    for seed in (b"", b"abc", bytes(range(32))):
        assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert commitment(b"abc") != commitment(b"abd")
    assert len(commitment(b"abc")) == 64
