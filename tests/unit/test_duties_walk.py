"""The duties of the five Python rulesets against their `leave_when` guards (issue 38): over
random play (the legal actions of the seats waited for, the owed items discharged, the marker
moved on), wherever a step's `leave_when` fails, something is owed: otherwise the table
stalls with nobody owing (whose turn would name only the marker mover, who cannot move it).
Battlegroup and Wing Command are played from their Python modules here (the service plays
their files, which the differential tests hold to the modules)."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest
from duty_play import discharge
from legal_play import Match, offered_bodies
from pydantic import ValidationError

from domain import rulesets
from domain.errors import DomainError
from domain.legal import legal_actions
from domain.owed import owed
from domain.rulesets import Ruleset
from domain.state import MatchState
from domain.waiting import waiting_for_seats

DEMOS = ("atomic-africa-demo", "battlegroup-demo", "wing-command-demo",
         "extended-sequence-demo", "normandy-demo")
ACTIONS = 160  # per walk
# what a walk through the sequence does not take: the end of the match, and what only talks
ASIDE = {"concede", "end_match", "agree_end", "open_dispute", "add_note", "standing_pass",
         "undo", "redo"}


@pytest.fixture
def python_modules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every built-in game played from its Python module."""
    monkeypatch.setattr(rulesets, "_FROM_FILES", {})
    rulesets._build.cache_clear()
    yield
    rulesets._build.cache_clear()


def stalled(state: MatchState, ruleset: Ruleset) -> str | None:
    """The step's guard fails while nothing is owed (None: fine)."""
    if state.outcome is not None or state.awaiting is not None:
        return None
    step = ruleset.sequence.step(state.turn.step)
    if step.leave_when is None or ruleset.conditions[step.leave_when](state):
        return None
    return None if owed(state, ruleset) else f"{state.turn.step}: {step.leave_when} fails"


def try_act(match: Match, seat: str, body: dict[str, object]) -> bool:
    try:
        match.act(seat, body)
    except (DomainError, ValidationError):
        return False
    return True


def step_once(match: Match, rnd: Random) -> None:
    state, ruleset = match.state, match.ruleset
    seats = list(waiting_for_seats(state, ruleset).seats) or ["referee"]
    if state.awaiting is not None:
        seats = [state.awaiting.by]
    due = owed(state, ruleset)
    roll = rnd.random()
    if state.awaiting is not None or roll < 0.5:
        seat = rnd.choice(seats)
        legal = legal_actions(state, ruleset, seat, version=match.version)
        bodies = [body for _, body in offered_bodies(legal) if body["type"] not in ASIDE]
        if bodies:
            try_act(match, seat, rnd.choice(bodies))
    elif due and roll < 0.85:
        discharge(state, rnd.choice(due), match.act)
    elif not any(try_act(match, seat, {"type": "advance"}) for seat in seats):
        try_act(match, "referee", {"type": "advance"})


@pytest.mark.usefixtures("python_modules")
@pytest.mark.parametrize("name", DEMOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_wherever_a_step_cannot_be_left_something_is_owed(name: str, seed: int) -> None:
    match = Match(name, seed=f"walk-{seed}".encode())
    rnd = Random(f"{name}-{seed}")
    steps: set[str] = set()
    for _ in range(ACTIONS):
        if match.state.outcome is not None:
            break
        assert stalled(match.state, match.ruleset) is None, stalled(match.state, match.ruleset)
        steps.add(match.state.turn.step)
        step_once(match, rnd)
    assert len(steps) > 3  # the walk went through the sequence, not one step
