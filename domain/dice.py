"""Dice: notation (`d6`, `2d6`, `d10+1`, `3d6-2`; d4..d20 and d100) and dice sources.

A dice source turns (spec, roll index) into die faces, and shuffles cards. The server's
source is seeded per match and derives roll number i from the seed, the entropy the players
gave when they joined, and i (HMAC-SHA-256, rejection sampling: no modulo bias), so every
server roll can be recomputed later from the revealed seed (docs/integrity.md). Cards are
shuffled from a seed of their own (`MatchDice`), so that revealing the dice seed mid-match
discloses no hand and no deck order.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from domain.errors import InvalidAction

DIE_SIDES = (4, 6, 8, 10, 12, 20, 100)
MAX_DICE = 100
MAX_MODIFIER = 1000
T = TypeVar("T")
_NOTATION = re.compile(r"^(\d*)d(\d+)(?:([+-])(\d+))?$")


@dataclass(frozen=True, slots=True)
class DiceSpec:
    count: int
    sides: int
    modifier: int = 0

    @property
    def notation(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        count = str(self.count) if self.count != 1 else ""
        return f"{count}d{self.sides}{mod}"


def parse(notation: str) -> DiceSpec:
    """Parse dice notation; raise `InvalidAction` naming what is allowed."""
    match = _NOTATION.match(notation.strip().lower().replace(" ", ""))
    if match is None:
        raise InvalidAction(
            f"'{notation}' is not dice notation; write e.g. d6, 2d6, d10+1 or 3d6-2",
            rule="core-dice",
        )
    count = int(match[1]) if match[1] else 1
    sides = int(match[2])
    modifier = int(match[4]) * (-1 if match[3] == "-" else 1) if match[4] else 0
    if sides not in DIE_SIDES:
        raise InvalidAction(
            f"d{sides} is not a die battlelog rolls",
            rule="core-dice",
            allowed=[f"d{s}" for s in DIE_SIDES],
        )
    if not 1 <= count <= MAX_DICE:
        raise InvalidAction(f"roll between 1 and {MAX_DICE} dice at once", rule="core-dice")
    if abs(modifier) > MAX_MODIFIER:
        raise InvalidAction(f"a modifier is at most ±{MAX_MODIFIER}", rule="core-dice")
    return DiceSpec(count, sides, modifier)


class DiceSource(Protocol):
    def roll(self, spec: DiceSpec, index: int) -> list[int]:
        """The faces of roll number `index` (0-based, counted over the match's log)."""
        ...

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        """`items` in an order drawn for `label` (e.g. `shuffle:<roll index>`)."""
        ...


@dataclass(frozen=True, slots=True)
class SeededDice:
    """Reproducible server dice: face = uniform draw from HMAC-SHA-256(key, index/die/try).
    The key is the seed; once players have given entropy, it is HMAC-SHA-256(seed,
    "battlelog-entropy:" + the JSON list of their entropy strings in the order they joined)."""

    seed: bytes
    entropy: tuple[str, ...] = ()
    key: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = self.seed
        if self.entropy:
            mixed = "battlelog-entropy:" + json.dumps(list(self.entropy), ensure_ascii=False)
            key = hmac.new(self.seed, mixed.encode(), hashlib.sha256).digest()
        object.__setattr__(self, "key", key)

    def roll(self, spec: DiceSpec, index: int) -> list[int]:
        return [self._die(spec.sides, index, die) for die in range(spec.count)]

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        """Fisher-Yates, each swap an unbiased draw from HMAC-SHA-256(seed, label/position)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self._draw(i + 1, f"battlelog-{label}:{i}") - 1
            out[i], out[j] = out[j], out[i]
        return out

    def _die(self, sides: int, index: int, die: int) -> int:
        return self._draw(sides, f"battlelog-roll:{index}:{die}")

    def _draw(self, sides: int, name: str) -> int:
        # Largest multiple of `sides` below 2**64: draws at or above it are rejected.
        limit = (1 << 64) - ((1 << 64) % sides)
        attempt = 0
        while True:
            message = f"{name}:{attempt}".encode()
            digest = hmac.new(self.key, message, hashlib.sha256).digest()
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % sides + 1
            attempt += 1


@dataclass(frozen=True, slots=True)
class MatchDice:
    """A match's server dice: rolls from the dice seed's source, shuffles from the card
    seed's (docs/integrity.md: what is revealed when)."""

    rolls: DiceSource
    cards: DiceSource

    def roll(self, spec: DiceSpec, index: int) -> list[int]:
        return self.rolls.roll(spec, index)

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        return self.cards.shuffle(items, label)


def commitment(seed: bytes) -> str:
    """The public commitment to a dice seed: its SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


@dataclass(frozen=True, slots=True)
class UnknownDice:
    """The dice of an imported match whose seed was never revealed: nothing can be rolled
    until the referee commits a fresh seed (`POST .../dice/reveal`)."""

    def roll(self, spec: DiceSpec, index: int) -> list[int]:
        raise InvalidAction("this imported match's dice seed is not known here: the referee "
                            "commits a fresh one first (POST .../dice/reveal)", rule="core-dice")

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        return self.roll(DiceSpec(1, 6), 0)  # type: ignore[return-value]  # always raises


@dataclass(frozen=True, slots=True)
class UnknownCards:
    """The cards of a match with no secret card seed in force: an imported match's that was
    never revealed, or a reopened match's that its end revealed (and no fresh one was
    committed). Its decks cannot be shuffled: the order would be known or unknowable."""

    def roll(self, spec: DiceSpec, index: int) -> list[int]:
        raise InvalidAction("this source only shuffles cards", rule="core-dice")

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        raise InvalidAction("no secret card seed is in force here (an imported match's is "
                            "not known until its end; a reopened match's was revealed when "
                            "it ended): the decks cannot be shuffled", rule="core-cards")
