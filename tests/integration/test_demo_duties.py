"""Each demo played for three turns by a client that knows only the legal actions, with every
side's standing pass ("Pass until I must act") on from the first step of each turn (issue
38's "Done when"). Then the log is read back, event by event, with the state before each:

- no duty is passed over: the marker never leaves a step, and no side says it is done, while
  something (that side) owes is undischarged (`domain.owed`);
- each duty is discharged by the seat that owes it (the event that ends it is that seat's);
- the standing pass says a side's done only where the side owes nothing and has no choice of
  the step's own (`own` in its legal answer): it stops wherever the side has one;
- and, from the rules (docs/rulesets, ../shared/RULES.md): the ES-1 and NO-1 weather rolled
  every turn; ES-4 every routed, then every broken unit of the attacker moved (or gone);
  NO-2 an attack for every pair of adjacent enemy units in each player-turn's combat;
  BG-7 each activated battlegroup acting with one of its units; WC-6/WC-9 each side offered
  its activations each turn, and the pass stopping there; AA-3 every compulsory split made
  and AA-7 a morale roll for every suppressed unit in the Clean-Up.

Each rule check also fails when it found nothing to check; so that each has something within
three turns, two demos start with a little more on the table (`demo_scenario`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from legal_client import META, LegalClient
from rulesets_helpers import Played, scenario

from api.app import create_app
from api.settings import Settings
from domain import events as ev
from domain.app import Matches
from domain.history import first_frame, step
from domain.legal import legal_actions
from domain.owed import owed, owed_by
from domain.rulefiles.hexes import hex_distance
from domain.rulesets import Ruleset, get_ruleset
from domain.rulesets.atomic_africa import must_split
from domain.state import MatchState
from projections.store import sqlite_env

TURNS = 3
MOVES = 900  # a bound three turns of any demo stay well under


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[TestClient, Matches]]:
    matches = Matches(env=sqlite_env(str(tmp_path / "battlelog.db")))
    app = create_app(Settings(admin_token="admin-token", create_rate="off"), matches=matches)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, matches
    matches.close()


# ---- playing ------------------------------------------------------------------------------

def passes_on(client: LegalClient, board: dict[str, Any]) -> bool:
    """Every side's standing pass on: at the first step, and again as each turn begins (a
    pass ends with its turn). True when it turned one on."""
    turn = board["turn"]["turn"]
    if getattr(client, "passes_for", None) == turn or (board.get("waiting") or {}).get("ended"):
        return False
    client.passes_for = turn  # type: ignore[attr-defined]
    posted = False
    for side in board["turn"]["initiative"] or [s["id"] for s in client.m.body["sides"]]:
        answer = client.legal(side).get("standing_pass") or {}
        if answer and not answer.get("on"):
            client.post(side, answer["choice"]["body"], f"{turn}:{board['turn']['step']}")
            posted = True
    return posted


def demo_scenario(demo: str) -> dict[str, Any]:
    """The demo as shipped, but for what gives each rule below something to check within
    three turns (ours): in Atomic Africa the 1st Squad carries 4 wounds (it must split in the
    first Clean-Up, AA-3) and the Militia Band and MG Nest suppression markers (AA-7); in
    Normandy the 716th stands next to the 3rd Division (NO-2)."""
    body = scenario(demo)
    markers = {"sq1": {"wound": 4}, "ml1": {"suppression": 2}, "mg1": {"suppression": 1}}
    hexes = {"g-716": "1408"}
    for unit in body["units"]:
        if demo == "atomic-africa-demo" and unit["id"] in markers:
            unit["markers"] = markers[unit["id"]]
        if demo == "normandy-demo" and unit["id"] in hexes:
            unit["position"] = {"hex": hexes[unit["id"]]}
    return body


def play(client: TestClient, demo: str, seed: int = 0) -> tuple[Played, LegalClient]:
    m = Played(client, demo_scenario(demo))
    player = LegalClient(m, seed, max_moves=MOVES, on_board=passes_on,
                         stop=lambda board: board["turn"]["turn"] > TURNS)
    player.play()
    return m, player


# ---- the log read back ----------------------------------------------------------------------

@dataclass
class Moment:
    """One event of the log, with the state before it and after it."""

    event: ev.Event
    before: MatchState
    after: MatchState


def moments(matches: Matches, match: str) -> list[Moment]:
    events = list(matches.events_of(UUID(match)))
    created = events[0]
    assert isinstance(created, ev.MatchCreated)
    frame = first_frame(created)
    kept = {frame.version: frame.state}
    out = []
    for event in events[1:]:
        before = frame.state
        frame = step(frame, event, kept.__getitem__)
        kept[frame.version] = frame.state
        out.append(Moment(event, before, frame.state))
    return out


def ruleset_of(state: MatchState) -> Ruleset:
    return get_ruleset(state.ruleset, state.options, state.ruleset_hash)


def own_choices(state: MatchState, ruleset: Ruleset, seat: str) -> list[str]:
    """The seat's choices of the step's own (not bookkeeping) in its legal answer."""
    answer = legal_actions(state, ruleset, seat, ahead=False)
    return [a.id for a in answer.actions if a.own and a.type not in META and a.choices]


LEAVING = (ev.PhaseAdvanced, ev.TurnAdvanced)


def passed_over(log: list[Moment], ruleset: Ruleset) -> list[str]:
    """Every leaving of a step (or side's done) while something (that side) owed was left."""
    out = []
    for at in log:
        e = at.event
        if isinstance(e, LEAVING) and (due := owed(at.before, ruleset)):
            out.append(f"v{e.originator_version} {type(e).__name__} from {at.before.turn.step} "
                       f"(turn {at.before.turn.turn}) with {[(o.seat, o.rule) for o in due]} owed")
        if isinstance(e, ev.SideDone) and (due := owed_by(at.before, ruleset, e.side)):
            out.append(f"v{e.originator_version} {e.side} done with {e.step} owing "
                       f"{[o.rule for o in due]}")
    return out


def discharged_by_others(log: list[Moment], ruleset: Ruleset) -> list[str]:
    """Every duty (seat, rule, unit) that ended in an event another seat made. (ours) A duty
    every side owes at once (`each`: the weather roll) is paid for all by the one of them
    that pays it: that seat owed it too."""
    out = []
    for at in log:
        if at.before.awaiting is not None:
            continue
        was = {(o.seat, o.rule, u) for o in owed(at.before, ruleset) for u in o.units or ("",)}
        now = {(o.seat, o.rule, u) for o in owed(at.after, ruleset) for u in o.units or ("",)}
        for seat, rule, unit in sorted(was - now):
            if at.event.actor != seat and (at.event.actor, rule, unit) not in was and (
                    not isinstance(at.event, LEAVING)):
                out.append(f"v{at.event.originator_version} {rule} of {seat} {unit} ended by "
                           f"{at.event.actor}'s {type(at.event).__name__}")
    return out


def pass_skipped_choices(log: list[Moment], ruleset: Ruleset) -> list[str]:
    """Every done the standing pass said where its side owed something or had a choice of
    the step's own."""
    out = []
    for at in log:
        e = at.event
        if getattr(e, "by", None) != "standing_pass":
            continue
        side = e.side if isinstance(e, ev.SideDone) else e.actor
        due = owed_by(at.before, ruleset, side)
        mine = own_choices(at.before, ruleset, side)
        if due or mine:
            out.append(f"v{e.originator_version} {side}'s pass: {type(e).__name__} at "
                       f"{at.before.turn.step} (turn {at.before.turn.turn}) owing "
                       f"{[o.rule for o in due]}, offered {mine}")
    return out


def spans(log: list[Moment], path: str) -> list[tuple[int, str | None, list[Moment]]]:
    """Each stay of the marker at step `path`: its turn, the active side, and the events
    made while the marker stood there (the one that moves it on last)."""
    out: list[tuple[int, str | None, list[Moment]]] = []
    last = None
    for at in log:
        marker = at.before.turn
        key = (marker.turn, marker.step, marker.active_side, marker.run)
        if marker.step == path and at.before.outcome is None:
            if key != last:
                out.append((marker.turn, marker.active_side, []))
            out[-1][2].append(at)
        last = key
    return out


def nothing_checked(checked: int, what: str) -> list[str]:
    """A fault when a check found nothing to check: the test would prove nothing."""
    return [] if checked else [f"no {what} in three turns: nothing to check"]


def rolled(span: list[Moment]) -> list[ev.DiceRolled]:
    """The dice a seat rolled in the span."""
    return [a.event for a in span if isinstance(a.event, ev.DiceRolled)]


def moved_or_gone(span: list[Moment], unit: str) -> bool:
    return any(isinstance(a.event, (ev.UnitMoved, ev.UnitRemoved)) and a.event.unit_id == unit
               for a in span)


# ---- the rules, game by game ----------------------------------------------------------------

def weather_rolled(log: list[Moment], path: str, rule: str, rolls: int) -> list[str]:
    """ES-1: the weather change rolled in every turn's weather step; NO-1: the weather and
    the sea conditions, two rolls."""
    turns = {t: s for t, _, s in spans(log, path)}
    return [f"turn {t}: {len(rolled(turns.get(t, [])))} dice rolled in {path}, {rule} "
            f"asks {rolls}" for t in range(1, TURNS + 1)
            if len(rolled(turns.get(t, []))) < rolls]


FROZEN = frozenset({"prepared_fire", "halted"})  # ES-4: the markers of a unit that cannot move


def routed_and_broken_moved(log: list[Moment]) -> list[str]:
    """ES-4: the attacker moves each of its routed units (one that cannot surrenders), then
    each of its broken units; a broken one that fired prepared fire (or was halted) cannot
    move this player-turn and owes nothing, and a routed one moved with the routed."""
    out, checked = [], 0
    for path, flag in (("combat/routed_movement", "routed"), ("combat/broken_movement", "broken")):
        for turn, active, span in spans(log, path):
            due = [u.id for u in span[0].before.in_play()
                   if u.side == active and flag in u.status and u.position is not None
                   and u.position.hex and (flag == "routed" or not (
                       "routed" in u.status or FROZEN & set(u.markers)))]
            checked += len(due)
            out += [f"turn {turn} {active}: {flag} {u} not moved in {path}" for u in due
                    if not moved_or_gone(span, u)]
    return out + nothing_checked(checked, "routed or broken unit of the attacker")


def pairs(state: MatchState, active: str | None) -> set[tuple[str, str]]:
    """The units of the side `active` next to an enemy unit, with that enemy unit."""
    on_map = [(u, u.position.hex) for u in state.in_play() if u.position and u.position.hex]
    return {(a.id, d.id) for a, at in on_map if a.side == active
            for d, dt in on_map if d.side != active and hex_distance(at, dt) == 1}


def adjacent_attacked(log: list[Moment]) -> list[str]:
    """NO-2: in each player-turn's Combat, every unit of the phasing side next to an enemy
    unit attacks, and every enemy unit next to one is attacked (unless gone or no longer next
    to it by the end of the step)."""
    out, checked = [], 0
    for turn, active, span in spans(log, "player_turn/combat"):
        at_start, at_end = pairs(span[0].before, active), pairs(span[-1].before, active)
        declared = [a.event for a in span if isinstance(a.event, ev.CombatDeclared)]
        attackers = {u for c in declared for u in c.attackers}
        defenders = {u for c in declared for u in c.defenders}
        checked += len(at_start)
        for a, d in sorted(at_start):
            if (a, d) in at_end and not (a in attackers and d in defenders):
                out.append(f"turn {turn} {active}: {a} next to {d}, no attack "
                           f"(attackers {sorted(attackers)}, defenders {sorted(defenders)})")
    return out + nothing_checked(checked, "pair of adjacent enemy units in a Combat segment")


def battlegroups_acted(log: list[Moment]) -> list[str]:
    """BG-7: an activated battlegroup acts with at least one of its units."""
    out, checked = [], 0
    for turn, active, span in spans(log, "activation/activate"):
        activated = [a.event for a in span if isinstance(a.event, ev.UnitsActivated)]
        checked += len(activated)
        for act in activated:
            units = set(act.unit_ids)
            if not any((isinstance(a.event, (ev.UnitMoved, ev.UnitRallied))
                        and a.event.unit_id in units)
                       or (isinstance(a.event, ev.DiceRolled) and units & set(a.event.unit_ids))
                       for a in span):
                out.append(f"turn {turn} {active}: battlegroup {act.group} activated, no unit "
                           "acted")
    return out + nothing_checked(checked, "battlegroup activated")


def activations_offered(log: list[Moment], ruleset: Ruleset, sides: list[str]) -> list[str]:
    """WC-6/WC-9: in every turn each side is offered its activation, and the marker rests
    there for it: the side activates, or moves on itself (its pass never declines it)."""
    seen: set[tuple[int, str]] = set()
    for turn, active, span in spans(log, "phase/activations/activate"):
        took = any(isinstance(a.event, ev.UnitsActivated) for a in span)
        if active and (took or getattr(span[-1].event, "by", None) != "standing_pass") and (
                "rule_roll:activation" in own_choices(span[0].before, ruleset, active)):
            seen.add((turn, active))
    return [f"turn {t}: {s} never offered an activation it could take" for t in range(1, TURNS + 1)
            for s in sides if (t, s) not in seen]


def suppressed_rolled(log: list[Moment]) -> list[str]:
    """AA-7: each unit with a suppression marker rolls for morale in the Clean-Up."""
    out, checked = [], 0
    for turn, _, span in spans(log, "cleanup/morale"):
        suppressed = [u for u in span[0].before.in_play() if u.markers.get("suppression", 0)]
        checked += len(suppressed)
        for unit in suppressed:
            if not any(
                    isinstance(a.event, ev.DiceRolled) and unit.id in a.event.unit_ids
                    for a in span):
                out.append(f"turn {turn}: {unit.id} suppressed, no morale roll")
    return out + nothing_checked(checked, "suppressed unit in the Clean-Up")


def compulsory_splits(log: list[Moment]) -> list[str]:
    """AA-3/AA-4: each unit whose wounds shift its Morale die below d4 splits (or, too small
    to split, is destroyed) in the Clean-Up Split sub-phase."""
    out, checked = [], 0
    for turn, _, span in spans(log, "cleanup/split"):
        due = [u.id for u in span[0].before.in_play() if u.morale_die is not None
               and must_split(u.morale_die, u.markers.get("wound", 0))]
        checked += len(due)
        out += [f"turn {turn}: {u} must split, neither split nor removed" for u in due
                if not any(isinstance(a.event, (ev.UnitSplit, ev.UnitRemoved))
                           and a.event.unit_id == u for a in span)]
    return out + nothing_checked(checked, "unit that must split")


DEMOS = ["atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo", "normandy-demo",
         "wing-command-demo"]


@pytest.mark.parametrize("demo", DEMOS)
def test_three_turns_with_every_pass_on_discharge_every_duty(
        service: tuple[TestClient, Matches], demo: str) -> None:
    client, matches = service
    m, player = play(client, demo)
    tally = player.tally
    assert tally.fine(), tally.summary()
    board = m.board
    assert board["turn"]["turn"] > TURNS or board["waiting"]["ended"], tally.summary()
    log = moments(matches, m.match)
    ruleset = ruleset_of(log[0].before)
    faults = {
        "passed over": passed_over(log, ruleset),
        "discharged by another seat": discharged_by_others(log, ruleset),
        "the pass skipped a choice": pass_skipped_choices(log, ruleset),
    }
    sides = [s["id"] for s in m.body["sides"]]
    if demo == "extended-sequence-demo":
        faults["ES-1"] = weather_rolled(log, "initial/weather", "ES-1", 1)
        faults["ES-4"] = routed_and_broken_moved(log)
    if demo == "normandy-demo":
        faults["NO-1"] = weather_rolled(log, "mutual/weather", "NO-1", 2)
        faults["NO-2"] = adjacent_attacked(log)
    if demo == "battlegroup-demo":
        faults["BG-7"] = battlegroups_acted(log)
    if demo == "wing-command-demo":
        faults["WC-9"] = activations_offered(log, ruleset, sides)
    if demo == "atomic-africa-demo":
        faults["AA-3"] = compulsory_splits(log)
        faults["AA-7"] = suppressed_rolled(log)
    found = {name: items for name, items in faults.items() if items}
    assert not found, "\n".join(f"{name}: {items[:6]}" for name, items in found.items())
