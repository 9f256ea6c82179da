"""Read views derived from a match state: the board, the VP tracks, the turn marker.

Each view is a pure function of a `MatchState` (and its ruleset), so it is the same whether
the state is the head of the match or a point in its past (time travel).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from domain.authority import movers, seats, waiting_for
from domain.context import REFEREE, card_title
from domain.duties import Owed
from domain.events import sees_private
from domain.history import UndoRequest
from domain.legal.words import track_title
from domain.owed import owed
from domain.rulefiles.cost import BUDGET, Meter, Spent, budgeted, metered, spent_words
from domain.rulefiles.titles import titles
from domain.rulesets import Ruleset, get_ruleset
from domain.sequence import Step, current_roles
from domain.state import (
    Awaiting,
    DiceRoll,
    EndProposal,
    MatchState,
    Outcome,
    Side,
    TrackValue,
    Unit,
)
from domain.waiting import waiting_for_seats
from projections.colours import side_colours
from projections.unit_words import UnitKindView, extra_words, unit_kinds_view

HEX_ID = re.compile(r"^(\d{2})(\d{2})$")  # a map hex: column and row, "1405"


class Point(BaseModel):
    """Which moment a view shows: `version` of `head_version`; `past` unless they agree."""

    version: int
    head_version: int
    past: bool


class TurnView(BaseModel):
    turn: int
    step: str
    title: str
    rule: str | None
    active_side: str | None
    initiative: tuple[str, ...]
    acting: str  # the step's seat as the sequence names it (any, active, a role ...)
    acting_sides: list[str]  # the sides that may act in this step now
    advanced_by: list[str]  # the seats that may `advance` now (the referee always)
    shared: bool  # every side acts here and says when it is done
    roles: dict[str, str]  # role -> side now (ES: who attacks in this player-turn)
    waiting_for: list[str]  # in a shared step: the sides not done yet
    allows: tuple[str, ...]
    optional: bool
    sequence: list[str]
    sequence_titles: list[str] = Field(default_factory=list)  # each step of it, in words
    expects: list[str]  # what the current step is waiting for, in words
    awaiting: Awaiting | None = None  # a roll whose result the players must enter first
    rolls: list[str] = Field(default_factory=list)  # the `rule_roll`s of this step
    outcome: Outcome | None
    # an end proposed by a side, and the sides that agree so far (it ends the match when
    # every side has agreed)
    end_proposal: EndProposal | None = None


class SideVP(BaseModel):
    side: str
    name: str
    points: int
    by_turn: dict[int, int]


class VPView(BaseModel):
    tracks: list[SideVP]
    leader: str | None  # None while tied


class UnitView(Unit):
    computed: dict[str, Any] = Field(default_factory=dict)  # what the ruleset works out (AA-2)


class CardsView(BaseModel):
    """A side's cards as the viewer may see them: counts and the cards played this turn for
    all; the hand, the deck's order and the cards discarded face down this turn for the side
    itself and the referee only."""

    side: str
    deck_count: int
    hand_count: int
    played: tuple[str, ...]  # the cards played face up this turn (public)
    discarded_count: int  # the cards discarded face down this turn (every seat sees how many)
    discarded: tuple[str, ...] | None = None  # which: for the side itself and the referee
    hand: tuple[str, ...] | None = None
    deck: tuple[str, ...] | None = None
    titles: dict[str, str] = Field(default_factory=dict)  # each card shown, by its title


class SideView(Side):
    """A side of the match, with the colour every page draws it in (projections/colours.py)."""

    colour: str = Field(description="the side's colour, `#rrggbb`: the table page and the "
                        "report draw the side in it")


def side_views(state: MatchState) -> tuple[SideView, ...]:
    colours = side_colours(state.side_ids())
    return tuple(SideView(id=s.id, name=s.name, colour=colours[s.id]) for s in state.sides)


class City(BaseModel):
    hex: str
    name: str | None = Field(default=None, description="as the scenario names it "
                             "(option `city_names`), else none")
    controlled_by: str | None = Field(default=None, description="the side holding it now")


class HexExtent(BaseModel):
    """The hexes a map must show: every hex holding a unit, a location marker or a city."""

    first_column: int
    last_column: int
    first_row: int
    last_row: int


class MapView(BaseModel):
    """A hex map (units on hexes "CCRR"): its extent and its cities."""

    extent: HexExtent
    cities: list[City]


class WaitView(BaseModel):
    seat: str = Field(description="a side id, or `referee`")
    name: str = Field(description="the side's name as the scenario gives it, or `the referee`")
    reason: str = Field(description="why the match waits for it, in words")


class WaitingView(BaseModel):
    """Whose turn: the seats the match waits for now (docs/table.md, "Whose turn")."""

    seats: list[str] = Field(description="each seat waited for, once, in order")
    waits: list[WaitView]
    ended: bool = Field(description="the match has ended: it waits for nobody")
    words: str = Field(description="the same in one sentence")


def waiting_view(state: MatchState, pending: UndoRequest | None = None,
                 due: tuple[Owed, ...] | None = None) -> WaitingView:
    """The seats the match waits for (`domain.waiting`), with the sides' names."""
    found = waiting_for_seats(state, get_ruleset(state.ruleset, state.options,
                                                 state.ruleset_hash), pending, due)
    names = {s.id: s.name for s in state.sides} | {REFEREE: "the referee"}
    waits = [WaitView(seat=w.seat, name=names.get(w.seat, w.seat), reason=w.reason)
             for w in found.waits]
    words = "The match has ended." if found.ended else "Waiting for " + "; ".join(
        f"{w.name} ({w.reason})" for w in waits) + "."
    return WaitingView(seats=list(dict.fromkeys(found.seats)), waits=waits, ended=found.ended,
                       words=words)


class OwedView(BaseModel):
    """One duty owed now (docs/table.md, "What is owed")."""

    seat: str = Field(description="who owes it: a side id, or `referee`")
    name: str = Field(description="the side's name as the scenario gives it, or `the referee`")
    rule: str = Field(description="the rule that owes it")
    says: str = Field(description="what is owed, in the game's words (read after 'to')")
    done_by: list[str] = Field(description="the action types that discharge it")
    units: list[str] = Field(description="the units it concerns (ids), if any")


def owed_view(state: MatchState, due: tuple[Owed, ...]) -> list[OwedView]:
    """What is owed now (`due`, read by `domain.owed.owed`), with the sides' names."""
    names = {s.id: s.name for s in state.sides} | {REFEREE: "the referee"}
    return [OwedView(seat=o.seat, name=names.get(o.seat, o.seat), rule=o.rule, says=o.says,
                     done_by=list(o.done_by), units=list(o.units)) for o in due]


class BoardView(BaseModel):
    ruleset: str
    ruleset_title: str = ""  # the game's name (`Atomic Africa`)
    scenario: str
    casual: bool
    turn: TurnView
    units: list[UnitView]  # in play
    off_board: list[UnitView]  # removed from play
    cards: list[CardsView]
    initiative_groups: tuple[tuple[str, ...], ...]  # BG-4: ties still to re-roll
    location_markers: dict[str, dict[str, int]]
    tracks: dict[str, TrackValue]
    track_titles: dict[str, str] = Field(default_factory=dict)  # each track's title, by name
    recent_rolls: tuple[DiceRoll, ...]
    vp: VPView
    map: MapView | None = None  # the hex map's extent and cities; none on a table
    waiting: WaitingView | None = None  # whose turn (with the undo request, when given)
    owed: list[OwedView] = Field(default_factory=list, description=(
        "what each seat owes now in this step (its duties): the match waits for these seats"))
    unit_kinds: dict[str, UnitKindView] = Field(default_factory=dict, description=(
        "a ruleset file's unit kinds, by id: each one's title and declared attributes"))
    marker_titles: dict[str, str] = Field(default_factory=dict, description=(
        "a ruleset file's titles of its marker kinds, by id"))
    extra_words: dict[str, dict[str, str]] = Field(default_factory=dict, description=(
        "the words for the ids units' attributes hold, by attribute then value: a unit's id "
        "its name, a value the scenario names (option `<attribute>_names`, e.g. "
        "`battlegroup_names`) that name"))
    status_titles: dict[str, str] = Field(default_factory=dict, description=(
        "a ruleset file's titles of its statuses, by id"))
    left_out: str | None = Field(default=None, description=(
        "set when the ruleset file's expressions spent the board's work budget: the board is "
        "shown without the file's own extras (its units' computed values and the words of "
        "what the step expects), and this says why"))


def _step_title(step: Step, path: str) -> str:
    """A step's title, or its path in words (`cleanup/morale` -> `Cleanup: morale`)."""
    if step.title:
        return step.title
    said = ": ".join(part.replace("_", " ") for part in path.split("/"))
    return said[:1].upper() + said[1:]


def turn_view(state: MatchState, expects: list[str] | None = None) -> TurnView:
    """The turn marker; `expects` (what the step waits for) when read already."""
    ruleset = get_ruleset(state.ruleset, state.options, state.ruleset_hash)
    step = ruleset.sequence.step(state.turn.step)
    if expects is None:
        expects = _extras(state, ruleset, None, units=False).expects
    return TurnView(
        turn=state.turn.turn,
        step=state.turn.step,
        title=step.title or step.id,
        rule=step.rule,
        active_side=state.turn.active_side,
        initiative=state.turn.initiative,
        acting=step.acting,
        acting_sides=[s for s in seats(ruleset.sequence, state, step.acting)
                      if s not in state.turn.done],
        advanced_by=movers(ruleset.sequence, state),
        shared=step.shared,
        roles=current_roles(ruleset.sequence, state),
        waiting_for=waiting_for(ruleset.sequence, state),
        allows=step.allows,
        optional=step.optional,
        sequence=ruleset.sequence.steps(),
        sequence_titles=[_step_title(ruleset.sequence.step(path), path)
                         for path in ruleset.sequence.steps()],
        expects=expects,
        awaiting=state.awaiting,
        rolls=[name for name, roll in ruleset.rolls.items() if state.turn.step in roll.steps],
        outcome=state.outcome,
        end_proposal=state.end_proposal,
    )


def vp_view(state: MatchState) -> VPView:
    tracks = [
        SideVP(side=side.id, name=side.name, points=state.vp[side.id].points,
               by_turn=state.vp[side.id].by_turn)
        for side in state.sides
    ]
    best = max(t.points for t in tracks)
    leaders = [t.side for t in tracks if t.points == best]
    return VPView(tracks=tracks, leader=leaders[0] if len(leaders) == 1 else None)


def cards_view(state: MatchState, viewer: str) -> list[CardsView]:
    """Each side's cards as `viewer` sees them: the cards played this turn to every seat; the
    cards discarded face down this turn by name to the side itself and the referee, to any
    other seat only how many. A deck whose order this server does not know (an imported
    match's, until shuffled here) is shown to no one: only how many cards it holds."""
    out = []
    for side in state.side_ids():
        deck, hand = state.decks.get(side, ()), state.hands.get(side, ())
        played, discarded = state.discards.get(side, ()), state.discarded.get(side, ())
        if not (deck or hand or played or discarded):
            continue
        mine = sees_private(viewer, side)
        known = deck if mine and side not in state.unknown_decks else None
        shown = (*played, *((*discarded, *hand, *(known or ())) if mine else ()))
        out.append(CardsView(side=side, deck_count=len(deck), hand_count=len(hand),
                             played=played, discarded_count=len(discarded),
                             discarded=discarded if mine else None,
                             hand=hand if mine else None, deck=known,
                             titles={card: card_title(state, card) for card in shown}))
    return out


@dataclass(frozen=True)
class _Extras:
    """What a ruleset computes for the board beyond the state: each unit's values (by its
    id), the words of what the step expects; `left_out`: why they are not shown."""

    computed: dict[str, dict[str, Any]]
    expects: list[str]
    left_out: str | None = None


def _extras(state: MatchState, ruleset: Ruleset, between: Callable[[], None] | None,
            units: bool = True) -> _Extras:
    """The ruleset's extras (`units`: the units' values too), a ruleset file's readings
    within one work budget (cost.py): past it, none of them (said)."""
    meter = Meter(BUDGET, between)
    try:
        with metered(meter):
            info = ruleset.unit_info if units else None
            computed = {u.id: info(state, u) for u in state.units.values()} if info else {}
            expects = (ruleset.expects(state) if ruleset.expects and state.outcome is None
                       else [])
    except Spent:
        return _Extras({}, [], f"{spent_words(meter)}; shown without the ruleset file's "
                       "values of units and its words of what the step expects")
    return _Extras(computed, expects)


def board_view(state: MatchState, viewer: str = "",
               pending: UndoRequest | None = None,
               between: Callable[[], None] | None = None) -> BoardView:
    """The board as seat `viewer` may see it (private cards only for their owner), and
    whose turn it is (`pending`: the undo request waiting for an answer, if any). A ruleset
    file's readings take at most one work budget for its extras (past it, the board says
    what it left out) and one for the rest (past it, `WorkSpent`); `between` is called
    between readings now and then (the server lets other threads run)."""
    ruleset = get_ruleset(state.ruleset, state.options, state.ruleset_hash)
    said = titles(ruleset)  # a ruleset file's words for its kinds, markers and statuses
    extras = _extras(state, ruleset, between)
    units = [UnitView(**dict(u), computed=extras.computed.get(u.id, {}))
             for u in state.units.values()]
    with budgeted(between):  # whose turn, what is owed: the sequence's own readings
        turn = turn_view(state, extras.expects)
        owing = owed(state, ruleset)  # read once: whose turn and what is owed
        waiting = waiting_view(state, pending, owing)
        due = owed_view(state, owing)
    return BoardView(
        ruleset=state.ruleset,
        ruleset_title=ruleset.title,
        scenario=state.scenario,
        casual=state.casual,
        turn=turn,
        units=[u for u in units if u.removed is None],
        off_board=[u for u in units if u.removed is not None],
        cards=cards_view(state, viewer),
        initiative_groups=state.initiative_groups,
        location_markers=state.location_markers,
        tracks=state.tracks,
        track_titles={name: track_title(ruleset, name, state) for name in state.tracks},
        recent_rolls=state.dice.recent,
        vp=vp_view(state),
        map=map_view(state),
        waiting=waiting,
        owed=due,
        unit_kinds=unit_kinds_view(said),
        marker_titles=dict(said.markers),
        status_titles=dict(said.statuses),
        extra_words=extra_words(state),
        left_out=extras.left_out,
    )


def _cities(state: MatchState) -> list[City]:
    """The scenario's cities (option `cities`: {hex: side at the start}), held as the
    `control.<hex>` tracks say now, named by option `city_names` ({hex: name}) if given."""
    start = state.options.get("cities")
    names = state.options.get("city_names")
    names = names if isinstance(names, dict) else {}
    if not isinstance(start, dict):
        return []
    sides = set(state.side_ids())
    out = []
    for hex_id, side in sorted(start.items()):
        holder = str(state.tracks.get(f"control.{hex_id}", side))
        out.append(City(hex=str(hex_id), name=str(names[hex_id]) if hex_id in names else None,
                        controlled_by=holder if holder in sides else None))
    return out


def map_view(state: MatchState) -> MapView | None:
    """The hex map when units stand on hexes (or the scenario has cities): the extent that
    holds every unit, location marker and city (in play or not), and the cities."""
    cities = _cities(state)
    hexes = [u.position.hex for u in state.units.values() if u.position and u.position.hex]
    hexes += [*state.location_markers, *(c.hex for c in cities)]
    cells = [(int(m[1]), int(m[2])) for m in map(HEX_ID.match, hexes) if m]
    if not cells:
        return None
    cols, rows = [c for c, _ in cells], [r for _, r in cells]
    return MapView(extent=HexExtent(first_column=min(cols), last_column=max(cols),
                                    first_row=min(rows), last_row=max(rows)),
                   cities=cities)
