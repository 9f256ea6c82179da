"""An expression of a ruleset file, compiled once and evaluated over the view of a match.

Compiling checks it again (`expression.read_expression`: a file that skipped the load's
checks cannot reach the evaluator with a hostile expression) and hands it to CEL's
evaluator (`common-expression-language`, in Rust). Each evaluation builds only the view's
variables the expression names, and of them only the fields and keys it reads, as plain
data: the evaluator has no function of ours to call but `hex_distance` (hexes.py: two hex ids in, a
whole number out) and `highest` (numbers.py: a list of whole numbers and a default in, one
out), `join` and `distinct` (lists.py), and nothing of Python's to reach.
Guards that apply to one action share one view (`Together`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cel

from domain.commands import Command
from domain.rulefiles.cost import FREE, STEPS, Cost, total
from domain.rulefiles.expression import Needs, merge, read_expression
from domain.rulefiles.hexes import hex_distance
from domain.rulefiles.lists import distinct, join
from domain.rulefiles.numbers import highest
from domain.rulefiles.types import Ty
from domain.rulefiles.view import Declared, values
from domain.state import MatchState

# what CEL's evaluator raises on a value it cannot compute (a key a map lacks, a division
# by zero, an overflow past 64 bits)
FAILURES = (ValueError, KeyError, IndexError, TypeError, ZeroDivisionError, OverflowError,
            RuntimeError)
Roles = Callable[[MatchState], dict[str, str]]


OURS = ("hex_distance", "highest", "join", "distinct")  # the functions of ours


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
    cost: Cost = FREE  # its list functions: the bound of its steps (cost.py)

    def __call__(self, state: MatchState, command: Command | None = None,
                 actor: str = "") -> Any:
        return self.run(values(state, self.declared, self.names, self.roles, command, actor,
                               self.needs))

    def run(self, view: dict[str, Any] | View) -> Any:
        """Its value over `view` (plain data, or one `Together` built); Unreadable when it
        cannot be computed, or when its steps over this view could pass STEPS (not run)."""
        if isinstance(view, View):
            steps, view = view.steps, view.context
        else:
            steps = self.cost.steps(_largest(view))
            if self.hexes:
                view = _context(view, True)
        if steps > STEPS:
            raise Unreadable(f"it could take {steps:,} steps over this board (at most "
                             f"{STEPS:,}: docs/rulesets/authoring.md)")
        try:
            return self.program.execute(view)
        except FAILURES as error:
            raise Unreadable(" ".join(str(error).split())[:200]) from None


@dataclass(frozen=True)
class View:
    """The view several expressions read (`Together`), and the steps they could take over
    it together: each of them is bounded by all of them."""

    context: Any  # cel.Context
    steps: int


def _largest(data: dict[str, Any]) -> int:
    """The items of the view's largest list or map (the units in play, most often)."""
    return max((len(v) for v in data.values() if isinstance(v, (list, dict))), default=0)


class Together:
    """Several expressions of one file read over one view (handed to the evaluator once):
    the variables and the fields they read, merged once."""

    def __init__(self, expressions: Sequence[Compiled]) -> None:
        self.expressions = tuple(expressions)
        self.names = frozenset().union(*(e.names for e in expressions))
        self.needs = merge(*(e.needs for e in expressions))

    def view(self, state: MatchState, command: Command | None = None,
             actor: str = "") -> dict[str, Any] | View:
        if not self.expressions:
            return {}
        first = self.expressions[0]
        data = values(state, first.declared, self.names, first.roles, command, actor,
                      self.needs)
        return View(_context(data, any(e.hexes for e in self.expressions)),
                    total([e.cost for e in self.expressions], _largest(data)))


def _context(data: dict[str, Any], hexes: bool) -> Any:
    context = cel.Context()
    for name, value in data.items():
        context.add_variable(name, value)
    if hexes:
        context.add_function("hex_distance", hex_distance)
        context.add_function("highest", highest)
        context.add_function("join", join)
        context.add_function("distinct", distinct)
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
                    any(name in text for name in OURS), checked.cost)
