"""Dice notation and the seeded server dice."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from domain.dice import DIE_SIDES, DiceSpec, SeededDice, commitment, parse
from domain.errors import InvalidAction


@pytest.mark.parametrize(("notation", "spec"), [
    ("d6", DiceSpec(1, 6, 0)), ("2d6", DiceSpec(2, 6, 0)), ("d10+1", DiceSpec(1, 10, 1)),
    ("3d6-2", DiceSpec(3, 6, -2)), ("D20", DiceSpec(1, 20, 0)), ("d100", DiceSpec(1, 100, 0)),
    (" 2 d 8 + 3 ", DiceSpec(2, 8, 3)),
])
def test_notation_is_parsed(notation: str, spec: DiceSpec) -> None:
    assert parse(notation) == spec


def test_canonical_notation_round_trips() -> None:
    for text in ("d6", "2d6", "d10+1", "3d6-2"):
        assert parse(text).notation == text


@pytest.mark.parametrize("notation", ["d7", "0d6", "101d6", "2d", "d6+1001", "roll", "d6*2"])
def test_bad_notation_is_refused_naming_the_rule(notation: str) -> None:
    with pytest.raises(InvalidAction) as refused:
        parse(notation)
    assert refused.value.rule == "core-dice"


def test_server_dice_are_reproducible_per_seed_and_index() -> None:
    spec = DiceSpec(5, 6)
    dice = SeededDice(b"seed")
    assert dice.roll(spec, 7) == SeededDice(b"seed").roll(spec, 7)
    rolls = {tuple(dice.roll(spec, i)) for i in range(50)}
    assert len(rolls) > 40  # different indexes give different rolls
    assert dice.roll(spec, 7) != SeededDice(b"other").roll(spec, 7) or \
        dice.roll(spec, 8) != SeededDice(b"other").roll(spec, 8)


@pytest.mark.parametrize("sides", DIE_SIDES)
def test_every_face_comes_up_and_none_outside(sides: int) -> None:
    faces = Counter(f for i in range(sides * 40) for f in SeededDice(b"s").roll(DiceSpec(1, sides), i))
    assert set(faces) <= set(range(1, sides + 1))
    assert len(faces) == sides


def test_d6_is_uniform_by_chi_square() -> None:
    n = 24_000
    faces = Counter(SeededDice(b"chi").roll(DiceSpec(1, 6), i)[0] for i in range(n))
    chi2 = sum((faces[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert chi2 < 20.515  # critical value for 5 degrees of freedom at p = 0.001


def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()
