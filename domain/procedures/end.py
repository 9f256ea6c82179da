"""The end of a match: the referee ends it; a side concedes, or proposes an outcome that
ends the match once every side has proposed the same; the referee reopens it."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import REFEREE, Emit
from domain.context import side as _side
from domain.errors import InvalidAction, NotYourTurn
from domain.procedures.dispatch import handle as _handle
from domain.rulesets import Ruleset
from domain.state import MatchState, Outcome


@_handle.register
def _(command: cmd.EndMatch, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if command.winner is not None:
        _side(state, command.winner)
    actor = emit.context.actor
    if actor == REFEREE:
        emit(ev.MatchEnded, winner=command.winner, reason=command.reason, rule="core-end")
        return
    proposal = state.end_proposal
    outcome = Outcome(winner=command.winner, reason=command.reason)
    if proposal is not None and proposal.outcome == outcome and actor in proposal.agreed:
        waiting = sorted(set(state.side_ids()) - set(proposal.agreed))
        raise InvalidAction(f"you proposed this end already; it waits for {', '.join(waiting)}",
                            rule="core-end", allowed=waiting)
    emit(ev.MatchEndProposed, winner=command.winner, reason=command.reason, rule="core-end")
    agreed = emit.state.end_proposal
    if agreed is not None and set(agreed.agreed) >= set(state.side_ids()):
        emit(ev.MatchEnded, winner=command.winner, reason=command.reason, rule="core-end")


@_handle.register
def _(command: cmd.Concede, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    actor = emit.context.actor
    others = [side for side in state.side_ids() if side != actor]
    if actor == REFEREE:
        raise NotYourTurn("a side concedes, not the referee (end_match ends the match)",
                          rule="core-end", allowed=list(state.side_ids()))
    if len(others) != 1:
        raise InvalidAction("(ours) with more than two sides, the sides agree on the end: "
                            "end_match with the winner, from every side", rule="core-end")
    reason = f"{actor} conceded" + (f": {command.reason}" if command.reason else "")
    emit(ev.MatchEnded, winner=others[0], reason=reason, rule="core-end")


@_handle.register
def _(command: cmd.ReopenMatch, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    if state.outcome is None:
        raise InvalidAction("the match has not ended", rule="core-end")
    emit(ev.MatchReopened, reason=command.reason, rule="core-end")
