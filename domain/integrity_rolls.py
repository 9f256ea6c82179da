"""What a server roll's faces must be (docs/integrity.md), for `domain.integrity.verify`:
recomputed from its seed, the players' entropy and its roll index (`server_faces`), read in
the order its dice were drawn (`InitiativeOrder`, `faces_of`). Pure."""

from __future__ import annotations

from typing import Any

from domain.dice import SeededDice, parse


def server_faces(seed: bytes, entropy: tuple[str, ...], body: dict[str, Any]) -> list[Any] | None:
    """What a server roll event's dice must be, recomputed; None if it holds no server roll."""
    index = body.get("roll_index")
    if index is None:
        return None
    dice = SeededDice(seed, entropy)
    kind = body.get("type")
    if kind == "DiceRolled":
        return dice.roll(parse(body["notation"]), index)
    if kind == "InitiativeRolled":
        return dice.roll(parse(f"{len(body['dice'])}d6"), index)
    if kind == "DeckShuffled" and body.get("order") is not None:
        return dice.shuffle(sorted(body["order"]), f"shuffle:{index}")
    return None


class InitiativeOrder:
    """The order an initiative roll drew its dice in, which its event's `dice` (a mapping,
    written with its keys sorted) does not keep: every side in the match's order, or, for a
    re-roll, the tied sides of the roll before it in its ranking's order (as
    `domain.rulesets.base` rolls them). (ours) An undone tied roll followed by a fresh one
    is told apart by its sides: a fresh roll is every side's."""

    def __init__(self) -> None:
        self.sides: list[Any] = []
        self.tied: list[Any] = []

    def ordered(self, body: dict[str, Any]) -> dict[str, Any]:
        """`body` with its `dice` in the order they were drawn."""
        dice = body.get("dice")
        if not isinstance(dice, dict):
            return body
        order = self.tied if set(self.tied) == set(dice) else [
            s for s in self.sides if s in dice]
        if len(order) != len(dice):
            order = sorted(dice)
        ranking = [g for g in body.get("ranking") or () if isinstance(g, list)]
        self.tied = [s for g in ranking if len(g) > 1 for s in g]
        return {**body, "dice": {s: dice[s] for s in order}}


def faces_of(body: dict[str, Any]) -> list[Any]:
    if body["type"] == "InitiativeRolled":
        return list(body["dice"].values())
    if body["type"] == "DeckShuffled":
        return list(body["order"])
    return list(body["dice"])
