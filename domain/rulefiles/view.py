"""The read-only view of a match that a ruleset file's expressions read (documented in
docs/rulesets/authoring.md, "The view"): its values for a state (`values`), and the same
view said as types for the checks at load (`types`), both from what the file declares
(`Declared`), so the two cannot drift apart.

Every value is plain data (numbers, text, true/false, lists, maps): an expression reaches
nothing of Python's. A unit's attributes, markers and a track the state does not hold read
as a default (0, '' or false; a marker 0; a track its first value or its minimum), so an
expression never fails on a key a unit lacks (ours: a club writes `u.markers.pinned > 0`,
not `has(...)` first)."""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from domain.commands import Action, Command
from domain.rulefiles.types import (
    BOOL,
    DYN,
    INT,
    STRING,
    Ty,
    list_of,
    map_of,
    names,
    record,
)
from domain.state import MatchState, Unit

COMMANDS: dict[str, type[Command]] = {
    cls.model_fields["type"].default: cls
    for cls in typing.get_args(typing.get_args(Action)[0])}
UNIT_NUMBERS = ("q", "cv", "lv", "qv", "figures", "steps", "casualty_value")
_DEFAULTS = {"integer": 0, "choice": "", "text": "", "flag": False}


def _dict(data: Any, key: str) -> dict[Any, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class Declared:
    """What a file declares that its expressions may name, read from the parsed file (so
    that it can be checked even when its shape has errors)."""

    kinds: frozenset[str]
    attributes: Mapping[str, str]  # name -> its type (integer, choice, text, flag)
    markers: frozenset[str]
    statuses: frozenset[str]
    roles: frozenset[str]
    actions: frozenset[str]
    steps: frozenset[str]
    phases: frozenset[str]
    tracks: Mapping[str, Any]  # name pattern -> its first value (a default) or minimum

    @staticmethod
    def of(data: Any) -> Declared:
        attributes: dict[str, str] = {}
        for kind in _dict(data, "unit_kinds").values():
            for name, attribute in _dict(kind, "attributes").items():
                if isinstance(attribute, dict) and attribute.get("type") in _DEFAULTS:
                    attributes.setdefault(str(name), str(attribute["type"]))
        tracks: dict[str, Any] = {}
        for name, track in _dict(data, "tracks").items():
            if isinstance(track, dict):
                values = track.get("values")
                tracks[str(name)] = (str(values[0]) if isinstance(values, list) and values
                                     else track.get("minimum", 0))
        steps: set[str] = set()
        phases: set[str] = {""}
        _walk(data.get("sequence") if isinstance(data, dict) else None, steps, phases)
        return Declared(
            frozenset(map(str, _dict(data, "unit_kinds"))), attributes,
            frozenset(map(str, _dict(data, "marker_kinds"))),
            frozenset(map(str, _dict(data, "statuses"))),
            frozenset(map(str, _dict(_dict(data, "sides"), "roles"))),
            frozenset(map(str, _dict(data, "actions"))), frozenset(steps),
            frozenset(phases), tracks)

    def track(self, name: str) -> str | None:
        """The declared name pattern `name` falls under, if any."""
        return name if name in self.tracks else next(
            (p for p in self.tracks if "*" in p and fnmatchcase(name, p)), None)


def _walk(nodes: Any, steps: set[str], phases: set[str]) -> None:
    for node in nodes if isinstance(nodes, list) else ():
        if isinstance(node, dict) and "steps" in node:
            phases.add(str(node.get("phase")))
            _walk(node.get("steps"), steps, phases)
        elif isinstance(node, dict):
            steps.add(str(node.get("step")))


# ---- the view as types -----------------------------------------------------------------

def types(declared: Declared, guard_actions: tuple[str, ...] | None = None) -> dict[str, Ty]:
    """The view's variables and their types; with `guard_actions` (a guard's action types,
    () for all the file declares), the action's too: `action`, `actor`, `role`, `unit`."""
    attribute_types = {name: {"integer": INT, "flag": BOOL}.get(kind, STRING)
                       for name, kind in declared.attributes.items()}
    unit = record(
        "unit", id=STRING, kind=names("unit kind", declared.kinds), side=STRING, name=STRING,
        hex=STRING, box=STRING, status=list_of(names("status", declared.statuses)),
        markers=map_of(INT, declared.markers, "marker kind"),
        attributes=map_of(DYN, frozenset(declared.attributes), "attribute", attribute_types))
    view = {
        "turn": INT, "step": names("step", declared.steps),
        "phase": names("phase", declared.phases), "active": STRING, "sides": list_of(STRING),
        "roles": map_of(STRING, declared.roles, "role"), "units": list_of(unit),
        "tracks": map_of(DYN, frozenset(declared.tracks), "track",
                         {name: STRING if isinstance(first, str) else INT
                          for name, first in declared.tracks.items()}),
        "done": list_of(STRING), "facts": list_of(STRING), "step_facts": list_of(STRING),
        "vp": map_of(INT, None, "side"),
        "run": INT, "hands": map_of(INT, None, "side"), "decks": map_of(INT, None, "side"),
        "order": list_of(STRING), "ties": list_of(list_of(STRING)),
        "options": map_of(DYN, None, "option"),
        "awaiting": record("awaiting", of=STRING, by=STRING),
    }
    if guard_actions is None:
        return view
    chosen = guard_actions or tuple(declared.actions)
    fields: dict[str, Ty] = {"type": names("action type", declared.actions)}
    for action in chosen:
        for name, info in COMMANDS[action].model_fields.items() if action in COMMANDS else ():
            if name != "type":
                fields.setdefault(name, _field_type(name, info.annotation, declared))
    return {**view, "action": record("action", **fields), "actor": STRING,
            "role": names("role", declared.roles | {""}), "unit": unit}


def _field_type(name: str, annotation: Any, declared: Declared) -> Ty:
    if name == "kind":
        return names("marker kind", declared.markers)
    origin = typing.get_origin(annotation)
    if origin in (list, tuple):  # a list of ids (close combat's attackers): a list
        return list_of(_field_type("", typing.get_args(annotation)[0], declared))
    if origin is dict:
        return DYN
    args = {a for a in typing.get_args(annotation) if a is not type(None)} or {annotation}
    text = " ".join(str(a) for a in args)
    if "str" in text and "int" not in text and "list" not in text and "tuple" not in text:
        return STRING
    if "int" in text and "str" not in text and "list" not in text and "bool" not in text:
        return INT
    return DYN


# ---- the view's values -----------------------------------------------------------------

Needs = Mapping[str, frozenset[str] | None]  # what an expression reads (expression.Needs)


def _keys(needs: Needs | None, what: str, declared: Iterable[str]) -> list[str]:
    """The keys of `what` to put in the view: those the expressions read (all of them when
    `needs` is None, or when one reads the map whole)."""
    if needs is None:
        return list(declared)
    keys = needs.get(what, frozenset())
    return list(declared) if keys is None else [k for k in declared if k in keys]


def unit_value(unit: Unit, declared: Declared, needs: Needs | None = None) -> dict[str, Any]:
    return _unit_value(unit, declared, _UnitShape.of(declared, needs))


@dataclass(frozen=True)
class _UnitShape:
    """What of a unit the expressions read: its fields, marker kinds and attributes."""

    fields: list[str]
    markers: list[str]
    attributes: list[str]

    @staticmethod
    def of(declared: Declared, needs: Needs | None) -> _UnitShape:
        return _UnitShape(_keys(needs, "unit", UNIT_FIELDS),
                          _keys(needs, "marker kind", declared.markers),
                          _keys(needs, "attribute", declared.attributes))


def _unit_value(unit: Unit, declared: Declared, shape: _UnitShape) -> dict[str, Any]:
    out: dict[str, Any] = {}
    position = unit.position
    for name in shape.fields:
        if name == "attributes":
            out[name] = _attributes(unit, declared, shape.attributes)
        elif name == "markers":
            out[name] = {kind: unit.markers.get(kind, 0) for kind in shape.markers}
        elif name == "status":
            out[name] = list(unit.status)
        elif name in ("hex", "box"):
            out[name] = (getattr(position, name) or "") if position else ""
        else:
            out[name] = getattr(unit, name)
    return out


def _attributes(unit: Unit, declared: Declared, names: list[str]) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for name in names:
        kind = declared.attributes[name]
        value = unit.extra.get(name)
        if value is None and name in UNIT_NUMBERS:
            value = getattr(unit, name)
        if kind == "flag":  # a unit's extra holds no true/false: 1 or "true" says it
            value = value not in (None, 0, "", "false")
        attributes[name] = value if value is not None else _DEFAULTS[kind]
    return attributes


UNIT_FIELDS = ("id", "kind", "side", "name", "hex", "box", "status", "markers", "attributes")
NO_UNIT: dict[str, Any] = {"id": "", "kind": "", "side": "", "name": "", "hex": "", "box": "",
                           "status": [], "markers": {}, "attributes": {}}


def values(state: MatchState, declared: Declared, wanted: frozenset[str],
           roles: Callable[[MatchState], dict[str, str]],
           command: Command | None = None, actor: str = "",
           needs: Needs | None = None) -> dict[str, Any]:
    """The view's variables that `wanted` names, for `state` (and an action's); of its maps
    and units only what `needs` says the expressions read (all when None: the view is
    handed to the evaluator value by value, so what is left out is time saved)."""
    ask = _Ask(state, declared, roles, command, actor, needs, state.turn,
               state.turn.step.rsplit("/", 1))
    return {name: _MAKERS[name](ask) for name in wanted if name in _MAKERS}


@dataclass(frozen=True)
class _Ask:
    """What `values` builds the view from."""

    state: MatchState
    declared: Declared
    roles: Callable[[MatchState], dict[str, str]]
    command: Command | None
    actor: str
    needs: Needs | None
    marker: Any  # the state's turn marker
    path: list[str]  # its step's path, split at the last '/'


_MAKERS: dict[str, Callable[[_Ask], Any]] = {
    "turn": lambda a: a.marker.turn,
    "step": lambda a: a.path[-1],
    "phase": lambda a: a.path[0] if len(a.path) == 2 else "",
    "active": lambda a: a.marker.active_side or "",
    "sides": lambda a: list(a.state.side_ids()),
    "roles": lambda a: {r: s for r, s in {**dict.fromkeys(a.declared.roles, ""),
                                          **a.roles(a.state)}.items()
                        if r in _keys(a.needs, "role", a.declared.roles)},
    "units": lambda a: [_unit_value(u, a.declared, shape) for shape in (
        _UnitShape.of(a.declared, a.needs),) for u in a.state.in_play()],
    "tracks": lambda a: {name: value for name, value in _tracks(a.state, a.declared).items()
                         if a.needs is None or name in _keys(a.needs, "track", [name])},
    "done": lambda a: list(a.marker.done),
    "facts": lambda a: list(a.state.this_turn),
    "step_facts": lambda a: list(a.state.this_step),
    "awaiting": lambda a: ({"of": a.state.awaiting.what, "by": a.state.awaiting.by}
                           if a.state.awaiting is not None else {"of": "", "by": ""}),
    "vp": lambda a: {side: a.state.vp[side].points if side in a.state.vp else 0
                     for side in _keys(a.needs, "side", a.state.side_ids())},
    "run": lambda a: a.marker.run,
    "order": lambda a: list(a.marker.initiative),
    "ties": lambda a: [list(group) for group in a.state.initiative_groups],
    "options": lambda a: dict(a.state.options),
    "hands": lambda a: {side: len(a.state.hands.get(side, ()))
                        for side in _keys(a.needs, "side", a.state.side_ids())},
    "decks": lambda a: {side: len(a.state.decks.get(side, ()))
                        for side in _keys(a.needs, "side", a.state.side_ids())},
    "actor": lambda a: a.actor,
    "role": lambda a: next((r for r, s in a.roles(a.state).items() if s == a.actor), ""),
    "action": lambda a: action_value(a.command, a.needs),
    "unit": lambda a: command_unit(a.state, a.command, a.declared, a.needs),
}


def _tracks(state: MatchState, declared: Declared) -> dict[str, Any]:
    out = {name: first for name, first in declared.tracks.items() if "*" not in name}
    out.update({name: value for name, value in state.tracks.items()
                if declared.track(name) is not None})
    return out


def action_value(command: Command | None, needs: Needs | None) -> dict[str, Any]:
    """The view's `action`: the command's fields the expressions read (all: None)."""
    if command is None:
        return {}
    keys = None if needs is None else needs.get("action", frozenset())
    if keys is not None:  # read field by field while each is plain: as its JSON says it
        fields = type(command).model_fields
        out = {name: getattr(command, name) if name in fields else None for name in keys}
        if all(type(value) in _PLAIN for value in out.values()):
            return out
    dumped = command.model_dump(mode="json")
    return dumped if keys is None else {name: dumped.get(name) for name in keys}


_PLAIN = frozenset({str, int, bool, type(None)})


def command_unit(state: MatchState, command: Command | None, declared: Declared,
                 needs: Needs | None) -> dict[str, Any]:
    """The view's `unit`: the unit the action names (`unit_id`), or a unit of nothing."""
    unit_id = getattr(command, "unit_id", None)
    unit = state.units.get(unit_id) if isinstance(unit_id, str) else None
    if unit is not None:
        return unit_value(unit, declared, needs)
    return {name: NO_UNIT[name] for name in _keys(needs, "unit", UNIT_FIELDS)}
