"""A side's standing pass, "pass until I must act" (issue 26, fewer taps): one tap declines the
side's optional moves for the rest of the turn, like a card game's pass to the end of turn.

`decide_standing(command, state, ruleset, context)` starts or stops it (authority in
`domain.authority.check_standing_pass`: a side's own; the referee may stop it), recorded as
`StandingPassStarted` / `StandingPassEnded(why="cancelled")`.

`settle(state, ruleset, context, answer)` is what the passes do once an action is recorded, whoever
took it: while the match waits for a side whose pass is on, that side's done (`advance`) is
decided through `decide` as that side, exactly as its tap would be, and recorded as the same
events, marked `by="standing_pass"`; then again from the state those leave. The done is said
only in a step where the side owes nothing and has nothing it may do but say done
(`domain.acting.holds`). (ours) Where the pass holds back, and why:

- the side owes a duty of the step (`domain.owed`): the pass waits, still on, and says the
  side's done once the duty is discharged (in the same action as the move that discharges
  it, when nothing else holds the side);
- the side has a move of the step's own (an optional activation, a move, fire, a card): a
  real choice, which the pass does not make for it. The pass waits, still on: the side
  acts, or taps its own done, and the pass goes on from the next step. Waiting, not
  ending: a pass ended at each move would be asked for again after it;
- the done is refused and another side is waited for: its move may let the side go on
  (AA-8: a deck shuffled before the side cuts it); the pass waits;
- the done is refused, the side owes nothing, has no move of its own and no other side is
  waited for (nothing the pass can wait for would change it): the pass ends
  (`StandingPassEnded(why="refused")`, the refusal in words), the other seat's action
  stands, and the side sees the step as it is;
- the done would roll the service's dice, leave a result owed, or end the match: those
  are the side's own to tap; the pass waits;
- in a step that is not shared, where the match waits for another side too (any side may
  act and move on: a freeform step), the side's done would move the marker on for all:
  the pass waits, as "done until something is mine" stops there (`domain.acting.ahead`);
- a step where the match does not wait for the side needs nothing of it.

The turn's last done is the pass's last: a new turn (and the end of the match) ends every
pass (`evolve`), with no event of its own.

Where the dones are emitted (ours): in the same action as what made them due, decided at
once where that action is decided (`domain.acting.recorded`, which
`MatchUseCases.act` records in one append), with that action's command id.
So every state at a version the log holds is settled: whose turn (`domain.waiting`), the
legal answer and the clock read it as it is, replay and `verify` only read events that are
in the log (nothing is re-decided on reading), and one undo takes back an action and the
dones it brought about together (`history.undo_reach` passes over the marked events: they
are no other seat's action, and the side's pass, still on at the version undone to, says
them again when the action is taken again). An undo or a redo lands on a version the log
held, settled as it was then; a referee's undo to a version inside an action may land
between a pass and its done: the next action settles it."""

from __future__ import annotations

from dataclasses import replace

from domain import commands as cmd
from domain import events as ev
from domain.acting.holds import Answer, holds
from domain.acting.then import moved_on
from domain.authority import check_standing_pass
from domain.context import REFEREE, Context, Emit
from domain.decide import decide
from domain.errors import DomainError, InvalidAction, MatchOver
from domain.evolve import evolve
from domain.refusal_words import in_words
from domain.rulesets import Ruleset
from domain.state import MatchState
from domain.waiting import waiting_for_seats

RULE = "core-standing-pass"
BY = "standing_pass"
MOST_DONES = 256  # dones the passes say after one action, at most (a turn's steps x sides)
MARKED = (ev.SideDone, ev.PhaseAdvanced, ev.TurnAdvanced)


def decide_standing(command: cmd.StandingPass, state: MatchState, ruleset: Ruleset,
                    context: Context) -> list[ev.Event]:
    """Start or stop `command.side`'s standing pass (the seat's own side by default)."""
    side = command.side or context.actor
    check_standing_pass(context.actor, side, command.on, state.side_ids())
    if state.outcome is not None:
        raise MatchOver("the match has ended: there is nothing to pass", rule="core-end")
    emit = Emit(context, state, evolve)
    if command.on:
        if side in state.passing:
            raise InvalidAction("this side already passes until it must act",
                                rule=RULE, allowed=["standing_pass"])
        emit(ev.StandingPassStarted, side=side, rule=RULE)
    else:
        if side not in state.passing:
            raise InvalidAction("this side is not passing", rule=RULE,
                                allowed=["standing_pass"])
        emit(ev.StandingPassEnded, side=side, why="cancelled", rule=RULE)
    return emit.events


def with_passes(state: MatchState, ruleset: Ruleset, context: Context, made: list[ev.Event],
                answer: Answer) -> list[ev.Event]:
    """`made` (an action's events, decided at `state` in `context`) and then the dones the
    standing passes say once they are recorded: what the use case records as one action."""
    if not state.passing and not any(isinstance(e, ev.StandingPassStarted) for e in made):
        return made
    now = state
    for event in made:
        now = evolve(now, event)
    return [*made, *settle(now, ruleset, moved_on(context, made), answer)]


def settle(state: MatchState, ruleset: Ruleset, context: Context,
           answer: Answer) -> list[ev.Event]:
    """The dones the standing passes say at `state` (the state after an action, `context`
    the context of the next event), one after another (see the module's text); `answer`
    tells whether a side has a move of the step's own to make."""
    out: list[ev.Event] = []
    for _ in range(MOST_DONES):
        made = _one(state, ruleset, context, answer)
        if not made:
            break
        out += made
        for event in made:
            state = evolve(state, event)
        context = moved_on(context, made)
    return out


def _one(state: MatchState, ruleset: Ruleset, context: Context,
         answer: Answer) -> list[ev.Event]:
    """The first done a pass says at `state`, or its end; [] when none is due."""
    if state.outcome is not None or state.awaiting is not None or not state.passing:
        return []
    waited = waiting_for_seats(state, ruleset).seats
    shared = ruleset.sequence.step(state.turn.step).shared
    for side in waited:
        if side not in state.passing:
            continue
        if not shared and any(s not in (side, REFEREE) for s in waited):
            continue  # its done would move the marker on for the others too: theirs to say
        if holds(state, ruleset, side, answer, context.version) is not None:
            continue  # a duty, or a choice of the side's own: the pass waits
        as_side = replace(context, actor=side)
        try:
            done = decide(cmd.Advance(), state, ruleset, as_side)
        except DomainError as refused:
            if any(s not in (side, REFEREE) for s in waited):
                continue  # another seat's move first (it may let the side go on): it waits
            emit = Emit(as_side, state, evolve)
            emit(ev.StandingPassEnded, side=side, why="refused", rule=RULE,
                 reason=in_words(refused.detail, state, ruleset.sequence)[:500])
            return emit.events
        if _the_sides_own(done, state):
            continue
        return [e.model_copy(update={"by": BY}) if isinstance(e, MARKED) and e.actor == side
                else e for e in done]
    return []


def _the_sides_own(done: list[ev.Event], state: MatchState) -> bool:
    """Whether a done is the side's own to tap: it rolls the service's dice, leaves a result
    owed or ends the match."""
    if any(getattr(e, "roll_index", None) is not None or isinstance(e, ev.MatchEnded)
           for e in done):
        return True
    for event in done:
        state = evolve(state, event)
    return state.awaiting is not None
