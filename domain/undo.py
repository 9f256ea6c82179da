"""Undo, the answer to an undo request, and redo: what each appends (DESIGN.md's one
definition of undo is in `domain.history`)."""

from __future__ import annotations

from collections.abc import Callable

from domain import events as ev
from domain.authority import check_redo
from domain.context import REFEREE, Context, Emit
from domain.errors import MatchOver, NotYourTurn, UndoRefused
from domain.history import UndoRequest
from domain.state import MatchState


def decide_undo(
    state: MatchState, state_at: Callable[[int], MatchState], context: Context,
    *, to: int | None = None, actions: int = 1, reach: int = 1,
    pending: UndoRequest | None = None,
) -> list[ev.Event]:
    """Undo the last `actions` actions, or back to version `to`. Back to `reach` (the
    acting seat's own actions since the last barrier: `history.undo_reach`) the undo is
    immediate; further back it becomes an `UndoRequested` the other sides answer. The
    referee's undo and any undo in a casual match are immediate."""
    if state.outcome is not None:
        raise MatchOver("the match has ended; it can no longer be undone", rule="core-undo")
    if to is None:
        target, earlier = context.version, state
        for undone in range(actions):
            if earlier.last_command is None:
                raise UndoRefused(f"only {undone} action(s) can be undone", rule="core-undo")
            target = earlier.action_base
            earlier = state_at(target)
    else:
        if not 1 <= to < context.version:
            raise UndoRefused(f"undo to a version from 1 to {context.version - 1}",
                              rule="core-undo")
        target, earlier = to, state_at(to)
    emit = Emit(context, state)
    if state.casual or context.actor == REFEREE or target >= reach:
        emit(ev.ActionsUndone, to=target, resulting_turn=earlier.turn.turn, rule="core-undo")
        return emit.events
    if pending is not None:
        raise UndoRefused(f"the undo {pending.by} asked for (version {pending.version}) waits "
                          "for an answer first", rule="core-undo")
    emit(ev.UndoRequested, to=target, resulting_turn=earlier.turn.turn, rule="core-undo")
    return emit.events


def decide_undo_answer(
    state: MatchState, pending: UndoRequest | None, context: Context, *, accept: bool,
    reason: str = "",
) -> list[ev.Event]:
    """Another side answers a pending undo request; when every other side has accepted,
    or the referee accepts (forcing it), the undo is made. The referee may also refuse."""
    if pending is None:
        raise UndoRefused("no undo request is waiting (a new action lets it lapse)",
                          rule="core-undo")
    actor = context.actor
    others = [side for side in state.side_ids() if side != pending.by]
    if actor == pending.by:
        raise NotYourTurn("the other side(s) answer your undo request", rule="core-undo",
                          allowed=[*others, REFEREE])
    if actor in pending.accepted:
        raise UndoRefused("you have accepted this request already", rule="core-undo")
    emit = Emit(context, state)
    if not accept:
        emit(ev.UndoDeclined, request=pending.version, reason=reason, rule="core-undo")
        return emit.events
    emit(ev.UndoAccepted, request=pending.version, rule="core-undo")
    if actor == REFEREE or set(others) <= {*pending.accepted, actor}:
        emit(ev.ActionsUndone, to=pending.to, resulting_turn=pending.resulting_turn,
             requested_by=pending.by, rule="core-undo")
    return emit.events


def decide_redo(
    state: MatchState, redo: tuple[int, ...], state_at: Callable[[int], MatchState],
    context: Context, *, undone_by: str = REFEREE,
) -> list[ev.Event]:
    """Reverse the latest undo not yet reversed (a new action clears what can be redone),
    by the seat that undid (`undone_by`) or the referee."""
    if not redo:
        raise UndoRefused("there is nothing to redo", rule="core-redo")
    check_redo(context.actor, undone_by)
    target = redo[-1] - 1
    emit = Emit(context, state)
    emit(ev.ActionsRedone, to=target, reverses=redo[-1],
         resulting_turn=state_at(target).turn.turn, rule="core-redo")
    return emit.events
