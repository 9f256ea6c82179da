"""An action and then done, in one request ("... and done", issue 26, fewer taps): the
events of the two taps it replaces, the action's and then the seat's Next step's.

`then_done(state, ruleset, context, command)` decides the action as the seat, then, on the
state it leaves, `advance` as the same seat: each decided apart by `decide`, so the
authority and the sequence are checked for each, as for two taps. The action's refusal is
raised as it is (nothing is recorded). (ours) The done is the seat's Next step as it would
be tapped right after the action: where the rules refuse it then (a tie to roll again, a
result owed, a step that still waits for another move of the seat's), the action is
recorded alone, as the first tap would have been, and the answer's events show no advance:
with the match's dice a roll may end otherwise than the legal answer's stand-in dice said.
Both carry one command id, so one undo takes both back."""

from __future__ import annotations

from dataclasses import replace

from domain import commands as cmd
from domain import events as ev
from domain.context import Context
from domain.decide import decide
from domain.errors import DomainError, InvalidAction
from domain.evolve import evolve
from domain.rulesets import Ruleset
from domain.state import MatchState

THEN = ("done",)  # what may follow an action in one request


def moved_on(context: Context, made: list[ev.Event]) -> Context:
    """The context of the next decision after `made`: its version and roll index on."""
    return replace(context, version=context.version + len(made),
                   roll_index=context.roll_index + sum(
                       getattr(e, "roll_index", None) is not None for e in made))


def after_advance(state: MatchState, ruleset: Ruleset, context: Context,
                  made: list[ev.Event]) -> list[ev.Event] | None:
    """The seat's advance once `made` (decided at `state` in `context`) are recorded, or
    None where `decide` refuses it then."""
    now = state
    for event in made:
        now = evolve(now, event)
    try:
        return decide(cmd.Advance(), now, ruleset, moved_on(context, made))
    except DomainError:
        return None


def then_done(state: MatchState, ruleset: Ruleset, context: Context,
              command: cmd.Command) -> list[ev.Event]:
    """The events of `command` and then (where the rules accept it) the seat's advance."""
    if isinstance(command, cmd.Advance):
        raise InvalidAction("'then': done follows another action; an advance is the done "
                            "itself", rule="core-sequence")
    made = decide(command, state, ruleset, context)
    return [*made, *(after_advance(state, ruleset, context, made) or [])]
