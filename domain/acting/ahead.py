"""Done until something is mine: a seat moves on through the steps that hold nothing for it
in one request, recorded as the very `advance` events it would have tapped one by one; and
where a side's standing pass stops next.

`until_mine(state, ruleset, context, answer)` decides `advance` as the seat (authority
checked by `decide` for each one, as for a tap), then, where the marker arrived, asks
whether the step holds something for the seat (`domain.acting.holds`: a duty it owes, a
move of the step's own, an answer cut short), and goes on only while all of these hold:

- the step holds nothing for the seat, and the seat may move the marker on (a shared step
  it has said it is done with stops it: the other sides must act);
- in a step that is not shared, no other seat is waited for (`domain.waiting`);
- the last advance rolled no dice of the service's, owes no result, ended nothing, and left
  the turn as it was (a new turn starts on its first step, shown).

The legal answer lists the steps (`NextStep.ahead`) with stand-in dice, the use case
decides them with the match's own: the steps are the same, as the pass stops after the
first advance that rolls. At most `MOST_STEPS` advances in one request.

`next_stop(state, ruleset, context, answer)` is where the side's standing pass stops next
(the legal answer says it, `StandingPassOffer.stops`): the first step, from this one on,
that holds something for the side, the other seats moving the marker on as if they had
nothing to do (ours: what they will do is theirs; the pass stops at the same step or
sooner); None where that cannot be told (an advance refused, a result owed on the way)
and `Stop(step=None)` when nothing holds the side before the turn ends (the pass with it)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain import commands as cmd
from domain import events as ev
from domain.acting.holds import Answer, Why, holds
from domain.acting.then import moved_on
from domain.context import REFEREE, Context
from domain.decide import decide
from domain.errors import DomainError
from domain.evolve import evolve
from domain.rulesets import Ruleset
from domain.state import MatchState
from domain.waiting import waiting_for_seats

MOST_STEPS = 64
AHEAD_MOST = 2_000  # bodies decided for the answers at the steps reached, all together
UNTIL_MINE = {"type": "advance", "until": "mine"}


@dataclass(frozen=True)
class Pass:
    """What saying "done until something is mine" does: the events of each advance, the
    steps the seat passed (in order, as paths), and the step where it stops."""

    events: tuple[ev.Event, ...]
    passed: tuple[str, ...]
    stops: str


@dataclass(frozen=True)
class Stop:
    """Where a standing pass stops next: the step (a path; None: nothing holds the side
    before the turn ends) and why (`Why`: a duty owed, a choice, an answer cut short, or
    its own done rolls the dice or owes a result: `rolls`)."""

    step: str | None
    why: Why | None = None
    rolls: bool = False


def until_mine(state: MatchState, ruleset: Ruleset, context: Context,
               answer: Answer) -> Pass:
    """The advances of `context.actor` until a step holds something for it (see the
    module's text); the first advance's refusal is raised as it is."""
    seat = context.actor
    events: list[ev.Event] = []
    passed: list[str] = []
    now = state
    for _ in range(MOST_STEPS):
        try:
            made = decide(cmd.Advance(), now, ruleset, context)
        except DomainError:
            if not events:
                raise
            break
        passed.append(now.turn.step)
        events += made
        for event in made:
            now = evolve(now, event)
        context = moved_on(context, made)
        if not _goes_on(state, now, made, ruleset, seat, answer, context.version):
            break
    return Pass(events=tuple(events), passed=tuple(passed), stops=now.turn.step)


def _goes_on(start: MatchState, now: MatchState, made: list[ev.Event], ruleset: Ruleset,
             seat: str, answer: Answer, version: int) -> bool:
    """Whether the pass goes on from `now`, the state after the advance that `made`."""
    if _changes(start, now, made):
        return False
    if holds(now, ruleset, seat, answer, version) is not None:
        return False
    if not answer(now, seat, version).advance:
        return False
    if ruleset.sequence.step(now.turn.step).shared:
        return True
    return not [s for s in waiting_for_seats(now, ruleset).seats if s not in (seat, REFEREE)]


def _changes(start: MatchState, now: MatchState, made: list[ev.Event]) -> bool:
    """Whether an advance rolled the service's dice, owes a result, ended the match or the
    turn: where the passes stop."""
    return (now.turn.turn != start.turn.turn or now.outcome is not None
            or now.awaiting is not None
            or any(getattr(e, "roll_index", None) is not None for e in made))


def next_stop(state: MatchState, ruleset: Ruleset, context: Context,
              answer: Answer) -> Stop | None:
    """Where `context.actor`'s standing pass stops next (see the module's text)."""
    side, now = context.actor, state
    for _ in range(MOST_STEPS):
        if now.outcome is not None or now.awaiting is not None:
            return None
        waited = waiting_for_seats(now, ruleset).seats
        if side in waited:
            why = holds(now, ruleset, side, answer, context.version)
            if why is not None:
                return Stop(step=now.turn.step, why=why)
        moved = _moved_on(now, ruleset, context, side, waited)
        if moved is None:
            return None
        seat, made, after = moved
        if seat == side and (after.outcome is not None or after.awaiting is not None or any(
                getattr(e, "roll_index", None) is not None for e in made)):
            return Stop(step=now.turn.step, rolls=True)  # its own to tap: the pass waits
        if after.turn.turn != now.turn.turn or after.outcome is not None:
            return Stop(step=None)
        now, context = after, moved_on(context, made)
    return None


def _moved_on(state: MatchState, ruleset: Ruleset, context: Context, side: str,
              waited: tuple[str, ...]) -> tuple[str, list[ev.Event], MatchState] | None:
    """The first advance accepted at `state`: the side's, else a waited seat's (who, its
    events, the state after); None when every one is refused."""
    for seat in (side, *(s for s in waited if s != side)):
        try:
            made = decide(cmd.Advance(), state, ruleset, replace(context, actor=seat))
        except DomainError:
            continue
        return seat, made, _after(state, made)
    return None


def _after(state: MatchState, made: list[ev.Event]) -> MatchState:
    for event in made:
        state = evolve(state, event)
    return state
