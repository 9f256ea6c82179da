"""What the command path reads of the legal answer, and the one test both passes use: whether a
step holds something for a side.

The legal answer (`domain.legal`) sits above the command path, so it is injected as a callable,
`Answer(state, seat, version) -> Holds`: the few things of the seat's answer the passes read.
`holds(state, ruleset, seat, here)` says why a step holds the seat (the standing pass waits
there, "done until something is mine" stops there, and the legal answer says where the pass
stops next), or None:

- the seat owes a duty of the step (`domain.owed.owed_by`): it is the seat's to discharge;
- the seat has a move of the step's own among its legal actions (`domain.legal.own`: an
  optional activation, a move, fire, a card; records, notes, disputes and endings are not):
  a real choice, the player's to make or decline with their own Next step. (ours) A pass
  that declined every optional move would decline most of a game (Wing Command's
  activations are optional, WC-9), which no player tapping it means;
- the answer was cut short (a large board): it may hold such a move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.duties import Owed
from domain.owed import owed_by
from domain.rulesets import Ruleset
from domain.state import MatchState

OWES, CHOOSES, CUT = "owes", "chooses", "cut"


@dataclass(frozen=True)
class Holds:
    """What a seat's legal answer at a state says, as the passes read it."""

    own: bool  # an action of the step's own among the seat's legal actions
    advance: bool  # the seat may say Next step (or its done)
    cut: bool  # the answer does not hold every choice (a large board)


# a seat's legal answer at a state and version, as the passes read it
Answer = Callable[[MatchState, str, int], Holds]


@dataclass(frozen=True)
class Why:
    """Why a step holds a seat: `kind` one of OWES, CHOOSES, CUT; `owes` what it owes."""

    kind: str
    owes: tuple[Owed, ...] = ()


def holds(state: MatchState, ruleset: Ruleset, seat: str, answer: Answer,
          version: int) -> Why | None:
    """Why the step at `state` (at `version`) holds `seat` (see the module's text), or None;
    the seat's legal answer is read only where it owes nothing."""
    due = owed_by(state, ruleset, seat)
    if due:
        return Why(OWES, due)
    here = answer(state, seat, version)
    if here.own:
        return Why(CHOOSES)
    return Why(CUT) if here.cut else None
