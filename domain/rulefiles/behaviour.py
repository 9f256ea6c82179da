"""What a ruleset file makes the referee do beyond its sequence of play: its conditions and
its guards, as the `Ruleset` fields that carry them.

`behaviour(file)` gives those fields (keyword arguments of `domain.rulesets.base.Ruleset`)
built from what the file declares: `conditions` from each condition given as an expression
(`when`), `checks` from its `guards`, `rolls` from its `rolls` (`rolls.py`), `actions` from
its `initiative` (`initiative.py`) and `activation` (`activation.py`), `hand_size` from its
`cards` (`cards.py`), `end_of_turn` and `on_enter` from its `scoring` and `end`
(`ending.py`) and the activation's end, `expects` from its steps' words (`words.py`), `on_enter` also from its `on_enter`
(`arrive.py`), `expects` (ahead of its steps' words) and `unit_info` from its own
(`shows.py`), `actions` also from what its actions do (`does.py`), `unit_tests` and
`side_tests` from its steps' duties (`duties.py`); the parts are `merged`. A condition that names a Python procedure is a gap
(docs/rulesets/authoring.md): it is not built here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.commands import Command
from domain.context import REFEREE, Emit
from domain.errors import InvalidAction, NotYourTurn
from domain.rulefiles.activation import activation_of
from domain.rulefiles.arrive import arrivals
from domain.rulefiles.cards import cards_of
from domain.rulefiles.cost import WorkSpent
from domain.rulefiles.does import actions_of
from domain.rulefiles.duties import duty_tests
from domain.rulefiles.ending import ending
from domain.rulefiles.evaluate import (
    Compiled,
    TooCostly,
    Unreadable,
    Views,
    compile_expression,
)
from domain.rulefiles.guard_words import Said, guard_words
from domain.rulefiles.initiative import initiative_of
from domain.rulefiles.model import Guard, RulesetFile
from domain.rulefiles.rolls import rolls_of
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.shows import shows
from domain.rulefiles.types import BOOL
from domain.rulefiles.view import Declared, types
from domain.rulefiles.words import expects_of
from domain.rulesets.base import Hook
from domain.sequence import current_roles
from domain.state import MatchState

ROLES_KEPT = 256  # places of the marker whose roles one file's behaviour remembers


def behaviour(file: RulesetFile) -> dict[str, Any]:
    """The `Ruleset` fields the file's declarations build (only those it declares)."""
    declared = Declared.of(file.model_dump(mode="json"))
    sequence = sequence_of(file)

    known: dict[tuple[Any, ...], dict[str, str]] = {}

    def roles(state: MatchState) -> dict[str, str]:
        """Who holds each role now (remembered by the marker's place: the sequence is
        walked once for each)."""
        marker = state.turn
        key = (marker.step, tuple(sorted(marker.counters.items())), marker.initiative,
               state.side_ids(), repr(state.options.get("roles")))
        if key not in known:
            if len(known) >= ROLES_KEPT:
                known.clear()
            known[key] = current_roles(sequence, state)
        return dict(known[key])

    out: dict[str, Any] = {}
    whens = {name: compile_expression(condition.when, types(declared), BOOL, declared, roles)
             for name, condition in file.conditions.items() if condition.when is not None}
    guards = [(guard, compile_expression(guard.when, types(declared, guard.actions), BOOL,
                                         declared, roles)) for guard in file.guards]
    # (one view of each state for the guards and the conditions: evaluate.Views)
    views = Views([*whens.values(), *(expression for _, expression in guards)])
    if whens:
        out["conditions"] = {name: _condition(name, expression, views)
                             for name, expression in whens.items()}
    if guards:
        out["checks"] = (_checks(tuple(guards), views, guard_words(file, declared, roles)),)
    if file.rolls:
        out["rolls"] = rolls_of(file, declared, roles)
        tags = tuple(roll.tag for roll in file.rolls.values() if roll.tag not in (None,
                                                                                  roll.rule))
        if tags:  # a roll's own tag is the service's as its rule is (no player rolls it)
            out["rolled_by_service"] = tags
    initiative = initiative_of(file, declared, roles)
    words = expects_of(file, declared, roles)
    return merged(out, {"actions": initiative} if initiative else {},
                  {"actions": actions_of(file, declared, roles)},
                  cards_of(file, declared, roles), activation_of(file),
                  arrivals(file, declared, roles, out.get("conditions", {})),
                  ending(file, declared, roles), words,
                  shows(file, declared, roles, words.get("expects")),
                  duty_tests(file, declared, roles))


def merged(*parts: dict[str, Any]) -> dict[str, Any]:
    """The `Ruleset` fields of several parts of a file as one: their actions, conditions
    and checks together (checks in the parts' order), and their hooks run in turn (those of
    an earlier part first: an activation ends before the turn's scoring and end)."""
    out: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if key not in out:
                out[key] = value
            elif key in ("actions", "conditions"):
                out[key] = {**out[key], **value}
            elif key == "checks":
                out[key] = (*out[key], *value)
            elif key == "on_enter":
                out[key] = {path: _in_turn(out[key].get(path), value.get(path))
                            for path in {**out[key], **value}}
            elif key == "end_of_turn":
                out[key] = _in_turn(out[key], value)
            else:
                out[key] = value
    return out


def _in_turn(first: Hook | None, then: Hook | None) -> Hook:
    """`first`, then `then` on the board `first` left (none once the match has ended)."""
    if first is None or then is None:
        hook = first or then
        assert hook is not None
        return hook
    before: Hook = first
    after: Hook = then

    def run(state: MatchState, emit: Emit) -> None:
        before(state, emit)
        if emit.state.outcome is None:
            after(emit.state, emit)
    return run


def _condition(name: str, expression: Compiled,
               views: Views) -> Callable[[MatchState], bool]:
    def holds(state: MatchState) -> bool:
        try:
            return expression.run(views.view((expression,), state)) is True
        except Unreadable as error:
            raise _refusal(error)(f"the condition '{name}' cannot be read now: {error}",
                                  rule="core-ruleset") from None
    return holds


def _refusal(error: Unreadable) -> type[InvalidAction]:
    """A reading past its bound is the work budget's refusal (cost.WorkSpent)."""
    return WorkSpent if isinstance(error, TooCostly) else InvalidAction


def _checks(guards: tuple[tuple[Guard, Compiled], ...], views: Views, said: Said
            ) -> Callable[[Command, MatchState, str], None]:
    """The file's guards, in its order: the first that does not hold refuses."""
    chosen: dict[tuple[str, bool], tuple[tuple[tuple[Guard, Compiled], ...],
                                         tuple[Compiled, ...]]] = {}

    def check(command: Command, state: MatchState, actor: str) -> None:
        key = (getattr(command, "type", ""), actor == REFEREE)
        if key not in chosen:
            binding = tuple((guard, expression) for guard, expression in guards
                            if key[0] in guard.actions and (not key[1] or guard.binds_referee))
            chosen[key] = binding, tuple(expression for _, expression in binding)
        binding, read = chosen[key]
        if not binding:
            return
        view = views.view(read, state, command, actor)
        for guard, expression in binding:
            try:
                holds = expression.run(view) is True
            except Unreadable as error:
                raise _refusal(error)(f"{guard.rule}: this guard cannot be read now: "
                                      f"{error}", rule=guard.rule) from None
            if not holds:
                refusal = NotYourTurn if guard.refusal == "not_your_turn" else InvalidAction
                raise refusal(f"{guard.rule}: {said(guard, state, command, actor)}",
                              rule=guard.rule)
    return check
