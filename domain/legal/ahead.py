"""Done until something is mine: a seat moves on through the steps that hold nothing for it
in one request, recorded as the very `advance` events it would have tapped one by one.

`until_mine(state, ruleset, context, answer)` decides `advance` as the seat (authority
checked by `decide` for each one, as for a tap), then, where the marker arrived, asks the
legal answer (`answer`) whether the step holds something for the seat, and goes on only
while all of these hold:

- the seat has no action of the step's own there but bookkeeping, and may move the marker
  on (a shared step it has said it is done with stops it: the other sides must act);
- in a step that is not shared, no other seat is waited for (`domain.waiting`);
- the last advance rolled no dice of the service's, owes no result, ended nothing, and left
  the turn as it was (a new turn starts on its first step, shown);
- the answer is whole (a large board's answer cut short may hold something of the seat's).

The legal answer lists the steps (`NextStep.ahead`) with stand-in dice, the use case
decides them with the match's own: the steps are the same, as the pass stops after the
first advance that rolls. At most `MOST_STEPS` advances in one request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain import commands as cmd
from domain import events as ev
from domain.context import REFEREE, Context
from domain.decide import decide
from domain.errors import DomainError
from domain.evolve import evolve
from domain.legal.model import LegalActions
from domain.legal.own import BOOKKEEPING
from domain.legal.then import moved_on
from domain.rulesets import Ruleset
from domain.state import MatchState
from domain.waiting import waiting_for_seats

MOST_STEPS = 64
AHEAD_MOST = 2_000  # bodies decided for the answers at the steps reached, all together
UNTIL_MINE = {"type": "advance", "until": "mine"}
Answer = Callable[[MatchState, int], LegalActions]  # the seat's legal answer at a state


@dataclass(frozen=True)
class Pass:
    """What saying "done until something is mine" does: the events of each advance, the
    steps the seat passed (in order, as paths), and the step where it stops."""

    events: tuple[ev.Event, ...]
    passed: tuple[str, ...]
    stops: str


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
        if not _goes_on(state, now, made, ruleset, seat, answer(now, context.version)):
            break
    return Pass(events=tuple(events), passed=tuple(passed), stops=now.turn.step)


def _goes_on(start: MatchState, now: MatchState, made: list[ev.Event], ruleset: Ruleset,
             seat: str, here: LegalActions) -> bool:
    """Whether the pass goes on from `now`, the state after the advance that `made`."""
    if (now.turn.turn != start.turn.turn or now.outcome is not None
            or now.awaiting is not None
            or any(getattr(e, "roll_index", None) is not None for e in made)):
        return False
    if _holds_for(here) or not here.advance.legal or here.page.truncated:
        return False
    if ruleset.sequence.step(now.turn.step).shared:
        return True
    return not [s for s in waiting_for_seats(now, ruleset).seats if s not in (seat, REFEREE)]


def _holds_for(here: LegalActions) -> bool:
    """Whether the step holds something for the seat: an action of the step's own that is
    not bookkeeping (`domain.legal.own`). (ours) Bookkeeping (a marker, a status, a move, a
    track, a free roll) does not hold a seat: the table records it as it likes, and a step
    that needs it refuses the advance until it is done, which stops the pass too."""
    return any(a.own and a.type not in BOOKKEEPING for a in here.actions)
