"""Candidates for the actions on units and their markers: deploy, move, status, markers,
split, rally, take out of play, steps, activation and morale. Each is drawn from the state
(the units in play, their flags and markers) and offered only if `decide` accepts it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.commands import NewUnit
from domain.context import ODD_FIGURE, fresh_unit_id
from domain.legal.domains import BOXES, FREE_FLAG, FREE_KIND, REASONS, marker_kinds, statuses
from domain.legal.model import (
    Candidate,
    Input,
    listed_number,
    location,
    number,
    one_of,
    position,
    text,
)
from domain.legal.probe import Probe
from domain.legal.words import words
from domain.state import Unit

Offers = Iterator[tuple[str, Iterable[Candidate]]]  # (action id, alternatives)
DIES = ("d4", "d6", "d8", "d10", "d12")
BOUNDS = {"figures": (0, 10_000), "steps": (0, 100), "casualty_value": (0, 100)}  # UnitSpec's


def _body(kind: str, unit: Unit, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "unit_id": unit.id, **fields}


def _where(unit: Unit) -> dict[str, Any]:
    return {"x": 0, "y": 0} if unit.position is None else unit.position.model_dump(
        exclude_none=True)


# What a unit's fields are in the players' words (the deploy form's labels); `extra`, the
# scenario's own data, is not asked for on the page.
FIELD_WORDS = {"kind": "Its kind", "figures": "Figures", "steps": "Steps",
               "morale_die": "Morale die", "qv": "Quality value (QV)",
               "cv": "Command value (CV)", "lv": "Leadership value (LV)",
               "casualty_value": "Casualty value", "q": "Quality (Q)", "position": "Where it stands",
               "status": "Its flags", "markers": "Markers on it"}


def new_id(name: str, example: str) -> Input:
    """The id of a unit an action makes: a client may give its own; left out, the service
    makes `example` (the page never asks for it: players name units, docs/legal-actions.md)."""
    return Input(name=name, label="Its id (the service makes one)", kind="id", example=example)


def deploy(p: Probe) -> Offers:
    """A new unit for a side: the player names it (its id is the service's: `<side>-1`, ...,
    unless a client gives one), and gives whatever else the game keeps."""
    optional = tuple(_spec_input(name) for name in NewUnit.model_fields
                     if name not in ("id", "side", "name", "extra"))
    for side in p.state.sides:
        yield "deploy_unit", [Candidate(
            label=side.name, side=side.id,
            body={"type": "deploy_unit", "unit": {"side": side.id}},
            inputs=(text("unit.name", "Its name", required=True, example="New unit"),
                    new_id("unit.id", fresh_unit_id(p.state, side.id, first=1)), *optional))]


def _spec_input(name: str) -> Input:
    label = FIELD_WORDS.get(name, words(name).capitalize())
    if name == "position":
        return position("unit.position", label, None, required=False)
    if name == "morale_die":
        return one_of("unit.morale_die", label, [(d, d) for d in DIES])
    if name in ("status",):
        return Input(name="unit.status", label=label, kind="choices")
    if name in ("extra", "markers"):
        return Input(name=f"unit.{name}", label=label, kind="object")
    if name == "kind":
        return text("unit.kind", label)
    low, high = BOUNDS.get(name, (-20, 20))
    return number(f"unit.{name}", label, low, high)


def move(p: Probe) -> Offers:
    """Each unit's move: where it stands as the example, else the first place of its
    declared domain (`domains.places`: the hexes within its reach, the boxes) `decide`
    accepts; the destination stays the player's to give."""
    for unit in p.scope:
        yield "move_unit", _moves(p, unit)


def _moves(p: Probe, unit: Unit) -> Iterator[Candidate]:
    body = _body("move_unit", unit)
    where = position("to", "Where to", _where(unit))
    yield Candidate(label=unit.name, unit_id=unit.id, body=body, inputs=(where,))
    # (made only when where it stands is refused)
    yield Candidate(label=unit.name, unit_id=unit.id, body=body, inputs=(where,), family="to",
                    examples=tuple(p.domain("move_unit", "to", body)))


def status(p: Probe) -> Offers:
    """Set a status of the declared domain (`domains.statuses`), clear one held."""
    named = statuses(p.view)
    free_flag = [] if p.ruleset.statuses else [FREE_FLAG]
    anything = Input(name="set", label="Set", kind="choices")
    lifting = Input(name="clear", label="Clear", kind="choices")
    for unit in p.scope:
        free = [f for f in named if f not in unit.status]
        setting = one_of("set", "Set", [(f, words(f)) for f in free], required=True,
                         many=True, open_=not p.ruleset.statuses)
        yield "set_status", [Candidate(
            label=f"{unit.name}: set a status", unit_id=unit.id, body=_body("set_status", unit),
            family="set", inputs=(setting, lifting),
            examples=tuple([flag] for flag in [*free, *free_flag]))]
        if unit.status:
            clearing = one_of("clear", "Clear", [(f, words(f)) for f in unit.status],
                              required=True, many=True)
            yield "set_status", [Candidate(
                label=f"{unit.name}: clear a status", unit_id=unit.id, family="clear",
                body=_body("set_status", unit), inputs=(clearing, anything),
                examples=tuple([flag] for flag in unit.status))]


def _count(most: int = 1000) -> Input:
    return number("count", "How many", 1, most, example=1)


def place_marker(p: Probe) -> Offers:
    """A marker on a unit, or at a location: of a kind of the declared domain
    (`domains.marker_kinds`: the ruleset's own, else the core's known kinds, those the
    board holds and one the game does not name)."""
    free = () if p.ruleset.marker_kinds else (FREE_KIND,)
    on_units = p.once("unit marker kinds", lambda: marker_kinds(p.view, None))
    kinds = one_of("kind", "Which marker", [(k, words(k)) for k in on_units], required=True,
                   open_=not p.ruleset.marker_kinds)
    for unit in p.scope:
        yield "place_marker", [Candidate(
            label=unit.name, unit_id=unit.id, body=_body("place_marker", unit), family="kind",
            inputs=(kinds, _count()), examples=(*on_units, *free))]
    if not p.whole:
        return
    places = [*p.state.location_markers, *(u.position.label() for u in p.units if u.position)]
    where = location("location", "Where", places[0] if places else "0101")
    at_places = marker_kinds(p.view, None, at=True)
    kinds = one_of("kind", "Which marker", [(k, words(k)) for k in at_places], required=True,
                   open_=True)
    yield "place_marker", [Candidate(
        label="At a location", body={"type": "place_marker"}, family="kind",
        inputs=(kinds, where, _count()), examples=(*at_places, *free))]


def remove_marker(p: Probe) -> Offers:
    for unit in p.scope:
        if unit.markers:
            yield "remove_marker", [_removal(_body("remove_marker", unit), unit.name,
                                             unit.markers, unit.id)]
    for place, markers in sorted(p.state.location_markers.items()) if p.whole else ():
        if markers:
            yield "remove_marker", [_removal({"type": "remove_marker", "location": place},
                                             f"At {place}", markers, None)]


def _removal(body: dict[str, Any], label: str, markers: dict[str, int],
             unit_id: str | None) -> Candidate:
    kinds = one_of("kind", "Which marker", [(k, f"{words(k)} ({n})") for k, n in
                                            markers.items()], required=True)
    return Candidate(label=label, unit_id=unit_id, body=body, family="kind",
                     inputs=(kinds, _count(max(markers.values()))), examples=tuple(markers))


def split(p: Probe) -> Offers:
    """Where the game divides the unit itself (AA-3) the owner says where an odd marker
    goes; otherwise how many figures (and markers) split off: every count of the declared
    domain (1 to its figures less one) is tried, and those `decide` accepts are offered."""
    for unit in p.scope:
        body = _body("split_unit", unit)
        made = new_id("new_unit_id", fresh_unit_id(p.state, unit.id))
        where = position("position", "Where the new unit stands", None, required=False)
        odd = [*(["figures"] if (unit.figures or 0) % 2 else []),
               *(kind for kind, count in unit.markers.items() if count % 2)]
        # (issue 39) an odd figure, as an odd marker, goes to the half its owner taps
        halves = tuple(one_of(f"odd_to.{kind}", f"Which half takes the odd {words(kind)}"
                              if kind != ODD_FIGURE else "Which half takes the odd figure",
                              [("first", unit.name), ("second", "the new unit")])
                       for kind in odd)
        counts = p.domain("split_unit", "figures", body)
        figures = listed_number("figures", "Figures that split off", counts)
        yield "split_unit", [
            Candidate(label=unit.name, unit_id=unit.id, body=body,
                      inputs=(made, *halves, Input(name="odd_to", label="Which half takes an "
                                                     "odd marker", kind="object"), where)),
            Candidate(label=unit.name, unit_id=unit.id, body=body, family="figures",
                      examples=tuple(counts),
                      inputs=(made, figures, Input(name="markers", label="Markers that go "
                                                     "with them", kind="object"), where))]


def rally(p: Probe) -> Offers:
    for unit in p.scope:
        inputs = (one_of("clear", "Flags it rallies from", [(f, words(f)) for f in unit.status],
                         many=True, open_=True),
                  Input(name="remove_markers", label="Markers it sheds", kind="object"))
        bodies = [_body("rally_unit", unit),
                  *(_body("rally_unit", unit, remove_markers={k: 1}) for k in unit.markers),
                  *(_body("rally_unit", unit, clear=[f]) for f in unit.status)]
        yield "rally_unit", [Candidate(label=unit.name, unit_id=unit.id, body=body,
                                       inputs=inputs) for body in bodies]


def remove_unit(p: Probe) -> Offers:
    reasons = one_of("reason", "Why", [(r, r) for r in REASONS], required=True)  # (declared)
    boxes = one_of("to_box", "Where it goes", [(b, b) for b in BOXES])
    for unit in p.scope:
        yield "remove_unit", [Candidate(
            label=unit.name, unit_id=unit.id, body=_body("remove_unit", unit), family="reason",
            inputs=(reasons, boxes), examples=REASONS)]


def _per_unit(p: Probe, kind: str, **extra: Any) -> Offers:
    """One candidate of `kind` for each unit in scope, with nothing more to give but `extra`."""
    for unit in p.scope:
        yield kind, [Candidate(label=unit.name, unit_id=unit.id, body=_body(kind, unit), **extra)]


def lose_step(p: Probe) -> Offers:
    return _per_unit(p, "lose_step")


def gain_step(p: Probe) -> Offers:
    return _per_unit(p, "gain_step", inputs=(text("rule", "The rule that gives it"),
                                             text("reason", "Why")))


def activate(p: Probe) -> Offers:
    return _per_unit(p, "activate_unit")


def morale(p: Probe) -> Offers:
    return _per_unit(p, "roll_morale", dice=True)
