"""The command path after `decide`: what one action request records (`MatchUseCases.act`),
the action as the seat asked for it, then the dones the sides' standing passes say once it is
recorded. The read side (`domain.legal`, the legal actions) sits above it and is injected
where the passes read it (`domain.acting.holds.Answer`).

The package owns: `recorded` (this module); `standing` the standing pass (started, stopped,
the dones it says: `settle`, `with_passes`); `ahead` "done until something is mine" and
where a pass stops next; `then` an action and then done in one request; `holds` the one
test of whether a step holds something for a side (a duty owed, a move of its own).

`recorded(state, ruleset, context, command, then, answer)` decides, as `context.actor`:

- with `then="done"`, the action and then the seat's Next step (`domain.acting.then`);
- a `standing_pass`, the side's pass started or stopped (`domain.acting.standing`);
- an `advance` with `until: "mine"`, one advance after another while the steps hold
  nothing for the seat (`domain.acting.ahead`);
- anything else, the action through `decide`;

and then, in the same action, the dones the standing passes say (`with_passes`). Every
refusal is raised as it is: nothing is recorded. `answers()` makes a reader of the seats'
legal answers as the passes read them (`domain.legal.pass_answers`), its work capped over the
answers it reads: one for the steps "done until something is mine" passes, a new one for
each done a standing pass considers."""

from __future__ import annotations

from collections.abc import Callable

from domain import commands as cmd
from domain import events as ev
from domain.acting.ahead import until_mine
from domain.acting.holds import Answer, Holds
from domain.acting.standing import decide_standing, with_passes
from domain.acting.then import THEN, then_done
from domain.context import Context
from domain.decide import decide
from domain.errors import InvalidAction
from domain.rulesets import Ruleset
from domain.state import MatchState

__all__ = ["Answers", "recorded"]

Answers = Callable[[], Answer]  # a new reader of the legal answers, its own cap on work


def recorded(state: MatchState, ruleset: Ruleset, context: Context, command: cmd.Command,
             then: str | None, answers: Answers) -> list[ev.Event]:
    """The events one request records (see the module's text)."""
    made = _asked(state, ruleset, context, command, then, answers)

    def each(at: MatchState, seat: str, version: int) -> Holds:
        return answers()(at, seat, version)

    return with_passes(state, ruleset, context, made, each)


def _asked(state: MatchState, ruleset: Ruleset, context: Context, command: cmd.Command,
           then: str | None, answers: Answers) -> list[ev.Event]:
    """The events of the action as the seat asked for it."""
    if then is not None:
        if then not in THEN or isinstance(command, cmd.StandingPass):
            raise InvalidAction(f"'then' is one of: {', '.join(THEN)}, after a move",
                                rule="core-requests", allowed=list(THEN))
        return then_done(state, ruleset, context, command)
    if isinstance(command, cmd.StandingPass):
        return decide_standing(command, state, ruleset, context)
    if isinstance(command, cmd.Advance) and command.until == "mine":
        # each advance decided as the seat's tap would be (domain.acting.ahead)
        return list(until_mine(state, ruleset, context, answers()).events)
    return decide(command, state, ruleset, context)
