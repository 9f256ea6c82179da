"""What one action request records (`MatchUseCases.act`): the action as the seat asked for
it, then the dones the sides' standing passes say once it is recorded.

`recorded(state, ruleset, context, command, then)` decides, as `context.actor`:

- with `then="done"`, the action and then the seat's Next step (`domain.legal.then`);
- a `standing_pass`, the side's pass started or stopped (`domain.legal.standing`);
- an `advance` with `until: "mine"`, one advance after another while the steps hold
  nothing for the seat (`domain.legal.ahead`);
- anything else, the action through `decide`;

and then, in the same action, the dones the standing passes say (`with_passes`). Every
refusal is raised as it is: nothing is recorded."""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.context import Context
from domain.decide import decide
from domain.errors import InvalidAction
from domain.legal import seat_answer, side_answer
from domain.legal.ahead import until_mine
from domain.legal.standing import decide_standing, with_passes
from domain.legal.then import THEN, then_done
from domain.rulesets import Ruleset
from domain.state import MatchState


def recorded(state: MatchState, ruleset: Ruleset, context: Context, command: cmd.Command,
             then: str | None = None) -> list[ev.Event]:
    """The events one request records (see the module's text)."""
    made = _asked(state, ruleset, context, command, then)
    return with_passes(state, ruleset, context, made, side_answer(ruleset))


def _asked(state: MatchState, ruleset: Ruleset, context: Context, command: cmd.Command,
           then: str | None) -> list[ev.Event]:
    """The events of the action as the seat asked for it."""
    if then is not None:
        if then not in THEN or isinstance(command, cmd.StandingPass):
            raise InvalidAction(f"'then' is one of: {', '.join(THEN)}, after a move",
                                rule="core-requests", allowed=list(THEN))
        return then_done(state, ruleset, context, command)
    if isinstance(command, cmd.StandingPass):
        return decide_standing(command, state, ruleset, context)
    if isinstance(command, cmd.Advance) and command.until == "mine":
        # each advance decided as the seat's tap would be (domain.legal.ahead)
        return list(until_mine(state, ruleset, context,
                               seat_answer(ruleset, context.actor)).events)
    return decide(command, state, ruleset, context)
