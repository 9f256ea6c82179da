"""Events said in the players' words: one sentence per event, for the table page's log
(`GET .../events` serves it as `said`), the dice panel and the after-action reports.

A `Narrator` holds the names of the match (sides, units, the steps of its sequence of play)
and learns the names the events bring (a unit deployed or split later is named from then on).
It says an event as one viewer receives it: a field hidden from that viewer (another side's
hand, a private note's text) is never read. An undo, a note or a dispute names the event it
is about by that event's own sentence, read through `lookup` when it was not seen.

This module holds the names (`Names`), the narrator with its dispatch (`_say_<event class>`)
and the sentences of the match itself (set-up, seats, units, markers, tracks, the sequence
of play, combat, the end); `projections.sentences_dice` says rolls, initiative and cards,
`projections.sentences_records` undo and redo, notes, disputes and rulings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.context import named_by
from domain.errors import InvalidAction
from domain.places import hex_label, with_hex_names
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset
from domain.sequence import SequenceOfPlay
from domain.state import MatchState, Position
from projections.sentences_clock import ClockSentences
from projections.sentences_dice import DiceSentences, listing, plural
from projections.sentences_records import Lookup, RecordSentences
from projections.sentences_titles import markers, markers_gone, part, ruleset_of, status, track

RULES_TEXT = re.compile(r"[A-Z]{2,3}-\d")  # a text the rules made starts with its rule id
NUMBERS = re.compile(r"\[(-?\d+(?:, -?\d+)*)\]")  # a list of numbers a rule wrote: [1, 4, 4]


def words(text: str) -> str:
    return text.replace("_", " ")


def where(position: Position | None, options: dict[str, Any] | None = None) -> str:
    """A place in words: "hex 1405 (Caen)" (its name from the scenario, `domain.places`),
    "the reserve box", "12, 4" on an open table."""
    if position is None:
        return "off the table"
    if position.hex is not None:
        return f"hex {hex_label(position.hex, options or {})}"
    if position.box is not None:
        return f"the {words(position.box)} box"
    return f"{position.x:g}, {position.y:g}"


@dataclass
class Names:
    """The names of one match: sides, units, the titles of its steps and (its `ruleset`'s)
    of what its game names; `options`: the scenario's (a town's name, `city_names`)."""

    sides: dict[str, str] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    sequence: SequenceOfPlay | None = None
    ruleset: Ruleset | None = None
    options: dict[str, Any] = field(default_factory=dict)
    _pattern: dict[bool, re.Pattern[str]] | None = field(default=None, init=False, repr=False)

    @classmethod
    def of_state(cls, state: MatchState) -> Names:
        """From a state (the head's: every unit it ever held, removed ones too)."""
        ruleset = ruleset_of(state.ruleset, state.options, state.ruleset_hash)
        return cls(sides={s.id: s.name for s in state.sides},
                   units={u.id: u.name for u in state.units.values()},
                   sequence=ruleset.sequence if ruleset is not None else None,
                   ruleset=ruleset, options=dict(state.options))

    def learn(self, event: ev.Event) -> None:
        """The names an event brings: the match's set-up, a unit deployed or split."""
        new: dict[str, str] = {}
        if isinstance(event, ev.MatchCreated):
            self.sides.update({s.id: s.name for s in event.sides})
            new = {u.id: u.name for u in event.units}
        elif isinstance(event, ev.UnitDeployed):
            new = {event.unit.id: event.unit.name}
        elif isinstance(event, ev.UnitSplit):
            new = {event.new_unit.id: event.new_unit.name}
        if isinstance(event, ev.MatchCreated) and self.sequence is None:
            self.ruleset = ruleset_of(event.ruleset, event.options, event.ruleset_hash)
            self.sequence = self.ruleset.sequence if self.ruleset is not None else None
            self.options = dict(event.options)
        if any(self.units.get(k) != v for k, v in new.items()) or isinstance(
                event, ev.MatchCreated):
            self.units.update(new)
            self._pattern = None

    def game(self, created: ev.MatchCreated) -> str:
        """The game's title ("Hold the Towns"), never its id and version; a ruleset this
        service does not know, by its id in words."""
        try:
            title = get_ruleset(created.ruleset, created.options, created.ruleset_hash).title
        except InvalidAction:
            title = ""
        return title or created.ruleset.replace("-", " ").replace("_", " ").title()

    def side(self, side: str | None) -> str:
        return self.sides.get(side or "", side or "nobody")

    def seat(self, seat: str) -> str:
        if seat == "referee":
            return "Referee"
        if seat == "spectator":
            return "the spectators"
        if seat.startswith("join:"):
            return f"joining {self.side(seat[5:])}"
        return self.side(seat)

    def unit(self, unit: str | None) -> str:
        return self.units.get(unit or "", unit or "no unit")

    def card(self, card: str) -> str:
        """A card by its title (the scenario's `card_names`, `domain.context.named`)."""
        return named_by(self.options, "card_names", card)

    def group(self, group: str) -> str:
        """A battlegroup by the scenario's name for it (`battlegroup_names`), else the name
        of the unit it is named after (a leader's id), else in words."""
        names = self.options.get("battlegroup_names")
        if group in self.units and not (isinstance(names, dict) and group in names):
            return f"the battlegroup {self.units[group]}"
        return named_by(self.options, "battlegroup_names", group)

    def units_of(self, ids: Iterable[str]) -> str:
        return listing(self.unit(u) for u in ids)

    def sides_of(self, ids: Iterable[str]) -> str:
        return listing(self.side(s) for s in ids)

    def step(self, path: str) -> str:
        """A step's title (`Activation: Move`), or its path in words when the game has none."""
        if self.sequence is not None:
            try:
                chain = self.sequence.chain(path)
            except KeyError:
                chain = []
            titles = [n.title or words(n.id).capitalize() for n in chain]
            if titles:
                return titles[-1] if len(titles) == 1 else f"{titles[0]}: {titles[-1]}"
        return words(path.rsplit("/", 1)[-1]).capitalize()

    def marker(self, kind: str, count: int, on: str) -> str:
        return markers(self.ruleset, kind, count, on)

    def status(self, name: str) -> str:
        return status(self.ruleset, name)

    def track(self, name: str) -> str:
        """A track as the game titles it, else its name in words with ids said as names."""
        return track(self.ruleset, name, lambda p: part(self.options, {**self.sides,
                                                                       **self.units}, p),
                     lambda n: self.text(words(n).replace(".", " "), sides=True))

    def place(self, position: Position | None) -> str:
        """A unit's place in words, a hex with its name (`where`)."""
        return where(position, self.options)

    def text(self, text: str, sides: bool | None = None) -> str:
        """A text with unit ids (and, in a text of the rules', side ids) said as names and
        named hexes with their names ("1405 (Caen)", `domain.places`); an
        id inside a longer word stays as it is; a list of numbers in brackets, in words ("1, 4
        and 4"). `sides`: whether side ids are said as names
        too; by default only in a text the rules made (`WC-3 unit morale of ...`): a side's
        id is often a word (`red`, `allies`) a player may write in a text of their own."""
        if sides is None:
            sides = RULES_TEXT.match(text) is not None
        text = with_hex_names(text, self.options)
        text = NUMBERS.sub(lambda m: listing(m[1].split(", ")), text)  # "1, 4 and 4"
        table = {**self.units, **self.sides} if sides else dict(self.units)
        if not table:
            return text
        if self._pattern is None:
            self._pattern = {}
        if sides not in self._pattern:
            self._pattern[sides] = re.compile(
                r"(?<![A-Za-z0-9_.:/-])(" + "|".join(
                    re.escape(i) for i in sorted(table, key=len, reverse=True))
                + r")(?![A-Za-z0-9_/-]|\.[A-Za-z0-9])")
        return self._pattern[sides].sub(lambda m: table.get(m[1], m[1]), text)


class Narrator(DiceSentences, RecordSentences, ClockSentences):
    """Says events for one viewer: see every event in log order (`see`), say any (`say`)."""

    names: Names

    def __init__(self, names: Names, viewer: str = "", lookup: Lookup | None = None) -> None:
        self.names = names
        self.viewer = viewer
        self.lookup = lookup
        self.seen: dict[int, ev.Event] = {}
        self.said: dict[int, str] = {}
        # The last initiative roll of each turn, to say a re-roll beside the first roll.
        self.initiative: dict[int, ev.InitiativeRolled] = {}
        self.earlier: dict[int, dict[str, int]] = {}  # version -> the rolls before a re-roll

    @classmethod
    def of_state(cls, state: MatchState, viewer: str = "",
                 lookup: Lookup | None = None) -> Narrator:
        return cls(Names.of_state(state), viewer, lookup)

    def see(self, event: ev.Event) -> None:
        """Learn what an event brings (names, initiative rolls); in log order."""
        self.names.learn(event)
        self.seen[event.version] = event
        if isinstance(event, ev.InitiativeRolled):
            self._initiative(event)

    def sentence(self, event: ev.Event) -> str:
        """The event in words, as the viewer receives it."""
        if event.version not in self.said:
            if event.version not in self.seen:
                self.see(event)
            self.said[event.version] = self._say(event)
        return self.said[event.version]

    # ---- saying --------------------------------------------------------------------------

    def _say(self, e: ev.Event) -> str:
        n = self.names
        who = n.seat(e.actor)
        hidden = e.hidden_from(self.viewer)
        say = getattr(self, f"_say_{type(e).__name__}", None)
        if say is None:  # a new event class: still words, never JSON
            return f"{who}: {words(type(e).__name__)}."
        return str(say(e, who, hidden))

    def _say_MatchCreated(self, e: ev.MatchCreated, who: str, hidden: set[str]) -> str:
        game = self.names.game(e)
        fork = " as a what-if copy of another match" if e.forked_from else ""
        return (f"{who} set up {e.scenario} ({game}){fork}: "
                f"{listing((s.name for s in e.sides), 'against')}.")

    def _say_SeatJoined(self, e: ev.SeatJoined, who: str, hidden: set[str]) -> str:
        return f"{e.player} joined as {'the referee' if e.side is None else self.names.side(e.side)}."

    def _link(self, seat: str) -> str:
        if seat == "referee":
            return "the referee's link"
        if seat == "spectator":
            return "the spectators' link"
        if seat.startswith("join:"):
            return f"the invitation to play {self.names.side(seat[5:])}"
        return f"{self.names.side(seat)}'s link"

    def _say_SeatTokenIssued(self, e: ev.SeatTokenIssued, who: str, hidden: set[str]) -> str:
        return f"{who} got a new link: {self._link(e.seat)}."

    def _say_SeatTokenRevoked(self, e: ev.SeatTokenRevoked, who: str, hidden: set[str]) -> str:
        return f"{who} withdrew an old link: {self._link(e.seat)} no longer works."

    def _say_UnitDeployed(self, e: ev.UnitDeployed, who: str, hidden: set[str]) -> str:
        u = e.unit
        return f"{who} deployed {u.name} ({self.names.side(u.side)}) at {self.names.place(u.position)}."

    def _say_UnitMoved(self, e: ev.UnitMoved, who: str, hidden: set[str]) -> str:
        origin = f" from {self.names.place(e.origin)}" if e.origin is not None else ""
        return f"{who} moved {self.names.unit(e.unit_id)}{origin} to {self.names.place(e.to)}."

    def _say_UnitStatusChanged(self, e: ev.UnitStatusChanged, who: str,
                               hidden: set[str]) -> str:
        parts = []
        if e.set:
            parts.append(f"marked {self.names.unit(e.unit_id)} "
                         f"{listing(self.names.status(s) for s in e.set)}")
        if e.cleared:
            parts.append(("cleared " if e.set else f"cleared {self.names.unit(e.unit_id)}: ")
                         + listing(self.names.status(s) for s in e.cleared))
        return f"{who} " + ("; ".join(parts) or f"left {self.names.unit(e.unit_id)} as it was") + "."

    def _marker(self, e: ev.MarkerPlaced | ev.MarkerRemoved, on: str, at: str) -> str:
        where_ = (f"{on} {self.names.unit(e.unit_id)}" if e.unit_id is not None
                  else f"{at} {self.names.text(e.location or 'the table')}")
        return self.names.marker(e.kind, e.count, where_)

    def _say_MarkerPlaced(self, e: ev.MarkerPlaced, who: str, hidden: set[str]) -> str:
        return f"{who} placed {self._marker(e, 'on', 'at')}."

    def _say_MarkerRemoved(self, e: ev.MarkerRemoved, who: str, hidden: set[str]) -> str:
        return f"{who} removed {self._marker(e, 'from', 'from')}."

    def _say_UnitSplit(self, e: ev.UnitSplit, who: str, hidden: set[str]) -> str:
        figures = f" ({plural(e.new_unit.figures, 'figure')})" if e.new_unit.figures else ""
        return (f"{who} split {e.new_unit.name}{figures} off "
                f"{self.names.unit(e.unit_id)}.")

    def _say_UnitRallied(self, e: ev.UnitRallied, who: str, hidden: set[str]) -> str:
        gone = [self.names.status(c) for c in e.cleared] + [
            markers_gone(self.names.ruleset, m, k) for m, k in e.markers_removed.items()]
        return (f"{who} rallied {self.names.unit(e.unit_id)}"
                + (f" ({listing(gone)} gone)" if gone else "") + ".")

    def _say_UnitRemoved(self, e: ev.UnitRemoved, who: str, hidden: set[str]) -> str:
        box = f" to the {words(e.to_box)} box" if e.to_box != "eliminated" else ""
        return f"{self.names.unit(e.unit_id)} left play{box}: {e.reason} ({who})."

    def _say_TrackSet(self, e: ev.TrackSet, who: str, hidden: set[str]) -> str:
        value = self.names.side(e.value) if isinstance(e.value, str) else e.value
        return f"{who} set {self.names.track(e.name)} to {value}."

    def _say_VictoryPointsScored(self, e: ev.VictoryPointsScored, who: str,
                                 hidden: set[str]) -> str:
        side = self.names.side(e.side)
        points = plural(abs(e.points), "victory point")
        said = (f"{side} scored {points}" if e.points >= 0 else f"{side} lost {points}")
        if self.names.seat(e.actor) != side:
            said += f" ({who})"
        return said + (f": {e.reason}" if e.reason else "") + "."

    def _say_PhaseAdvanced(self, e: ev.PhaseAdvanced, who: str, hidden: set[str]) -> str:
        acting = (f"; {self.names.side(e.marker.active_side)} to act"
                  if e.marker.active_side else "")
        return f"{who} moved on to {self.names.step(e.marker.step)}{acting}{_passed(e)}."

    def _say_TurnAdvanced(self, e: ev.TurnAdvanced, who: str, hidden: set[str]) -> str:
        acting = (f"; {self.names.side(e.marker.active_side)} to act"
                  if e.marker.active_side else "")
        return (f"Turn {e.marker.turn} began: {self.names.step(e.marker.step)}{acting} "
                f"({who}{_passed(e, ', ')}).")

    def _say_SideDone(self, e: ev.SideDone, who: str, hidden: set[str]) -> str:
        return f"{self.names.side(e.side)} is done with {self.names.step(e.step)}{_passed(e)}."

    def _say_StandingPassStarted(self, e: ev.StandingPassStarted, who: str,
                                 hidden: set[str]) -> str:
        return (f"{self.names.side(e.side)} passes until they must act, for the rest of "
                "this turn.")

    def _say_StandingPassEnded(self, e: ev.StandingPassEnded, who: str,
                               hidden: set[str]) -> str:
        side = self.names.side(e.side)
        if e.why == "cancelled":
            return f"{side} stopped passing" + (f" ({who})." if who != side else ".")
        return f"{side}'s pass ended: {e.reason or 'the step waits for them'}."

    def _say_UnitsActivated(self, e: ev.UnitsActivated, who: str, hidden: set[str]) -> str:
        side = self.names.side(e.side)
        if e.group and e.group.startswith("wing:"):
            return f"{side} activated {self.names.units_of(e.unit_ids)} (wing {e.group[5:]})."
        if e.group:
            rest = [u for u in e.unit_ids if u != e.group]
            return (f"{side} activated {self.names.group(e.group)}"
                    + (f": {self.names.units_of(rest)}" if rest else "") + ".")
        return f"{side} activated {self.names.units_of(e.unit_ids)}."

    def _say_ReinforcementsAnnounced(self, e: ev.ReinforcementsAnnounced, who: str,
                                     hidden: set[str]) -> str:
        return (f"{self.names.side(e.side)} announced reinforcements: "
                f"{self.names.units_of(e.unit_ids)}, entering at {e.entry}.")

    def _say_CombatDeclared(self, e: ev.CombatDeclared, who: str, hidden: set[str]) -> str:
        mods = (" (" + ", ".join(f"{words(k)} {v:+d}" for k, v in e.modifiers.items()) + ")"
                if e.modifiers else "")
        return (f"{who} declared an attack by {self.names.units_of(e.attackers)} on "
                f"{self.names.units_of(e.defenders)} at {e.odds}{mods}.")

    def _say_OperationDeclared(self, e: ev.OperationDeclared, who: str,
                               hidden: set[str]) -> str:
        hqs = f" with {self.names.units_of(e.hqs)}" if e.hqs else " (none)"
        bombing = (f"; carpet bombing on {self.names.text(e.carpet_bombing)}"
                   if e.carpet_bombing else "")
        return (f"{self.names.side(e.side)} declared operations{hqs}; order this turn: "
                f"{', '.join(self.names.side(s) for s in e.order)}{bombing}.")

    def _say_StepLost(self, e: ev.StepLost, who: str, hidden: set[str]) -> str:
        return f"{self.names.unit(e.unit_id)} lost a step ({e.steps} left) ({who})."

    def _say_StepGained(self, e: ev.StepGained, who: str, hidden: set[str]) -> str:
        return f"{self.names.unit(e.unit_id)} regained a step (now {e.steps}) ({who})."

    def _end(self, winner: str | None, reason: str, ours: bool = False) -> str:
        """The outcome and its reason: as typed, or (`ours`: the rules' own reason, which
        names the sides by id) with side ids said as names."""
        won = f"won by {self.names.side(winner)}" if winner else "a tie"
        return won + (f" ({self.names.text(reason, sides=ours)})" if reason else "")

    def _say_MatchEnded(self, e: ev.MatchEnded, who: str, hidden: set[str]) -> str:
        reason = e.reason
        conceded = f"{e.actor} conceded"
        if reason.startswith(conceded):  # the service's words, then the side's own
            reason = f"{self.names.seat(e.actor)} conceded{reason[len(conceded):]}"
        return (f"The match ended: "
                f"{self._end(e.winner, reason, ours=e.rule not in (None, 'core-end'))}.")

    def _say_MatchEndProposed(self, e: ev.MatchEndProposed, who: str,
                              hidden: set[str]) -> str:
        return f"{who} proposed ending the match: {self._end(e.winner, e.reason)}."

    def _say_MatchReopened(self, e: ev.MatchReopened, who: str, hidden: set[str]) -> str:
        return f"{who} reopened the match" + (f": {e.reason}." if e.reason else ".")


def narrated(log: list[ev.Event], viewer: str = "", names: Names | None = None) -> Narrator:
    """A narrator that has seen a whole log (in log order, from the first)."""
    narrator = Narrator(names or Names(), viewer,
                        lambda after, upto: [e for e in log if after < e.version <= upto])
    for event in log:
        narrator.see(event)
    return narrator


def _passed(e: ev.SideDone | ev.PhaseAdvanced | ev.TurnAdvanced, before: str = " ") -> str:
    """What marks a done a side's standing pass said for it (domain.acting.standing)."""
    return f"{before}(by its standing pass)" if e.by == "standing_pass" else ""


def said(events: Iterable[ev.Event], viewer: str = "",
         names: Names | None = None) -> dict[int, str]:
    """Every event's sentence by version, read in log order from the first (a whole log)."""
    log = list(events)
    narrator = narrated(log, viewer, names)
    return {event.version: narrator.sentence(event) for event in log}


def public_line(event: ev.Event, narrator: Narrator) -> dict[str, Any]:
    """The event as the narrator's viewer receives it, with its sentence as `said`."""
    return {**event.public(narrator.viewer), "said": narrator.sentence(event)}
