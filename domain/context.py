"""What deciding an action needs, shared by the core (`domain.decide`) and the rulesets'
procedures: the `Context` an action is decided in, `Emit` (which stamps events and keeps the
state they lead to), the lookups that refuse with a rule-naming error, and the service's
split as equal as possible (`evenly`, `split_evenly`: a ruleset file's `split` effect and
Atomic Africa's AA-3 split alike)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeVar
from uuid import UUID

from domain import events as ev
from domain.commands import UNITS_IN_ALL, UNITS_PER_SIDE
from domain.dice import DiceSource
from domain.errors import InvalidAction, NotYourTurn
from domain.state import MatchState, Position, Unit

REFEREE = "referee"
E = TypeVar("E", bound=ev.Event)


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
class Emit:
    """Stamps events with the envelope, numbering them from `context.version + 1`. Its
    `state` is the state after the events emitted so far (for procedures that go on from
    there, like a ruleset's step that acts as the marker arrives), evolved only when asked."""

    context: Context
    base: MatchState
    apply: Callable[[MatchState, ev.Event], MatchState] | None = None
    events: list[ev.Event] = field(default_factory=list)
    _state: MatchState | None = None
    _applied: int = 0

    def __call__(self, cls: type[E], **fields: Any) -> E:
        c = self.context
        turns = [e.marker.turn for e in self.events if isinstance(e, ev.TurnAdvanced)]
        event = cls(
            originator_id=c.match_id,
            originator_version=c.version + len(self.events) + 1,
            timestamp=c.now,
            actor=c.actor,
            command_id=c.command_id,
            turn=turns[-1] if turns else self.base.turn.turn,
            **fields,
        )
        self.events.append(event)
        return event

    @property
    def state(self) -> MatchState:
        state = self._state or self.base
        if self.apply is not None:
            for event in self.events[self._applied:]:
                state = self.apply(state, event)
            self._state, self._applied = state, len(self.events)
        return state

    @property
    def roll_index(self) -> int:
        """The index of the next server roll (or shuffle) in this action."""
        return self.context.roll_index + sum(
            getattr(e, "roll_index", None) is not None for e in self.events)


def unit(state: MatchState, unit_id: str, *, in_play: bool = True) -> Unit:
    found = state.units.get(unit_id)
    if found is None:
        raise InvalidAction(f"there is no unit '{unit_id}'", rule="core-units")
    if in_play and found.removed is not None:
        raise InvalidAction(f"unit '{unit_id}' has left play ({found.removed})", rule="core-units")
    return found


def side(state: MatchState, side_id: str) -> str:
    if side_id not in state.side_ids():
        raise InvalidAction(
            f"there is no side '{side_id}'", rule="core-sides", allowed=list(state.side_ids())
        )
    return side_id


def own_side(state: MatchState, actor: str, rule: str) -> str:
    """The side a seat acts for; the referee must act through a side's seat here."""
    if actor not in state.side_ids():
        raise NotYourTurn("this action is a side's own: act with that side's seat", rule=rule,
                          allowed=list(state.side_ids()))
    return actor


def take(present: dict[str, int], wanted: dict[str, int], what: str) -> None:
    for kind, count in wanted.items():
        if present.get(kind, 0) < count:
            raise InvalidAction(
                f"{what} has {present.get(kind, 0)} '{kind}' marker(s), not {count}",
                rule="core-markers",
            )


def split_name(state: MatchState, parent: Unit) -> str:
    """The name of a unit split off `parent`, in words: its name and the next letter not yet
    taken (`1st Squad` -> `1st Squad B`; ours: the players name units, never by an id)."""
    taken = {u.name for u in state.units.values()}
    for letter in "BCDEFGHIJKLMNOPQRSTUVWXYZ":
        if f"{parent.name} {letter}" not in taken:
            return f"{parent.name} {letter}"
    return f"{parent.name} ({len(taken) + 1})"


def fresh_unit_id(state: MatchState, base: str, first: int = 2) -> str:
    """A unit id no unit has: `<base>-<first>`, then the next number (`sq1` -> `sq1-2`; a
    side's new unit `red` -> `red-1`). The service makes a new unit's id so that the players
    never have to (they name the unit); the event records it, so a replay needs no rerun."""
    n = first
    while f"{base}-{n}" in state.units:
        n += 1
    return f"{base}-{n}"


def new_unit_id(state: MatchState, given: str | None, base: str, first: int = 2) -> str:
    """The id of a unit about to be made: the one a client gave (refused when taken), else
    `fresh_unit_id`."""
    if given is None:
        return fresh_unit_id(state, base, first)
    if given in state.units:
        raise InvalidAction(f"unit id '{given}' is taken; leave it out and the service makes "
                            "one", rule="core-units")
    return given


def named(state: MatchState, option: str, key: str) -> str:
    """What the scenario calls `key` by its option `option` (`card_names`: a card's title,
    `battlegroup_names`: a battlegroup's); else a key that reads as an id in words (`red-1` ->
    `Red 1`), and any other as it is (`Dig in`, `CARD-JACK`)."""
    return named_by(state.options, option, key)


def named_by(options: Mapping[str, Any], option: str, key: str) -> str:
    """`named`, from the scenario's options (the log's sentences hold those, not a state)."""
    names = options.get(option)
    if isinstance(names, dict) and key in names:
        return str(names[key])
    if re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)+", key):
        return key.replace("-", " ").replace("_", " ").capitalize()
    return key


def card_title(state: MatchState, card: str) -> str:
    return named(state, "card_names", card)


Half = Literal["first", "second"]  # the unit split (first), or the unit split off it
ODD_FIGURE = "figures"  # the key of `odd_to` that says which part takes an odd figure


@dataclass(frozen=True)
class SplitPlan:
    """Two parts as equal as possible: their figures and their markers (first: the unit
    split, second: the new unit)."""

    figures: tuple[int, int]
    markers: tuple[dict[str, int], dict[str, int]]


def evenly(figures: int, markers: Mapping[str, int],
           odd_to: Mapping[str, Half] | None = None) -> SplitPlan:
    """Divide `figures` and every marker kind as equally as possible (11 -> 6 + 5); the
    owner says which part takes an odd one: `odd_to[kind]` for a marker kind,
    `odd_to["figures"]` for an odd figure (the first part when not said)."""
    chosen = odd_to or {}

    def halves(count: int, key: str) -> tuple[int, int]:
        big, small = (count + 1) // 2, count // 2
        return (big, small) if chosen.get(key, "first") == "first" else (small, big)

    first: dict[str, int] = {}
    second: dict[str, int] = {}
    for kind, count in markers.items():
        a, b = halves(count, kind)
        if a:
            first[kind] = a
        if b:
            second[kind] = b
    return SplitPlan(figures=halves(figures, ODD_FIGURE), markers=(first, second))


def split_evenly(state: MatchState, parent: Unit, emit: Emit, rule: str,
                 odd_to: Mapping[str, Half] | None = None, given_id: str | None = None,
                 position: Position | None = None) -> Unit:
    """Split `parent` in two as equal as possible (`evenly`), the new unit standing at
    `position` (else where the parent stands) under the id `given_id` (else one the service
    makes): its `UnitSplit`, naming `rule`, and the new unit. A unit of fewer than two
    figures is refused, and so is a new unit past the match's size (docs/scenarios.md)."""
    figures = parent.figures or 0
    if figures < 2:
        raise InvalidAction(f"{rule}: unit '{parent.id}' has {figures} figure(s), too few to "
                            "split in two", rule=rule)
    unit_id = new_unit_id(state, given_id, parent.id)
    units = list(state.units.values())
    if len(units) >= UNITS_IN_ALL or sum(u.side == parent.side for u in units) >= UNITS_PER_SIDE:
        raise InvalidAction(f"a match holds at most {UNITS_IN_ALL} units, a side "
                            f"{UNITS_PER_SIDE}", rule="core-limits")
    plan = evenly(figures, parent.markers, odd_to)
    new_unit = parent.model_copy(update={
        "id": unit_id, "name": split_name(state, parent), "figures": plan.figures[1],
        "markers": plan.markers[1], "position": position or parent.position})
    emit(ev.UnitSplit, unit_id=parent.id, new_unit=new_unit, rule=rule)
    return new_unit
