"""`decide(command, state, ruleset, context) -> [events]`: the validating entry point.

Checks the command against the state, the sequence of play and the ruleset, and returns the
events it causes, or raises a `DomainError` that names the rule and says what is allowed.
Time, the acting seat and the dice come in through `Context`: nothing here reads a clock or
draws a random number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import UUID

from domain import commands as cmd
from domain import events as ev
from domain.dice import DiceSource, parse
from domain.errors import InvalidAction, MatchOver, NotYourTurn, OutOfSequence, UndoRefused
from domain.rulesets import Ruleset
from domain.sequence import ANY, Step, following
from domain.state import MatchState, TurnMarker, Unit

REFEREE = "referee"
ALWAYS_ALLOWED = ("advance", "add_note", "end_match")  # in every step, whatever it allows


@dataclass(frozen=True)
class Context:
    match_id: UUID
    version: int  # the version the command is decided against
    actor: str  # a side id, or "referee"
    command_id: str
    now: datetime
    dice: DiceSource
    roll_index: int  # the index of the next server roll


@dataclass
class _Emit:
    """Stamps events with the envelope, numbering them from `context.version + 1`."""

    context: Context
    turn: int
    events: list[ev.Event] = field(default_factory=list)

    def __call__(self, cls: type[ev.Event], **fields: Any) -> None:
        c = self.context
        self.events.append(
            cls(
                originator_id=c.match_id,
                originator_version=c.version + len(self.events) + 1,
                timestamp=c.now,
                actor=c.actor,
                command_id=c.command_id,
                turn=self.turn,
                **fields,
            )
        )


def decide(
    command: cmd.Command, state: MatchState, ruleset: Ruleset, context: Context
) -> list[ev.Event]:
    kind = getattr(command, "type", type(command).__name__)
    if state.outcome is not None and kind != "add_note":
        raise MatchOver("the match has ended; only notes can be added", rule="core-end")
    step = ruleset.sequence.step(state.turn.step)
    if kind not in ALWAYS_ALLOWED and ANY not in step.allows and kind not in step.allows:
        raise OutOfSequence(
            f"'{kind}' is not allowed in step '{state.turn.step}'",
            rule=step.rule or "core-sequence",
            allowed=sorted({*step.allows, *ALWAYS_ALLOWED}),
        )
    if kind != "add_note":
        _check_acting(step, state, context.actor)
    _check_owner(command, state, context.actor)
    for check in ruleset.checks:
        check(command, state, context.actor)
    emit = _Emit(context, state.turn.turn)
    _handle(command, state, ruleset, emit)
    return emit.events


def _check_acting(step: Step, state: MatchState, actor: str) -> None:
    if actor == REFEREE or step.acting == "any":
        return
    active = state.turn.active_side
    roles = state.options.get("roles")
    allowed: str | None
    if step.acting == "active":
        allowed = active
    elif step.acting == "inactive":
        allowed = None if actor == active else actor
    elif step.acting == REFEREE:
        allowed = None
    else:
        allowed = roles.get(step.acting) if isinstance(roles, dict) else None
    if actor != allowed:
        raise NotYourTurn(
            f"in step '{state.turn.step}' only the {step.acting} seat acts"
            + (f" ({allowed})" if allowed else ""),
            rule=step.rule or "core-sequence",
            allowed=[x for x in (allowed, REFEREE) if x],
        )


def _check_owner(command: cmd.Command, state: MatchState, actor: str) -> None:
    if actor == REFEREE:
        return
    if isinstance(command, cmd.DeployUnit):
        side = command.unit.side
    elif isinstance(command, cmd.MoveUnit | cmd.SetStatus | cmd.SplitUnit | cmd.RallyUnit):
        side = _unit(state, command.unit_id).side
    else:
        return
    if side != actor:
        raise NotYourTurn(f"side '{actor}' acts only for its own units", rule="core-seats")


def _unit(state: MatchState, unit_id: str, *, in_play: bool = True) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise InvalidAction(f"there is no unit '{unit_id}'", rule="core-units")
    if in_play and unit.removed is not None:
        raise InvalidAction(f"unit '{unit_id}' has left play ({unit.removed})", rule="core-units")
    return unit


def _side(state: MatchState, side: str) -> str:
    if side not in state.side_ids():
        raise InvalidAction(
            f"there is no side '{side}'", rule="core-sides", allowed=list(state.side_ids())
        )
    return side


def _take(present: dict[str, int], wanted: dict[str, int], what: str) -> None:
    for kind, count in wanted.items():
        if present.get(kind, 0) < count:
            raise InvalidAction(
                f"{what} has {present.get(kind, 0)} '{kind}' marker(s), not {count}",
                rule="core-markers",
            )


@singledispatch
def _handle(command: cmd.Command, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    raise InvalidAction(f"unknown action {type(command).__name__}", rule="core-actions")


@_handle.register
def _(command: cmd.DeployUnit, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    spec = command.unit
    if spec.id in state.units:
        raise InvalidAction(f"unit id '{spec.id}' is taken", rule="core-units")
    _side(state, spec.side)
    unit = Unit(**{**spec.model_dump(), "status": tuple(sorted(set(spec.status)))})
    emit(ev.UnitDeployed, unit=unit)


@_handle.register
def _(command: cmd.MoveUnit, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitMoved, unit_id=unit.id, origin=unit.position, to=command.to)


@_handle.register
def _(command: cmd.SetStatus, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
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
def _(command: cmd.PlaceMarker, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    _marker_target(state, command)
    emit(ev.MarkerPlaced, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.RemoveMarker, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    present = _marker_target(state, command)
    _take(present, {command.kind: command.count}, command.unit_id or command.location or "")
    emit(ev.MarkerRemoved, kind=command.kind, count=command.count,
         unit_id=command.unit_id, location=command.location)


@_handle.register
def _(command: cmd.RollDice, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    spec = parse(command.notation)
    for unit_id in command.unit_ids:
        _unit(state, unit_id, in_play=False)
    roll_index: int | None = None
    if command.source == "server":
        if command.results is not None:
            raise InvalidAction("server dice take no results; use source 'table' to record "
                                "physical dice", rule="core-dice")
        roll_index = emit.context.roll_index
        faces = emit.context.dice.roll(spec, roll_index)
    else:
        if command.results is None or len(command.results) != spec.count:
            raise InvalidAction(f"table dice need {spec.count} result(s), one per die",
                                rule="core-dice")
        if not all(1 <= r <= spec.sides for r in command.results):
            raise InvalidAction(f"each result of a d{spec.sides} is 1 to {spec.sides}",
                                rule="core-dice")
        faces = list(command.results)
    emit(ev.DiceRolled, notation=spec.notation, dice=tuple(faces), modifier=spec.modifier,
         total=sum(faces) + spec.modifier, purpose=command.purpose, source=command.source,
         roll_index=roll_index, unit_ids=tuple(command.unit_ids), rule=command.rule)


@_handle.register
def _(command: cmd.SplitUnit, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    parent = _unit(state, command.unit_id)
    if command.new_unit_id in state.units:
        raise InvalidAction(f"unit id '{command.new_unit_id}' is taken", rule="core-units")
    figures = parent.figures or 0
    if not 1 <= command.figures < figures:
        raise InvalidAction(
            f"unit '{parent.id}' has {figures} figure(s); split off 1 to {max(figures - 1, 0)}",
            rule="core-split",
        )
    _take(parent.markers, dict(command.markers), parent.id)
    new_unit = parent.model_copy(update={
        "id": command.new_unit_id,
        "name": f"{parent.name} ({command.new_unit_id})",
        "figures": command.figures,
        "markers": dict(command.markers),
        "position": command.position or parent.position,
    })
    emit(ev.UnitSplit, unit_id=parent.id, new_unit=new_unit)


@_handle.register
def _(command: cmd.RallyUnit, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    unit = _unit(state, command.unit_id)
    cleared = tuple(sorted(set(command.clear) & set(unit.status)))
    _take(unit.markers, dict(command.remove_markers), unit.id)
    if not cleared and not command.remove_markers:
        raise InvalidAction(
            f"unit '{unit.id}' has nothing to rally from (status: "
            f"{', '.join(unit.status) or 'none'})", rule="core-rally")
    emit(ev.UnitRallied, unit_id=unit.id, cleared=cleared,
         markers_removed=dict(command.remove_markers))


@_handle.register
def _(command: cmd.RemoveUnit, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    unit = _unit(state, command.unit_id)
    emit(ev.UnitRemoved, unit_id=unit.id, reason=command.reason, to_box=command.to_box)


@_handle.register
def _(command: cmd.SetTrack, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    emit(ev.TrackSet, name=command.name, value=command.value)


@_handle.register
def _(command: cmd.ScoreVP, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    emit(ev.VictoryPointsScored, side=_side(state, command.side), points=command.points,
         reason=command.reason)


@_handle.register
def _(command: cmd.Advance, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    marker = next_marker(state, ruleset, command.to)
    if marker.turn != state.turn.turn:
        emit(ev.TurnAdvanced, marker=marker)
    else:
        emit(ev.PhaseAdvanced, origin=state.turn.step, marker=marker)


def next_marker(state: MatchState, ruleset: Ruleset, to: str | None = None) -> TurnMarker:
    """Where `advance` takes the marker: one step on, or on to step `to` (this turn or the
    next) passing only optional steps. Leaving a step needs its `leave_when` to hold."""
    seq = ruleset.sequence
    if to is not None and to not in seq.steps():
        raise InvalidAction(f"there is no step '{to}'", rule="core-sequence", allowed=seq.steps())
    marker = state.turn
    seen: set[tuple[int, str, str | None]] = set()
    while True:
        # The state does not change during one advance, so meeting a step again with the
        # same active side means a repeating phase would go round for ever.
        place = (marker.turn, marker.step, marker.active_side)
        if place in seen:
            raise OutOfSequence(
                f"step '{to}' cannot be reached: the phase around '{marker.step}' repeats",
                rule=seq.step(marker.step).rule or "core-sequence", allowed=[marker.step],
            )
        seen.add(place)
        step = seq.step(marker.step)
        if step.leave_when and not ruleset.conditions[step.leave_when](state):
            raise OutOfSequence(
                f"step '{marker.step}' cannot be left yet ({step.leave_when.replace('_', ' ')})",
                rule=step.rule or "core-sequence",
            )
        marker = following(seq, marker, state, ruleset.conditions)
        if to is None or marker.step == to:
            return marker
        if not seq.step(marker.step).optional or marker.turn > state.turn.turn + 1:
            raise OutOfSequence(
                f"cannot skip required step '{marker.step}' on the way to '{to}'",
                rule=seq.step(marker.step).rule or "core-sequence",
                allowed=[marker.step],
            )


@_handle.register
def _(command: cmd.AddNote, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    if command.about_version is not None and command.about_version > emit.context.version:
        raise InvalidAction(f"version {command.about_version} does not exist yet",
                            rule="core-notes")
    emit(ev.NoteAdded, text=command.text, about_version=command.about_version,
         private=command.private)


@_handle.register
def _(command: cmd.EndMatch, state: MatchState, ruleset: Ruleset, emit: _Emit) -> None:
    if command.winner is not None:
        _side(state, command.winner)
    emit(ev.MatchEnded, winner=command.winner, reason=command.reason)


def decide_undo(
    state: MatchState, state_at: Callable[[int], MatchState], context: Context,
    *, to: int | None = None, actions: int = 1,
) -> list[ev.Event]:
    """Undo the last `actions` actions, or back to version `to`. Crossing a die roll is
    refused unless the match is casual (the roll would be fished for)."""
    if state.outcome is not None:
        raise MatchOver("the match has ended; it can no longer be undone", rule="core-undo")
    if to is None:
        target, earlier = context.version, state
        for undone in range(actions):
            if earlier.last_command is None:
                raise UndoRefused(f"only {undone} action(s) can be undone", rule="core-undo")
            target = earlier.action_base
            earlier = state_at(target)
    else:
        if not 1 <= to < context.version:
            raise UndoRefused(f"undo to a version from 1 to {context.version - 1}",
                              rule="core-undo")
        target, earlier = to, state_at(to)
    if earlier.dice.count < state.dice.count and not state.casual:
        raise UndoRefused(
            f"undoing back to version {target} would take back "
            f"{state.dice.count - earlier.dice.count} die roll(s); only a casual match allows "
            "that (the consent of the other side comes in a later version)",
            rule="core-undo",
        )
    emit = _Emit(context, state.turn.turn)
    emit(ev.ActionsUndone, to=target, resulting_turn=earlier.turn.turn, rule="core-undo")
    return emit.events


def decide_redo(
    state: MatchState, redo: tuple[int, ...], state_at: Callable[[int], MatchState],
    context: Context,
) -> list[ev.Event]:
    """Reverse the latest undo not yet reversed (a new action clears what can be redone)."""
    if not redo:
        raise UndoRefused("there is nothing to redo", rule="core-redo")
    target = redo[-1] - 1
    emit = _Emit(context, state.turn.turn)
    emit(ev.ActionsRedone, to=target, reverses=redo[-1],
         resulting_turn=state_at(target).turn.turn, rule="core-redo")
    return emit.events
