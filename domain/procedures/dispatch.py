"""The one dispatch of the core procedures: `handle(command, state, ruleset, emit)` runs
the procedure registered for the command's class (each module of this package registers
its own); a command with none belongs to another ruleset."""

from __future__ import annotations

from functools import singledispatch

from domain import commands as cmd
from domain.context import Emit
from domain.errors import InvalidAction
from domain.rulesets import Ruleset
from domain.state import MatchState


@singledispatch
def handle(command: cmd.Command, state: MatchState, ruleset: Ruleset, emit: Emit) -> None:
    raise InvalidAction(
        f"'{getattr(command, 'type', type(command).__name__)}' is a procedure of another "
        f"ruleset, not of {ruleset.title}", rule="core-actions")

