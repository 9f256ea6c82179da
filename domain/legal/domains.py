"""What each input of each action type may be: its domain, declared as data (issue 38).

`DOMAINS` holds one declaration per action type: for each field of its body (dotted for a
nested one, in the order they are given), a `Domain` saying what the field may be: units
matching a condition, sides, marker kinds, statuses, places (hexes on the map's extent
within reach of the unit, the off-board boxes), whole numbers between two bounds read from
the state (a split's figures: 1 to figures-1; a cut: 1 to the deck's size-1), listed values,
cards in the seat's hand, tracks and their values, the rolls of the step. A ruleset narrows
a domain through what it declares (`marker_kinds`, `statuses`, `tracks`, `rolls`).

`values(domain, view, body)` enumerates a domain at a state, for the body given so far (a
split's figures depend on its unit); `bodies(kind, view)` enumerates every body of an
action type over its declared domains (optional fields also left out). Both `/legal`
(`domain.legal.units`, `games`, `records`) and the tests' brute-force generator read them:
what is offered is drawn from here and kept when `decide` accepts it, never chosen by the
words of a refusal. Free inputs (a note's text, a reason) have no domain: a fixed example
stands for them. Pure data and enumeration; what is legal is `decide`'s to say."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cached_property
from typing import Any, Literal

from domain.dice import parse
from domain.legal.words import FLAGS, LOCATION_MARKERS, UNIT_MARKERS
from domain.rulefiles.hexes import HEX_ID, hex_distance
from domain.rulesets import Ruleset
from domain.rulesets.wing_command_rolls import LEADERSHIP
from domain.state import MatchState, Unit

Of = Literal["units", "sides", "markers", "statuses", "places", "hexes", "numbers", "values",
             "cards", "tracks", "track_values", "rolls", "groups", "faces", "steps", "text"]
Bound = int | str  # a whole number, or a quantity of the state (QUANTITIES) with +k / -k
BOXES = ("reserve", "reinforcements", "eliminated", "transport")
REASONS = ("destroyed", "eliminated", "surrendered", "withdrawn", "casualty")
STAGES = ("radio_contact", "spotting_round", "correction", "fire_for_effect")
SUPPLY = ("in_supply", "out_of_supply", "isolated")
ODDS = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")  # the odds columns (NO-2)
# (issue 39, ours) The rows of a results table the players read at their own table, as the
# buttons of `enter_result` (open: other words are accepted): what the rules say a roll
# leads to, by the rule that awaits it; the service holds no table of its own for these.
RESULTS: dict[str, tuple[str, ...]] = {
    "WC-7": ("no effect", "disrupted", "destroyed"),
    "NO-2": ("no effect", "attacker loses a step", "defender loses a step",
             "defender retreats", "defender disorganized", "attacker disorganized"),
}
NO_RESULT = ("no effect",)
FREE_KIND = "marker"  # a kind the game does not name, where it names none
FREE_FLAG = "marked"  # a status the game does not name, where it names none


@dataclass(frozen=True)
class Domain:
    """What one field may be. `where` narrows units (`in_play`, `own`, `other`: another
    side than the unit the action is about, `markers`: holding markers, `no_group`: in no
    battlegroup, `leaders`: the other units of the unit's side that lead), statuses (`held`,
    `not_held` by the unit) and marker kinds (`held` by the unit or place); `low`/`high`
    bound whole numbers; `values` lists a closed set; `many`: the field is a list (each
    value tried alone, as [value]); `optional`: the field may be left out."""

    of: Of
    where: str = ""
    low: Bound = 1
    high: Bound = 1
    values: tuple[Any, ...] = ()
    many: bool = False
    optional: bool = False


def results_of(rule: str | None) -> tuple[str, ...]:
    """The rows of the results table a roll under `rule` is read on (see `RESULTS`)."""
    return RESULTS.get((rule or "").split(" ")[0], NO_RESULT)


def _d(of: Of, where: str = "", **kw: Any) -> Domain:
    return Domain(of, where, **kw)


UNIT = _d("units", "in_play")
MINE = _d("units", "own")
DICE_FIELDS = (("source", _d("values", values=("server", "table"), optional=True)),)
DOMAINS: dict[str, tuple[tuple[str, Domain], ...]] = {
    "deploy_unit": (("unit.side", _d("sides")), ("unit.name", _d("text", values=("New unit",)))),
    "move_unit": (("unit_id", UNIT), ("to", _d("places"))),
    "set_status": (("unit_id", UNIT), ("set", _d("statuses", "not_held", many=True,
                                                 optional=True)),
                   ("clear", _d("statuses", "held", many=True, optional=True))),
    "place_marker": (("unit_id", _d("units", "in_play", optional=True)), ("kind", _d("markers")),
                     ("count", _d("numbers", low=1, high=3, optional=True))),
    "remove_marker": (("unit_id", _d("units", "markers")), ("kind", _d("markers", "held")),
                      ("count", _d("numbers", low=1, high="held", optional=True))),
    "split_unit": (("unit_id", UNIT), ("figures", _d("numbers", low=1, high="figures-1",
                                                     optional=True))),
    "rally_unit": (("unit_id", UNIT), ("clear", _d("statuses", "held", many=True,
                                                   optional=True))),
    "remove_unit": (("unit_id", UNIT), ("reason", _d("values", values=REASONS)),
                    ("to_box", _d("values", values=BOXES, optional=True))),
    "lose_step": (("unit_id", UNIT),),
    "gain_step": (("unit_id", UNIT),),
    "activate_unit": (("unit_id", UNIT),),
    "roll_morale": (("unit_id", UNIT),),
    "roll_dice": (("notation", _d("values", values=("d6", "2d6", "d10"))),
                  ("purpose", _d("text", values=("a roll",))), *DICE_FIELDS),
    "set_track": (("name", _d("tracks")), ("value", _d("track_values"))),
    "score_vp": (("side", _d("sides")), ("points", _d("numbers", low=-2, high=3))),
    "end_match": (("winner", _d("sides", optional=True)),),
    "concede": (),
    "reopen_match": (),
    "add_note": (("text", _d("text", values=("a note",))),
                 ("about_version", _d("numbers", low=1, high="version", optional=True))),
    "open_dispute": (("about_version", _d("numbers", low=1, high="version")),
                     ("text", _d("text", values=("a dispute",)))),
    "record_roll": (("results", _d("faces")),),
    "enter_result": (("result", _d("text", values=("no effect",))),
                     ("failed", _d("values", values=(True, False), optional=True))),
    "advance": (("to", _d("steps", optional=True)),),
    "roll_initiative": (),
    "pass_initiative": (),
    "activate_battlegroup": (("battlegroup", _d("groups")),
                             ("auxiliaries", _d("units", "no_group", many=True, optional=True))),
    "draw_cards": (("count", _d("numbers", low=1, high=3, optional=True)),),
    "discard_cards": (("cards", _d("cards", many=True)),),
    "play_card": (("card", _d("cards")),),
    "shuffle_deck": (),
    "cut_deck": (("side", _d("sides")), ("at", _d("numbers", low=1, high="deck-1"))),
    "rule_roll": (("roll", _d("rolls")), ("unit_id", UNIT),
                  ("leader_id", _d("units", "leaders", optional=True)),
                  ("leadership", _d("numbers", low=1, high="cubes", optional=True)),
                  ("dice", _d("numbers", low=1, high=3, optional=True))),
    "fire": (("unit_id", UNIT), ("target_id", _d("units", "other", optional=True))),
    "resolve_combat": (("attackers", _d("units", "in_play", many=True)),
                       ("defenders", _d("units", "other", many=True)),
                       ("odds", _d("values", values=ODDS))),
    "announce_reinforcements": (("unit_ids", _d("units", "in_play", many=True)),
                                ("entry", _d("text", values=("the map edge",)))),
    "call_artillery": (("mission", _d("values", values=("m1",))),
                       ("stage", _d("values", values=STAGES)),
                       ("location", _d("hexes", optional=True))),
    "declare_operation": (("hqs", _d("units", "own", many=True, optional=True)),),
    "set_supply": (("unit_ids", _d("units", "in_play", many=True)),
                   ("status", _d("values", values=SUPPLY))),
}


@dataclass(frozen=True)
class View:
    """Whose domains: the state, its ruleset, and the seat that acts (a side or referee)."""

    state: MatchState
    ruleset: Ruleset
    seat: str
    version: int = 1

    @property
    def side(self) -> str | None:
        return self.seat if self.seat in self.state.side_ids() else None

    @cached_property
    def hexes(self) -> list[str]:
        """The map's hexes (`map_hexes`), found once a view."""
        return map_hexes(self.state)


def about(body: dict[str, Any], state: MatchState) -> Unit | None:
    """The unit a body is about: its `unit_id`, or its first attacker."""
    named = body.get("unit_id") or next(iter(body.get("attackers") or ()), None)
    return state.units.get(named) if isinstance(named, str) else None


def values(domain: Domain, view: View, body: dict[str, Any]) -> list[Any]:
    """Every value `domain` holds now, for `body` as given so far (each alone)."""
    state, ruleset = view.state, view.ruleset
    unit = about(body, state)
    of, where = domain.of, domain.where
    if of == "units":
        return [u.id for u in _units(view, where, unit)]
    if of == "sides":
        return list(state.side_ids())
    if of == "markers":
        kinds = marker_kinds(view, unit, held=where == "held", at=unit is None)
        free = where != "held" and not ruleset.marker_kinds and FREE_KIND not in kinds
        return [*kinds, FREE_KIND] if free else kinds
    if of == "statuses":
        held = list(unit.status) if unit is not None else []
        if where == "held":
            return held
        known = statuses(view)
        free = not ruleset.statuses and FREE_FLAG not in known
        return [f for f in (*known, *([FREE_FLAG] if free else [])) if f not in held]
    if of == "numbers":
        low, high = bound(domain.low, view, body), bound(domain.high, view, body)
        return list(range(low, high + 1))
    if of == "places":
        return places(view, unit)
    if of == "hexes":
        return view.hexes
    if of == "cards":
        return list(dict.fromkeys(state.hands.get(view.side, ()))) if view.side else []
    if of == "tracks":
        return track_names(view)
    if of == "track_values":
        return track_values(view, str(body.get("name", "")))
    if of == "rolls":
        return [n for n, r in ruleset.rolls.items() if state.turn.step in r.steps]
    if of == "steps":  # (ours: not round to the step the marker stands on, a whole turn)
        return [s for s in ruleset.sequence.steps() if s != state.turn.step]
    if of == "faces":
        return faces(state)
    if of == "groups":
        return sorted({str(u.extra["battlegroup"]) for u in state.in_play()
                       if "battlegroup" in u.extra})
    return list(domain.values)


def faces(state: MatchState) -> list[list[int]]:
    """The faces the awaited table roll may show: each face on every die (d4 to d20)."""
    declared = state.awaiting.declared if state.awaiting is not None else None
    if declared is None:
        return []
    spec = parse(declared.notation)
    return [[face] * spec.count for face in range(1, spec.sides + 1)]


def _units(view: View, where: str, unit: Unit | None) -> list[Unit]:
    units = sorted(view.state.in_play(), key=lambda u: (u.side != view.seat, u.side, u.id))
    if where == "own":
        return [u for u in units if u.side == view.side]
    if where == "other":
        return [u for u in units if unit is not None and u.side != unit.side]
    if where == "markers":
        return [u for u in units if u.markers]
    if where == "no_group":
        return [u for u in units if "battlegroup" not in u.extra]
    if where == "leaders":
        return [u for u in units if unit is not None and u.side == unit.side
                and u.id != unit.id and leads(u)]
    return units


def leads(unit: Unit) -> bool:
    """Whether a unit leads (ours: what makes a leader in the games battlelog knows): a
    unit of kind `leader`, or with a leadership or command value (`lv`, `cv`), or holding
    leadership cubes."""
    return (unit.kind == "leader" or unit.lv is not None or unit.cv is not None
            or LEADERSHIP in unit.markers)


def marker_kinds(view: View, unit: Unit | None, *, held: bool = False,
                 at: bool = False) -> list[str]:
    """The kinds a unit holds (`held`), or the kinds to place on a unit (at a location,
    `at`): the ruleset's own when it declares them, else the kinds battlelog knows for the
    game and those the board holds (`values` adds one the game does not name)."""
    if held:
        return list(unit.markers) if unit is not None else []
    if view.ruleset.marker_kinds:
        return list(view.ruleset.marker_kinds)
    state, rid = view.state, view.ruleset.id
    if at:
        return sorted({*LOCATION_MARKERS.get(rid, ()),
                       *(k for m in state.location_markers.values() for k in m)})
    return sorted({*UNIT_MARKERS.get(rid, ()), *(k for u in state.in_play() for k in u.markers)})


def statuses(view: View) -> list[str]:
    """The statuses a unit may take: the ruleset's own when it declares them, else the
    flags battlelog knows for the game and those the board holds (`values` adds one the
    game does not name)."""
    if view.ruleset.statuses:
        return list(view.ruleset.statuses)
    return sorted({*FLAGS.get(view.ruleset.id, ()),
                   *(f for u in view.state.in_play() for f in u.status)})


QUANTITY = re.compile(r"^([a-z]+)\s*([+-]\s*[0-9]+)?$")


def bound(given: Bound, view: View, body: dict[str, Any]) -> int:
    """A bound's whole number now: `figures` (the unit's), `deck` (the side's deck size),
    `held` (the unit's markers of the body's kind), `cubes` (the leader's leadership
    cubes), `version` (the match's version)."""
    if isinstance(given, int):
        return given
    matched = QUANTITY.match(given)
    if matched is None:
        raise ValueError(f"a bound is a number or a quantity: {given!r}")
    state, unit = view.state, about(body, view.state)
    name, shift = matched[1], int((matched[2] or "0").replace(" ", ""))
    leader = state.units.get(body.get("leader_id") or "")
    found = {"figures": (unit.figures or 0) if unit is not None else 0,
             "deck": len(state.decks.get(str(body.get("side")), ())),
             "held": unit.markers.get(str(body.get("kind")), 0) if unit is not None else 0,
             "cubes": leader.markers.get(LEADERSHIP, 0) if leader is not None else 0,
             "version": view.version}[name]
    return found + shift


def map_hexes(state: MatchState) -> list[str]:
    """The map's extent (ours: the state names no map): every hex in the smallest box of
    columns and rows that holds every hex the match names (the units' hexes and the hexes
    their data names, the location markers, the scenario's named hexes)."""
    named = {u.position.hex for u in state.units.values()
             if u.position is not None and u.position.hex}
    named |= {str(v) for u in state.units.values() for v in u.extra.values()}
    named |= set(state.location_markers)
    for option in state.options.values():
        if isinstance(option, dict):
            named |= {str(k) for k in option}
    hexes = [h for h in named if HEX_ID.match(h)]
    if not hexes:
        return []
    cols, rows = [int(h[:2]) for h in hexes], [int(h[2:]) for h in hexes]
    return [f"{c:02d}{r:02d}" for c in range(min(cols), max(cols) + 1)
            for r in range(min(rows), max(rows) + 1)]


def places(view: View, unit: Unit | None) -> list[dict[str, Any]]:
    """Where a unit may be put: where it stands, the hexes of the map within its movement
    allowance (`movement` in its data, where the game has one; from the map when it is off
    it), and the off-board boxes."""
    here = unit.position if unit is not None else None
    out: list[dict[str, Any]] = []
    if here is not None:
        out.append(here.model_dump(exclude_none=True))
    reach = unit.extra.get("movement") if unit is not None else None
    for hex_id in view.hexes:
        if here is not None and here.hex and HEX_ID.match(here.hex) and isinstance(
                reach, int) and hex_distance(here.hex, hex_id) > reach:
            continue
        if here is None or here.hex != hex_id:
            out.append({"hex": hex_id})
    out += [{"box": box} for box in BOXES if here is None or here.box != box]
    if here is None or here.hex is None and here.box is None:
        out.append({"x": 0, "y": 0} if here is None else {"x": (here.x or 0) + 1,
                                                          "y": here.y or 0})
    return out


def track_names(view: View) -> list[str]:
    """The tracks a seat may set: the ruleset's (each pattern's names the board holds, the
    scenario's towns for `control.*`), or those the board holds where it names none."""
    state, tracks = view.state, view.ruleset.tracks
    if not tracks:
        return sorted(state.tracks)
    cities = state.options.get("cities")
    names: set[str] = set()
    for pattern in tracks:
        names |= {n for n in state.tracks if fnmatchcase(n, pattern)}
        if "*" not in pattern:
            names.add(pattern)
        if pattern == "control.*" and isinstance(cities, dict):
            names |= {f"control.{hex_id}" for hex_id in cities}
    return sorted(names)


def track_values(view: View, name: str) -> list[Any]:
    """The values a track takes: its pattern's (a range of numbers, or a list), else its
    current value."""
    for pattern, allowed in view.ruleset.tracks.items():
        if fnmatchcase(name, pattern):
            return list(allowed)
    current = view.state.tracks.get(name)
    return [current] if current is not None else []


def bodies(kind: str, view: View) -> Iterator[dict[str, Any]]:
    """Every body of action type `kind` over its declared domains: the product of its
    fields' values, each domain read for the body given so far, an optional field also
    left out, a list field with one value (lazily: a caller may stop or sample)."""
    fields = DOMAINS[kind]

    def grow(at: int, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if at == len(fields):
            yield body
            return
        name, domain = fields[at]
        if domain.optional:
            yield from grow(at + 1, body)
        for value in values(domain, view, body):
            yield from grow(at + 1, put(body, name, [value] if domain.many else value))

    yield from grow(0, {"type": kind})


def put(body: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    """A copy of `body` with the dotted field `name` set to `value`."""
    first, _, rest = name.partition(".")
    if not rest:
        return {**body, first: value}
    inner = body.get(first)
    return {**body, first: put(inner if isinstance(inner, dict) else {}, rest, value)}


def domain_of(kind: str, name: str) -> Domain:
    """The declared domain of field `name` of action type `kind`."""
    return dict(DOMAINS[kind])[name]
