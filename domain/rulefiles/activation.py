"""A file's `activation:` as the referee's: the procedure of `activate_battlegroup`, the
refusals of units acting outside the activation in progress, and the activation's end (its
units' flag cleared as the marker arrives at any step, and as the turn ends)."""

from __future__ import annotations

from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit
from domain.errors import InvalidAction, NotYourTurn
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.model_activation import Activation
from domain.rulefiles.sequence import sequence_of
from domain.state import MatchState, Unit, group_fact


def activation_of(file: RulesetFile) -> dict[str, Any]:
    """The `Ruleset` fields the file's activation builds: `actions`, `checks`, `on_enter`
    and `end_of_turn` (the activation's end)."""
    block = file.activation
    if block is None:
        return {}
    paths = sequence_of(file).steps()
    groups = _Groups(block, frozenset(p for p in paths if p.rsplit("/", 1)[-1] == block.step))
    return {"actions": {"activate_battlegroup": groups.activate}, "checks": (groups.check,),
            "on_enter": dict.fromkeys(paths, groups.end), "end_of_turn": groups.end}


class _Groups:
    def __init__(self, block: Activation, steps: frozenset[str]) -> None:
        self.block = block
        self.steps = steps
        self.kept = ("activated", block.flag)  # the service sets and clears these

    def _able(self, unit: Unit) -> bool:
        return unit.position is None or unit.position.box is None or (
            unit.position.box != self.block.held)

    def groups(self, state: MatchState, side: str) -> dict[str, list[Unit]]:
        """The side's groups and the units in each that can act."""
        out: dict[str, list[Unit]] = {}
        for unit in state.in_play(side):
            group = unit.extra.get(self.block.group)
            if group is not None:
                out.setdefault(str(group), [])
                if self._able(unit):
                    out[str(group)].append(unit)
        return out

    def available(self, state: MatchState, side: str) -> list[str]:
        return [group for group, able in self.groups(state, side).items()
                if able and not state.done(group_fact(side, group))]

    def auxiliaries(self, state: MatchState, side: str) -> list[str]:
        if not self.block.auxiliaries:
            return []
        return [u.id for u in state.in_play(side) if self.block.group not in u.extra
                and "activated" not in u.status and self._able(u)]

    def activate(self, command: cmd.ActivateBattlegroup, state: MatchState,
                 emit: Emit) -> None:
        rule, side, actor = self.block.rule, state.turn.active_side, emit.context.actor
        if actor not in ("referee", side):
            raise NotYourTurn(f"{rule}: it is {side}'s turn to activate a battlegroup",
                              rule=rule, allowed=[x for x in (side, "referee") if x])
        if side is None:
            raise InvalidAction(f"{rule}: no side's turn to activate now", rule=rule)
        if state.activated_this_run():
            raise InvalidAction(f"{rule}: one battlegroup per turn in the order; go on to the "
                                "next one", rule=rule)
        choices = self.available(state, side)
        if command.battlegroup not in choices:
            raise InvalidAction(
                f"{rule}: battlegroup '{command.battlegroup}' cannot activate (not {side}'s, "
                "already activated this round, or no unit able to act)", rule=rule,
                allowed=choices)
        free = self.auxiliaries(state, side)
        wrong = [u for u in command.auxiliaries if u not in free]
        if wrong:
            raise InvalidAction(f"{rule}: not an auxiliary squad of {side} free to activate: "
                                f"{', '.join(wrong)}", rule=rule, allowed=free)
        units = [*(u.id for u in self.groups(state, side)[command.battlegroup]),
                 *dict.fromkeys(command.auxiliaries)]
        # (ours) "act with at least one unit" is not checked: what a unit does at the table
        # is entered by the players
        emit(ev.UnitsActivated, side=side, unit_ids=tuple(units), group=command.battlegroup,
             run=state.turn.run, rule=rule)
        for unit_id in units:
            emit(ev.UnitStatusChanged, unit_id=unit_id, set=(self.block.flag,), rule=rule)

    def end(self, state: MatchState, emit: Emit) -> None:
        """The activation is over: its units no longer act."""
        for unit in state.units.values():
            if self.block.flag in unit.status:
                emit(ev.UnitStatusChanged, unit_id=unit.id, cleared=(self.block.flag,),
                     rule=self.block.rule)

    def check(self, command: cmd.Command, state: MatchState, actor: str) -> None:
        """While a group is activated only its units (and the auxiliaries named with it)
        act; before the side activates, no unit does. (ours) A unit acts when it moves,
        rallies or rolls (a roll naming units: one of them of the activation); markers,
        statuses and removals record what befalls a unit."""
        rule, flag = self.block.rule, self.block.flag
        if isinstance(command, cmd.SetStatus) and set(self.kept) & {*command.set,
                                                                   *command.clear}:
            raise InvalidAction(f"{rule}: the service keeps the '{self.kept[0]}' and "
                                f"'{flag}' flags (activate_battlegroup sets them)", rule=rule)
        if state.turn.step not in self.steps:
            return
        if isinstance(command, cmd.MoveUnit | cmd.RallyUnit):
            ids, every = [command.unit_id], True
        elif isinstance(command, cmd.RollDice) and command.unit_ids:
            ids, every = list(command.unit_ids), False
        else:
            return
        named = [state.units[u] for u in ids if u in state.units]
        now = [u for u in state.in_play() if flag in u.status]
        inside = [u for u in named if u in now]
        if not named or (len(inside) == len(named) if every else inside):
            return
        side = state.turn.active_side
        if not now:
            said = f"{rule}: {side} activates a battlegroup first; no unit acts before it"
        else:
            group = next((str(u.extra[self.block.group]) for u in now
                          if self.block.group in u.extra), "")
            said = (f"{rule}: in {side}'s activation of battlegroup '{group}' only its units "
                    f"and the auxiliary squads declared with it act "
                    f"({', '.join(u.id for u in now)})"
                    + ("" if every else "; a roll names the unit of the activation it is for"))
        outside = [u for u in named if u not in now]
        allowed = [u.id for u in now]
        if actor != side and all(u.side != side for u in outside):
            raise NotYourTurn(said.replace(f"{rule}: ", f"{rule}: it is {side}'s turn; ", 1),
                              rule=rule, allowed=allowed)
        raise InvalidAction(said, rule=rule, allowed=allowed)
