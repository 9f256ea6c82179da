"""Whose turn, as data: the seats a match now waits for, each with its reason in words.

Read from the sequence of play and the state (and the undo request the log holds), with
the rules of `domain.authority` and `domain.decide`, never restated:

- nobody once the match has ended;
- a result owed (`state.awaiting`): only the seat that rolled (or the referee) can go on,
  as `decide` refuses every other action first;
- else every seat that owes a duty of the step (`domain.owed`), each for what it owes
  (in a shared step, with the sides not yet done); the seats below only when nothing is
  owed;
- else, in a shared step, every side that has not yet said it is done
  (`authority.waiting_for`); in any other step the seats its `acting` names
  (`authority.seats`) and the seats that move the marker on (`authority.movers`: a step
  where one side reacts and the other moves on). (ours) Where a step lets any side act
  but one seat moves it on (an activation: the active side; a defender's fire: the
  defender), the match waits for that seat only: the others may act there, but the step
  ends on its word, and its clock is the one that runs;
- besides, the sides whose consent a pending undo request needs, and the sides that have
  not agreed to an end a side proposed;
- the referee where no side can go on (a step the referee acts in, or a role nobody holds).

The game clock (`domain.clock`) runs for these seats; the notifications tell them.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.authority import movers, seats, waiting_for
from domain.context import REFEREE
from domain.duties import Owed
from domain.history import Frame, UndoRequest
from domain.owed import owed
from domain.rulesets import Ruleset
from domain.state import MatchState


@dataclass(frozen=True, slots=True)
class Wait:
    """One seat waited for (a side id or `referee`) and why, in words."""

    seat: str
    reason: str


@dataclass(frozen=True, slots=True)
class Waiting:
    """The seats a match waits for now, in the order they were found (each seat once)."""

    waits: tuple[Wait, ...] = ()
    ended: bool = False

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(w.seat for w in self.waits)

    def reasons(self, seat: str) -> tuple[str, ...]:
        return tuple(w.reason for w in self.waits if w.seat == seat)


def _name(state: MatchState, side: str) -> str:
    return next((s.name for s in state.sides if s.id == side), side)


def _step_title(ruleset: Ruleset, state: MatchState) -> str:
    step = ruleset.sequence.step(state.turn.step)
    return step.title or step.id


def _play(state: MatchState, ruleset: Ruleset, due: tuple[Owed, ...] | None) -> list[Wait]:
    """Who the sequence of play waits for at the current step."""
    sequence = ruleset.sequence
    step = sequence.step(state.turn.step)
    title = _step_title(ruleset, state)
    due = owed(state, ruleset) if due is None else due
    if due:  # every seat that owes something, for what it owes; in a shared step the rest too
        owing = [Wait(o.seat, f"to {o.says}") for o in due]
        return owing + [Wait(side, f"to say it is done with {title}")
                        for side in waiting_for(sequence, state)
                        if side not in {o.seat for o in due}]
    if step.shared:
        return [Wait(side, f"to say it is done with {title}")
                for side in waiting_for(sequence, state)]
    named = [] if step.acting == "any" else [
        s for s in seats(sequence, state, step.acting) if s not in state.turn.done]
    out = [Wait(side, f"to act in {title}") for side in named]
    out += [Wait(side, f"to move on from {title}" if named else f"to act in {title}")
            for side in movers(sequence, state) if side != REFEREE and side not in named]
    return out


def _consents(state: MatchState, pending: UndoRequest | None) -> list[Wait]:
    out = []
    if pending is not None:
        asker = _name(state, pending.by) if pending.by != REFEREE else "the referee"
        out += [Wait(side, f"to answer {asker}'s request to take back an action (what it "
                           "takes back is asked at the top of the table)")
                for side in state.side_ids()
                if side != pending.by and side not in pending.accepted]
    proposal = state.end_proposal
    if proposal is not None:
        out += [Wait(side, "to agree to the proposed end of the match (or not)")
                for side in state.side_ids() if side not in proposal.agreed]
    return out


def waiting_for_seats(state: MatchState, ruleset: Ruleset,
                      pending: UndoRequest | None = None,
                      due: tuple[Owed, ...] | None = None) -> Waiting:
    """The seats the match waits for now (see the module's text), `pending` being the
    undo request waiting for an answer (`Frame.undo_request`), `due` what is owed now when
    the caller has read it already (`domain.owed.owed`: read once for a board)."""
    if state.outcome is not None:
        return Waiting(ended=True)
    awaiting = state.awaiting
    if awaiting is not None:
        needed = "the dice of" if awaiting.declared else "the result of"
        found = [Wait(awaiting.by, f"to enter {needed} {awaiting.what}")]
    else:
        found = _play(state, ruleset, due)
    if not found:  # no side can go on: a step the referee acts in, or a role nobody holds
        found = [Wait(REFEREE, f"only the referee can go on from {_step_title(ruleset, state)}")]
    found += _consents(state, pending)
    unique: dict[tuple[str, str], Wait] = {(w.seat, w.reason): w for w in found}
    return Waiting(waits=tuple(unique.values()))


def waiting_at(frame: Frame, ruleset: Ruleset) -> Waiting:
    """The seats waited for at a frame of the log (its state and pending undo request)."""
    return waiting_for_seats(frame.state, ruleset, frame.undo_request)
