"""What a ruleset file makes the referee do beyond its sequence of play: its conditions and
its guards, as the `Ruleset` fields that carry them.

`behaviour(file)` gives those fields (keyword arguments of `domain.rulesets.base.Ruleset`)
built from what the file declares: `conditions` from each condition given as an expression
(`when`), `checks` from its `guards`. A condition that names a Python procedure is a gap
(docs/rulesets/authoring.md): it is not built here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.commands import Command
from domain.context import REFEREE
from domain.errors import InvalidAction, NotYourTurn
from domain.rulefiles.evaluate import Compiled, Unreadable, compile_expression, view_for
from domain.rulefiles.model import Guard, RulesetFile
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.sequence import current_roles
from domain.state import MatchState


def behaviour(file: RulesetFile) -> dict[str, Any]:
    """The `Ruleset` fields the file's declarations build (only those it declares)."""
    declared = Declared.of(file.model_dump(mode="json"))
    sequence = sequence_of(file)

    def roles(state: MatchState) -> dict[str, str]:
        return current_roles(sequence, state)

    out: dict[str, Any] = {}
    conditions = {name: _condition(name, compile_expression(
        condition.when, types(declared), BOOL, declared, roles))
        for name, condition in file.conditions.items() if condition.when is not None}
    if conditions:
        out["conditions"] = conditions
    guards = [(guard, compile_expression(guard.when, types(declared, guard.actions), BOOL,
                                         declared, roles)) for guard in file.guards]
    if guards:
        out["checks"] = (_checks(tuple(guards)),)
    return out


def _condition(name: str, expression: Compiled) -> Callable[[MatchState], bool]:
    def holds(state: MatchState) -> bool:
        try:
            return expression(state) is True
        except Unreadable as error:
            raise InvalidAction(f"the condition '{name}' cannot be read now: {error}",
                                rule="core-ruleset") from None
    return holds


def _checks(guards: tuple[tuple[Guard, Compiled], ...]
            ) -> Callable[[Command, MatchState, str], None]:
    """The file's guards, in its order: the first that does not hold refuses."""
    def check(command: Command, state: MatchState, actor: str) -> None:
        kind = getattr(command, "type", "")
        binding = [(guard, expression) for guard, expression in guards
                   if kind in guard.actions and (actor != REFEREE or guard.binds_referee)]
        if not binding:
            return
        view = view_for([expression for _, expression in binding], state, command, actor)
        for guard, expression in binding:
            try:
                holds = expression.run(view) is True
            except Unreadable as error:
                raise InvalidAction(f"{guard.rule}: this guard cannot be read now: {error}",
                                    rule=guard.rule) from None
            if not holds:
                refusal = NotYourTurn if guard.refusal == "not_your_turn" else InvalidAction
                raise refusal(f"{guard.rule}: {guard.says}", rule=guard.rule)
    return check
