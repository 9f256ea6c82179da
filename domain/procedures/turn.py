"""The turn marker: advance one step, or on to a named step, and `next_marker`, where an
advance takes it. In a shared step a side's advance says it is done; the last one moves
the marker."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.authority import waiting_for
from domain.context import REFEREE, Emit
from domain.errors import InvalidAction, OutOfSequence
from domain.owed import refuse_leaving
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.sequence import following, start
from domain.state import MatchState, TurnMarker


@_handle.register
def _(command: cmd.Advance, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    actor = emit.context.actor
    others = [s for s in waiting_for(ruleset.sequence, state) if s != actor]
    if actor != REFEREE and others:  # a shared step: this side is done, others are not
        refuse_leaving(state, ruleset, actor)  # (a side that owes a duty is not done)
        if command.to is not None:
            raise OutOfSequence(f"every side says it is done before the marker moves on; "
                                f"waiting for {', '.join(others)}", rule="core-sequence",
                                allowed=["advance"])
        emit(ev.SideDone, side=actor, step=state.turn.step)
        return
    refuse_leaving(state, ruleset)  # (nothing owed is left behind: domain.duties)
    marker = next_marker(state, ruleset, command.to)
    if marker.turn != state.turn.turn:
        if ruleset.end_of_turn is not None:
            ruleset.end_of_turn(state, emit)
            if emit.state.outcome is not None:
                return
        if ruleset.turn_order is not None:  # NO-5: the order is for one turn only
            fresh = start(ruleset.sequence, ruleset.turn_order, marker.turn)
            marker = fresh if fresh.step == marker.step else marker.model_copy(
                update={"initiative": ruleset.turn_order})
        emit(ev.TurnAdvanced, marker=marker)
    else:
        emit(ev.PhaseAdvanced, origin=state.turn.step, marker=marker)
    arrive = ruleset.on_enter.get(marker.step)
    if arrive is not None:
        arrive(emit.state, emit)


def next_marker(state: MatchState, ruleset: Ruleset, to: str | None = None) -> TurnMarker:
    """Where `advance` takes the marker: one step on, or on to step `to` (this turn or the
    next) passing only optional steps. Leaving a step needs its `leave_when` to hold."""
    seq = ruleset.sequence
    if to is not None and to not in seq.steps():
        raise InvalidAction(f"there is no step '{to}'", rule="core-sequence", allowed=seq.steps())
    marker = state.turn
    seen: set[tuple[int, str, str | None]] = set()
    while True:
        # The state does not change during one advance, so meeting a step again with the
        # same active side means a repeating phase would go round for ever.
        place = (marker.turn, marker.step, marker.active_side)
        if place in seen:
            raise OutOfSequence(
                f"step '{to}' cannot be reached: the phase around '{marker.step}' repeats",
                rule=seq.step(marker.step).rule or "core-sequence", allowed=[marker.step],
            )
        seen.add(place)
        step = seq.step(marker.step)
        if step.leave_when and not ruleset.conditions[step.leave_when](state):
            waiting = "; ".join(ruleset.expects(state)) if ruleset.expects else ""
            raise OutOfSequence(
                # (in the players' words: what the step still waits for, not the condition's name)
                f"'{marker.step}' is not over yet" + (
                    f": {waiting}" if waiting else f" ({step.leave_when.replace('_', ' ')})"),
                rule=step.rule or "core-sequence",
            )
        marker = following(seq, marker, state, ruleset.conditions)
        if to is None or marker.step == to:
            return marker
        if not seq.step(marker.step).optional or marker.turn > state.turn.turn + 1:
            raise OutOfSequence(
                f"cannot skip required step '{marker.step}' on the way to '{to}'",
                rule=seq.step(marker.step).rule or "core-sequence",
                allowed=[marker.step],
            )


