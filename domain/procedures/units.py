"""Procedures on units and markers: deploy, move, status, markers, split, rally, remove,
lose or gain a step, activate."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Emit, new_unit_id, split_name, take
from domain.context import side as _side
from domain.context import unit as _unit
from domain.errors import InvalidAction
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.state import MatchState

MAX_STEPS = 100  # as a unit may be set up with


@_handle.register
def _(command: cmd.DeployUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    spec = command.unit
    unit_id = new_unit_id(state, spec.id, spec.side, first=1)
    _side(state, spec.side)
    _room(state, spec.side)
    emit(ev.UnitDeployed, unit=spec.as_unit(unit_id))


def _room(state: MatchState, side: str) -> None:
    """A new unit fits the match's size (docs/scenarios.md)."""
    units = list(state.units.values())
    if len(units) >= cmd.UNITS_IN_ALL:
        raise InvalidAction(f"a match holds at most {cmd.UNITS_IN_ALL} units",
                            rule="core-limits")
    if sum(1 for u in units if u.side == side) >= cmd.UNITS_PER_SIDE:
        raise InvalidAction(f"a side has at most {cmd.UNITS_PER_SIDE} units", rule="core-limits")


@_handle.register
def _(command: cmd.MoveUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitMoved, unit_id=unit.id, origin=unit.position, to=command.to)


@_handle.register
def _(command: cmd.SetStatus, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    to_set = tuple(sorted(set(command.set) - set(unit.status)))
    to_clear = tuple(sorted(set(command.clear) & set(unit.status)))
    if set(command.set) & set(command.clear):
        raise InvalidAction("a flag cannot be both set and cleared", rule="core-units")
    if not to_set and not to_clear:
        raise InvalidAction(
            f"unit '{unit.id}' already has that status ({', '.join(unit.status) or 'none'})",
            rule="core-units",
        )
    emit(ev.UnitStatusChanged, unit_id=unit.id, set=to_set, cleared=to_clear)


def _marker_target(state: MatchState, command: cmd.PlaceMarker | cmd.RemoveMarker) -> dict[str, int]:
    if (command.unit_id is None) == (command.location is None):
        raise InvalidAction("give exactly one of unit_id and location", rule="core-markers")
    if command.unit_id is not None:
        return _unit(state, command.unit_id).markers
    assert command.location is not None
    return state.location_markers.get(command.location, {})


@_handle.register
def _(command: cmd.PlaceMarker, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    _marker_target(state, command)
    emit(ev.MarkerPlaced, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.RemoveMarker, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    present = _marker_target(state, command)
    take(present, {command.kind: command.count}, command.unit_id or command.location or "")
    emit(ev.MarkerRemoved, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.SplitUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    parent = _unit(state, command.unit_id)
    unit_id = new_unit_id(state, command.new_unit_id, parent.id)
    _room(state, parent.side)
    if command.figures is None:
        raise InvalidAction("say how many figures split off ('figures')", rule="core-split")
    figures = parent.figures or 0
    if not 1 <= command.figures < figures:
        raise InvalidAction(
            f"unit '{parent.id}' has {figures} figure(s); split off 1 to {max(figures - 1, 0)}",
            rule="core-split",
        )
    take(parent.markers, dict(command.markers), parent.id)
    new_unit = parent.model_copy(update={
        "id": unit_id,
        "name": split_name(state, parent),
        "figures": command.figures,
        "markers": dict(command.markers),
        "position": command.position or parent.position,
    })
    emit(ev.UnitSplit, unit_id=parent.id, new_unit=new_unit)


@_handle.register
def _(command: cmd.RallyUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    cleared = tuple(sorted(set(command.clear) & set(unit.status)))
    take(unit.markers, dict(command.remove_markers), unit.id)
    if not cleared and not command.remove_markers:
        raise InvalidAction(
            f"unit '{unit.id}' has nothing to rally from (status: "
            f"{', '.join(unit.status) or 'none'})", rule="core-rally")
    emit(ev.UnitRallied, unit_id=unit.id, cleared=cleared,
         markers_removed=dict(command.remove_markers))


@_handle.register
def _(command: cmd.RemoveUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitRemoved, unit_id=unit.id, reason=command.reason, to_box=command.to_box)


@_handle.register
def _(command: cmd.LoseStep, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    if not unit.steps:
        raise InvalidAction(f"unit '{unit.id}' has no steps to lose", rule="core-steps")
    emit(ev.StepLost, unit_id=unit.id, steps=unit.steps - 1)
    if unit.steps == 1:
        emit(ev.UnitRemoved, unit_id=unit.id, reason="eliminated", rule="core-steps")


@_handle.register
def _(command: cmd.GainStep, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    if unit.steps is None or unit.steps >= MAX_STEPS:
        raise InvalidAction(f"unit '{unit.id}' keeps no steps, or has {MAX_STEPS}",
                            rule="core-steps")
    emit(ev.StepGained, unit_id=unit.id, steps=unit.steps + 1, rule=command.rule)


@_handle.register
def _(command: cmd.ActivateUnit, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    unit = _unit(state, command.unit_id)
    if "activated" in unit.status:
        raise InvalidAction(f"unit '{unit.id}' has already activated this turn",
                            rule="core-activation")
    emit(ev.UnitsActivated, side=unit.side, unit_ids=(unit.id,), run=state.turn.run)


