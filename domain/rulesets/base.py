"""What a ruleset is: data (its sequence of play) plus the few functions that data names.

The core decides every generic action; a ruleset adds what its game defines:
- `conditions`: named tests the sequence reads (`repeat_while`, `leave_when`, `eligible`);
- `unit_tests` and `side_tests`: named tests a step's duties read (`domain.duties`): which
  units a duty concerns, and whether a side still owes one;
- `checks`: extra refusals run before any action is decided;
- `actions`: procedures that replace or add to the core's handling of an action type;
- `on_enter`: what the service does itself when the marker arrives at a step (AA-4);
- `end_of_turn`: what happens as a turn ends (BG-8: the round limit ends the match);
- `expects`: what the current step is waiting for, in words, for players and errors;
- `where`: for an action out of its step, the rule and where the action belongs;
- `hand_size`: how many cards a side draws up to (BG-6);
- `unit_info`: what the service computes for a unit and shows on the board (AA-2);
- `rolls`: the rolls the ruleset resolves itself (`rule_roll`), each with its rule and steps;
- `react`: what the service does after any action (ES-4: a routed unit's suppression reaches
  its Q and it is eliminated);
- `tracks`: the tracks the game keeps and the values each may take (`set_track` is refused
  otherwise);
- `track_titles`: each track's title in the game's words, by the same name patterns (`*` in
  a pattern is said where `{}` stands in its title: `Control of {}`);
- `turn_order`: the side order every turn starts with (NO-5: a swap lasts one turn);
- `sides`: how many sides it plays (WC, ES: two); a set-up with another number is refused;
- `fits`: what a match's options and units must fit at creation (a ruleset file's unit kinds,
  attributes, markers, statuses and turn-limit option: `domain.rulefiles.fits`).

Below the class, the helpers the procedures share: dice for an action (server or table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from itertools import groupby
from typing import Any

from domain import events as ev
from domain.commands import FEWEST_SIDES, MOST_SIDES, Command
from domain.context import REFEREE, Emit
from domain.dice import DiceSpec, parse
from domain.duties import EACH, Duty
from domain.errors import InvalidAction
from domain.sequence import Conditions, SequenceOfPlay
from domain.state import MatchState, Unit

Check = Callable[[Command, MatchState, str], None]  # raises a DomainError to refuse
Procedure = Callable[[Any, MatchState, Emit], None]
Hook = Callable[[MatchState, Emit], None]
UnitTest = Callable[[MatchState, Unit], bool]  # a duty's units (domain.duties)
SideTest = Callable[[MatchState, str], bool]  # whether a side still owes a duty


def _no_hand_size(state: MatchState, side: str) -> int:
    raise InvalidAction("say how many cards to draw ('count')", rule="core-cards")


@dataclass(frozen=True)
class Roll:
    """A roll the ruleset resolves (`rule_roll` with `roll: <name>`), in the given steps."""

    rule: str
    steps: tuple[str, ...]
    procedure: Procedure


TrackValues = tuple[str, ...] | range  # the values a track may take


@dataclass(frozen=True)
class Sides:
    """How many sides a ruleset plays, from `fewest` to `most`, and the rule that says so;
    a match set up with any other number is refused at creation."""

    fewest: int = FEWEST_SIDES
    most: int = MOST_SIDES
    rule: str = "core-sides"

    def __post_init__(self) -> None:
        if not FEWEST_SIDES <= self.fewest <= self.most <= MOST_SIDES:
            raise ValueError(f"sides: {self.fewest} to {self.most} is outside "
                             f"{FEWEST_SIDES} to {MOST_SIDES}")

    def said(self) -> str:
        return (str(self.fewest) if self.fewest == self.most
                else f"{self.fewest} to {self.most}")

    def check(self, count: int, title: str) -> None:
        """Refuse a set-up with a number of sides the game cannot play."""
        if not self.fewest <= count <= self.most:
            raise InvalidAction(f"{self.rule}: {title} is played by {self.said()} sides, "
                                f"not {count}", rule=self.rule)


@dataclass(frozen=True)
class Ruleset:
    id: str
    version: int
    title: str
    sequence: SequenceOfPlay
    conditions: Conditions = field(default_factory=dict)
    unit_tests: Mapping[str, UnitTest] = field(default_factory=dict)
    side_tests: Mapping[str, SideTest] = field(default_factory=dict)
    checks: tuple[Check, ...] = ()
    actions: Mapping[str, Procedure] = field(default_factory=dict)
    on_enter: Mapping[str, Hook] = field(default_factory=dict)
    end_of_turn: Hook | None = None
    expects: Callable[[MatchState], list[str]] | None = None
    where: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    hand_size: Callable[[MatchState, str], int] = _no_hand_size
    unit_info: Callable[[MatchState, Unit], dict[str, Any]] | None = None
    rolls: Mapping[str, Roll] = field(default_factory=dict)
    react: Hook | None = None
    tracks: Mapping[str, TrackValues] = field(default_factory=dict)  # name pattern -> values
    track_titles: Mapping[str, str] = field(default_factory=dict)  # name pattern -> title
    turn_order: tuple[str, ...] | None = None
    rolled_by_service: tuple[str, ...] = ()  # rules whose dice only the service rolls
    sides: Sides = Sides()  # how many sides it plays (checked at creation)
    # what a match's options and units must fit to be created (a ruleset file's declarations)
    fits: Callable[[Mapping[str, Any], tuple[Unit, ...]], None] | None = None
    # the unit marker kinds and statuses a ruleset file holds play to (the legal actions offer
    # these, and no other: domain.rulefiles.fits refuses the rest); empty: any
    marker_kinds: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()

    def check_setup(self, sides: int, options: Mapping[str, Any],
                    units: tuple[Unit, ...]) -> None:
        """Refuse a match set up with a number of sides the game cannot play, or with
        options or units that do not fit what its file declares (`fits`)."""
        self.sides.check(sides, self.title)
        if self.fits is not None:
            self.fits(options, units)

    @property
    def automated_rules(self) -> frozenset[str]:
        """Rules a player's own `roll_dice` may not name: their rolls are the service's (a
        roll tagged with one counts for that rule, e.g. a shot against ES-5's rate of fire)."""
        return frozenset({*(roll.rule for roll in self.rolls.values()), *self.rolled_by_service})

    def check_track(self, name: str, value: object) -> None:
        """Refuse a track the game does not keep, or a value it cannot take."""
        if not self.tracks:
            return
        pattern = next((p for p in self.tracks if fnmatchcase(name, p)), None)
        if pattern is None:
            raise InvalidAction(f"{self.title} keeps no track '{name}'", rule="core-tracks",
                                allowed=sorted(self.tracks))
        values = self.tracks[pattern]
        ok = (isinstance(value, int) and value in values) if isinstance(values, range) else (
            value in values)
        if not ok:
            said = (f"a whole number from {values.start} to {values.stop - 1}"
                    if isinstance(values, range) else "one of: " + ", ".join(values))
            raise InvalidAction(f"track '{name}' takes {said}", rule="core-tracks",
                                allowed=[] if isinstance(values, range) else list(values))


def number_option(options: Mapping[str, Any], name: str, low: int, high: int,
                  what: str, rule: str = "core-ruleset") -> int | None:
    """An optional whole-number option (a turn limit, a target score), checked."""
    value = options.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or not low <= value <= high):
        raise InvalidAction(f"option '{name}' is {what} from {low} to {high}", rule=rule)
    return value


def roles_option(options: Mapping[str, Any], roles: tuple[str, str], rule: str) -> dict[str, str]:
    """The required option `roles`: each of the two roles names a different side."""
    given = options.get("roles")
    if not isinstance(given, dict) or set(given) != set(roles) or len(set(given.values())) != 2:
        raise InvalidAction(f"{rule}: option 'roles' names the two roles: "
                            + "{" + ", ".join(f'"{r}": <side>' for r in roles) + "}", rule=rule)
    return dict(given)


def end_by_points(limit: int | None, what: str, rule: str) -> Hook:
    """The match ends when turn `limit` ends: most victory points wins, equal is a tie."""
    def end(state: MatchState, emit: Emit) -> None:
        if limit is None or state.turn.turn < limit:
            return
        points = {side: vp.points for side, vp in state.vp.items()}
        best = max(points.values())
        leaders = [side for side, p in points.items() if p == best]
        winner = leaders[0] if len(leaders) == 1 else None
        emit(ev.MatchEnded, winner=winner, rule=rule,
             reason=f"{what} {limit} of {limit} played; " + (
                 f"{winner} has the most victory points" if winner else "victory points tied"))
    return end


def dice(source: str, results: list[int] | None, notation: str | DiceSpec,
         emit: Emit) -> tuple[list[int], int | None]:
    """The natural faces for an action that rolls (the server's dice, or the `results` of
    table dice) and the server roll index they came from (None for table dice)."""
    spec = parse(notation) if isinstance(notation, str) else notation
    if source == "server":
        if results is not None:
            raise InvalidAction("server dice take no results; use source 'table' to record "
                                "physical dice", rule="core-dice")
        index = emit.roll_index
        return emit.context.dice.roll(spec, index), index
    if results is None or len(results) != spec.count or not all(
            1 <= r <= spec.sides for r in results):
        raise InvalidAction(f"table dice for {spec.notation}: {spec.count} result(s) from 1 to "
                            f"{spec.sides}, one per die", rule="core-dice")
    return list(results), None


def roll(command: Any, notation: str, emit: Emit, purpose: str, rule: str,
         unit_ids: tuple[str, ...] = (), modifier: int = 0,
         awaits: str | None = None) -> list[int]:
    """Roll for a rule (declared: purpose, units, modifier) and record it; the natural faces."""
    faces, index = dice(command.source, command.results, notation, emit)
    emit(ev.DiceRolled, notation=notation, dice=tuple(faces), modifier=modifier,
         total=sum(faces) + modifier, purpose=purpose, source=command.source, roll_index=index,
         unit_ids=unit_ids, rule=rule, awaits=awaits)
    return faces


Ranking = tuple[tuple[str, ...], ...]  # sides best first; tied sides grouped


def by_totals(dice: Mapping[str, int], bonus: Mapping[str, int]) -> Ranking:
    """Higher totals (die + bonus) first; sides on the same total stay grouped."""
    ordered = sorted(dice, key=lambda s: -(dice[s] + bonus[s]))
    return tuple(tuple(g) for _, g in groupby(ordered, key=lambda s: dice[s] + bonus[s]))


def initiative(bonus: Callable[[MatchState, str], int],
               rank: Callable[[Mapping[str, int], Mapping[str, int]], Ranking],
               rule: str, reroll_rule: str) -> Procedure:
    """`roll_initiative`: one d6 for every side still to be ranked (all of them, then the
    tied ones), plus its `bonus` (BG-2: CV; WC-1: the CO's LV), ranked by `rank`; ties stay
    grouped in `MatchState.initiative_groups` until re-rolled."""
    def procedure(command: Any, state: MatchState, emit: Emit) -> None:
        if state.done("initiative"):
            raise InvalidAction(f"{rule}: the initiative is settled for this turn", rule=rule)
        groups = state.initiative_groups or (state.side_ids(),)
        rolling = [side for group in groups if len(group) > 1 for side in group]
        if state.initiative_groups and emit.context.actor not in (*rolling, REFEREE):
            # (ours) a re-roll is the tied sides' own: a side already ranked does not throw
            # it for them (it ended their duty for them, BG-4 / WC-1)
            raise InvalidAction(f"{reroll_rule}: only the tied sides re-roll the initiative "
                                f"({', '.join(rolling)})", rule=reroll_rule,
                                allowed=[*rolling, REFEREE])
        if command.source == "table" and (command.results is None
                                          or set(command.results) != set(rolling)):
            raise InvalidAction(f"{reroll_rule}: table dice are needed for exactly: "
                                f"{', '.join(rolling)}", rule=reroll_rule, allowed=rolling)
        table = None if command.results is None else [command.results[s] for s in rolling]
        faces, index = dice(command.source, table, DiceSpec(len(rolling), 6), emit)
        rolled = dict(zip(rolling, faces, strict=True))
        added = {side: bonus(state, side) for side in rolling}
        ranking: list[tuple[str, ...]] = []
        for group in groups:
            ranking += [group] if len(group) == 1 else rank(
                {s: rolled[s] for s in group}, added)
        emit(ev.InitiativeRolled, dice=rolled, cv=added, source=command.source,
             roll_index=index, ranking=tuple(ranking),
             rule=rule if not state.initiative_groups else reroll_rule)
    return procedure


def _to_roll(state: MatchState, side: str) -> bool:
    """The initiative is still to be rolled, by every side (no tie is pending)."""
    return not state.done("initiative") and not state.initiative_groups


def _to_reroll(state: MatchState, side: str) -> bool:
    """`side` is tied with another and re-rolls among them (BG-4, WC-1)."""
    return not state.done("initiative") and any(
        side in group and len(group) > 1 for group in state.initiative_groups)


INITIATIVE_TESTS: Mapping[str, SideTest] = {"initiative_to_roll": _to_roll,
                                             "tie_to_reroll": _to_reroll}


def initiative_duties(rule: str, reroll_rule: str) -> tuple[Duty, Duty]:
    """What an initiative step owes (`INITIATIVE_TESTS`): every side, that the initiative be
    rolled (one `roll_initiative` rolls for them all); then the tied sides, the re-roll."""
    return (Duty(rule=rule, says="roll for the initiative", by=EACH,
                 owed_while="initiative_to_roll", done_by=("roll_initiative",)),
            Duty(rule=reroll_rule, says="re-roll the tied initiative", by=EACH,
                 owed_while="tie_to_reroll", done_by=("roll_initiative",)))
