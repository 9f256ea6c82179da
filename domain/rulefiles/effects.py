"""The effects of a ruleset file (a roll's outcomes, its `first`, what the service does as
the marker arrives at a step): each made as the core's own events, on the rolling unit, on
the units its `falls_on` names, or on the match (a track). Each effect reads the board as
the effects before it in the same action left it (its `when`, the units it falls on, the
markers a unit still has), so two removals of one marker take it off once (issue 38)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from domain import commands as cmd
from domain import events as ev
from domain.commands import Command
from domain.context import Emit, split_evenly
from domain.errors import InvalidAction
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, compile_expression
from domain.rulefiles.model_rolls import Effect, On
from domain.rulefiles.spend import activate
from domain.rulefiles.template import Template, compile_template, view_of
from domain.rulefiles.types import BOOL, DYN, Ty
from domain.rulefiles.view import Declared
from domain.state import MatchState, Unit

Tracks = dict[str, tuple[Any, ...]]  # a track's name pattern -> the values it takes, in order


@dataclass(frozen=True)
class Words:
    """What effects read besides their own fields: the expressions naming units (by their
    text) and the activation groups' words."""

    effects: dict[str, Compiled]
    groups: dict[str, Template]
    declared: Declared
    roles: Roles
    whens: dict[str, Compiled] = field(default_factory=dict)


def effect_words(effects: list[Effect], view: dict[str, Ty], declared: Declared,
                 roles: Roles) -> Words:
    return Words(
        {text: compile_expression(text, view, DYN, declared, roles) for text in
         [e.falls_on.units for e in effects if e.falls_on and e.falls_on.units]
         + [e.activate.taking_part for e in effects if e.activate]},
        {e.activate.group: compile_template(e.activate.group, view, declared, roles)
         for e in effects if e.activate},
        declared, roles,
        {e.when: compile_expression(e.when, view, BOOL, declared, roles) for e in effects
         if e.when})


def apply(effect: Effect, unit: Unit | None, state: MatchState, emit: Emit, rule: str,
            tracks: Tracks, command: Command | None, words: Words) -> None:
    """One effect, read against the board as the events emitted so far left it (`state` when
    the emitter does not evolve: a board no earlier effect of this action changed)."""
    state = emit.state if emit.apply is not None else state
    rule = effect.rule or rule
    if effect.when is not None and not _holds(words.whens[effect.when], state, command,
                                              emit.context.actor, rule):
        return
    if effect.set_track is not None:
        emit(ev.TrackSet, name=effect.set_track.name, value=effect.set_track.value, rule=rule)
        return
    if effect.move_track is not None:
        _move_track(effect.move_track.name, effect.move_track.by, state, emit, rule, tracks)
        return
    if effect.falls_on is not None:  # the units it names, as the earlier effects left them
        for target in _fallen_on(effect.falls_on, state, command, emit.context.actor, words,
                                 rule):
            _on_unit(effect, emit.state.units.get(target.id, target)
                     if emit.apply is not None else target, emit, rule, command)
        return
    if unit is None:
        raise InvalidAction(f"{rule}: this roll's effect is on a unit, and no unit rolls it",
                            rule=rule)
    if effect.activate is not None:
        given = effect.activate
        actor = emit.context.actor
        listed = _ids(words.effects[given.taking_part], state, command, actor, rule)
        group = words.groups[given.group].say(view_of(
            [words.groups[given.group]], state, words.declared, words.roles, command, actor, {}))
        activate(unit, listed, group, state, emit, rule)
        return
    _on_unit(effect, state.units.get(unit.id, unit), emit, rule, command)


def _fallen_on(on: On, state: MatchState, command: Command | None, actor: str, words: Words,
               rule: str) -> list[Unit]:
    """The units in play an effect falls on: those marked, or those the expression lists."""
    if on.marked is not None:
        kind = on.marked
        return [u for u in state.in_play() if u.markers.get(kind, 0) > 0]
    assert on.units is not None  # the model's check
    listed = set(_ids(words.effects[on.units], state, command, actor, rule))
    return [u for u in state.in_play() if u.id in listed]


def _ids(expression: Compiled, state: MatchState, command: Command | None, actor: str,
         rule: str) -> list[str]:
    try:
        value = expression(state, command, actor)
    except Unreadable as error:
        raise InvalidAction(f"{rule}: the units of an effect cannot be read now: {error}",
                            rule=rule) from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidAction(f"{rule}: the units of an effect read {value!r}, not a list of "
                            "unit ids", rule=rule)
    return value


def _on_unit(effect: Effect, held: Unit, emit: Emit, rule: str,
             command: Command | None = None) -> None:
    if effect.split is not None:
        _split(held, emit, rule, command)
    elif effect.place_marker is not None:
        emit(ev.MarkerPlaced, kind=effect.place_marker.kind, count=effect.place_marker.count,
             unit_id=held.id, rule=rule)
    elif effect.remove_marker is not None:
        count = min(effect.remove_marker.count, held.markers.get(effect.remove_marker.kind, 0))
        if count:
            emit(ev.MarkerRemoved, kind=effect.remove_marker.kind, count=count,
                 unit_id=held.id, rule=rule)
    elif effect.clear_markers is not None:
        for kind in effect.clear_markers:
            if held.markers.get(kind, 0):
                emit(ev.MarkerRemoved, kind=kind, count=held.markers[kind], unit_id=held.id,
                     rule=rule)
    elif effect.set_status is not None:
        if effect.set_status not in held.status:
            emit(ev.UnitStatusChanged, unit_id=held.id, set=(effect.set_status,), rule=rule)
    elif effect.clear_statuses is not None:
        held_now = tuple(s for s in effect.clear_statuses if s in held.status)
        if held_now:
            emit(ev.UnitStatusChanged, unit_id=held.id, cleared=held_now, rule=rule)
    elif effect.clear_status is not None:
        if effect.clear_status in held.status:
            emit(ev.UnitStatusChanged, unit_id=held.id, cleared=(effect.clear_status,),
                 rule=rule)
    elif effect.remove_unit is not None and held.removed is None:
        emit(ev.UnitRemoved, unit_id=held.id, reason=effect.remove_unit.reason, rule=rule)
        where = (held.position.label() if held.position is not None
                 and held.position.box is None else None)
        if effect.remove_unit.casualty and where:
            emit(ev.MarkerPlaced, kind=effect.remove_unit.casualty, count=1, location=where,
                 rule=rule)


def _split(held: Unit, emit: Emit, rule: str, command: Command | None) -> None:
    """The unit split in two as equal as possible (domain.context.split_evenly); in the
    players' `split_unit` of this unit, the odd ones go where its `odd_to` says, and the new
    unit takes its id and position."""
    if held.removed is not None:
        return
    asked = (command if isinstance(command, cmd.SplitUnit) and command.unit_id == held.id
             else None)
    if asked is not None and (asked.figures is not None or asked.markers):
        raise InvalidAction(f"{rule}: the service divides the unit as equally as possible: "
                            "say only which part takes an odd figure or marker ('odd_to')",
                            rule=rule)
    state = emit.state if emit.apply is not None else emit.base
    split_evenly(state, held, emit, rule, asked.odd_to if asked else None,
                 asked.new_unit_id if asked else None, asked.position if asked else None)


def _move_track(name: str, by: int, state: MatchState, emit: Emit, rule: str,
                tracks: Tracks) -> None:
    """A track moved `by` places along its values (or numbers), held at its ends."""
    pattern = next((p for p in tracks if fnmatchcase(name, p)), None)
    values = tracks[pattern] if pattern is not None else None
    if not values:
        raise InvalidAction(f"{rule}: the track '{name}' has no values to move along",
                            rule=rule)
    current = state.tracks.get(name, values[0])
    at = values.index(current) if current in values else 0
    moved = values[max(0, min(len(values) - 1, at + by))]
    if moved != current or name not in state.tracks:
        emit(ev.TrackSet, name=name, value=moved, rule=rule)



def _holds(expression: Compiled, state: MatchState, command: Command | None, actor: str,
           rule: str) -> bool:
    try:
        return expression(state, command, actor) is True
    except Unreadable as error:
        raise InvalidAction(f"{rule}: when an effect is made cannot be read now: {error}",
                            rule=rule) from None
