"""A file's `initiative:` as the action `roll_initiative`: the core's generic procedure
(`domain.rulesets.base.initiative`) driven by the file's data, its bonus an expression read
for each side and its ranking by totals, or a lone natural face first (BG-3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev
from domain.context import REFEREE, Emit
from domain.errors import InvalidAction, NotYourTurn
from domain.rulefiles.evaluate import Roles, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.per_side import whole_for_side
from domain.rulefiles.types import INT, STRING
from domain.rulefiles.view import Declared, types
from domain.rulesets.base import Procedure, Ranking, by_totals, initiative
from domain.state import MatchState

BONUS_MOST = 1_000  # (ours) a bonus read past this either way is refused, not added


def initiative_of(file: RulesetFile, declared: Declared, roles: Roles) -> dict[str, Any]:
    """The procedures (`actions`) the file's initiative builds (`roll_initiative`, and
    `pass_initiative` with a handover): none without one."""
    block = file.initiative
    if block is None:
        return {}
    rule, reroll = block.rule, block.reroll_rule or block.rule
    bonus = compile_expression(block.bonus, {**types(declared), "side": STRING}, INT,
                               declared, roles)
    rank = by_totals if block.lone_natural is None else lone_natural_first(block.lone_natural)
    out = {"roll_initiative": initiative(
        whole_for_side(bonus, rule, "the initiative's bonus", BONUS_MOST), rank, rule, reroll)}
    if block.handover is not None:
        out["pass_initiative"] = _handover(block.handover)
    return out


def _handover(rule: str) -> Procedure:
    """The side that won the initiative hands first place to the second: the two swap."""
    def procedure(command: Any, state: MatchState, emit: Emit) -> None:
        order = state.turn.initiative
        if not state.done("initiative"):
            raise InvalidAction(f"{rule}: roll the initiative first", rule=rule)
        if state.done("initiative_passed"):
            raise InvalidAction(f"{rule}: the initiative has already been handed over this "
                                "round", rule=rule)
        if emit.context.actor not in (REFEREE, order[0]):
            raise NotYourTurn(f"{rule}: only the winner ({order[0]}) may hand over the "
                              "initiative", rule=rule, allowed=[order[0]])
        emit(ev.InitiativePassed, side=order[0], to=order[1],
             order=(order[1], order[0], *order[2:]), rule=rule)
    return procedure


def lone_natural_first(face: int) -> Callable[[Mapping[str, int], Mapping[str, int]], Ranking]:
    """BG-3: a side alone in throwing `face` comes first whatever the totals; the others
    (and everyone when no side or several throw it) by totals. (ours) Applied again among
    tied sides who re-roll."""
    def rank(dice: Mapping[str, int], bonus: Mapping[str, int]) -> Ranking:
        lone = [side for side, die in dice.items() if die == face]
        if len(lone) != 1:
            return by_totals(dice, bonus)
        return ((lone[0],), *by_totals({s: d for s, d in dice.items() if s != lone[0]},
                                       bonus))
    return rank
