"""Authority: which seat may take an action, and on whose units, tracks and sides."""

from __future__ import annotations

from domain import commands as cmd
from domain.context import REFEREE
from domain.context import unit as _unit
from domain.errors import NotYourTurn
from domain.sequence import Step
from domain.state import MatchState


def check_acting(step: Step, state: MatchState, actor: str, acting: str) -> None:
    if actor == REFEREE or acting == "any":
        return
    active = state.turn.active_side
    roles = state.options.get("roles")
    allowed: str | None
    if acting == "active":
        allowed = active
    elif acting == "inactive":
        allowed = None if actor == active else actor
    elif acting == REFEREE:
        allowed = None
    else:
        allowed = roles.get(acting) if isinstance(roles, dict) else None
    if actor != allowed:
        raise NotYourTurn(
            f"in step '{state.turn.step}' only the {acting} seat "
            + ("moves the turn marker on" if acting != step.acting else "acts")
            + (f" ({allowed})" if allowed else ""),
            rule=step.rule or "core-sequence",
            allowed=[x for x in (allowed, REFEREE) if x],
        )


def check_owner(command: cmd.Command, state: MatchState, actor: str) -> None:
    if actor == REFEREE:
        return
    if isinstance(command, cmd.DeployUnit):
        side = command.unit.side
    elif isinstance(command, cmd.MoveUnit | cmd.SetStatus | cmd.SplitUnit | cmd.RallyUnit
                    | cmd.LoseStep | cmd.Fire):
        side = _unit(state, command.unit_id).side
    elif isinstance(command, cmd.RuleRoll) and command.unit_id is not None:
        side = _unit(state, command.unit_id, in_play=False).side
    else:
        return
    if side != actor:
        raise NotYourTurn(f"side '{actor}' acts only for its own units", rule="core-seats")


