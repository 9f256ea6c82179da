"""`decide(command, state, ruleset, context) -> [events]`: the validating entry point.

Checks the command against the state, the sequence of play and the ruleset, and returns the
events it causes, or raises a `DomainError` that names the rule and says what is allowed.
Time, the acting seat and the dice come in through `Context`: nothing here reads a clock or
draws a random number.
"""

from __future__ import annotations

from domain import commands as cmd
from domain import events as ev
from domain.authority import check_acting, check_advance, check_awaited, check_owner
from domain.context import REFEREE, Context, Emit
from domain.errors import InvalidAction, MatchOver, OutOfSequence
from domain.evolve import evolve
from domain.owed import owed_by
from domain.procedures import handle as _handle
from domain.procedures import next_marker
from domain.rulesets import Ruleset
from domain.sequence import ANY, Phase, Step
from domain.state import MatchState
from domain.undo import decide_redo, decide_undo, decide_undo_answer

__all__ = ["REFEREE", "Context", "decide", "decide_redo", "decide_undo", "decide_undo_answer",
           "next_marker"]

RECORDS = ("add_note", "open_dispute")  # accepted even after the end or while a result waits
ENDINGS = ("end_match", "concede", "reopen_match")  # at any step, by any side's turn
ALWAYS_ALLOWED = ("advance", "record_roll", *RECORDS, *ENDINGS)


def decide(
    command: cmd.Command, state: MatchState, ruleset: Ruleset, context: Context
) -> list[ev.Event]:
    kind = getattr(command, "type", type(command).__name__)
    if state.outcome is not None and kind not in (*RECORDS, "reopen_match"):
        raise MatchOver("the match has ended; only notes and disputes can be added (the "
                        "referee may reopen it)", rule="core-end")
    step = ruleset.sequence.step(state.turn.step)
    if state.awaiting is not None and kind not in ("enter_result", "record_roll", *ENDINGS,
                                                    *RECORDS):
        needed = "record_roll" if state.awaiting.declared else "enter_result"
        raise OutOfSequence(
            (f"{state.awaiting.rule}: " if state.awaiting.rule else "")
            + f"first the result of {state.awaiting.what}: enter "
            + ("the faces thrown at the table" if state.awaiting.declared
               else "what the table reads"), rule=state.awaiting.rule or "core-results",
            allowed=[needed, "add_note"])
    if kind not in ALWAYS_ALLOWED and ANY not in step.allows and kind not in step.allows:
        raise _out_of_step(kind, state, ruleset, step)
    if kind == "advance":
        if getattr(command, "until", None) is not None:  # MatchUseCases.act's own
            raise InvalidAction("'until' is a use case's: each advance is decided apart",
                                rule="core-sequence")
        check_advance(ruleset.sequence, state, context.actor)
    elif kind in ("record_roll", "enter_result"):
        check_awaited(ruleset.sequence, state, context.actor)
    elif kind not in (*RECORDS, *ENDINGS):
        check_acting(ruleset.sequence, state, context.actor, kind,
                     lambda: owed_by(state, ruleset, context.actor))
    check_owner(command, state, context.actor)
    for check in ruleset.checks:
        check(command, state, context.actor)
    emit = Emit(context, state, evolve)
    procedure = ruleset.actions.get(kind)
    if procedure is not None:
        procedure(command, state, emit)
    else:
        _handle(command, state, ruleset, emit)
    if ruleset.react is not None and emit.events:
        ruleset.react(state, emit)
    return emit.events


def _out_of_step(kind: str, state: MatchState, ruleset: Ruleset, step: Step) -> OutOfSequence:
    """AA-3: units split only in the Clean-Up Split sub-phase; current step: Activation 4."""
    rule, where = ruleset.where.get(kind, (step.rule or "core-sequence", ""))
    repeats = any(isinstance(node, Phase) and (node.repeat_while or node.player_turns)
                  for node in ruleset.sequence.chain(state.turn.step))
    current = (step.title or step.id) + (f" {state.turn.run + 1}" if repeats else "")
    said = f"{rule}: {where}; current step: {current}" if where else (
        f"'{kind}' is not allowed in step '{state.turn.step}' ({current})")
    return OutOfSequence(said, rule=rule, allowed=sorted({*step.allows, *ALWAYS_ALLOWED}))


