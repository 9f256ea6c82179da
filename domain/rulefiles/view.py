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
        "done": list_of(STRING), "facts": list_of(STRING), "vp": map_of(INT, None, "side"),
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
    fields = _keys(needs, "unit", UNIT_FIELDS)
    out: dict[str, Any] = {}
    position = unit.position
    for name in fields:
        if name == "attributes":
            out[name] = _attributes(unit, declared, needs)
        elif name == "markers":
            out[name] = {kind: unit.markers.get(kind, 0)
                         for kind in _keys(needs, "marker kind", declared.markers)}
        elif name == "status":
            out[name] = list(unit.status)
        elif name in ("hex", "box"):
            out[name] = (getattr(position, name) or "") if position else ""
        else:
            out[name] = getattr(unit, name)
    return out


def _attributes(unit: Unit, declared: Declared, needs: Needs | None) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for name in _keys(needs, "attribute", declared.attributes):
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
    marker = state.turn
    path = marker.step.rsplit("/", 1)
    makers: dict[str, Callable[[], Any]] = {
        "turn": lambda: marker.turn,
        "step": lambda: path[-1],
        "phase": lambda: path[0] if len(path) == 2 else "",
        "active": lambda: marker.active_side or "",
        "sides": lambda: list(state.side_ids()),
        "roles": lambda: {r: s for r, s in {**dict.fromkeys(declared.roles, ""),
                                            **roles(state)}.items()
                          if r in _keys(needs, "role", declared.roles)},
        "units": lambda: [unit_value(u, declared, needs) for u in state.in_play()],
        "tracks": lambda: {name: value for name, value in _tracks(state, declared).items()
                           if needs is None or name in _keys(needs, "track", [name])},
        "done": lambda: list(marker.done),
        "facts": lambda: list(state.this_turn),
        "awaiting": lambda: ({"of": state.awaiting.what, "by": state.awaiting.by}
                             if state.awaiting is not None else {"of": "", "by": ""}),
        "vp": lambda: {side: state.vp[side].points if side in state.vp else 0
                       for side in _keys(needs, "side", state.side_ids())},
        "run": lambda: marker.run,
        "order": lambda: list(marker.initiative),
        "ties": lambda: [list(group) for group in state.initiative_groups],
        "options": lambda: dict(state.options),
        "hands": lambda: {side: len(state.hands.get(side, ()))
                          for side in _keys(needs, "side", state.side_ids())},
        "decks": lambda: {side: len(state.decks.get(side, ()))
                          for side in _keys(needs, "side", state.side_ids())},
        "actor": lambda: actor,
        "role": lambda: next((r for r, s in roles(state).items() if s == actor), ""),
        "action": lambda: _action(command, needs),
        "unit": lambda: _unit(state, command, declared, needs),
    }
    return {name: makers[name]() for name in wanted if name in makers}


def _tracks(state: MatchState, declared: Declared) -> dict[str, Any]:
    out = {name: first for name, first in declared.tracks.items() if "*" not in name}
    out.update({name: value for name, value in state.tracks.items()
                if declared.track(name) is not None})
    return out


def _action(command: Command | None, needs: Needs | None) -> dict[str, Any]:
    if command is None:
        return {}
    dumped = command.model_dump(mode="json")
    keys = None if needs is None else needs.get("action", frozenset())
    return dumped if keys is None else {name: dumped.get(name) for name in keys}


def _unit(state: MatchState, command: Command | None, declared: Declared,
          needs: Needs | None) -> dict[str, Any]:
    unit_id = getattr(command, "unit_id", None)
    unit = state.units.get(unit_id) if isinstance(unit_id, str) else None
    if unit is not None:
        return unit_value(unit, declared, needs)
    return {name: NO_UNIT[name] for name in _keys(needs, "unit", UNIT_FIELDS)}
