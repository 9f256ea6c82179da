"""An expression of a ruleset file, compiled once and evaluated over the view of a match.

Compiling checks it again (`expression.read_expression`: a file that skipped the load's
checks cannot reach the evaluator with a hostile expression) and hands it to CEL's
evaluator (`common-expression-language`, in Rust). Each evaluation builds only the view's
variables the expression names, and of them only the fields and keys it reads, as plain
data: the evaluator has no function of ours to call but `hex_distance` (hexes.py: two hex ids in, a
whole number out) and `highest` (numbers.py: a list of whole numbers and a default in, one
out), and nothing of Python's to reach.
Guards that apply to one action share one view (`Together`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cel

from domain.commands import Command
from domain.rulefiles.expression import Needs, merge, read_expression
from domain.rulefiles.hexes import hex_distance
from domain.rulefiles.numbers import highest
from domain.rulefiles.types import Ty
from domain.rulefiles.view import Declared, values
from domain.state import MatchState

# what CEL's evaluator raises on a value it cannot compute (a key a map lacks, a division
# by zero, an overflow past 64 bits)
FAILURES = (ValueError, KeyError, IndexError, TypeError, ZeroDivisionError, OverflowError,
            RuntimeError)
Roles = Callable[[MatchState], dict[str, str]]


class NotAnExpression(ValueError):
    """An expression that fails its checks, given to `compile_expression` all the same."""


class Unreadable(Exception):
    """An expression the evaluator could not compute over this state (said, never a crash)."""


@dataclass(frozen=True)
class Compiled:
    text: str
    program: Any  # cel.Program
    names: frozenset[str]  # the view's variables it reads
    needs: Needs  # and what of them
    declared: Declared
    roles: Roles
    hexes: bool = False  # it calls a function of ours (hex_distance, highest)

    def __call__(self, state: MatchState, command: Command | None = None,
                 actor: str = "") -> Any:
        return self.run(values(state, self.declared, self.names, self.roles, command, actor,
                               self.needs))

    def run(self, view: dict[str, Any] | Any) -> Any:
        try:
            if self.hexes and isinstance(view, dict):
                view = _context(view, True)
            return self.program.execute(view)
        except FAILURES as error:
            raise Unreadable(" ".join(str(error).split())[:200]) from None


class Together:
    """Several expressions of one file read over one view (handed to the evaluator once):
    the variables and the fields they read, merged once."""

    def __init__(self, expressions: Sequence[Compiled]) -> None:
        self.expressions = tuple(expressions)
        self.names = frozenset().union(*(e.names for e in expressions))
        self.needs = merge(*(e.needs for e in expressions))

    def view(self, state: MatchState, command: Command | None = None, actor: str = "") -> Any:
        if not self.expressions:
            return {}
        first = self.expressions[0]
        data = values(state, first.declared, self.names, first.roles, command, actor,
                      self.needs)
        return _context(data, any(e.hexes for e in self.expressions))


def _context(data: dict[str, Any], hexes: bool) -> Any:
    context = cel.Context()
    for name, value in data.items():
        context.add_variable(name, value)
    if hexes:
        context.add_function("hex_distance", hex_distance)
        context.add_function("highest", highest)
    return context


def compile_expression(text: str, view: dict[str, Ty], wanted: Ty, declared: Declared,
                       roles: Roles) -> Compiled:
    checked = read_expression(text, view, wanted)
    if checked.flaws:
        flaw = checked.flaws[0]
        raise NotAnExpression(f"{text[:80]!r}: {flaw.check}: {flaw.message}")
    program = cel.compile(text)
    return Compiled(text, program, frozenset(program.variables()) & frozenset(view),
                    checked.needs, declared, roles,
                    "hex_distance" in text or "highest" in text)
