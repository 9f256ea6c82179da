"""The legal actions are complete and sound over the declared input domains (issue 38), per
game: the five demos, Hold the Towns, and the club's test-only ruleset files (each
`tests/fixtures/rulefiles/club/<name>.yaml` with its scenario `<name>.json`,
`<name>-scenario.json` or `<name>-demo.json` beside it, picked up when present). In at least STATES states reached by
seeded random play from the demo (choosing among the choices offered to the seats waited
for, acting through `decide` in memory):

- complete: every body a brute-force generator builds over the declared domains
  (`domain.legal.domains.bodies`: every body of a kind when its domains hold few, else a
  sample drawn field by field) that `decide` accepts, as the seat, is offered to that seat;
- sound: every body offered (each choice with its examples, each value an input lists,
  table dice, Next step and its skips) is accepted by `decide`.

The answers are read whole (no work cap, every page), without the steps ahead. Importing
`projections` plays the built-in games written as files from their files (Battlegroup, Wing
Command, the extended sequence), as the service does."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from domain import events as ev
from domain.errors import DomainError
from domain.legal import legal_actions, offered
from domain.legal.domains import DOMAINS, View, bodies, put, values
from domain.legal.model import LegalActions
from domain.rulefiles.compile import compile_file
from domain.rulefiles.cost import Meter
from domain.sequence import ANY
from domain.waiting import waiting_for_seats
from projections.rulefile_load import BUILT_IN, check_file
from tests.unit.legal_play import DEMOS, Match, filled, refused_offer

STATES = 300  # states checked per game (walks from the demo until this many are reached)
WALK = 120  # actions per walk before it starts again from the demo (a new seed)
FULL = 24  # a kind's bodies are all tried when its domains hold at most this many
SAMPLED = 8  # else this many, drawn field by field
OTHERS = 3  # kinds the step does not name, tried in each state for each seat
DICE_FIELDS = ("source", "results", "result")
ROLLED = ("call_artillery", "rule_roll", "fire", "resolve_combat", "roll_morale",
          "roll_initiative")  # the actions that take the service's dice or the table's
UNBOUNDED = 10**12  # a file's steps an answer may read here
STILL = ("add_note", "open_dispute", "end_match", "concede", "reopen_match")
FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"
CLUB = FIXTURES / "club"
HT = BUILT_IN / "hold-the-towns.yaml"
HT_DEMO = Path(__file__).parents[2] / "api" / "scenarios" / "files" / "hold-the-towns-demo.json"


def _file_game(path: Path, demo: Path) -> Match:
    report = check_file(path)
    assert report.ok and report.ruleset is not None, report.lines()
    return Match(path.stem, body=json.loads(demo.read_text()),
                 rules=compile_file(report.ruleset))


def _club() -> list[tuple[str, Path, Path]]:
    """The club's test-only files with their scenario (none until they are written)."""
    found = []
    for path in sorted(CLUB.glob("*.yaml")) if CLUB.is_dir() else ():
        demo = next((d for d in (path.with_suffix(".json"),
                                 path.with_name(f"{path.stem}-scenario.json"),
                                 path.with_name(f"{path.stem}-demo.json")) if d.is_file()), None)
        if demo is not None:
            found.append((f"club/{path.stem}", path, demo))
    return found


GAMES = [*DEMOS, "hold-the-towns", *(name for name, _, _ in _club())]


def game(name: str) -> Match:
    if name == "hold-the-towns":
        return _file_game(HT, HT_DEMO)
    club = {n: (p, d) for n, p, d in _club()}
    if name in club:
        return _file_game(*club[name])
    return Match(name)


def whole(match: Match, seat: str) -> list[LegalActions]:
    """Every page of the seat's answer, uncapped (neither the bodies decided nor a file's
    steps: the bounds tests check those apart), without the steps ahead."""
    pages = [legal_actions(match.state, match.ruleset, seat, version=match.version, most=None,
                           ahead=False, steps=Meter(UNBOUNDED))]
    while pages[-1].page.next is not None:
        pages.append(legal_actions(match.state, match.ruleset, seat, version=match.version,
                                   most=None, ahead=False, steps=Meter(UNBOUNDED),
                                   page=pages[-1].page.next))
    return pages


def sample(kind: str, view: View, rnd: Random) -> dict[str, Any] | None:
    """One body of `kind` drawn field by field from its declared domains (None: a domain
    holds nothing for it)."""
    body: dict[str, Any] = {"type": kind}
    for name, domain in DOMAINS[kind]:
        held = values(domain, view, body)
        if domain.optional and (not held or rnd.random() < 1 / (len(held) + 1)):
            continue
        if not held:
            return None
        value = rnd.choice(held)
        body = put(body, name, [value] if domain.many else value)
    return body


def brute_force(kind: str, view: View, rnd: Random) -> list[dict[str, Any]]:
    """Every body of `kind` over its declared domains when they hold at most FULL, else
    SAMPLED of them."""
    found = []
    for body in bodies(kind, view):
        found.append(body)
        if len(found) > FULL:
            drawn = (sample(kind, view, rnd) for _ in range(SAMPLED))
            return [b for b in drawn if b is not None]
    return found


def _without_unused_dice(body: dict[str, Any], events: list[ev.Event]) -> dict[str, Any]:
    """A body that rolls nothing here ignores the dice fields it was sent."""
    if body["type"] not in ROLLED or any(
            isinstance(e, ev.DiceRolled | ev.InitiativeRolled) for e in events):
        return body
    return {k: v for k, v in body.items() if k not in DICE_FIELDS}


def check(match: Match, rnd: Random, waited: set[str]) -> dict[str, list[LegalActions]]:
    """Sound and complete in this state, for the seats waited for and one other seat
    (each seat in turn is that other: over a walk every seat is checked in many states);
    the answers, to play from."""
    others = [seat for seat in match.seats if seat not in waited]
    other = rnd.choice(others) if others else None
    seats = [s for s in match.seats if s in waited or s == other]
    answers = {seat: whole(match, seat) for seat in seats}
    where = f"{match.name} turn {match.state.turn.turn} {match.state.turn.step}"
    allows = match.ruleset.sequence.step(match.state.turn.step).allows
    named = [k for k in allows if k in DOMAINS and k != ANY]
    for seat, pages in answers.items():
        for page in pages:
            refused = refused_offer(match, seat, page)
            assert refused is None, refused
        view = View(match.state, match.ruleset, seat, match.version)
        others = rnd.sample(sorted(k for k in DOMAINS if k not in named), OTHERS)
        for kind in (*named, *others, "advance"):
            for body in brute_force(kind, view, rnd):
                try:
                    events = match.decide(seat, body)
                except (DomainError, ValueError):
                    continue  # refused (ValueError: the schema refuses the body)
                said = _without_unused_dice(body, events)
                assert any(offered(page, said) for page in pages), (
                    f"{where} {seat}: decide accepts {body} but it is not offered")
    return answers


def walk(match: Match, rnd: Random, budget: int) -> int:
    """Random play by the seats waited for, checking each state: the states checked."""
    checked = 0
    for _ in range(min(WALK, budget)):
        waited = ({w.seat for w in waiting_for_seats(match.state, match.ruleset).waits}
                  if match.state.outcome is None else set())
        answers = check(match, rnd, waited)
        checked += 1
        if match.state.outcome is not None:
            break
        moves: list[tuple[str, dict[str, Any]]] = []
        for seat in waited & set(answers):
            first = answers[seat][0]
            if first.advance.legal:
                moves += [(seat, first.advance.body)] * 3
            moves += [(seat, filled(choice)) for page in answers[seat]
                      for action in page.actions if action.type not in STILL
                      for choice in action.choices]
        if not moves:
            break
        seat, body = rnd.choice(moves)
        match.act(seat, body)
    return checked


@pytest.mark.parametrize("name", GAMES)
def test_every_accepted_body_of_the_declared_domains_is_offered_and_every_offer_accepted(
        name: str) -> None:
    rnd, checked, walks = Random(f"domains {name}"), 0, 0
    while checked < STATES:
        checked += walk(game(name), Random(rnd.random()), STATES - checked)
        walks += 1
        assert walks < 50, f"{name}: the walks end too soon ({checked} states)"


def test_the_property_runs_on_every_game() -> None:
    assert sorted(game(name).ruleset.id for name in GAMES[:6]) == [
        "atomic-africa", "battlegroup", "extended-sequence", "hold-the-towns", "normandy",
        "wing-command"]
