"""A file's `cards:` as the referee's: the `Ruleset`'s `hand_size` (the core's draw takes
that many less the hand), the refusals of its step (a discard after drawing, a `count`, a
second draw, a side done before its hand is full) and the condition `filled`."""

from __future__ import annotations

from typing import Any

from domain import commands as cmd
from domain.context import own_side
from domain.errors import InvalidAction
from domain.rulefiles.evaluate import Roles, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.per_side import whole_for_side
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.types import INT, STRING
from domain.rulefiles.view import Declared, types
from domain.state import MatchState

HAND_MOST = 100  # (ours) a hand size read past this is refused, not drawn


def cards_of(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Any]:
    """The `Ruleset` fields the file's cards build (`hand_size`, `checks`, `conditions`)."""
    block = file.cards
    if block is None:
        return {}
    size = whole_for_side(compile_expression(
        block.hand_size, {**types(declared), "side": STRING}, INT, declared, roles),
        block.rule, "the hand size", HAND_MOST)
    steps = tuple(p for p in sequence_of(file).steps() if p.rsplit("/", 1)[-1] == block.step)

    def full(state: MatchState, side: str) -> bool:
        """(ours) A side whose deck has run out holds what it has."""
        return (state.done(f"drawn:{side}") or not state.decks.get(side)
                or len(state.hands.get(side, ())) >= size(state, side))

    def check(command: cmd.Command, state: MatchState, actor: str) -> None:
        rule = block.rule
        if (block.discard_before_draw and isinstance(command, cmd.DiscardCards)
                and state.done(f"drawn:{actor}")):
            raise InvalidAction(f"{rule}: discard before drawing; you have drawn this round",
                                rule=rule)
        if isinstance(command, cmd.DrawCards):
            side = own_side(state, actor, rule)
            if command.count is not None:
                raise InvalidAction(f"{rule}: the service draws up to your hand size "
                                    f"({size(state, side)}); leave out 'count'", rule=rule)
            if state.done(f"drawn:{side}"):
                raise InvalidAction(f"{rule}: you have drawn this round", rule=rule)
        if (isinstance(command, cmd.Advance) and state.turn.step in steps
                and actor in state.side_ids() and not full(state, actor)):
            raise InvalidAction(f"{rule}: draw up to your hand size ({size(state, actor)}) "
                                "before you say you are done", rule=rule)

    out: dict[str, Any] = {"hand_size": size, "checks": (check,)}
    if block.filled is not None:
        out["conditions"] = {block.filled: lambda s: all(full(s, side)
                                                         for side in s.side_ids())}
    return out
