"""Atomic Africa's procedures (RULES.md AA-2 to AA-7) as pure arithmetic.

The sequence of play and the actions that use these come with the `atomic-africa` ruleset
(issue 4); this module is the arithmetic the service computes for the players: the morale
die after wound shifts, who must split, how a unit splits, and what a morale roll needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from domain.state import MoraleDie

CHAIN: tuple[MoraleDie, ...] = ("d12", "d10", "d8", "d6", "d4")  # AA-2, best first
WOUND = "wound"
SUPPRESSION = "suppression"
MIN_SPLIT_FIGURES = 6  # AA-4: fewer than six figures cannot split
Half = Literal["first", "second"]


def morale_die(base: MoraleDie, wounds: int) -> MoraleDie | None:
    """AA-2: each wound shifts the base die one type down the chain; None when the wounds
    would shift it below d4 (AA-3: the unit must split)."""
    index = CHAIN.index(base) + wounds
    return CHAIN[index] if index < len(CHAIN) else None


def must_split(base: MoraleDie, wounds: int) -> bool:
    return morale_die(base, wounds) is None


@dataclass(frozen=True)
class SplitPlan:
    """AA-3: two units as equal as possible; the owner says which half takes an odd marker."""

    figures: tuple[int, int]
    markers: tuple[dict[str, int], dict[str, int]]


def split_plan(figures: int, markers: dict[str, int],
               odd_to: dict[str, Half] | None = None) -> SplitPlan:
    """Split `figures` and every marker kind as equally as possible. The first unit takes the
    odd figure (11 -> 6 + 5); for an odd count of a marker kind, `odd_to[kind]` says which
    half takes the extra one (the first if not said)."""
    if figures < MIN_SPLIT_FIGURES:
        raise ValueError(f"AA-4: a unit of {figures} figures cannot split")
    first: dict[str, int] = {}
    second: dict[str, int] = {}
    for kind, count in markers.items():
        big, small = (count + 1) // 2, count // 2
        a, b = (big, small) if (odd_to or {}).get(kind, "first") == "first" else (small, big)
        if a:
            first[kind] = a
        if b:
            second[kind] = b
    return SplitPlan(figures=((figures + 1) // 2, figures // 2), markers=(first, second))


def morale_succeeds(score: int, suppression: int) -> bool:
    """AA-7: the roll succeeds when the score is greater than the suppression markers."""
    return score > suppression


def success_chance(die: MoraleDie, suppression: int) -> Fraction:
    """The chance that a morale roll on `die` succeeds against `suppression` markers."""
    sides = int(die[1:])
    return Fraction(max(0, sides - suppression), sides)
