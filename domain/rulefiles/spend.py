"""What a roll spends and how its dice are read one by one (model_spend.py), as the roll is
resolved (rolls.py): the resource taken off the unit the action names, the spent points
given to the failing dice, and a unit activated with the units taking part."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.context import unit as unit_in_play
from domain.errors import InvalidAction
from domain.rulefiles.model_spend import Spend
from domain.state import MatchState, Unit


def spend(given: Spend, command: cmd.RuleRoll, state: MatchState, roller: Unit | None,
          emit: Emit, rule: str) -> int:
    """Take the action's `leadership` markers off the unit `leader_id` (checked: one of the
    holders, on the roller's side, carrying that many) and say so; how many were spent."""
    if not command.leadership:
        return 0
    if command.leader_id is None:
        raise InvalidAction(f"{rule}: say whose {given.marker} is spent ('leader_id')",
                            rule=rule)
    holder = unit_in_play(state, command.leader_id)
    side = roller.side if roller is not None else state.turn.active_side
    if holder.kind not in given.holders or holder.side != side:
        raise InvalidAction(f"{rule}: '{holder.id}' does not hold {side}'s {given.marker} "
                            f"(a {', '.join(given.holders)} of that side does)", rule=rule)
    pool = holder.markers.get(given.marker, 0)
    if pool < command.leadership:
        raise InvalidAction(f"{rule}: '{holder.id}' has {pool} {given.marker}, not "
                            f"{command.leadership}", rule=rule)
    emit(ev.MarkerRemoved, kind=given.marker, count=command.leadership, unit_id=holder.id,
         rule=rule)
    return command.leadership


def allot(faces: list[int], at_least: int, points: int) -> tuple[list[int], int]:
    """Each die against `at_least`; each spent point adds 1 to the failing die closest to
    it (ours: where it turns the most dice into passes). The dice after the points, and how
    many pass."""
    scores = list(faces)
    for _ in range(points):
        failing = [i for i, s in enumerate(scores) if s < at_least]
        if not failing:
            break
        scores[max(failing, key=lambda i: scores[i])] += 1
    return scores, sum(s >= at_least for s in scores)


def activate(roller: Unit, taking_part: list[str], group: str, state: MatchState,
             emit: Emit, rule: str) -> None:
    """The rolling unit and the units taking part activate as one group, in this run."""
    emit(ev.UnitsActivated, side=roller.side, unit_ids=(roller.id, *taking_part),
         group=group, run=state.turn.run, rule=rule)
